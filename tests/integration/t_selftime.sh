#!/bin/sh
# t_selftime.sh: no profiler time in the program's figures (issue 33 item
# 1). selftime.c times every MPI call it makes with MPI_Wtime; under each
# option its report must agree with that view in the same run:
#   - summary.txt compute_s within max(3 %, 10 ms) of the program's compute;
#   - functions.txt calls exactly, and each function's time_s within
#     10 ms below the program's time of it and at most 10 ms plus the
#     rank's profiler_s above it (the profiler's own work after a call's
#     end is inside the program's view of that call, and in profiler_s);
#   - mpi_s + profiler_s within max(3 %, 10 ms) of the program's MPI time.
# The runs hold the build's run lock alone (a rank descheduled inside a
# wrapper after the call's clock stopped is MPI time to the program and
# compute to the report); the floor is for the ranks, oversubscribed,
# that still are. The clock agreement counted as compute (before issue
# 33) put 150 ms of the late root's MPI_Reduce into the others' compute.
# Without --model, snapshots and --depth, profiler_s is below 10 ms (the
# first call's thread state).
. "$top_srcdir/tests/integration/lib.sh"

prog="$top_builddir/tests/integration/selftime"
np=4
[ "$MPI_FLAVOR" = mpich ] && np=2     # MPICH busy-polls: 2 ranks on 2 cores

# agree DIR REPORT: the comparisons above, one line per rank and figure.
agree() {
    awk -v dir="$1" '
        FILENAME ~ /summary.txt$/ {
            if (/^# rank/) { for (i = 2; i <= NF; i++) col[$i] = i - 1; next }
            if (/^#/) next
            r = $1; compute[r] = $col["compute_s"]; mpi[r] = $col["mpi_s"]; prof[r] = $col["profiler_s"]
            ranks[r] = 1; next }
        /^#/ { next }
        { t[$1 " " $2] = $4; c[$1 " " $2] = $3 }
        function tol(x) { x = x < 0 ? -x : x; return x * 0.03 > 0.01 ? x * 0.03 : 0.01 }
        function say(what, want, got, lo, hi) {
            ok = got >= want - lo && got <= want + hi
            printf "rank %d %s: %.4f, program %.4f (-%.4f/+%.4f) %s\n", r, what, got, want, lo, hi, ok ? "ok" : "MISS"
            if (!ok) bad = 1 }
        END {
            for (r in ranks) {
                f = dir "/self." r; pmpi = 0
                if ((getline line < f) <= 0) { print "no " f; bad = 1; continue }
                split(line, w, " "); say("compute_s", w[2], compute[r], tol(w[2]), tol(w[2]))
                while ((getline line < f) > 0) {
                    split(line, w, " "); k = r " " w[1]; pmpi += w[3]
                    if (c[k] != w[2]) { printf "rank %d %s: %d calls, program %d MISS\n", r, w[1], c[k], w[2]; bad = 1 }
                    say(w[1] " time_s", w[3], t[k], 0.01 + prof[r], 0.01)
                }
                close(f)
                say("mpi_s + profiler_s", pmpi, mpi[r] + prof[r], tol(pmpi), tol(pmpi))
                if (!n++ && prof[r] == "") { print "no profiler_s column"; bad = 1 }
            }
            exit bad || !n }' "$2/summary.txt" "$2/functions.txt"
}

# profiler_small REPORT: every rank's profiler_s is below 10 ms.
profiler_small() {
    awk '/^# rank/ { for (i = 2; i <= NF; i++) if ($i == "profiler_s") c = i - 1; next }
         /^#/ { next } { n++; if ($c >= 0.01) bad = 1 } END { exit bad || !n || !c }' "$1/summary.txt"
}

# one_run K OPTS: selftime under the options into $work/s$K and $work/r$K;
# 1 when the run itself failed, 2 when the figures missed, else 0.
one_run() {
    rm -rf "$work/s$1" "$work/r$1" && mkdir -p "$work/s$1"
    # shellcheck disable=SC2086 # the options are words
    run_timed $np "$launcher" -q $2 -o "$work/r$1" "$prog" "$work/s$1" 5 10 > "$work/out$1" 2>&1 || return 1
    agree "$work/s$1" "$work/r$1" > "$work/agree$1" || return 2
}

# As for the other timed checks (lib.sh, timed): a rank descheduled inside
# a wrapper while another test runs beside it (a snapshot's write in an
# MPICH MPI_Reduce, 15 ms, CI of 466ac91) is one miss; a miss is run once
# more, both tries logged, and only a second miss fails.
k=0
for opts in - --slt --collwait "--model perfect" "--model lat=50,bw=500" "--snapshot 0.1" "--depth 4"; do
    k=$((k + 1))
    [ "$opts" = - ] && opts=
    one_run $k "$opts"
    rc=$?
    if [ $rc -eq 2 ]; then
        echo "try 1 of 2 missed: the report agrees with the program's own timestamps under mpiprof ${opts:--}"
        cat "$work/agree$k"
        one_run $k "$opts"
        rc=$?
    fi
    if [ $rc -eq 1 ]; then
        fail "selftime runs under mpiprof ${opts:--}"
        cat "$work/out$k"
        continue
    elif [ $rc -eq 0 ]; then
        ok "the report agrees with the program's own timestamps under mpiprof ${opts:--}"
    else
        fail "the report agrees with the program's own timestamps under mpiprof ${opts:--}"
        cat "$work/agree$k"
    fi
    case $opts in
        --model* | --snapshot* | --depth*) ;;
        *) check "profiler_s below 10 ms under mpiprof ${opts:--}" profiler_small "$work/r$k" ;;
    esac
done
grep -h . "$work"/agree2 | head -12

finish
