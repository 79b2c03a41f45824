#!/bin/sh
# t_validate.sh: mpiprof-validate (issue 23) against the build tree, as
# users run it installed: --quick passes, one line per figure (late-sender
# and imbalance per rank, late-senders per partner, the six models per
# rank, rma and io one line each, mpi1, ext, mpiio, msgrate, coarray and
# beffio one per function they claim) and "N passed, 0 failed"; with an
# odd -np the msgrate check is skipped, not failed; with
# MPIPROF_TEST_SKEW=late (every late-sender wait halved) exactly the
# late-sender figures fail, each naming the expected figure and the halved
# one it measured, and the rest still pass; with MPIPROF_TEST_SKEW=sent
# (MPI_Send's bytes doubled) exactly the mpi1 check's MPI_Send lines fail;
# a job the MPI launcher does not start is NOT RUN, said once with why;
# bad usage exits 2 with one line.
# 4 processes with Open MPI, 2 with MPICH (it busy-polls).
. "$top_srcdir/tests/integration/lib.sh"

np=4
[ "$MPI_FLAVOR" = mpich ] && np=2
MPIPROF_LAUNCHER="$launcher" MPIPROF_BENCH="$top_builddir/bench"
export MPIPROF_LAUNCHER MPIPROF_BENCH
validate="$top_builddir/tools/mpiprof-validate"
mpirun="$MPIRUN -np"

with_lock -x "$validate" -np $np --mpirun "$mpirun" -o "$work/quick" > "$work/quick.out" 2> "$work/quick.err"
status=$?
cat "$work/quick.out"
partners=$((np - 1 < 3 ? np - 1 : 3))
# late-sender, late-senders (a line per partner), late-waitall and
# imbalance; the wait states' checks (waits-nxn, -bcast, -reduce, -chain) 1
# each; the drivers' claimed functions: mpi1 7, ext 6, mpiio 13, msgrate 5,
# coarray 10, beffio 8
lines=$((np + partners + np + np + 4 + 6 * np + 2 + 7 + 6 + 13 + 5 + 10 + 8))
check "--quick: exit status 0" test $status -eq 0
check "--quick: $lines lines, all PASS, and '$lines passed, 0 failed'" awk -v n="$lines" '
    /^#/ { next }
    /passed, .* failed$/ { last = $0; next }
    $NF == "PASS" { p++ } $NF != "PASS" { bad = 1 }
    END { exit bad || p != n || last != n " passed, 0 failed" }' "$work/quick.out"
check "--quick: nothing on stderr" test ! -s "$work/quick.err"
check "--quick -o: the reports are kept" test -f "$work/quick/late-sender/summary.txt" -a -f "$work/quick/rma/rma.txt"

MPIPROF_TEST_SKEW=late with_lock -x "$validate" -np $np --mpirun "$mpirun" --only late-sender,late-senders,rma,io \
    > "$work/skew.out" 2> "$work/skew.err"
status=$?
cat "$work/skew.out"
check "skewed: exit status 1" test $status -eq 1
check "skewed: the late-sender figures of rank 1 and of each partner fail with half the expected, all else passes" awk -v np="$np" '
    /^#/ || /passed, .* failed$/ { next }
    { half = $(NF - 3) > 0.05 && $(NF - 2) > 0.3 * $(NF - 3) && $(NF - 2) < 0.7 * $(NF - 3) }
    $1 == "late-sender" && $5 == "1" { if ($NF != "FAIL" || !half) bad = 1; f++; next }
    $1 == "late-senders" { if ($NF != "FAIL" || !half) bad = 1; f++; next }
    $NF != "PASS" { bad = 1 }
    END { exit bad || f != 1 + (np - 1 < 3 ? np - 1 : 3) }' "$work/skew.out"
check "skewed: the reports are kept and their path printed" grep -q '^# reports kept in ' "$work/skew.out"

# MPIPROF_TEST_SKEW=sent: MPI_Send's bytes doubled in functions.txt; the
# mpi1 check's MPI_Send lines (the sum, and rank 0's row) fail, naming
# twice the bytes, and its other functions pass.
MPIPROF_TEST_SKEW=sent with_lock -x "$validate" -np $np --mpirun "$mpirun" --only mpi1 \
    > "$work/sent.out" 2> "$work/sent.err"
status=$?
cat "$work/sent.out"
check "skewed bytes: exit status 1" test $status -eq 1
check "skewed bytes: the two MPI_Send lines fail with twice the bytes sent, the 6 other functions pass" awk '
    /^#/ || /passed, .* failed$/ { next }
    $2 == "MPI_Send" { split($(NF - 3), w, ":"); split($(NF - 2), g, ":")
                       if ($NF != "FAIL" || w[1] != g[1] || g[2] != 2 * w[2] || w[2] == 0) bad = 1; f++; next }
    $NF == "PASS" { p++ }
    END { exit bad || f != 2 || p != 6 }' "$work/sent.out"

# An odd -np: msgrate pairs processes, so its check is skipped (nothing
# runs), and the run passes.
"$validate" -np 3 --mpirun "$mpirun" --only msgrate > "$work/odd.out" 2> "$work/odd.err"
status=$?
cat "$work/odd.out"
check "-np 3 --only msgrate: exit status 0, one SKIP line and '0 passed, 0 failed, 1 skipped'" awk -v s=$status '
    /^#/ { next }
    $1 == "msgrate" && $NF == "SKIP" { k++; next }
    $0 == "0 passed, 0 failed, 1 skipped" { last = 1; next }
    { bad = 1 }
    END { exit s || bad || k != 1 || !last }' "$work/odd.out"

# A job the MPI launcher does not start is NOT RUN, not a failed figure:
# said once with why, "N not run" last, status 1. No such launcher
# everywhere; Open MPI's refusal to run as root where it applies.
notrun() {
    what=$1 want=$2
    shift 2
    "$validate" -np 2 --only late-sender,rma "$@" > "$work/notrun.out" 2> "$work/notrun.err"
    status=$?
    cat "$work/notrun.out"
    check "$what: status 1, two NOT RUN lines, the reason once, '0 passed, 0 failed, 2 not run'" awk -v s=$status \
        -v want="$want" '
        /^# 2 checks did not run, not a wrong figure: / { why += index($0, want) > 0; next }
        /^#/ { next }
        / NOT RUN$/ { k++; next }
        $0 == "0 passed, 0 failed, 2 not run" { last = 1; next }
        { bad = 1 }
        END { exit s != 1 || bad || k != 2 || why != 1 || !last }' "$work/notrun.out"
}
notrun "--mpirun naming no command" "no command 'no-such-mpirun'" --mpirun "no-such-mpirun -np"
if [ "$MPI_FLAVOR" = openmpi ] && [ "$(id -u)" -eq 0 ]; then
    notrun "Open MPI as root without OMPI_ALLOW_RUN_AS_ROOT" "set OMPI_ALLOW_RUN_AS_ROOT=1" \
        --mpirun "env -u OMPI_ALLOW_RUN_AS_ROOT -u OMPI_ALLOW_RUN_AS_ROOT_CONFIRM $MPIRUN -np"
fi

# Bad usage: status 2, one line on stderr.
for args in "-np 1" "-np 65" "-np x" "--only nosuch" "-o $work/quick" "--frobnicate" "-o $work/a,b"; do
    # shellcheck disable=SC2086 # args are words
    "$validate" $args > "$work/bad.out" 2> "$work/bad.err"
    status=$?
    check "mpiprof-validate $args: status 2, one line on stderr, nothing on stdout" \
        test $status -eq 2 -a "$(wc -l < "$work/bad.err")" -eq 1 -a ! -s "$work/bad.out"
done
finish
