# gen-wrappers.awk: turn the wrapper tables into C.
#
#   awk -v outdir=DIR -f gen-wrappers.awk families.def p2p.tbl coll.tbl ...
#
# Reads families.def (family -> hook and the roles it needs), then each table
# (one MPI function per line: name, family, flags, arguments "C declaration
# @role" separated by commas). Writes DIR/fn_table.h, DIR/fn_table.c and
# DIR/wrap_c.c, byte-for-byte reproducibly. A bad line stops the run with
# "file:line: message" and exit status 1, writing nothing usable.

function fail(msg) {
    printf "%s:%d: %s\n", shortname(FILENAME), FNR, msg > "/dev/stderr"
    failed = 1
    exit 1
}

function shortname(path,    n, parts) {
    n = split(path, parts, "/")
    return (n >= 2 ? parts[n - 1] "/" : "") parts[n]
}

function trim(s) {
    sub(/^[ \t]+/, "", s)
    sub(/[ \t]+$/, "", s)
    return s
}

BEGIN {
    nroles = split("buf count type sbuf scount stype rbuf rcount rtype scounts rcounts " \
                   "stypes rtypes displs dst src root tag comm op req reqs nreq status " \
                   "statuses msg win tdisp file offset -", rl, " ")
    for (i = 1; i <= nroles; i++)
        known_role[rl[i]] = 1
    split("custom nofortran", fl, " ")
    for (i in fl)
        known_flag[fl[i]] = 1
    nclass = split("p2p coll rma io other", cl, " ")
    for (i = 1; i <= nclass; i++)
        known_class[cl[i]] = 1
    if (outdir == "")
        outdir = "."
    nfn = 0
    ntbl = 0
}

# families.def: family class when hook roles...
FILENAME ~ /families\.def$/ {
    if ($0 ~ /^[ \t]*(#|$)/)
        next
    if (NF < 4)
        fail("family line needs: family class when hook [roles]")
    if ($1 in fam_class)
        fail("family " $1 " defined twice")
    if (!($2 in known_class))
        fail("unknown class " $2 " (known: p2p coll rma io other)")
    if ($3 != "pre" && $3 != "post")
        fail("when must be pre or post, not " $3)
    fam_class[$1] = $2
    fam_when[$1] = $3
    fam_hook[$1] = $4
    fam_roles[$1] = ""
    for (i = 5; i <= NF; i++) {
        if (!($i in known_role) || $i == "-")
            fail("family " $1 " needs unknown role " $i)
        fam_roles[$1] = fam_roles[$1] (i > 5 ? " " : "") $i
    }
    next
}

FNR == 1 {
    tbl[++ntbl] = shortname(FILENAME)
}

/^[ \t]*(#|$)/ { next }

{
    if (NF < 4)
        fail("line needs: name family flags arguments (or void)")
    name = $1
    family = $2
    flags = $3
    if (name !~ /^MPI_[A-Za-z0-9_]+$/)
        fail("bad function name " name)
    if (name in seen)
        fail(name " is already listed at " seen[name])
    seen[name] = shortname(FILENAME) ":" FNR
    if (!(family in fam_class))
        fail(name ": unknown family " family)
    if (flags != "-") {
        nf = split(flags, fa, ",")
        for (i = 1; i <= nf; i++)
            if (!(fa[i] in known_flag))
                fail(name ": unknown flag " fa[i] " (known: custom nofortran)")
    }
    rest = $0
    sub(/^[ \t]*[^ \t]+[ \t]+[^ \t]+[ \t]+[^ \t]+[ \t]+/, "", rest)
    rest = trim(rest)

    nfn++
    fn_name[nfn] = name
    fn_family[nfn] = family
    fn_custom[nfn] = (("," flags ",") ~ /,custom,/)
    params = ""      # C parameter list
    args = ""        # forwarded argument list
    split("", role_arg)
    if (rest != "void") {
        na = split(rest, a, ",")
        for (i = 1; i <= na; i++) {
            arg = trim(a[i])
            if (arg == "...") {
                params = params ", ..."
                continue
            }
            at = index(arg, "@")
            if (at == 0)
                fail(name ": argument '" arg "' has no @role")
            decl = trim(substr(arg, 1, at - 1))
            role = trim(substr(arg, at + 1))
            if (!(role in known_role))
                fail(name ": argument '" decl "' has unknown role @" role)
            if (!match(decl, /[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])*$/))
                fail(name ": cannot find the parameter name in '" decl "'")
            pname = substr(decl, RSTART, RLENGTH)
            sub(/\[.*$/, "", pname)
            if (role != "-" && role != "displs") {
                if (role in role_arg)
                    fail(name ": role @" role " given twice")
                role_arg[role] = pname
            }
            params = params ", " decl
            args = args ", " pname
        }
    }
    fn_params[nfn] = substr(params, 3)
    fn_args[nfn] = substr(args, 3)
    nr = split(fam_roles[family], need, " ")
    hookargs = ""
    for (i = 1; i <= nr; i++) {
        if (!(need[i] in role_arg))
            fail(name ": family " family " needs an argument with role @" need[i])
        hookargs = hookargs ", " role_arg[need[i]]
    }
    fn_hookargs[nfn] = hookargs
}

function header(out, what,    i, s, t) {
    s = ""
    for (i = 1; i <= ntbl; i++) {
        # tbl[] already holds "dir/file" when the table was named with a
        # directory; a bare name (run from inside wrappers/) gets the prefix.
        t = tbl[i]
        if (t !~ /\//)
            t = "wrappers/" t
        s = s (i > 1 ? " " : "") t
    }
    printf "/* Generated from %s by wrappers/gen-wrappers.awk. Do not edit. */\n", s > out
    if (what != "")
        printf "/* %s */\n", what > out
}

END {
    if (failed)
        exit 1
    if (nfn == 0) {
        print "gen-wrappers.awk: no functions in the tables" > "/dev/stderr"
        exit 1
    }

    h = outdir "/fn_table.h"
    header(h, "Function ids and classes of every wrapped MPI function.")
    print "#ifndef PROF_FN_TABLE_H\n#define PROF_FN_TABLE_H\n" > h
    print "enum prof_fn {" > h
    for (i = 1; i <= nfn; i++)
        printf "    FN_%s,\n", fn_name[i] > h
    print "    PROF_FN_COUNT\n};\n" > h
    print "enum prof_class { PROF_CLASS_P2P, PROF_CLASS_COLL, PROF_CLASS_RMA, PROF_CLASS_IO, PROF_CLASS_OTHER };\n" > h
    print "extern const char *const prof_fn_name[PROF_FN_COUNT];" > h
    print "extern const unsigned char prof_fn_class[PROF_FN_COUNT];" > h
    print "\n#endif" > h
    close(h)

    c = outdir "/fn_table.c"
    header(c, "")
    print "#include \"fn_table.h\"\n" > c
    print "const char *const prof_fn_name[PROF_FN_COUNT] = {" > c
    for (i = 1; i <= nfn; i++)
        printf "    \"%s\",\n", fn_name[i] > c
    print "};\n" > c
    print "const unsigned char prof_fn_class[PROF_FN_COUNT] = {" > c
    for (i = 1; i <= nfn; i++)
        printf "    PROF_CLASS_%s,\n", toupper(fam_class[fn_family[i]]) > c
    print "};" > c
    close(c)

    w = outdir "/wrap_c.c"
    header(w, "C entry points: time the PMPI call, then hand the arguments to the family's hook (libprof/prof.h).")
    print "#include \"prof.h\"" > w
    print "/* Deprecated MPI functions (MPI_Attr_get ...) are wrapped like any other. */" > w
    print "#pragma GCC diagnostic ignored \"-Wdeprecated-declarations\"" > w
    for (i = 1; i <= nfn; i++) {
        if (fn_custom[i])
            continue
        n = fn_name[i]
        f = fn_family[i]
        p = fn_params[i]
        wp = (p == "") ? "void *site" : "void *site, " p
        sub(/, \.\.\.$/, "", wp)
        printf "\nstatic inline int w_%s(%s)\n{\n", n, wp > w
        print "    struct prof_call c;" > w
        printf "    if (!prof_enter(&c, FN_%s, site))\n", n > w
        printf "        return P%s(%s);\n", n, fn_args[i] > w
        if (fam_hook[f] != "-" && fam_when[f] == "pre")
            printf "    %s(&c%s);\n", fam_hook[f], fn_hookargs[i] > w
        printf "    c.rc = P%s(%s);\n", n, fn_args[i] > w
        if (fam_hook[f] != "-" && fam_when[f] == "post")
            printf "    %s(&c%s);\n", fam_hook[f], fn_hookargs[i] > w
        else
            print "    prof_exit(&c);" > w
        print "    return c.rc;\n}" > w
        printf "\nPROF_EXPORT int %s(%s)\n{\n", n, (p == "" ? "void" : p) > w
        printf "    return w_%s(PROF_SITE()%s);\n}\n", n, (fn_args[i] == "" ? "" : ", " fn_args[i]) > w
    }
    close(w)
}
