#!/bin/sh
# t_check.sh: mpiprof-report check, the invariants a report's figures keep
# (issue 50 item 2): per rank send_late_s <= receive wait (slt.txt) <=
# mpi_s <= elapsed_s, branches.txt's receive wait <= mpi_s, mpi_s the sum of functions.txt's times, functions.txt's time
# per function its branches' sum, send-late within the wait per slt.txt and
# partners.txt row, a branch's partners adding up to its slt.txt row (and
# within its branches.txt receive wait), the waiting a node's ranks
# suffered within their MPI time, slt.txt's sums summary.txt's. Checks:
#   - a report of mpiprof-known late-waitall under --slt --waits (two
#     receives completed by one MPI_Waitall: the figures that overlapped
#     before) and one of reportmix under --slt --collwait, checked together:
#     "every invariant holds" for each, status 0;
#   - copies edited to break one invariant each: exactly one line, naming
#     the file, the rank (or node, branch) and the two figures, status 1;
#   - a directory that is not a report: one line, status 2;
#   - a report of the summary form: said not checked, status 0.
# Skipped (77) without Python 3 with pandas.
. "$top_srcdir/tests/integration/lib.sh"

[ -n "${PYTHON:-}" ] && [ "$PYTHON" != : ] && "$PYTHON" -c 'import pandas' 2> /dev/null ||
    { echo "SKIP: no Python 3 with pandas (python3-pandas)"; exit 77; }
PYTHONDONTWRITEBYTECODE=1
export PYTHONDONTWRITEBYTECODE
known=$top_builddir/bench/mpiprof-known

run 2 "$launcher" -q --slt --waits -o "$work/wa" "$known" late-waitall -k 3 -d 5 > /dev/null ||
    fail "late-waitall under --slt --waits"
run 2 "$launcher" -q --slt --collwait -o "$work/mix" "$top_builddir/tests/integration/reportmix" > /dev/null ||
    fail "reportmix under --slt --collwait"

# set DIR FILE ROWKEY COLUMN VALUE [FUNCTION]: in DIR/FILE, the first row
# whose first field is ROWKEY (and third FUNCTION, if given) gets VALUE in
# the column named COLUMN (by the "# rank ..." or "# node ..." line).
set_figure() {
    awk -v key="$3" -v name="$4" -v value="$5" -v fn="${6:-}" '
        /^# (rank|node) / { for (i = 2; i <= NF; i++) if ($i == name) c = i - 1; print; next }
        !/^#/ && c && $1 == key && (fn == "" || $3 == fn) && !done { $c = value; done = 1 }
        { print }' "$1/$2" > "$1/$2.new" && mv "$1/$2.new" "$1/$2"
}
# broken NAME LINES WANT FILE ROWKEY COLUMN VALUE [FUNCTION]: a copy of the
# late-waitall report with that one figure changed gives status 1 and
# LINES lines (the invariants it breaks), one of which matches WANT. The
# copies are made first, checked in one Python (report_batch, lib.sh),
# then their verdicts given (broken_verdicts).
nbroken=0
broken() {
    nbroken=$((nbroken + 1))
    cp -r "$work/wa" "$work/bad$nbroken"
    set_figure "$work/bad$nbroken" "$4" "$5" "$6" "$7" "${8:-}"
    report_queue "bad$nbroken" check "$work/bad$nbroken"
    printf '%s\t%s\t%s\n' "$1" "$2" "$3" >> "$work/broken.want"
}
# together NAME: report_batch's stdout and stderr of NAME in $work/NAME.all,
# as 2>&1 would put them (one of the two has lines here).
together() { cat "$work/$1.out" "$work/$1.err" > "$work/$1.all"; }
broken_verdicts() {
    local i=0 what lines want st
    while IFS='	' read -r what lines want; do
        i=$((i + 1))
        together "bad$i"
        st=$(batch_status "bad$i")
        if [ "$st" -eq 1 ] && [ "$(wc -l < "$work/bad$i.all")" -eq "$lines" ] && grep -q "$want" "$work/bad$i.all"; then
            ok "$what: $(grep "$want" "$work/bad$i.all")"
        else
            fail "$what: status $st, expected 1 and $lines lines, one matching '$want':"
            cat "$work/bad$i.all"
        fi
    done < "$work/broken.want"
}
# (send-late above the receive wait, and not slt.txt's sum: two lines)
broken "send-late above the receive wait" 2 '/summary.txt: rank 0: send_late_s 9\.000000 > receive wait' \
    summary.txt 0 send_late_s 9.0
mpi0=$(awk '/^# rank / { for (i = 2; i <= NF; i++) if ($i == "mpi_s") c = i - 1 } !/^#/ && $1 == 0 { printf "%.6f", $c }' \
    "$work/wa/summary.txt")
broken "MPI time above the elapsed time" 1 '/summary.txt: rank 0: mpi_s [0-9.]* > elapsed_s 0\.000001' \
    summary.txt 0 elapsed_s 0.000001
# (rank 1's first function: its branches' time, and the rank's MPI time)
broken "a function's time not its branches'" 2 '/functions.txt: rank 1: MPI_[A-Za-z_]* time_s 5\.000000 != branches.txt' \
    functions.txt 1 time_s 5.0
# branches.txt's rows start with the rank: the first of rank 0 (an
# MPI_Irecv's or another's) given a receive wait of 7 s, above its MPI time.
broken "a rank's receive wait above its MPI time" 1 "/branches.txt: rank 0: recv_wait_s (sum) [0-9.]* > summary.txt mpi_s $mpi0" \
    branches.txt 0 recv_wait_s 7.0
broken "a node's waiting above its MPI time" 1 '/nodes.txt: node 0: waited_s 8\.000000 > mpi_s' \
    nodes.txt 0 waited_s 8.0
# (and slt.txt's send-late no longer summary.txt's, nor its partners':
# three lines)
broken "a branch's send-late above its receive wait" 3 '/slt.txt: rank 0 branch [0-9]* MPI_Irecv: send_late_s 6\.000000 > recv_wait_s' \
    slt.txt 0 send_late_s 6.0
# (and above the branch's receive wait in branches.txt: two lines)
broken "a branch's partners' receive wait not its slt.txt's" 2 \
    '/partners.txt: rank 0 branch [0-9]* MPI_Irecv: recv_wait_s (sum) [0-9.]* != slt.txt recv_wait_s' \
    partners.txt 0 recv_wait_s 2.5 MPI_Irecv

MPIPROF_REPORT_FORM=summary run 2 "$launcher" -q -o "$work/sum" "$known" late-waitall -k 1 -d 1 > /dev/null ||
    fail "late-waitall, the summary form"
report_queue ok check "$work/wa" "$work/mix"
report_queue no check "$work"
report_queue sum check "$work/sum"
report_batch

together ok
cat "$work/ok.all"
check "two good reports: status 0, 'every invariant holds' for each" awk -v st="$(batch_status ok)" '
    / every invariant holds$/ { n++ } END { exit !(st == 0 && n == 2 && NR == 2) }' "$work/ok.all"
broken_verdicts
together no
check "a directory that is not a report: status 2, one line" awk -v st="$(batch_status no)" '
    /is not an mpiprof report/ { n++ } END { exit !(st == 2 && n == 1 && NR == 1) }' "$work/no.all"
together sum
check "the summary form: status 0, said not checked" awk -v st="$(batch_status sum)" '
    /the summary form, no per-rank figures: not checked$/ { n++ } END { exit !(st == 0 && n == 1 && NR == 1) }' \
    "$work/sum.all"
finish
