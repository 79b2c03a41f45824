#!/bin/sh
# t_link.sh: programs that are linked with mpiprof instead of preloading
# it (mpiprof(1), LINKING): regions.c linked (a) with -lmpiprof, the shared
# library, and (b) with libmpiprof.a (-Wl,-Bstatic) and the libraries
# `pkg-config --static --libs mpiprof` names, its wrappers then inside the
# executable (what a static executable gets; the MPI libraries here have no
# complete static set, so the MPI library stays shared). Both run without
# LD_PRELOAD and write the report: exact counts per region, and call sites
# named in regions.c. pkg-config names the library and its private needs.
. "$top_srcdir/tests/integration/lib.sh"

np=2
src="$top_srcdir/tests/integration/regions.c"
libs="$top_builddir/.libs"
[ -r "$libs/libmpiprof.a" ] || fail "no $libs/libmpiprof.a (configure builds the static library too)"

pc=$(PKG_CONFIG_PATH="$top_builddir" pkg-config --static --libs mpiprof 2> "$work/pc.err")
check "pkg-config --static --libs mpiprof: -lmpiprof and libunwind ($pc)" \
    sh -c 'case " $1 " in *" -lmpiprof "*"-lunwind "*) exit 0 ;; esac; exit 1' - "$pc"
private=$(printf '%s\n' "$pc" | tr ' ' '\n' | grep '^-l' | grep -v '^-lmpiprof$' | tr '\n' ' ')

"$MPICC" -g -O0 -o "$work/shared" "$src" -L"$libs" -Wl,-rpath,"$libs" -lmpiprof 2> "$work/cc.err" ||
    { fail "linking with -lmpiprof"; cat "$work/cc.err"; }
"$MPICC" -g -O0 -o "$work/static" "$src" -L"$libs" -Wl,-Bstatic -lmpiprof -Wl,-Bdynamic $private 2> "$work/cc.err" ||
    { fail "linking with -Wl,-Bstatic -lmpiprof -Wl,-Bdynamic $private (mpiprof(1))"; cat "$work/cc.err"; }
check "the static archive's wrappers are inside the executable" sh -c 'nm "$1" | grep -q " T MPI_Allreduce$"' - "$work/static"

for how in shared static; do
    unset LD_PRELOAD
    MPIPROF_OUTPUT="$work/rep.$how" MPIPROF_QUIET=1 run $np "$work/$how" > "$work/$how.out" ||
        fail "$how: the linked program runs"
    check "$how: report written without LD_PRELOAD" test -s "$work/rep.$how/functions.txt"
    awk -v P=$np 'BEGIN { for (r = 0; r < P; r++) { print r, "MPI_Allreduce", 20, "whole"; print r, "MPI_Allreduce", 20, "step"
        print r, "MPI_Sendrecv", 40, "whole"; print r, "MPI_Sendrecv", 40, "step/halo"; print r, "MPI_Barrier", 2, "whole" } }' |
        sort > "$work/expected"
    awk '!/^#/ && $2 ~ /^MPI_(Allreduce|Sendrecv|Barrier)$/ { print $1, $2, $3, $9 == "" ? "whole" : $9 }' \
        "$work/rep.$how/functions.txt" "$work/rep.$how/region_functions.txt" | sort > "$work/actual"
    same_rows "$how: counts per region"
    check "$how: call sites named in regions.c" awk '!/^#/ && $3 == "MPI_Sendrecv" && $15 ~ /^main@regions[.]c:[0-9]+$/ { ok = 1 }
        END { exit !ok }' "$work/rep.$how/branches.txt"
done
finish
