#!/bin/sh
# t_slt_shapes.sh: the program shapes on which late sender once hung or
# misreported (issue 31; issue_31_shapes.c: a Sendrecv ring pass, Waitany
# and Waitsome over a pending receive beside a send the partner waits for,
# an MPI_ANY_SOURCE receive after an earlier Irecv, receives under
# MPI_Pcontrol(0), MPI_Probe then MPI_Recv). Under --slt, --model perfect
# and everything at once: no hang (every rank under a timeout), the
# program's output as without the profiler, and each charged call site's
# send_late_s within 20 % (floor 5 ms) of the program's own answer.
. "$top_srcdir/tests/integration/lib.sh"

prog="$top_builddir/tests/integration/issue_31_shapes"
np=3
limit=60

shapes() {
    grep -v '^truth ' "$1" | sort
}

run $np timeout $limit "$prog" -d 100 > "$work/plain.out" || fail "the shapes run without the profiler"
shapes "$work/plain.out" > "$work/plain"
check "the shapes print 17 lines" test "$(wc -l < "$work/plain")" -eq 17

for opts in "--slt" "--model perfect" "--slt --collwait --model lat=5,bw=1000"; do
    tag=$(echo "$opts" | tr -dc 'a-z0-9')
    case $opts in
        *--slt*)
            timed truth_within "$opts: send_late_s per site within 20 % (floor 5 ms) of the program's answer" \
                20 0.005 $np "$work/$tag.out" "$work/$tag" \
                timeout $limit "$launcher" -q $opts -o "$work/$tag" "$prog" -d 100 ;;
        *)
            run $np timeout $limit "$launcher" -q $opts -o "$work/$tag" "$prog" -d 100 > "$work/$tag.out" ||
                fail "the shapes under $opts" ;;
    esac
    shapes "$work/$tag.out" > "$work/$tag.sorted"
    check "$opts: the same output as without the profiler" cmp "$work/plain" "$work/$tag.sorted"
done

# Rank 0's receives are all evaluated; MPI_Probe holds the probe's wait,
# and its MPI_Recv finds the message there.
check "--slt: rank 0 evaluated 9 receives and probes, none left out" awk '
    !/^#/ && $1 == 0 { e += $4; n += $5 } END { exit !(e == 9 && n == 0) }' "$work/slt/slt.txt"
check "--slt: slt_eval_pct 100 on every rank" awk '
    /^# rank/ { for (i = 1; i <= NF; i++) if ($i == "slt_eval_pct") c = i - 1; next }
    !/^#/ { n++; if ($c != 100) bad = 1 } END { exit bad || n != 3 || !c }' "$work/slt/summary.txt"
finish
