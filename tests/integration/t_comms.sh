#!/bin/sh
# t_comms.sh: the comms module (MPIPROF_COMMS, comms.txt) on comms.c: the
# exact messages and bytes per rank and communicator, in first-use order,
# named or numbered; summed, the sends and receives of branches.txt; no
# comms.txt without it; a switch set on rank 0 only: one message, off on
# every rank; a bad value named. Also tests/compare-reports.sh.
. "$top_srcdir/tests/integration/lib.sh"

np=4
[ "$MPI_FLAVOR" = mpich ] && np=2    # MPICH busy-polls: 2 ranks on 2 cores
prog="$top_builddir/tests/integration/comms"

MPIPROF_COMMS=1 run $np "$launcher" -q -o "$work/rep" "$prog" > "$work/out" || fail "comms under the profiler"
check "the program's messages were right" grep -q "^comms: ok$" "$work/out"
check "comms.txt names its columns" grep -q '^# rank comm size sends bytes_sent recvs bytes_recv$' "$work/rep/comms.txt"
check "the header lists COMMS=1" grep -q '^# mpiprof .* options=.*COMMS=1' "$work/rep/comms.txt"

# rank comm size sends bytes_sent recvs bytes_recv (see comms.c).
awk -v P=$np 'BEGIN { for (r = 0; r < P; r++) {
    print r, "MPI_COMM_WORLD", P, 3, 24, 3, 24
    print r, "halo", P, 2, 800, 2, 800
    print r, "comm1", P / 2, 2, 32, 2, 32
    print r, "comm2", P, 1, 4, 0, 0
    print r, "-", "-", 0, 0, 1, 4 } }' > "$work/expected"
grep -v '^#' "$work/rep/comms.txt" > "$work/actual"
same_rows "comms.txt: messages and bytes per rank and communicator, in first-use order"

# Summed per rank: the sends and receives of branches.txt.
awk '!/^#/ { s[$1] += $4; r[$1] += $6 } END { for (k in s) print k, s[k], r[k] }' "$work/rep/comms.txt" |
    sort > "$work/expected"
awk '!/^#/ { s[$1] += $8; r[$1] += $9 } END { for (k in s) print k, s[k], r[k] }' "$work/rep/branches.txt" |
    sort > "$work/actual"
same_rows "comms.txt summed per rank: the sends and recvs of branches.txt"

run $np "$launcher" -q -o "$work/off" "$prog" > /dev/null || fail "comms without MPIPROF_COMMS"
check "without MPIPROF_COMMS: no comms.txt" test -f "$work/off/summary.txt" -a ! -e "$work/off/comms.txt"

# tests/compare-reports.sh: two runs of comms.c say the same but for times;
# one count changed is found and named.
run $np "$launcher" -q -o "$work/off2" "$prog" > /dev/null || fail "comms without MPIPROF_COMMS, again"
check "compare-reports.sh: two runs the same but for times" sh "$top_srcdir/tests/compare-reports.sh" "$work/off" "$work/off2"
cp -r "$work/off2" "$work/off3"
awk '!/^#/ && $3 == "MPI_Sendrecv" && !done { $4 += 1; done = 1 } { print }' "$work/off2/branches.txt" > "$work/off3/branches.txt"
sh "$top_srcdir/tests/compare-reports.sh" "$work/off" "$work/off3" > "$work/cmp.out" 2>&1
check "compare-reports.sh: a changed count found, in branches.txt only" test $? -eq 1 -a \
    "$(grep -c ' differs ' "$work/cmp.out")" -eq 1 -a "$(grep -c '^branches.txt differs ' "$work/cmp.out")" -eq 1

# On rank 0 only: off everywhere, one message.
run $np sh -c '[ "${OMPI_COMM_WORLD_RANK:-$PMI_RANK}" = 0 ] && MPIPROF_COMMS=1 && export MPIPROF_COMMS; exec "$@"' sh \
    "$launcher" -o "$work/half" "$prog" > /dev/null 2> "$work/half.err" || fail "comms with MPIPROF_COMMS on rank 0"
check "set on rank 0 only: one message" test \
    "$(grep -c '^mpiprof: MPIPROF_COMMS is not the same on every rank; comms is off$' "$work/half.err")" -eq 1
check "set on rank 0 only: no comms.txt" test -f "$work/half/summary.txt" -a ! -e "$work/half/comms.txt"

MPIPROF_COMMS=maybe run 2 "$launcher" -o "$work/bad" "$prog" > /dev/null 2> "$work/bad.err" || fail "comms with a bad MPIPROF_COMMS"
check "a bad value: one message naming it, no comms.txt" test \
    "$(grep -c "^mpiprof: MPIPROF_COMMS='maybe' is not valid; expected 0/1, no/yes, off/on, false/true; using the default '0'\$" "$work/bad.err")" -eq 1 -a \
    ! -e "$work/bad/comms.txt"
finish
