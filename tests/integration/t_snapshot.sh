#!/bin/sh
# t_snapshot.sh: MPIPROF_SNAPSHOT (--snapshot). A job killed by
# `timeout -s KILL 5` with --snapshot 1 leaves one snapshot per rank, none
# older than 2 s at the kill; mpiprof-merge makes them tables whose
# MPI_Allreduce count per rank is what the program (snapshot.c, which
# logs its own count every 0.5 s) had done at the snapshot's time, within
# half a second; the merged tables are marked partial and have one brid
# per call site. A job that ends normally gets its full report and no
# snapshots left. Bad values and bad mpiprof-merge arguments: one line.
. "$top_srcdir/tests/integration/lib.sh"

prog="$top_builddir/tests/integration/snapshot"
merge="$top_builddir/tools/mpiprof-merge"
np=2

# Killed at 5 s: each rank is the timeout's child, as a batch system's kill.
# The age of a snapshot at the kill: the program's last log line (written
# every 0.5 s) minus the snapshot's time, both from MPI_Init. The job runs
# while the jobs that end and those of bad values (below) run, its 5 s
# mostly its ranks' sleeps; checked once it is killed.
run $np "$launcher" -q --snapshot 1 -o "$work/killed" timeout -s KILL 5 "$prog" "$work/log" 60 > /dev/null 2>&1 &
killed=$!

# A job that ends: the report, complete, and no snapshots left.
run $np "$launcher" -q --snapshot 0.2 -o "$work/done" "$prog" "$work/done.log" 1 > /dev/null ||
    fail "a job with snapshots that ends normally"
check "normal end: the report is written" test -s "$work/done/functions.txt"
check "normal end: the partial report is gone" test ! -e "$work/done.partial"
check "normal end: not marked partial" test -z "$(grep -l '^# note: partial' "$work/done"/*.txt)"
c=$(awk '!/^#/ && $1 == 0 && $2 == "MPI_Allreduce" { print $3 }' "$work/done/functions.txt")
check "normal end: every MPI_Allreduce counted ($c)" test "$c" = "$(awk 'END { print $2 }' "$work/done.log.0")"

# Bad values: one message, no snapshots, the report as always.
for v in -1 abc 0.05 1e7; do
    MPIPROF_SNAPSHOT=$v run $np "$launcher" -o "$work/bad$v" "$prog" "$work/b.log" 0.3 > /dev/null 2> "$work/bad.err"
    check "MPIPROF_SNAPSHOT=$v: one message naming it" test "$(grep -c "^mpiprof: MPIPROF_SNAPSHOT='$v' is not valid" "$work/bad.err")" -eq 1
    check "MPIPROF_SNAPSHOT=$v: the report, no snapshots" test -s "$work/bad$v/summary.txt" -a ! -e "$work/bad$v.partial"
done

wait $killed
for r in 0 1; do
    check "rank $r left a snapshot" test -s "$work/killed.partial/snapshots/rank.$r"
    e=$(awk 'NR == 1 { sub(/.*elapsed_s=/, ""); print }' "$work/killed.partial/snapshots/rank.$r")
    last=$(awk 'END { print $1 }' "$work/log.$r")
    check "rank $r's snapshot at ${e} s, its last log at ${last} s: at most 2 s old at the kill" \
        awk -v e="$e" -v l="$last" 'BEGIN { exit !(e != "" && l - e <= 2) }'
done
check "no report tables before the merge, and no report" test ! -e "$work/killed.partial/summary.txt" -a ! -e "$work/killed"
check "the partial report says what it is" grep -q "^# A partial report: the job has not reached MPI_Finalize" "$work/killed.partial/PARTIAL"
"$merge" "$work/killed.partial" 2> "$work/merge.err"
check "mpiprof-merge succeeds and says so" grep -qx "mpiprof-merge: partial report written in $work/killed.partial" "$work/merge.err"
for f in summary.txt functions.txt branches.txt sites.txt matrix.time matrix.calls matrix.bytes sizes.txt partners.txt; do
    check "$f: marked partial" sed -n 2p "$work/killed.partial/$f" | grep -q "^# note: partial report made by mpiprof-merge from the snapshots of 2 of 2 ranks, taken "
done
for r in 0 1; do
    e=$(awk 'NR == 1 { sub(/.*elapsed_s=/, ""); print }' "$work/killed.partial/snapshots/rank.$r")
    c=$(awk -v r=$r '!/^#/ && $1 == r && $2 == "MPI_Allreduce" { print $3 }' "$work/killed.partial/functions.txt")
    check "rank $r: the snapshot at ${e} s is no earlier than 2.5 s after MPI_Init" awk -v e="$e" 'BEGIN { exit !(e >= 2.5) }'
    check "rank $r: $c MPI_Allreduce at ${e} s: what the program logged then, +-0.5 s" awk -v e="$e" -v c="$c" '
        $1 <= e - 0.5 { lo = $2 } $1 >= e + 0.5 && hi == "" { hi = $2 }
        END { if (hi == "") hi = 1e18; exit !(c != "" && lo != "" && lo <= c && c <= hi) }' "$work/log.$r"
done
check "merged branches.txt: one brid per call site, ids 1..n" awk '
    !/^#/ { if (($15, $16, $3) in id && id[$15, $16, $3] != $2) bad = 1; id[$15, $16, $3] = $2; seen[$2] = 1 }
    END { n = 0; for (k in seen) n++; for (i = 1; i <= n; i++) if (!(i in seen)) bad = 1; exit bad || n == 0 }' "$work/killed.partial/branches.txt"
check "matrix.calls agrees with functions.txt" awk '
    FNR == 1 { f++ } /^# rank / { for (i = 3; i <= NF; i++) col[i - 1] = $i; next } /^#/ { next }
    f == 1 { want[$1, $2] = $3 } f == 2 { for (i = 2; i <= NF; i++) if ($i != want[$1, col[i]] + 0) bad = 1 }
    END { exit bad }' "$work/killed.partial/functions.txt" "$work/killed.partial/matrix.calls"

# mpiprof-merge: one line and status 2 for what it cannot use.
bad_merge() {
    want=$1
    shift
    "$merge" "$@" > "$work/bad.out" 2> "$work/bad.err"
    status=$?
    check "mpiprof-merge $*: status 2, one line: $want" \
        test $status -eq 2 -a "$(wc -l < "$work/bad.err")" -eq 1 -a ! -s "$work/bad.out"
    grep -q "$want" "$work/bad.err" || fail "mpiprof-merge $*: said '$(cat "$work/bad.err")'"
}
bad_merge "holds a report already" "$work/killed.partial"
bad_merge "is not a directory" "$work/none"
bad_merge "has no snapshots/" "$work"
bad_merge "no report directory given"
bad_merge "unknown option" --frobnicate

finish
