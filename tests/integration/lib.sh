# lib.sh: shared helpers of the integration tests (sourced).
# The environment comes from make check (tests/Makefile.inc): MPIRUN,
# MPI_FLAVOR, top_srcdir, top_builddir, MPIPROF_PRELOAD. A test without an
# mpirun exits 77 (skipped).

: "${top_builddir:?run under make check}" "${top_srcdir:?run under make check}"
[ -n "${MPIRUN:-}" ] && [ -x "$MPIRUN" ] || { echo "SKIP: no mpirun"; exit 77; }

OMPI_ALLOW_RUN_AS_ROOT=1
OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
OMPI_MCA_rmaps_base_oversubscribe=1
# Open MPI's point-to-point layer named: ob1, the one it selects here
# anyway (Debian's openmpi-mca-params.conf leaves out ucx, and cm has no
# MTL without its hardware). Naming it skips opening cm and its MTLs at
# every MPI_Init: a 2-rank job starts in 0.26 s instead of 0.45 s.
OMPI_MCA_pml=${OMPI_MCA_pml:-ob1}
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM OMPI_MCA_rmaps_base_oversubscribe OMPI_MCA_pml
unset MPIPROF_OUTPUT MPIPROF_STACK_DEPTH MPIPROF_FUNCTIONS MPIPROF_QUIET \
      MPIPROF_EVAL_SLT MPIPROF_EVAL_COLLECTIVE_WAIT MPIPROF_EVAL_WAITS MPIPROF_MODEL \
      MPIPROF_REGIONS MPIPROF_SNAPSHOT MPIPROF_CHAIN MPIPROF_PARTIAL MPIPROF_MAX_SITES MPIPROF_REPORT_WRITE \
      MPIPROF_REPORT_FORM

launcher="$top_builddir/tools/mpiprof"
failures=0
work=$(mktemp -d "${TMPDIR:-/tmp}/mpiprof-test.XXXXXX") || exit 99
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT

# run NP command...: mpirun with NP ranks; stdout and stderr as the program's.
# run_timed NP command...: the same for a run whose times are checked
# against a known answer: it holds the build's run lock alone, while every
# run() shares it, so that make -j does not put another test's ranks on
# the cores the timed ranks are measured on.
# with_lock -s|-x command...: any command under the lock, shared or alone.
lock="$top_builddir/tests/run.lock"
with_lock() {
    local how=$1
    shift
    if command -v flock > /dev/null 2>&1; then
        flock "$how" "$lock" "$@"
    else
        "$@"
    fi
}
locked() {
    local how=$1 ranks=$2
    shift 2
    echo "+ $MPIRUN -np $ranks $*" >&2
    with_lock "$how" "$MPIRUN" -np "$ranks" "$@"
}
run() { locked -s "$@"; }
run_timed() { locked -x "$@"; }

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

ok() {
    echo "ok: $*"
}

# check DESCRIPTION COMMAND...: run a command that must succeed.
check() {
    what=$1
    shift
    if "$@"; then ok "$what"; else fail "$what"; fi
}

# same_rows WHAT: $work/expected and $work/actual (sorted rows) are equal;
# an empty expected list fails too.
same_rows() {
    if [ -s "$work/expected" ] && diff "$work/expected" "$work/actual" > "$work/diff"; then
        ok "$1: exact ($(wc -l < "$work/expected") rows)"
    else
        fail "$1: rows differ (< expected, > actual):"
        cat "$work/diff"
    fi
}

# one_branch REPORT FUNCTION SITE CALLS: in $work/REPORT/branches.txt, each
# of the $np ranks has exactly one row of FUNCTION at SITE, with CALLS
# calls, and all these rows have the same branch id.
one_branch() {
    awk -v fn="$2" -v site="$3" -v calls="$4" -v np="$np" '
        !/^#/ && $3 == fn && $15 == site { n[$1]++; ids[$2] = 1
            if ($4 != calls) { print "rank " $1 ": " $4 " calls"; bad = 1 } }
        END { for (r = 0; r < np; r++) if (n[r] != 1) { print "rank " r ": " n[r] " rows"; bad = 1 }
              k = 0; for (i in ids) k++
              if (k != 1) { print k " ids"; bad = 1 }
              exit bad }' "$work/$1/branches.txt"
}

# run_compare NP PROG: run PROG on NP ranks without and with the profiler
# (report in $work/rep); its output, sorted, must be the same.
run_compare() {
    run "$1" "$2" | sort > "$work/plain.out" || fail "$2 runs without the profiler"
    run "$1" "$launcher" -q -o "$work/rep" "$2" | sort > "$work/prof.out" || fail "$2 runs under the profiler"
    check "program output identical with and without the profiler" cmp "$work/plain.out" "$work/prof.out"
}

# within PCT FLOOR FILE.out REPORT: each rank's value in the REPORT file
# (summary.txt unless the line names one with file=) and column named by
# the expect line (mpiprof-known) of FILE.out (summed
# over the rank's rows, of its function= only when it names one) is within
# max(PCT % of the expected value, FLOOR seconds) of it, a rank for each of
# the expect line's values.
within() {
    awk -v pct="$1" -v floor="$2" '
        FNR == NR { for (i = 1; i <= NF; i++) { split($i, kv, "=")
                        if (kv[1] == "values") n = split(kv[2], v, ","); if (kv[1] == "column") col = kv[2]
                        if (kv[1] == "function") fn = kv[2] }
                    next }
        /^# rank/ { for (i = 1; i <= NF; i++) { if ($i == col) c = i - 1; if ($i == "function") f = i - 1 }; next }
        /^#/ || (fn != "" && $f != fn) { next }
        { if (!($1 in got)) rows++; got[$1] += $c }
        END { for (r = 0; r < n && c; r++) { want = v[r + 1]; tol = want * pct / 100 < floor ? floor : want * pct / 100
                  d = got[r] - want; if (d < 0) d = -d
                  printf "rank %d: %s %.4f, expected %.4f +- %.4f\n", r, col, got[r], want, tol
                  if (d > tol) bad = 1 }
              exit bad || !n || rows != n || !c }' "$3" "$4/$(tr ' ' '\n' < "$3" | sed -n 's/^file=//p' | head -1 | grep . || echo summary.txt)"
}

# truth_within PCT FLOOR FILE.out REPORT: each "truth rank=R site=F
# late_s=X" line of FILE.out (a program working out its own late-sender
# waits) against the send_late_s of REPORT/slt.txt summed over rank R's
# branches whose site (branches.txt) is in function F: within max(PCT % of
# X, FLOOR seconds). One line per comparison; no truth line fails too.
truth_within() {
    awk -v pct="$1" -v floor="$2" '
        FILENAME ~ /branches.txt$/ { if (!/^#/) { f = $15; sub(/@.*/, "", f); fn[$1 " " $2] = f }; next }
        FILENAME ~ /slt.txt$/ { if (!/^#/) got[$1 " " fn[$1 " " $2]] += $7; next }
        /^truth / { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
                    k = v["rank"] " " v["site"]; want = v["late_s"] + 0; g = got[k] + 0
                    tol = want * pct / 100 < floor ? floor : want * pct / 100
                    d = g - want; if (d < 0) d = -d
                    printf "rank %s %s: send_late_s %.4f, expected %.4f +- %.4f\n", v["rank"], v["site"], g, want, tol
                    if (d > tol) bad = 1; n++ }
        END { exit bad || !n }' "$4/branches.txt" "$4/slt.txt" "$3"
}

# timed CHECK WHAT PCT FLOOR NP OUT REPORT command...: run_timed NP
# command... (its output in OUT, its report in REPORT), then check WHAT
# with CHECK PCT FLOOR OUT REPORT (within, truth_within). On a busy node a
# timed run can miss through no fault of the profiler (a sleeping rank
# woken late, a rank preempted between its measured parts): a miss is run
# once more, both tries logged, and only a second miss fails.
timed() {
    local check=$1 what=$2 pct=$3 floor=$4 ranks=$5 out=$6 rep=$7 try
    shift 7
    for try in 1 2; do
        rm -rf "$rep"
        if run_timed "$ranks" "$@" > "$out" && "$check" "$pct" "$floor" "$out" "$rep"; then
            ok "$what"
            return 0
        fi
        echo "try $try of 2 missed: $what"
    done
    fail "$what"
}

# timed_within WHAT PCT FLOOR NP OUT REPORT command...: timed with within.
timed_within() {
    timed within "$@"
}

# refuses PROG WANT NP ARGS...: PROG ARGS on NP ranks exits with status 2,
# prints nothing on stdout and exactly one line "NAME: ..." on stderr (NAME
# the program's file name) that starts with "NAME: WANT".
refuses() {
    local prog=$1 want=$2 ranks=$3 name status
    shift 3
    name=${prog##*/}
    run "$ranks" "$prog" "$@" > "$work/bad.out" 2> "$work/bad.err"
    status=$?
    if [ $status -eq 2 ] && [ ! -s "$work/bad.out" ] && [ "$(grep -c "^$name: " "$work/bad.err")" -eq 1 ] &&
        grep -q "^$name: $want" "$work/bad.err"; then
        ok "$name $* on $ranks: $(grep "^$name: " "$work/bad.err")"
    else
        fail "$name $* on $ranks: status $status, stdout $(wc -l < "$work/bad.out") lines, stderr:"
        cat "$work/bad.err"
    fi
}

# refuses_with WANT COMMAND...: COMMAND (not under mpirun) exits with
# status 2, prints nothing on stdout and one line on stderr matching WANT.
refuses_with() {
    local want=$1
    shift
    "$@" > "$work/bad.out" 2> "$work/bad.err"
    refused "$want" $? "$work/bad" "$*"
}

# refused WANT STATUS FILES WHAT: the check of refuses_with on a command
# WHAT that ended with STATUS, its stdout in FILES.out, stderr in FILES.err.
refused() {
    if [ "$2" -eq 2 ] && [ ! -s "$3.out" ] && [ "$(wc -l < "$3.err")" -eq 1 ] && grep -q "$1" "$3.err"; then
        ok "$(cat "$3.err")"
    else
        fail "$4: status $2, stdout $(wc -l < "$3.out") lines, stderr:"
        cat "$3.err"
    fi
}

# report_queue NAME ARGS...: add mpiprof-report ARGS (no tab or newline
# in them) to the commands of report_batch, its results named NAME.
# report_batch: run the queued commands, in order, in one Python, so that
# pandas loads once and not once a command (0.4 to 1 s each here): each
# one's stdout in $work/NAME.out, stderr in $work/NAME.err, exit status in
# $work/NAME.status, as the command run alone would leave them, and the
# seconds it took (pandas loaded) in $work/NAME.secs (main() of
# the build's mpiprof-report called with ARGS, the descriptors 1 and 2 on
# the files, a warning printed by each command that meets it; an
# exception: its traceback, status 1). Empties the queue.
report_queue() {
    printf '%s' "$1" >> "$work/report.queue"
    shift
    printf '\t%s' "$@" >> "$work/report.queue"
    echo >> "$work/report.queue"
}
report_batch() {
    "$PYTHON" -c '
import os, runpy, sys, time, traceback, warnings
tool = runpy.run_path(sys.argv[1], run_name="mpiprof_report")
keep = os.dup(1), os.dup(2)
for line in open(sys.argv[2]):
    name, *args = line.rstrip("\n").split("\t")
    path = os.path.join(sys.argv[3], name)
    for fd, ext in (1, ".out"), (2, ".err"):
        f = os.open(path + ext, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(f, fd)
        os.close(f)
    start = time.monotonic()
    try:
        with warnings.catch_warnings():     # each command warns anew, as alone
            status = tool["main"](args)
    except SystemExit as e:
        status = e.code
        if not isinstance(status, int) and status is not None:
            print(status, file=sys.stderr)
            status = 1
    except Exception:
        traceback.print_exc()
        status = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os.dup2(keep[0], 1)
    os.dup2(keep[1], 2)
    with open(path + ".status", "w") as f:
        print(status or 0, file=f)
    with open(path + ".secs", "w") as f:
        print("%.1f" % (time.monotonic() - start), file=f)' "$top_builddir/tools/mpiprof-report" "$work/report.queue" "$work"
    rm -f "$work/report.queue"
}

# batch_status NAME: the exit status report_batch kept for NAME.
batch_status() { cat "$work/$1.status"; }

# refused_by NAME WANT: report_batch's NAME refused as refuses_with checks.
refused_by() { refused "$2" "$(batch_status "$1")" "$work/$1" "mpiprof-report ($1)"; }

# synthetic DIR RANKS [SITES [ANCESTORS]]: a report of RANKS ranks
# written by awk, with the options of late sender, collective wait and the
# model: per rank SITES call sites (12 unless given) of 12 functions in
# turn (site s: brid s, main@syn.c:<10+s>, ANCESTORS, "-" unless given;
# 100 calls and 800 bytes times the function's number each way), its
# functions.txt and summary.txt the sums, a ring of partners, slt.txt's
# rows for the MPI_Recv sites.
synthetic() {
    mkdir -p "$1"
    awk -v n="$2" -v ns="${3:-12}" -v anc="${4:--}" -v dir="$1" 'BEGIN {
        head = "# mpiprof 0.1.0 command=\"./synthetic\" ranks=" n " start=2026-01-01T00:00:00 clock=tsc options=EVAL_SLT=1;EVAL_COLLECTIVE_WAIT=1;MODEL=perfect"
        split("MPI_Send MPI_Recv MPI_Allreduce MPI_Barrier MPI_Bcast MPI_Wait MPI_Isend MPI_Irecv MPI_Reduce MPI_Alltoall MPI_Gather MPI_Scatter", fn, " ")
        print head "\n# rank elapsed_s mpi_s mpi_pct compute_s mpi_calls profiler_s send_late_s coll_wait_s model_elapsed_s" > (dir "/summary.txt")
        print head "\n# rank function calls time_s min_s max_s bytes_sent bytes_recv region" > (dir "/functions.txt")
        print head "\n# rank brid function calls time_s self_pct tot_pct sends recvs avg_send avg_recv bytes_sent bytes_recv recv_wait_s site ancestors region" > (dir "/branches.txt")
        print head "\n# rank brid function partner partner_brid count bytes time_pct" > (dir "/partners.txt")
        print head "\n# rank brid function evaluated not_evaluated recv_wait_s send_late_s transfer_s" > (dir "/slt.txt")
        for (r = 0; r < n; r++) {
            mpi = 0
            for (k = 1; k <= 12; k++) { ft[k] = 0; fc[k] = 0 }
            for (s = 1; s <= ns; s++) {
                k = (s - 1) % 12 + 1
                t = k * 0.01 * (1 + (r % 13) / 13) * (1 + int((s - 1) / 12) % 5); mpi += t; ft[k] += t; fc[k]++
                printf "%d %d %s 100 %.9f 1.00 1.00 0 0 0 0 %d %d 0.000000000 main@syn.c:%d %s whole\n", r, s, fn[k], t, 800 * k, 800 * k, 10 + s, anc > (dir "/branches.txt")
                if (k == 2)
                    printf "%d %d %s 100 0 %.9f %.9f %.9f\n", r, s, fn[k], t, t / 2, t / 2 > (dir "/slt.txt")
            }
            for (k = 1; k <= 12; k++)
                if (fc[k])
                    printf "%d %s %d %.9f 0.000001000 0.001000000 %d %d whole\n", r, fn[k], 100 * fc[k], ft[k], 800 * k * fc[k], 800 * k * fc[k] > (dir "/functions.txt")
            printf "%d 1 MPI_Send %d - 100 80000 100.00\n", r, (r + 1) % n > (dir "/partners.txt")
            printf "%d 2 MPI_Recv %d - 100 160000 100.00\n", r, (r + n - 1) % n > (dir "/partners.txt")
            printf "%d %.9f %.9f 50.00 %.9f %d 0.000000000 %.9f %.9f %.9f\n", r, 2 * mpi, mpi, mpi, 100 * ns, mpi / 4, mpi / 8, 1.5 * mpi > (dir "/summary.txt")
        }
        print "# complete" > (dir "/summary.txt")
    }'
}

finish() {
    if [ "$failures" -ne 0 ]; then
        echo "$failures check(s) failed"
        exit 1
    fi
    echo "all checks passed"
    exit 0
}
