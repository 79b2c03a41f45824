#!/bin/sh
# t_fuzz.sh: the fuzzer of legal point-to-point programs (fuzz.c, issue 31).
# Fixed seeds (6 schedules; 2 with two threads per rank; and the seeds of
# fuzz-seeds.txt), each run without the profiler, then under --slt,
# --collwait, --model perfect, --model lat=5,bw=1000 and all of --waits
# (late sender with wait states) --collwait --model perfect: the sorted output must be the plain run's
# (the schedules also run with every send synchronous, fuzz -S, which
# proves them legal whatever the buffering); under --slt, per rank and
# site the send_late_s of slt.txt against fuzz's truth within 20 % (floor
# 5 ms; at most that above it where some receives were not evaluated) and
# its receives exactly (fuzz-figures.awk), a miss run up to twice more,
# every try printed (the threaded schedules on MPICH's busy-polling ranks
# missed two tries in a row once: 20 ms against a truth of 27 ms, seed 50
# -T). Every run under a time limit: a hang kills
# the job, fails naming seeds, options and the step it was stuck in
# (fuzz-stuck.awk), and the option set is not run again (so that a hanging
# profiler costs at most four limits). Every report that matched the plain
# run's output is kept, and at the end mpiprof-report check (its
# invariants: per rank send-late <= receive wait <= MPI time <= elapsed,
# the files' sums agree) runs over them all at once; a broken one fails
# naming the schedule and options (skipped without Python's pandas).
# Open MPI at 3 ranks
# (oversubscribed), MPICH at 2 (it busy-polls).
# With FUZZ_NODES=1 (t_fuzz_nodes.sh) every run is on 2 simulated nodes
# (nodes.sh), half its ranks a node (rounded up: node0 has the odd one),
# over TCP between them, the profiler's clocks
# there 200 ppm slow and 200 ppm fast (MPIPROF_CLOCK=monotonic,
# MPIPROF_TEST_DRIFT); the namespaces' CLOCK_MONOTONIC offsets are 0, as
# fuzz's truth compares its ranks' CLOCK_MONOTONIC stamps (the profiler
# still measures the nodes' offsets: their host names differ).
. "$top_srcdir/tests/integration/lib.sh"

fuzz="$top_builddir/tests/integration/fuzz"
figures="$top_srcdir/tests/integration/fuzz-figures.awk"
stuck="$top_srcdir/tests/integration/fuzz-stuck.awk"
seedfile="$top_srcdir/tests/integration/fuzz-seeds.txt"
np=3
[ "$MPI_FLAVOR" = mpich ] && np=2
limit=${FUZZ_LIMIT:-15}    # seconds; a run takes 1-3
optsets="--slt|--collwait|--model perfect|--model lat=5,bw=1000|--waits --collwait --model perfect"
hung=
if [ -n "${FUZZ_NODES:-}" ]; then
    . "$top_srcdir/tests/integration/nodes.sh"
    NODES_OFFSETS="0 0"
    nodes_up_or_skip 2
    NODES_ENV_0="MPIPROF_CLOCK=monotonic MPIPROF_TEST_DRIFT=-200"
    NODES_ENV_1="MPIPROF_CLOCK=monotonic MPIPROF_TEST_DRIFT=200"
    NODES_TIMEOUT=$limit
    export NODES_ENV_0 NODES_ENV_1 NODES_TIMEOUT
fi

# job HOW NP OUT command...: command on NP ranks under the run lock (HOW:
# -s shared, -x alone for timed runs) and the time limit (timeout signals
# its whole process group: mpirun and the ranks; on the nodes, nodes.sh's
# limit kills what ran there); stdout in OUT, stderr in OUT.err; the
# status (124 or 137: the limit).
job() {
    local how="$1" ranks="$2" out="$3"
    shift 3
    if [ -n "${FUZZ_NODES:-}" ]; then
        with_lock "$how" "$top_srcdir/tests/integration/nodes-mpirun.sh" $(((ranks + 1) / 2)) -n "$ranks" "$@" \
            < /dev/null > "$out" 2> "$out.err"
        return
    fi
    echo "+ timeout $limit $MPIRUN -np $ranks $*" >&2
    with_lock "$how" timeout -k 5 "$limit" "$MPIRUN" -np "$ranks" "$@" < /dev/null > "$out" 2> "$out.err"
}

# keep DIR WHAT: a copy of the report DIR (of WHAT) for the invariants.
kept=0
mkdir -p "$work/kept"
keep() {
    kept=$((kept + 1))
    cp -r "$1" "$work/kept/$kept" && echo "$kept $2" >> "$work/kept.txt"
}

# compare WHAT OUT: OUT without its truth lines, sorted, is $work/ref.
compare() {
    grep -v '^truth ' "$2" | sort > "$2.sorted"
    if cmp -s "$work/ref" "$2.sorted"; then
        ok "$1: the same $(grep -c '^m ' "$2.sorted") messages"
        return 0
    fi
    fail "$1: output differs from the plain run (< plain, > this run):"
    diff "$work/ref" "$2.sorted" | head -10
    return 1
}

# status_ok WHAT STATUS OUT: a run ended by itself with status 0.
status_ok() {
    case $2 in
        0) return 0 ;;
        124 | 137) fail "$1: hang (no end within $limit s$(awk -f "$stuck" "$3.err")), job killed"; return 1 ;;
    esac
    fail "$1: exit status $2"
    grep 'BAD' "$3" | head -5
    tail -3 "$3.err"
    return 1
}

# config SEED COUNT NP [FUZZ ARGS]: one configuration through every option set.
config() {
    local seed="$1" count="$2" ranks="$3" label opts tag how try out s
    shift 3
    label="seeds $seed..$((seed + count - 1))"
    [ "$count" -gt 1 ] || label="seed $seed"
    label="$label on $ranks ranks${1:+ ($*)}"
    out="$work/plain.out"
    job -s "$ranks" "$out" "$fuzz" -v -s "$seed" -n "$count" "$@"
    status_ok "$label without the profiler" $? "$out" || return
    grep -v '^truth ' "$out" | sort > "$work/ref"
    check "$label: $ranks done lines, no BAD line" awk -v n="$ranks" '
        /^done / { d++ } /BAD/ { b++ } END { exit d != n || b }' "$work/ref"
    if [ "$count" -gt 1 ]; then
        job -s "$ranks" "$work/sync.out" "$fuzz" -v -S -s "$seed" -n "$count" "$@"
        status_ok "$label with every send synchronous (-S)" $? "$work/sync.out" &&
            compare "$label, -S" "$work/sync.out"
    fi
    IFS='|'
    set -f
    for opts in $optsets; do
        IFS=' '
        case "|$hung|" in *"|$opts|"*) echo "skipped: $label under $opts (it hung before)"; continue ;; esac
        tag=$(echo "$opts" | tr -cd 'a-z0-9')
        how=-s
        case $opts in *--slt* | *--waits*) how=-x ;; esac
        for try in 1 2 3; do
            out="$work/$tag.out"
            rm -rf "${work:?}/$tag"
            # shellcheck disable=SC2086 # the option set's words are meant to split
            job $how "$ranks" "$out" "$launcher" -q $opts -o "$work/$tag" "$fuzz" -v -s "$seed" -n "$count" "$@"
            s=$?
            if ! status_ok "$label under $opts" $s "$out"; then
                [ $s -eq 124 ] || [ $s -eq 137 ] && hung="$hung|$opts"
                break
            fi
            compare "$label under $opts" "$out" || break
            [ $try -gt 1 ] || keep "$work/$tag" "$label under $opts"
            case $opts in *--slt* | *--waits*) ;; *) break ;; esac
            if awk -v pct=20 -v floor=0.005 -f "$figures" "$out" "$work/$tag/branches.txt" "$work/$tag/slt.txt" \
                > "$work/$tag.fig"; then
                sort "$work/$tag.fig"
                ok "$label under $opts: send_late_s per rank and site within 20 % (floor 5 ms) of the truth"
                break
            fi
            sort "$work/$tag.fig"
            if [ $try -lt 3 ]; then
                echo "try $try of 3 missed: $label under $opts: figures (the lines ending OFF)"
            else
                fail "$label under $opts: send_late_s off the truth (the lines ending OFF, all three tries)"
            fi
        done
        IFS='|'
    done
    IFS=' '
    set +f
}

refuses "$fuzz" "-n: 'x' is not a count of schedules" 2 -n x

config 1 6 $np
config 50 2 $np -T
# The seeds that ever failed (SEED COUNT NP [FUZZ ARGS], # comments), MPICH
# at 2 ranks at most.
sed 's/#.*//' "$seedfile" > "$work/seeds"
while read -r seed count ranks args; do
    [ -n "$seed" ] || continue
    [ "$MPI_FLAVOR" = mpich ] && [ "$ranks" -gt 2 ] && ranks=2
    # shellcheck disable=SC2086 # the arguments are words
    config "$seed" "$count" "$ranks" $args
done < "$work/seeds"
if [ "$kept" -gt 0 ] && [ -n "${PYTHON:-}" ] && [ "$PYTHON" != : ] && "$PYTHON" -c 'import pandas' 2> /dev/null; then
    PYTHONDONTWRITEBYTECODE=1 "$top_builddir/tools/mpiprof-report" check $(seq -s " " -f "$work/kept/%g" 1 "$kept") \
        > "$work/check.out" 2>&1
    case $? in
        0) ok "mpiprof-report check: every invariant holds in the $kept reports" ;;
        1) grep -v ': every invariant holds$' "$work/check.out" > "$work/broken"
           while read -r line; do
               n=${line#"$work"/kept/}
               fail "$(awk -v n="${n%%/*}" '$1 == n { $1 = ""; print substr($0, 2) }' "$work/kept.txt"): ${n#*/}"
           done < "$work/broken" ;;
        *) fail "mpiprof-report check did not run:"; cat "$work/check.out" ;;
    esac
else
    echo "skipped: the invariants (no report kept, or no Python with pandas)"
fi
if [ -n "${FUZZ_NODES:-}" ]; then
    cat "$work/slt/nodes.txt"
    check "on the nodes: the last --slt report's nodes.txt has node0 and node1, one rank each" \
        test "$(awk '!/^#/ { printf "%s %s;", $2, $3 }' "$work/slt/nodes.txt")" = "node0 1;node1 1;"
fi
finish
