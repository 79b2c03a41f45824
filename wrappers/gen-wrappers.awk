# gen-wrappers.awk: turn the wrapper tables into C.
#
#   awk -v outdir=DIR [-v declared=LIST] -f gen-wrappers.awk families.def p2p.tbl coll.tbl ...
#
# Reads families.def (family -> hook and the roles it needs), then each table
# (one MPI function per line: name, family, flags, arguments "C declaration
# @role" separated by commas). LIST names the functions the MPI's <mpi.h>
# declares (wrappers/mpi-declared.list, written by configure): a line
# flagged mpi=X.Y, and the large-count variant of a line flagged c, is
# generated only when LIST has its name. Writes DIR/fn_table.h, DIR/fn_table.c,
# DIR/wrap_c.c (C entries) and DIR/wrap_f.c (Fortran entries, which include
# wrap_c.c), byte-for-byte reproducibly. A bad line stops the run with
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
                   "stypes rtypes displs dst src root tag rtag comm newcomm op req reqs nreq index flag " \
                   "outcount indices status statuses msg win group tdisp lock file fname offset parts -", rl, " ")
    for (i = 1; i <= nroles; i++)
        known_role[rl[i]] = 1
    split("custom nofortran coll sync init c", fl, " ")
    for (i in fl)
        known_flag[fl[i]] = 1
    # The functions this MPI's <mpi.h> declares (configure's
    # wrappers/mpi-declared.list): lines flagged mpi=X.Y and the _c variants
    # of flag c are generated only when declared. Without the list, all are.
    have_declared = 0
    if (declared != "") {
        while ((r = getline l < declared) > 0)
            is_declared[l] = 1
        if (r < 0) {
            printf "gen-wrappers.awk: cannot read %s\n", declared > "/dev/stderr"
            failed = 1
            exit 1
        }
        close(declared)
        have_declared = 1
    }
    nhandle = split("Comm:MPI_Comm Type:MPI_Datatype Group:MPI_Group Request:MPI_Request Op:MPI_Op " \
                    "Info:MPI_Info Errhandler:MPI_Errhandler Win:MPI_Win File:MPI_File Message:MPI_Message", hl, " ")
    for (i = 1; i <= nhandle; i++)
        f_handle[substr(hl[i], index(hl[i], ":") + 1)] = substr(hl[i], 1, index(hl[i], ":") - 1)
    nclass = split("p2p coll rma io other", cl, " ")
    for (i = 1; i <= nclass; i++)
        known_class[cl[i]] = 1
    if (outdir == "")
        outdir = "."
    nfn = 0
    ntbl = 0
}

# families.def: family class [always=|before=|pre=|around=|post=|after=hook(roles)]
FILENAME ~ /families\.def$/ {
    if ($0 ~ /^[ \t]*(#|$)/)
        next
    if (NF < 2)
        fail("family line needs: family class [kind=hook(roles)] ...")
    if ($1 in fam_class)
        fail("family " $1 " defined twice")
    if (!($2 in known_class))
        fail("unknown class " $2 " (known: p2p coll rma io other)")
    fam_class[$1] = $2
    for (i = 3; i <= NF; i++) {
        if (!match($i, /^(always|before|pre|around|post|after)=[A-Za-z_][A-Za-z0-9_]*\([A-Za-z_?,]*\)$/))
            fail("hook '" $i "' is not always=, before=, pre=, around=, post= or after=name(roles)")
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
            if (r ~ /^[A-Z][A-Z0-9_]*$/)
                continue        # a constant, passed as written
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
    if (!(family in fam_class))
        fail(name ": unknown family " family)
    version = ""
    if (flags != "-") {
        nf = split(flags, fa, ",")
        for (i = 1; i <= nf; i++) {
            if (fa[i] ~ /^mpi=[0-9]+\.[0-9]+$/)
                version = substr(fa[i], 5)
            else if (!(fa[i] in known_flag))
                fail(name ": unknown flag " fa[i] " (known: custom nofortran coll sync init c mpi=X.Y)")
        }
    }
    rest = $0
    sub(/^[ \t]*[^ \t]+[ \t]+[^ \t]+[ \t]+[^ \t]+[ \t]+/, "", rest)
    rest = trim(rest)
    if (version == "" || !have_declared || (name in is_declared))
        add_fn(name, family, flags, rest, name)
    else
        seen[name] = shortname(FILENAME) ":" FNR
    # Flag c: the MPI-4.0 large-count variant name_c, derived (large_args).
    if (("," flags ",") ~ /,c,/ && (!have_declared || ((name "_c") in is_declared)))
        add_fn(name "_c", family, flags ",nofortran", large_args(name, rest), name)
}

# large_args(name, rest): the arguments of name's large-count variant
# (MPI-4.0): an int, int * or int[] whose role is a count (count scount
# rcount scounts rcounts) or whose name ends in "count" becomes MPI_Count;
# an int[] of role displs becomes MPI_Aint. The compiler checks the result
# against <mpi.h>'s prototype of name_c.
function large_args(name, rest,    na, a, i, at, decl, role, type, out, changed) {
    if (rest == "void")
        fail(name ": flag c on a function without arguments")
    na = split(rest, a, ",")
    out = ""
    changed = 0
    for (i = 1; i <= na; i++) {
        at = index(a[i], "@")
        decl = trim(substr(a[i], 1, at - 1))
        role = trim(substr(a[i], at + 1))
        fparse(decl)
        type = ""
        if (P_type == "int" && (role ~ /^[sr]?counts?$/ || P_name ~ /count$/))
            type = "MPI_Count"
        else if (P_type == "int" && P_dims != "" && role == "displs")
            type = "MPI_Aint"
        if (type != "") {
            decl = (P_const ? "const " : "") type " " substr("**", 1, P_ptr) P_name P_dims
            changed++
        }
        out = out (i > 1 ? ", " : "") decl " @" role
    }
    if (!changed)
        fail(name ": flag c, but no int count or displacement argument to widen")
    return out
}

# add_fn(name, family, flags, rest, base): one wrapped function, its
# arguments rest ("C declaration @role, ..." or "void"); base: the function
# whose rules it follows (itself, or the base of a large-count variant).
function add_fn(name, family, flags, rest, base,    na, a, i, arg, at, decl, role, pname, params, args) {
    if (name in seen)
        fail(name " is already listed at " seen[name])
    seen[name] = shortname(FILENAME) ":" FNR
    nfn++
    fn_name[nfn] = name
    fn_base[nfn] = base
    fn_family[nfn] = family
    fn_custom[nfn] = (("," flags ",") ~ /,custom,/)
    fn_coll[nfn] = (fam_class[family] == "coll" || ("," flags ",") ~ /,(coll|sync),/)
    params = ""      # C parameter list
    args = ""        # forwarded argument list
    split("", role_arg)
    split("", role_decl)
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
                role_decl[role] = decl
            }
            params = params ", " decl
            args = args ", " pname
        }
    }
    fn_params[nfn] = substr(params, 3)
    fn_args[nfn] = substr(args, 3)
    fn_always[nfn] = hook_call(name, family, "always")
    fn_before[nfn] = hook_call(name, family, "before")
    fn_pre[nfn] = hook_call(name, family, "pre")
    fn_around[nfn] = hook_call(name, family, "around")
    fn_after[nfn] = hook_call(name, family, "after")
    fn_sync[nfn] = (("," flags ",") ~ /,sync,/) ? sync_call(name) : ""
    # A nonblocking collective on a communicator: its icoll_started event
    # (events.h; the model agrees its clocks alongside); not a persistent
    # one's init (flag init).
    fn_icoll[nfn] = (fn_coll[nfn] && fn_sync[nfn] == "" && ("," flags ",") !~ /,init,/ && ("comm" in role_arg) && ("req" in role_arg)) ? \
        "prof_icoll(&c, c.fn, " role_arg["comm"] ", " role_arg["req"] ", " (("root" in role_arg) ? role_arg["root"] : "PROF_COLL_NOROOT") ")" : ""
    fn_post[nfn] = hook_call(name, family, "post")
    # A persistent collective's init (flag init): its request, communicator
    # and root, for the post hook's volume to go to each MPI_Start of it and
    # each start to be a nonblocking collective's (coll.c, p2p.c).
    fn_init[nfn] = (("," flags ",") ~ /,init,/ && fn_post[nfn] != "" && ("req" in role_arg) && ("comm" in role_arg)) ? \
        sprintf("c.pinit.req = %s, c.pinit.comm = %s, c.pinit.root = %s", role_arg["req"], role_arg["comm"], \
                ("root" in role_arg) ? role_arg["root"] : "PROF_COLL_NOROOT") : ""
    # A hook reading a status gets one even when the caller ignores it.
    fn_subst[nfn] = ""
    if (("status" in role_arg) && uses_role(family, "status"))
        fn_subst[nfn] = fn_subst[nfn] sprintf("    if (%s == MPI_STATUS_IGNORE)\n        %s = &c.status;\n", \
                                              role_arg["status"], role_arg["status"])
    if (("statuses" in role_arg) && uses_role(family, "statuses"))
        fn_subst[nfn] = fn_subst[nfn] sprintf("    %s = prof_statuses(&c, %s, %s);\n", \
                                              role_arg["statuses"], role_arg["statuses"], role_arg["nreq"])
    fn_fortran[nfn] = ""
    if (!fn_custom[nfn] && ("," flags ",") !~ /,nofortran,/)
        fn_fortran[nfn] = fortran_entry(name, rest)
}

# --- Fortran entry points (wrap_f.c) -----------------------------------------
# Each argument's C declaration decides its Fortran form and conversion:
#   void *x                    choice buffer: Fortran MPI_BOTTOM/MPI_IN_PLACE mapped
#   int x                      MPI_Fint *x, passed as *x
#   int *x, int x[], x[][3]    MPI_Fint *x, passed as is (MPI_Fint is int); role
#                              index/indices: 0-based C index made 1-based after
#   MPI_Aint/Offset/Count x    the same C type by reference (Fortran KINDs match)
#   MPI_Comm x (any handle)    MPI_Fint *x, PMPI_Comm_f2c(*x)
#   MPI_Comm *x                in and out: f2c before, c2f after only if the call
#                              changed it (else the Fortran value is right already, and
#                              a handle left unwritten, as by MPI_Improbe, is never read)
#   MPI_Request x[]            f2c into a scratch array as long as the @nreq (else
#                              the int count) argument, c2f back unless const
#   MPI_Status *x              MPI_Status_f2c/c2f by direction (const: in; @status:
#                              out; else both); MPI_F_STATUS_IGNORE -> MPI_STATUS_IGNORE
#   MPI_Status x[]             out, as many as @outcount, or @nreq (when int *flag: if set)
# Anything else (strings, callbacks, varargs) makes the line fail unless the
# table says nofortran: those calls then go to the MPI library's own binding.

# fparse(decl): split a C declaration into P_const, P_type, P_ptr (stars),
# P_dims ("", "[]", "[][3]") and P_name.
function fparse(decl,    d, t) {
    d = decl
    P_const = sub(/^const[ \t]+/, "", d)
    match(d, /[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])*$/)
    P_name = substr(d, RSTART, RLENGTH)
    P_dims = P_name
    sub(/^[^[]*/, "", P_dims)
    sub(/\[.*$/, "", P_name)
    t = substr(d, 1, RSTART - 1)
    P_ptr = gsub(/\*/, "", t)
    P_type = trim(t)
}

function fortran_fail(name, decl, why) {
    fail(name ": " why (decl != "" ? " ('" decl "')" : "") "; give the function the nofortran flag")
}

# The Fortran entry of one function: its definition, or "" after fail().
function fortran_entry(name, rest,    na, a, i, at, n, t, x, len, outc, flg, fp, alloc, pre, args, post, rel, \
                       lower, upper, s, extra, cnt, cast, one, ind) {
    na = (rest == "void") ? 0 : split(rest, a, ",")
    len = ""; outc = ""; flg = ""
    for (i = 1; i <= na; i++) {
        if (trim(a[i]) == "...")
            fortran_fail(name, "", "a variable argument list has no Fortran conversion")
        at = index(a[i], "@")
        F_decl[i] = trim(substr(a[i], 1, at - 1))
        F_role[i] = trim(substr(a[i], at + 1))
        fparse(F_decl[i])
        F_const[i] = P_const; F_type[i] = P_type; F_ptr[i] = P_ptr; F_dims[i] = P_dims; F_name[i] = P_name
        if (F_role[i] == "nreq")
            len = P_name
        if (P_type == "int" && P_ptr == 0 && P_dims == "" && P_name == "count" && len == "")
            len = P_name
        if (F_role[i] == "outcount")
            outc = P_name
        if (P_type == "int" && P_ptr == 1 && P_name == "flag")
            flg = P_name
    }
    fp = ""; alloc = ""; pre = ""; args = ""; post = ""; rel = ""
    for (i = 1; i <= na; i++) {
        n = F_name[i]; t = F_type[i]
        one = (F_ptr[i] + (F_dims[i] != "") == 1)
        if (t == "void" && F_ptr[i] == 1 && F_dims[i] == "") {
            fp = fp ", void *" n
            args = args ", prof_f_buf(" n ")"
        } else if (t == "int" && F_ptr[i] == 0 && F_dims[i] == "") {
            fp = fp ", MPI_Fint *" n
            args = args ", *" n
        } else if (t == "int" && one) {
            fp = fp ", MPI_Fint *" n
            extra = F_dims[i]
            sub(/^\[[^]]*\]/, "", extra)
            cast = (extra == "") ? "" : "(" (F_const[i] ? "const " : "") "int (*)" extra ")"
            args = args ", " cast n
            if (F_role[i] == "index")
                post = post sprintf("    prof_f_index(rc, %s);\n", n)
            if (F_role[i] == "indices") {
                if (outc == "")
                    fortran_fail(name, F_decl[i], "@indices without an @outcount argument")
                post = post sprintf("    prof_f_indices(rc, *%s, %s);\n", outc, n)
            }
        } else if (t ~ /^MPI_(Aint|Offset|Count)$/ && F_ptr[i] + (F_dims[i] != "") <= 1) {
            fp = fp ", " t " *" n
            args = args ", " (F_ptr[i] + (F_dims[i] != "") == 0 ? "*" : "") n
        } else if ((t in f_handle) && F_ptr[i] == 0 && F_dims[i] == "") {
            fp = fp ", MPI_Fint *" n
            args = args sprintf(", PMPI_%s_f2c(*%s)", f_handle[t], n)
        } else if ((t in f_handle) && F_ptr[i] == 1 && F_dims[i] == "") {
            fp = fp ", MPI_Fint *" n
            x = f_handle[t]
            if (F_const[i]) {
                pre = pre sprintf("    %s %s_c = PMPI_%s_f2c(*%s);\n", t, n, x, n)
            } else {
                pre = pre sprintf("    const %s %s_in = PMPI_%s_f2c(*%s);\n    %s %s_c = %s_in;\n", t, n, x, n, t, n, n)
                post = post sprintf("    if (%s_c != %s_in)\n        *%s = PMPI_%s_c2f(%s_c);\n", n, n, n, x, n)
            }
            args = args ", &" n "_c"
        } else if ((t in f_handle) && F_ptr[i] == 0 && F_dims[i] == "[]") {
            if (len == "")
                fortran_fail(name, F_decl[i], "a handle array needs its length in an @nreq or int count argument")
            fp = fp ", MPI_Fint *" n
            x = f_handle[t]
            alloc = alloc sprintf("    %s %s_s[PROF_F_SMALL];\n    %s *%s_c = prof_f_scratch(%s_s, *%s, sizeof %s_s[0], &nomem);\n", \
                                  t, n, t, n, n, len, n)
            pre = pre sprintf("    for (int i = 0; i < *%s; i++)\n        %s_c[i] = PMPI_%s_f2c(%s[i]);\n", len, n, x, n)
            if (!F_const[i])
                post = post sprintf("    for (int i = 0; i < *%s; i++)\n        %s[i] = PMPI_%s_c2f(%s_c[i]);\n", len, n, x, n)
            rel = rel sprintf("    prof_f_release(%s_c, %s_s);\n", n, n)
            args = args ", " n "_c"
        } else if (t == "MPI_Status" && F_ptr[i] == 1 && F_dims[i] == "") {
            fp = fp ", MPI_Fint *" n
            if (F_const[i]) {
                pre = pre sprintf("    MPI_Status %s_s;\n", n)
                args = args sprintf(", prof_f_status_in(%s, &%s_s)", n, n)
            } else {
                pre = pre sprintf("    MPI_Status %s_s, *%s_c = prof_f_status_%s(%s, &%s_s);\n", \
                                  n, n, (F_role[i] == "status" ? "out" : "in"), n, n)
                args = args ", " n "_c"
                s = sprintf("prof_f_status_c2f(rc, %s_c, %s);\n", n, n)
                post = post (flg != "" && F_role[i] == "status" ? sprintf("    if (*%s)\n        %s", flg, s) : "    " s)
            }
        } else if (t == "MPI_Status" && F_ptr[i] == 0 && F_dims[i] == "[]" && !F_const[i]) {
            if (len == "")
                fortran_fail(name, F_decl[i], "a status array needs its length in an @nreq argument")
            fp = fp ", MPI_Fint *" n
            alloc = alloc sprintf("    MPI_Status %s_s[PROF_F_SMALL];\n    MPI_Status *%s_c = prof_f_statuses_out(%s, %s_s, *%s, &nomem);\n", \
                                  n, n, n, n, len)
            cnt = (outc != "") ? "*" outc : (flg != "") ? sprintf("*%s ? *%s : 0", flg, len) : "*" len
            post = post sprintf("    prof_f_statuses_c2f(rc, %s_c, %s, %s);\n", n, n, cnt)
            rel = rel sprintf("    prof_f_release_statuses(%s_c, %s_s);\n", n, n)
            args = args ", " n "_c"
        } else {
            fortran_fail(name, F_decl[i], "no Fortran conversion for this argument")
        }
    }
    lower = tolower(name)
    upper = toupper(name)
    fp = substr(fp ", MPI_Fint *ierr", 3)
    s = ""
    if (alloc != "") {
        # Scratch arrays beyond PROF_F_SMALL come from malloc; without memory the
        # call goes to the MPI library's own Fortran binding, unprofiled.
        s = s sprintf("\nextern void p%s_(%s) __attribute__((weak));\n", lower, fp)
    }
    s = s sprintf("\nPROF_EXPORT void %s_(%s)\n{\n", lower, fp)
    if (alloc != "") {
        ind = rel
        gsub(/    prof_f_release/, "        prof_f_release", ind)
        s = s "    int nomem = 0;\n" alloc
        s = s "    if (PROF_UNLIKELY(nomem)) {\n        MPI_Fint e = MPI_ERR_NO_MEM;\n" ind
        s = s sprintf("        if (p%s_)\n            p%s_(%s);\n", lower, lower, fortran_names(fp))
        s = s "        if (ierr)\n            *ierr = e;\n        return;\n    }\n"
    }
    s = s pre
    s = s sprintf("    int rc = w_%s(PROF_SITE()%s);\n", name, args)
    s = s post rel
    s = s "    if (ierr)\n        *ierr = rc;\n}\n"
    # A void *baseptr is the address the call returns (TYPE(C_PTR) in
    # mpi_f08, by reference as in use mpi), not a choice buffer.
    x = fp
    gsub(/void \*baseptr/, "", x)
    if (index(x, "void *") == 0)
        return s sprintf("PROF_F_NAMES(%s, %s)\n", lower, upper)
    s = s sprintf("PROF_F_NAMES_BUF(%s, %s)\n", lower, upper)
    return s f08ts_entry(lower, fp)
}

# f08ts_entry(lower, fp): MPICH's use mpi_f08 procedure of a function with a
# choice buffer, lower_f08ts_, takes the buffer as an array descriptor and
# reaches the C entry through a helper of the library's: this one calls
# the library's, naming its caller as the site the C entry is to use.
# Every argument is a pointer, in order (fortran.h).
function f08ts_entry(lower, fp,    n, p, i, types, names, w) {
    n = split(fp, p, ",")
    types = ""; names = ""
    for (i = 1; i <= n; i++) {
        w = trim(p[i])
        sub(/[A-Za-z0-9_]+$/, "", w)
        types = types (i > 1 ? ", " : "") trim(w)
        names = names (i > 1 ? ", " : "") "a" i
    }
    return sprintf("#ifdef MPICH\nPROF_EXPORT void %s_f08ts_(%s)\n{\n" \
                   "    static void *next;\n    void (*f)(%s) = prof_f08ts_next(&next, \"%s_f08ts_\");\n" \
                   "    void *outer = prof_f08ts_site(__builtin_return_address(0));\n" \
                   "    if (f)\n        f(%s);\n    else if (a%d)\n        *a%d = MPI_ERR_INTERN;\n" \
                   "    prof_f08ts_site(outer);\n}\n#endif\n", \
                   lower, f08ts_params(types, names), types, lower, names, n, n)
}

# "void *, MPI_Fint *" and "a1, a2" -> "void *a1, MPI_Fint *a2".
function f08ts_params(types, names,    n, t, a, i, s) {
    n = split(types, t, ", ")
    split(names, a, ", ")
    s = ""
    for (i = 1; i <= n; i++)
        s = s (i > 1 ? ", " : "") t[i] a[i]
    return s
}

# fortran_names("void *buf, MPI_Fint *count, MPI_Fint *ierr"): the fallback
# call's arguments "buf, count, &e".
function fortran_names(fp,    n, p, i, s, w) {
    n = split(fp, p, ",")
    s = ""
    for (i = 1; i < n; i++) {
        w = p[i]
        sub(/^.*[* ]/, "", w)
        s = s w ", "
    }
    return s "&e"
}

function uses_role(family, role) {
    return ("," fam_roles["pre", family] "," fam_roles["around", family] "," fam_roles["post", family] "," \
            fam_roles["after", family] ",") ~ ("," role "[?]?,")
}

# The coll_enter event of a function flagged sync (events.h: the
# collective-wait barrier, the model's agreement of clocks, wait states'
# tokens): on its communicator (with its root, if any), else its window,
# else its file.
function sync_call(name) {
    if (("comm" in role_arg) && ("root" in role_arg))
        return "prof_coll_rooted(&c, " role_arg["comm"] ", " role_arg["root"] ")"
    if ("comm" in role_arg)
        return "prof_coll_comm(&c, " role_arg["comm"] ")"
    if ("win" in role_arg)
        return "prof_coll_win(&c, " role_arg["win"] ")"
    if ("file" in role_arg)
        return "prof_coll_file(&c, " (role_decl["file"] ~ /\*/ ? "*" : "") role_arg["file"] ")"
    fail(name ": flag sync needs an argument with role @comm, @win or @file")
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
        if (r ~ /^[A-Z][A-Z0-9_]*$/)
            args = args ", " r
        else if (r ~ /^[sr]counts$/ && (r in role_arg))
            # int or MPI_Count elements (flag c): struct prof_counts (prof.h)
            args = args ", prof_counts_" (role_decl[r] ~ /MPI_Count/ ? "big" : "int") "(" role_arg[r] ")"
        else if (r in role_arg)
            args = args ", " role_arg[r]
        else if (opt)
            args = args ", NULL"
        else
            fail(name ": family " family " needs an argument with role @" r)
    }
    if (when == "always")
        return fam_hook[when, family] "(" substr(args, 3) ")"
    if (when == "around")       # an entry of struct prof_around (around.h)
        return "prof_around." fam_hook[when, family] "(&c" args ")"
    return fam_hook[when, family] "(&c" args ")"
}

# per_wrapped(out, fmt): fmt, with the function's name for each %s, for
# every function with a generated wrapper (not custom).
function per_wrapped(out, fmt,    i) {
    for (i = 1; i <= nfn; i++)
        if (!fn_custom[i])
            printf fmt, fn_name[i], fn_name[i], fn_name[i] > out
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
    print "/* Collectives (collwait.txt): 2 = blocking, a barrier goes before it under" > h
    print " * collective wait, and the model agrees clocks (flag sync); 1 = nonblocking or" > h
    print " * split (never evaluated); 3 = nonblocking on a communicator (the model agrees" > h
    print " * its clocks alongside, icoll_started); 4 = a persistent collective's" > h
    print " * init (flag init: each MPI_Start of its request counts its volume). */" > h
    print "extern const unsigned char prof_fn_coll[PROF_FN_COUNT];" > h
    print "/* The function whose rules each follows (the model's costs): itself, or" > h
    print " * for a large-count variant (MPI_Bcast_c) its base function (MPI_Bcast). */" > h
    print "extern const enum prof_fn prof_fn_base[PROF_FN_COUNT];" > h
    print "/* The blocking collective a persistent one's init stands for" > h
    print " * (MPI_Allreduce_init: MPI_Allreduce; MPI_Allreduce_init_c: MPI_Allreduce_c);" > h
    print " * the function itself otherwise, or when the tables lack that form. */" > h
    print "extern const enum prof_fn prof_fn_blocking[PROF_FN_COUNT];" > h
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
    print "};\n" > c
    print "const unsigned char prof_fn_coll[PROF_FN_COUNT] = {" > c
    for (i = 1; i <= nfn; i++)
        printf "    %d,\n", fn_sync[i] != "" ? 2 : fn_icoll[i] != "" ? 3 : fn_init[i] != "" ? 4 : fn_coll[i] > c
    print "};\n" > c
    print "const enum prof_fn prof_fn_base[PROF_FN_COUNT] = {" > c
    for (i = 1; i <= nfn; i++)
        printf "    FN_%s,\n", fn_base[i] > c
    print "};" > c
    print "\nconst enum prof_fn prof_fn_blocking[PROF_FN_COUNT] = {" > c
    for (i = 1; i <= nfn; i++) {
        blocking = fn_name[i]
        if (fn_init[i] != "") {
            sub(/_init/, "", blocking)
            if (!(blocking in seen))
                blocking = fn_name[i]
        }
        printf "    FN_%s,\n", blocking > c
    }
    print "};" > c
    close(c)

    # The function each wrapper calls: PMPI_x, or with MPIPROF_CHAIN the next
    # definition of MPI_x (a PMPI tool preloaded after this one).
    x = outdir "/next.h"
    header(x, "The MPI function each wrapper calls (libprof/core/chain.c).")
    print "#ifndef PROF_NEXT_H\n#define PROF_NEXT_H\n\n#include <mpi.h>\n" > x
    print "#pragma GCC diagnostic push\n#pragma GCC diagnostic ignored \"-Wdeprecated-declarations\"" > x
    print "struct prof_next {" > x
    per_wrapped(x, "    __typeof__(P%s) *%s;\n")
    print "};\n#pragma GCC diagnostic pop\n" > x
    print "/* PMPI_x each, until prof_next_resolve replaces those that find(\"MPI_x\")" > x
    print " * gives (not NULL). */" > x
    print "extern struct prof_next prof_next;" > x
    print "void prof_next_resolve(void *(*find)(const char *name));\n\n#endif" > x
    close(x)

    w = outdir "/wrap_c.c"
    header(w, "C entry points: time the PMPI call, then hand the arguments to the family's hook (libprof/core/prof.h).")
    print "#include \"prof.h\"" > w
    print "#include \"next.h\"" > w
    print "/* Deprecated MPI functions (MPI_Attr_get ...) are wrapped like any other. */" > w
    print "#pragma GCC diagnostic ignored \"-Wdeprecated-declarations\"" > w
    print "\nstruct prof_next prof_next = {" > w
    per_wrapped(w, "    .%s = P%s,\n")
    print "};\n\nvoid prof_next_resolve(void *(*find)(const char *name))\n{\n    void *p;" > w
    per_wrapped(w, "    if ((p = find(\"%s\")))\n        prof_next.%s = (__typeof__(prof_next.%s))p;\n")
    print "}" > w
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
        if (fn_before[i] != "")
            printf "    %s;\n", fn_before[i] > w
        # The MPI library's call (or the next tool's: prof_next), unless the
        # around= hook made it (c.rc set).
        pcall = sprintf("prof_next.%s(%s)", n, fn_args[i])
        if (fn_around[i] != "")
            pcall = sprintf("PROF_UNLIKELY(prof_around_on) && %s ? c.rc : %s", fn_around[i], pcall)
        slow = (fn_after[i] != "" || fn_around[i] != "")
        printf "    if (!prof_enter(&c, FN_%s, site))%s\n", n, (slow ? " {" : "") > w
        if (slow) {
            print "        c.th = NULL;" > w
            printf "        c.rc = %s;\n", pcall > w
            if (fn_after[i] != "")
                printf "        %s;\n", fn_after[i] > w
            print "        return c.rc;\n    }" > w
        } else {
            printf "        return prof_next.%s(%s);\n", n, fn_args[i] > w
        }
        printf "%s", fn_subst[i] > w
        if (fn_sync[i] != "")
            printf "    %s;\n", fn_sync[i] > w
        if (fn_pre[i] != "")
            printf "    %s;\n", fn_pre[i] > w
        printf "    c.rc = %s;\n", pcall > w
        if (fn_after[i] != "")
            printf "    %s;\n", fn_after[i] > w
        if (fn_icoll[i] != "")
            printf "    %s;\n", fn_icoll[i] > w
        if (fn_init[i] != "")
            printf "    %s;\n", fn_init[i] > w
        printf "    %s;\n", (fn_post[i] != "" ? fn_post[i] : "prof_exit(&c)") > w
        print "    return c.rc;\n}" > w
        printf "\nPROF_EXPORT int %s(%s)\n{\n", n, (p == "" ? "void" : p) > w
        printf "    return w_%s(PROF_SITE()%s);\n}\n", n, (fn_args[i] == "" ? "" : ", " fn_args[i]) > w
    }
    close(w)

    # One translation unit for both languages: the Fortran entries call the
    # static inline w_ functions of wrap_c.c, which this file includes.
    f = outdir "/wrap_f.c"
    header(f, "Fortran entry points (mpif.h, use mpi; use mpi_f08 with Open MPI): convert the arguments, then call the C entry's w_ function.")
    print "#include \"wrap_c.c\"" > f
    print "#include \"fortran.h\"" > f
    for (i = 1; i <= nfn; i++)
        if (fn_fortran[i] != "")
            printf "%s", fn_fortran[i] > f
    close(f)
}
