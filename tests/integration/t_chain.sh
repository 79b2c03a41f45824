#!/bin/sh
# t_chain.sh: MPIPROF_CHAIN (--chain) with a second PMPI tool preloaded
# after mpiprof (pmpicount.c, counting MPI_Init and eight functions): with
# the option both count every call of the mix program (mix.c, 4 ranks;
# 2 with MPICH), pmpicount's counts equal functions.txt's and its MPI_Init
# runs; without it mpiprof calls the MPI library's PMPI_ functions itself,
# and pmpicount sees no call at all, as mpiprof(1) says. A Fortran program
# (fmix90.f90, issue 50) the same: with --chain, its MPI_INIT and
# MPI_FINALIZE reach pmpicount too, which writes its counts (equal to
# functions.txt's); without, it writes none. The Fortran part is skipped,
# with a line, where no Fortran compiler built fmix90.
. "$top_srcdir/tests/integration/lib.sh"

np=4
[ "$MPI_FLAVOR" = mpich ] && np=2    # MPICH busy-polls: 2 ranks on 2 cores
mix="$top_builddir/tests/integration/mix"
count="$top_builddir/tests/integration/.libs/libpmpicount.so"
[ -r "$count" ] || fail "no $count"

# pmpicount's lines against functions.txt's counts, per rank.
compare() {
    for r in $(seq 0 $((np - 1))); do
        awk -v r=$r 'FNR == 1 { f++ } f == 1 && !/^#/ && $1 == r { n[$2] = $3 }
            f == 2 { print r, $1, $2, ($1 == "MPI_Init" ? 1 : n[$1] + 0) }' "$work/$1/functions.txt" "$work/$1.count.$r"
    done > "$work/$1.rows"
}

PMPICOUNT_OUT="$work/on.count" run $np env LD_PRELOAD="$count" "$launcher" -q --chain -o "$work/on" "$mix" \
    "$work/testsome" > /dev/null || fail "mix with --chain and pmpicount"
compare on
check "--chain: pmpicount counted every call mpiprof counted (8 functions and MPI_Init, $np ranks)" \
    awk '{ if ($3 != $4) { print "rank " $1 " " $2 ": pmpicount " $3 ", mpiprof " $4; bad = 1 } n++ }
         END { exit bad || n != 9 * '$np' }' "$work/on.rows"
check "--chain: the counts are not all zero" awk '$2 == "MPI_Send" && $3 > 0 { ok = 1 } END { exit !ok }' "$work/on.rows"

PMPICOUNT_OUT="$work/off.count" run $np env LD_PRELOAD="$count" "$launcher" -q -o "$work/off" "$mix" \
    "$work/testsome" > /dev/null || fail "mix with pmpicount, no --chain"
check "no --chain: pmpicount sees no call, not even its MPI_Init and MPI_Finalize (no counts written)" \
    test ! -e "$work/off.count.0"
check "no --chain: mpiprof counted as always" awk '!/^#/ && $2 == "MPI_Send" { ok = 1 } END { exit !ok }' "$work/off/functions.txt"

fmix90="$top_builddir/tests/integration/fmix90"
if [ -x "$fmix90" ]; then
    run $np "$fmix90" > "$work/fplain.out" || fail "fmix90 runs"
    PMPICOUNT_OUT="$work/fon.count" run $np env LD_PRELOAD="$count" "$launcher" -q --chain -o "$work/fon" "$fmix90" \
        > "$work/fon.out" || fail "fmix90 with --chain and pmpicount"
    check "--chain, Fortran: the same output" cmp "$work/fplain.out" "$work/fon.out"
    check "--chain, Fortran: both reports written (functions.txt and pmpicount's, $np ranks)" \
        sh -c 'for r in $(seq 0 '$((np - 1))'); do test -s "$1.count.$r" || exit 1; done; grep -q "^# complete" "$1/summary.txt"' \
        - "$work/fon"
    compare fon
    check "--chain, Fortran: pmpicount counted MPI_INIT and every call mpiprof counted (8 functions and MPI_Init, $np ranks)" \
        awk '{ if ($3 != $4) { print "rank " $1 " " $2 ": pmpicount " $3 ", mpiprof " $4; bad = 1 } n++ }
             END { exit bad || n != 9 * '$np' }' "$work/fon.rows"
    check "--chain, Fortran: the counts are not all zero" awk '$2 == "MPI_Isend" && $3 > 0 { n++ } END { exit n != '$np' }' \
        "$work/fon.rows"
    PMPICOUNT_OUT="$work/foff.count" run $np env LD_PRELOAD="$count" "$launcher" -q -o "$work/foff" "$fmix90" \
        > /dev/null || fail "fmix90 with pmpicount, no --chain"
    check "no --chain, Fortran: pmpicount sees no call (no counts written)" test ! -e "$work/foff.count.0"
else
    echo "SKIP (Fortran part): no $fmix90 (configure found no Fortran compiler)"
fi
finish
