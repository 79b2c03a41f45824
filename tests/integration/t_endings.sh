#!/bin/sh
# t_endings.sh: programs that end badly (endings.c) on 2 ranks: MPI_Abort
# on rank 1, an exit without MPI_Finalize (rank 0 first: the launcher
# may kill the others before their exit), SIGSEGV on rank 1, and a job
# ended by mpirun's timeout. Each: the job's exit status as without the
# profiler, no hang (every run under a timeout), no complete report, and
# the partial report REPORT.partial made at MPI_Init whose PARTIAL file says
# what it is; the ranks that reached MPI_Abort or their exit wrote what they
# had (their call counts exact), the others nothing, and mpiprof-merge
# makes tables that say why and which ranks are missing. A normal end
# leaves a complete report (its last line "# complete") and no partial one.
# MPIPROF_PARTIAL=0: no partial report.
. "$top_srcdir/tests/integration/lib.sh"

np=2
prog="$top_builddir/tests/integration/endings"
merge="$top_builddir/tools/mpiprof-merge"
if [ "$MPI_FLAVOR" = openmpi ]; then
    timeout_opt="--timeout 3"
else
    timeout_opt=""
    MPIEXEC_TIMEOUT=3
    export MPIEXEC_TIMEOUT
fi

# ending HOW [STATUSES]: the plain and the profiled run, their statuses
# compared: the same, or both among STATUSES where the launcher's races (not
# the profiler) decide between them. The two runs at once (each is mostly
# mpirun's start and end, or its timeout: 3 s each for hang).
ending() {
    how=$1
    # shellcheck disable=SC2086
    with_lock -s timeout 60 "$MPIRUN" $timeout_opt -np $np "$prog" "$how" > "$work/$how.plain" 2> /dev/null &
    plain=$!
    # shellcheck disable=SC2086
    with_lock -s timeout 60 "$MPIRUN" $timeout_opt -np $np "$launcher" -o "$work/$how" "$prog" "$how" \
        > "$work/$how.out" 2> "$work/$how.err"
    status=$?
    wait $plain
    plain=$?
    check "$how: exit status $status as without the profiler ($plain), no hang" \
        sh -c 'test "$1" -ne 124 && for s in "$1" "$2"; do case " $3 " in *" $s "*) ;; *) exit 1 ;; esac; done' \
        - "$status" "$plain" "${2:-$plain}"
    check "$how: no complete report" test ! -e "$work/$how"
    check "$how: the partial report says what it is" \
        grep -q "^# A partial report: the job has not reached MPI_Finalize" "$work/$how.partial/PARTIAL"
}

# wrote HOW RANK WHY: rank's snapshot, with why and its exact counts so far.
wrote() {
    f="$work/$1.partial/snapshots/rank.$2"
    check "$1: rank $2 wrote what it had: $3" sh -c 'head -1 "$1" | grep -q "why=$2\$"' - "$f" "$3"
    check "$1: rank $2's counts: 5 MPI_Allreduce, 1 MPI_Barrier at least" awk '
        /^@ / { s = $2 } s == "functions.txt" && $2 == "MPI_Allreduce" { a = $3 }
        s == "functions.txt" && $2 == "MPI_Barrier" { b = $3 } END { exit !(a == 5 && b >= 1) }' "$f"
}

ending abort
wrote abort 1 "MPI_Abort with error code 3 on rank 1"
check "abort: rank 0, killed, wrote nothing" test ! -e "$work/abort.partial/snapshots/rank.0"
"$merge" "$work/abort.partial" 2> /dev/null
check "abort: the merged tables say why and which rank is missing" sh -c '
    grep -qx "# note: why the job ended: MPI_Abort with error code 3 on rank 1" "$1" &&
    grep -qx "# note: ranks without a snapshot (not in these tables): 0" "$1"' - "$work/abort.partial/functions.txt"

# exit: Hydra ends the job when rank 0 exits with 3 and may kill rank 1
# (status 9) before its own exit, with or without the profiler: on a loaded
# machine it did, once in a CI run.
ending exit "3 9"
for r in 0 1; do
    [ -e "$work/exit.partial/snapshots/rank.$r" ] && wrote exit $r "the program exited without calling MPI_Finalize"
done
check "exit: rank 0 wrote what it had" test -e "$work/exit.partial/snapshots/rank.0"
check "exit: one message naming the partial report" \
    test "$(grep -c "^mpiprof: the program exited without calling MPI_Finalize; each rank that exited wrote what it had in $work/exit.partial " "$work/exit.err")" -eq 1

ending segv
check "segv: rank 1 wrote nothing (no signal handlers)" test ! -e "$work/segv.partial/snapshots/rank.1"

ending hang
check "hang: the ranks killed by the timeout wrote nothing" test -z "$(ls "$work/hang.partial/snapshots")"

# A normal end: complete, "# complete" last, no partial report.
run $np "$launcher" -q -o "$work/fine" "$prog" fine > /dev/null || fail "a normal end"
check "normal end: summary.txt ends with # complete" test "$(tail -1 "$work/fine/summary.txt")" = "# complete"
check "normal end: no partial report, no directory being written" \
    test ! -e "$work/fine.partial" -a -z "$(ls -d "$work"/fine.writing-* 2> /dev/null)"

# MPIPROF_PARTIAL=0: nothing at MPI_Abort, no directory.
MPIPROF_PARTIAL=0 with_lock -s timeout 60 "$MPIRUN" -np $np "$launcher" -o "$work/off" "$prog" abort > /dev/null 2>&1
check "MPIPROF_PARTIAL=0: no partial report" test ! -e "$work/off.partial" -a ! -e "$work/off"
finish
