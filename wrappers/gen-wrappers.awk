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
                   "stypes rtypes displs dst src root tag comm op req reqs nreq index flag " \
                   "outcount indices status statuses msg win tdisp file offset -", rl, " ")
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

# families.def: family class [pre=hook(roles)] [post=hook(roles)]
FILENAME ~ /families\.def$/ {
    if ($0 ~ /^[ \t]*(#|$)/)
        next
    if (NF < 2)
        fail("family line needs: family class [pre=hook(roles)] [post=hook(roles)]")
    if ($1 in fam_class)
        fail("family " $1 " defined twice")
    if (!($2 in known_class))
        fail("unknown class " $2 " (known: p2p coll rma io other)")
    fam_class[$1] = $2
    for (i = 3; i <= NF; i++) {
        if (!match($i, /^(always|pre|post)=[A-Za-z_][A-Za-z0-9_]*\([a-z?,]*\)$/))
            fail("hook '" $i "' is not always=, pre= or post=name(roles)")
        when = substr($i, 1, index($i, "=") - 1)
        if ((when, $1) in fam_hook)
            fail("family " $1 " has two " when " hooks")
        spec = substr($i, index($i, "=") + 1)
        fam_hook[when, $1] = substr(spec, 1, index(spec, "(") - 1)
        roles = substr(spec, index(spec, "(") + 1)
        sub(/\)$/, "", roles)
        nr = split(roles, rr, ",")
        for (j = 1; j <= nr; j++) {
            r = rr[j]
            sub(/\?$/, "", r)
            if (!(r in known_role) || r == "-")
                fail("family " $1 " needs unknown role " rr[j])
        }
        fam_roles[when, $1] = roles
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
    fn_always[nfn] = hook_call(name, family, "always")
    fn_pre[nfn] = hook_call(name, family, "pre")
    fn_post[nfn] = hook_call(name, family, "post")
    # A hook reading a status gets one even when the caller ignores it.
    fn_subst[nfn] = ""
    if (("status" in role_arg) && uses_role(family, "status"))
        fn_subst[nfn] = fn_subst[nfn] sprintf("    if (%s == MPI_STATUS_IGNORE)\n        %s = &c.status;\n", \
                                              role_arg["status"], role_arg["status"])
    if (("statuses" in role_arg) && uses_role(family, "statuses"))
        fn_subst[nfn] = fn_subst[nfn] sprintf("    %s = prof_statuses(&c, %s, %s);\n", \
                                              role_arg["statuses"], role_arg["statuses"], role_arg["nreq"])
}

function uses_role(family, role) {
    return ("," fam_roles["pre", family] "," fam_roles["post", family] ",") ~ ("," role "[?]?,")
}

# The hook call for one function: "hook(&c, arg, ...)", or "" without a hook.
function hook_call(name, family, when,    nr, need, i, r, opt, args) {
    if (!((when, family) in fam_hook))
        return ""
    nr = split(fam_roles[when, family], need, ",")
    args = ""
    for (i = 1; i <= nr; i++) {
        r = need[i]
        opt = sub(/\?$/, "", r)
        if (r in role_arg)
            args = args ", " role_arg[r]
        else if (opt)
            args = args ", NULL"
        else
            fail(name ": family " family " needs an argument with role @" r)
    }
    if (when == "always")
        return fam_hook[when, family] "(" substr(args, 3) ")"
    return fam_hook[when, family] "(&c" args ")"
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
        p = fn_params[i]
        wp = (p == "") ? "void *site" : "void *site, " p
        sub(/, \.\.\.$/, "", wp)
        printf "\nPROF_INLINE int w_%s(%s)\n{\n", n, wp > w
        print "    struct prof_call c;" > w
        if (fn_always[i] != "")
            printf "    %s;\n", fn_always[i] > w
        printf "    if (!prof_enter(&c, FN_%s, site))\n", n > w
        printf "        return P%s(%s);\n", n, fn_args[i] > w
        printf "%s", fn_subst[i] > w
        if (fn_pre[i] != "")
            printf "    %s;\n", fn_pre[i] > w
        printf "    c.rc = P%s(%s);\n", n, fn_args[i] > w
        printf "    %s;\n", (fn_post[i] != "" ? fn_post[i] : "prof_exit(&c)") > w
        print "    return c.rc;\n}" > w
        printf "\nPROF_EXPORT int %s(%s)\n{\n", n, (p == "" ? "void" : p) > w
        printf "    return w_%s(PROF_SITE()%s);\n}\n", n, (fn_args[i] == "" ? "" : ", " fn_args[i]) > w
    }
    close(w)
}
