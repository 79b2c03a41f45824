#!/bin/sh
# t_across.sh: every time figure across nodes (issue 49). On 2 simulated
# nodes (nodes.sh: TCP between them), their CLOCK_MONOTONIC 1000 s below
# and 1000 s above this machine's (2000 s apart) and running 200 ppm slow
# and 200 ppm fast (MPIPROF_CLOCK=monotonic, MPIPROF_TEST_DRIFT per node),
# at 1 and 2 ranks a node (MPICH, which busy-polls: 1 rank a node, and its
# own one-sided component, which works between these nodes):
#  - the known answers of mpiprof-validate that compare times of different
#    ranks (late sender, late receiver, collective wait, every wait state
#    of collectives and point-to-point) pass with their one-node
#    tolerances; the one-sided ones too with Open MPI's osc pt2pt, and with
#    its default osc, which cannot make the programs' windows between
#    these nodes (MPI_ERR_WIN), they are NOT RUN with that reason;
#  - nodes.txt names both nodes and their ranks, node 1's offset is the
#    namespaces' -2000 s within its sync_error_s (and 1 ms), its drift
#    +400 ppm within what two errors over the run allow; in every report
#    with wait states, each node's caused_s is the caused_s of the
#    waits.txt rows of its ranks, and waited_s and caused_s each sum to
#    waits.txt's total (to rounding); the sender of the late receiver
#    check (MPI_Issend, rank 0) waited on node0, caused on node1;
#  - the clock condition: with the clocks 2 % apart (-10000 and +10000
#    ppm), the checks whose messages go both ways (late receiver, PSCW)
#    still pass (without it the late receiver of MPI_Issend lost every
#    round: no row), and node 0, the slow one, moved its timeline on by
#    about 2 % of the run (advanced_s), node 1 not at all;
#  - the drift where messages go one way (nodes.c: the least one-way
#    delays of a node's messages): with the clocks 2 % apart, late sender
#    and a late broadcast root over 50 rounds of 20 ms, the slow node
#    sending, within 20 % (without it they read 0.49 and 0.51 s of 1.02:
#    the sender's times came up to 2 % of the run early);
#  - late sender with the tokens in batches (MPIPROF_TEST_TOKEN=batch):
#    every receive evaluated when its token came, within 20 %;
#  - the job never breaks: mix (no one-sided call) under every option
#    prints what it prints without the profiler, a complete report.
. "$top_srcdir/tests/integration/lib.sh"
. "$top_srcdir/tests/integration/nodes.sh"

# MPICH 4.0.2 over UCX 1.13's TCP transport (Debian 12) hung in
# MPI_Finalize in 1 run of 4 to 8 here under the profiler, until the
# profiler paused before it (libprof/run/settle.c, mpiprof(1) BUGS).
ks="1 2" osc_pt2pt="--mca osc pt2pt" osc_name="osc pt2pt"
[ "$MPI_FLAVOR" = mpich ] && ks=1 osc_pt2pt= osc_name="MPICH's own"

NODES_OFFSETS="-1000 1000"
nodes_up_or_skip 2
NODES_ENV_0="MPIPROF_CLOCK=monotonic MPIPROF_TEST_DRIFT=-200"
NODES_ENV_1="MPIPROF_CLOCK=monotonic MPIPROF_TEST_DRIFT=200"
export NODES_ENV_0 NODES_ENV_1
MPIPROF_LAUNCHER="$launcher" MPIPROF_BENCH="$top_builddir/bench"
export MPIPROF_LAUNCHER MPIPROF_BENCH
validate="$top_builddir/tools/mpiprof-validate"
agent="$top_srcdir/tests/integration/nodes-mpirun.sh"

times=late-sender,late-receiver,late-senders,late-senders-recv,imbalance,waits-barrier,waits-nxn,waits-bcast
times=$times,waits-reduce,waits-scan,waits-order,waits-chain,waits-ssend,waits-issend,waits-rendezvous
times=$times,waits-ibcast,waits-iallreduce,waits-iscan
onesided=waits-fence,waits-latepost,waits-earlywait,waits-latecomplete,rma

# across K NP LIST NAME [MPIRUN ARGS]: mpiprof-validate --only LIST at NP
# ranks, K a node, alone on the machine (the run lock, as timed checks
# hold it); its output in $work/v.K.NAME.out, the reports in
# $work/v.K.NAME. A check that missed runs once more, as timed_within
# does (a rank of a busy node woken late): $work/v.K.NAME.res holds the
# lines of each check's last try.
across() {
    local k=$1 np=$2 list=$3 name=$4 again
    shift 4
    NODES_MPIRUN_ARGS="$*" with_lock -x "$validate" -np "$np" --mpirun "$agent $k" --only "$list" \
        -o "$work/v.$k.$name" > "$work/v.$k.$name.out" 2>&1
    cat "$work/v.$k.$name.out"
    again=$(awk '!/^#/ && / FAIL$/ { print $1 }' "$work/v.$k.$name.out" | sort -u | tr '\n' ',' | sed 's/,$//')
    cp "$work/v.$k.$name.out" "$work/v.$k.$name.res"
    [ -n "$again" ] || return 0
    echo "try 1 of 2 missed: $again"
    NODES_MPIRUN_ARGS="$*" with_lock -x "$validate" -np "$np" --mpirun "$agent $k" --only "$again" \
        -o "$work/v.$k.$name.again" > "$work/v.$k.$name.again.out" 2>&1
    cat "$work/v.$k.$name.again.out"
    awk -v again=",$again," 'FNR == NR { if (!/^#/ && !/ passed, / && index(again, "," $1 ",")) print; next }
        !/^#/ && !/ passed, / && !index(again, "," $1 ",")' \
        "$work/v.$k.$name.again.out" "$work/v.$k.$name.out" > "$work/v.$k.$name.res"
}

# passes WHAT FILE N: N checks ran (their last tries in FILE), every line PASS.
passes() {
    check "$1: every figure within its one-node tolerance" awk -v n="$3" '
        /^#/ || / passed, / { next }
        $NF == "PASS" { p++; seen[$1] = 1; next } { bad = 1 }
        END { for (c in seen) k++; exit bad || !p || k != n }' "$2"
}

nchecks() { echo "$1" | tr ',' '\n' | wc -l; }

for k in $ks; do
    np=$((2 * k))
    lay="2 nodes x $k rank(s)"
    across "$k" "$np" "$times" times
    passes "$lay: late sender, collective wait, wait states" "$work/v.$k.times.res" "$(nchecks "$times")"
done

# One-sided calls between the nodes: Open MPI 4.1's default component
# refuses the programs' windows over TCP (so the checks are NOT RUN, with
# the MPI's error); its pt2pt component runs them. MPICH's runs them.
if [ "$MPI_FLAVOR" = openmpi ]; then
    across 1 2 "$onesided" default
    check "2 nodes x 1 rank, Open MPI's default osc: one-sided checks NOT RUN with the MPI's error, none failed" \
        awk -v n="$(nchecks "$onesided")" '
        / NOT RUN$/ { k++ } /^# [0-9]+ checks did not run, not a wrong figure: .*MPI_ERR_WIN/ { why = 1 }
        $0 == "0 passed, 0 failed, " n " not run" { last = 1 }
        END { exit k != n || !why || !last }' "$work/v.1.default.out"
fi
# shellcheck disable=SC2086 # the options are words
across 1 2 "$onesided" pt2pt $osc_pt2pt
passes "2 nodes x 1 rank, $osc_name one-sided: wait states" "$work/v.1.pt2pt.res" "$(nchecks "$onesided")"

# nodes.txt of the late-sender run: both nodes, node 1 2000 s ahead of
# node 0 and 400 ppm faster.
nodes="$work/v.1.times/late-sender/nodes.txt"
cat "$nodes"
check "nodes.txt: node0 runs rank 0, node1 rank 1" \
    test "$(awk '!/^#/ { printf "%s %s %s %s;", $1, $2, $3, $4 }' "$nodes")" = "0 node0 1 0;1 node1 1 1;"
check "nodes.txt: node 1's offset is -2000 s within its sync_error_s + 1 ms" awk '
    !/^#/ && $1 == 1 { d = $6 + 2000; if (d < 0) d = -d; printf "offset error %.6f s, bound %.6f s\n", d, $8
                       exit !(d <= $8 + 0.001) }' "$nodes"
run_s=$(awk '!/^#/ && $1 == 0 { print $2 }' "$work/v.1.times/late-sender/summary.txt")
check "nodes.txt: node 1's drift is +400 ppm within two errors over the run (${run_s} s) + 50 ppm" awk -v s="$run_s" '
    !/^#/ && $1 == 1 { d = $7 - 400; if (d < 0) d = -d; b = 2 * $8 / s * 1e6 + 50
                       printf "drift %.1f ppm, off by %.1f, bound %.1f\n", $7, d, b; exit !(d <= b) }' "$nodes"

# The clock condition: the clocks 2 % apart, 4 ms over a 0.2 s check.
both=waits-ssend,waits-issend,waits-latepost,waits-earlywait,waits-latecomplete
NODES_ENV_0="MPIPROF_CLOCK=monotonic MPIPROF_TEST_DRIFT=-10000"
NODES_ENV_1="MPIPROF_CLOCK=monotonic MPIPROF_TEST_DRIFT=10000"
# shellcheck disable=SC2086 # the options are words
across 1 2 "$both" drift $osc_pt2pt
NODES_ENV_0="MPIPROF_CLOCK=monotonic MPIPROF_TEST_DRIFT=-200"
NODES_ENV_1="MPIPROF_CLOCK=monotonic MPIPROF_TEST_DRIFT=200"
passes "2 nodes x 1 rank, clocks 2 % apart: late receiver and PSCW" "$work/v.1.drift.res" "$(nchecks "$both")"
nodes="$work/v.1.drift/waits-earlywait/nodes.txt"
run_s=$(awk '!/^#/ && $1 == 0 { print $2 }' "$work/v.1.drift/waits-earlywait/summary.txt")
grep -v '^# mpiprof' "$nodes"
check "nodes.txt: node 0 (2 % slow) moved its timeline on by 0.5 to 3 % of the run (${run_s} s), node 1 not" awk -v s="$run_s" '
    !/^#/ { a[$1] = $9 } END { exit !(a[0] >= 0.005 * s && a[0] <= 0.03 * s && a[1] == 0) }' "$nodes"

# The drift where messages go one way: the clocks 2 % apart again.
# long NAME ARGS...: mpiprof --slt --waits -o $work/long.NAME mpiprof-known
# ARGS on 2 nodes x 1 rank, alone on the machine, its output in
# $work/long.NAME.out; long_check NAME on them, a miss tried once more.
long() {
    local name=$1 try
    shift
    for try in 1 2; do
        rm -rf "$work/long.$name"
        with_lock -x "$agent" 1 -n 2 "$launcher" --slt --waits -o "$work/long.$name" \
            "$top_builddir/bench/mpiprof-known" "$@" > "$work/long.$name.out" 2> "$work/long.$name.err"
        head -1 "$work/long.$name.out"
        if long_check "$name"; then return 0; fi
        echo "try $try of 2 missed"
    done
    return 1
}
long_check() {
    case $1 in
    sender) within 20 0.005 "$work/long.sender.out" "$work/long.sender" ;;
    bcast) awk 'FNR == NR { for (i = 1; i <= NF; i++) if ($i ~ /^causes=/) { n = split($i, f, "/"); want = f[n] }
                            next }
                $1 == "late_broadcast" && $5 == 0 { got += $2 }
                END { printf "late_broadcast caused_s %.4f, expected %.4f +- 20 %%\n", got, want
                      d = got - want; if (d < 0) d = -d; exit !(want > 0 && d <= 0.2 * want) }' \
           "$work/long.bcast.out" "$work/long.bcast/waits.txt" ;;
    esac
}
NODES_ENV_0="MPIPROF_CLOCK=monotonic MPIPROF_TEST_DRIFT=-10000"
NODES_ENV_1="MPIPROF_CLOCK=monotonic MPIPROF_TEST_DRIFT=10000"
check "clocks 2 % apart, messages one way: late sender, 50 rounds of 20 ms, within 20 %" long sender late-sender -k 50 -d 20
check "clocks 2 % apart, messages one way: a late broadcast root, 50 rounds of 20 ms, within 20 %" long bcast waits -c ibcast -k 50 -d 20
NODES_ENV_0="MPIPROF_CLOCK=monotonic MPIPROF_TEST_DRIFT=-200"
NODES_ENV_1="MPIPROF_CLOCK=monotonic MPIPROF_TEST_DRIFT=200"

# Batched tokens between the nodes (MPIPROF_TEST_TOKEN=batch, late sender
# alone on the tokens): each receive evaluated when its token came, from
# its sender's synchronized send time (its arrival, long after, would read
# the whole wait): late sender within 20 %, rank 1's 10 MPI_Recv evaluated.
batch_sender() {
    local try
    for try in 1 2; do
        rm -rf "$work/batch"
        with_lock -x "$agent" 1 -n 2 "$launcher" --slt -o "$work/batch" \
            "$top_builddir/bench/mpiprof-known" late-sender -k 10 -d 20 > "$work/batch.out" 2> "$work/batch.err"
        if within 20 0.005 "$work/batch.out" "$work/batch" && awk '
            !/^#/ && $1 == 1 && $3 == "MPI_Recv" { n++; ok = $4 == 10 && $5 == 0 } END { exit !(n == 1 && ok) }' \
            "$work/batch/slt.txt"; then
            return 0
        fi
        echo "try $try of 2 missed"
    done
    return 1
}
NODES_ENV_0="$NODES_ENV_0 MPIPROF_TEST_TOKEN=batch"
NODES_ENV_1="$NODES_ENV_1 MPIPROF_TEST_TOKEN=batch"
check "tokens in batches between the nodes: late sender within 20 %, its 10 receives evaluated when their tokens came" \
    batch_sender
NODES_ENV_0="MPIPROF_CLOCK=monotonic MPIPROF_TEST_DRIFT=-200"
NODES_ENV_1="MPIPROF_CLOCK=monotonic MPIPROF_TEST_DRIFT=200"

# nodes_waits DIR: DIR's nodes.txt against its waits.txt (above).
nodes_waits() {
    awk 'FILENAME ~ /waits.txt$/ { if (!/^#/) { by[$5] += $2; all += $2 }; next }
         /^#/ { next }
         { n = split($4, parts, ","); mine = 0
           for (i = 1; i <= n; i++) { m = split(parts[i], ab, "-"); if (m == 1) ab[2] = ab[1]
                                       for (r = ab[1]; r <= ab[2]; r++) mine += by[r] }
           d = $11 - mine; if (d < 0) d = -d; if (d > 1e-6) bad = 1
           w += $10; c += $11; rows++ }
         END { d1 = w - all; d2 = c - all; if (d1 < 0) d1 = -d1; if (d2 < 0) d2 = -d2
               exit bad || !rows || d1 > 1e-6 * rows || d2 > 1e-6 * rows }' "$1/waits.txt" "$1/nodes.txt"
}
for c in $(echo "$times" | tr ',' '\n' | grep '^waits-'); do
    for k in $ks; do
        check "nodes.txt's waited_s and caused_s against waits.txt: $k rank(s) a node, $c" nodes_waits "$work/v.$k.times/$c"
    done
done
grep -v '^# mpiprof' "$work/v.1.times/waits-issend/nodes.txt"
check "nodes.txt: the Issend's wait (0.2 s) suffered on node0, caused on node1" awk '
    !/^#/ { w[$1] = $10; c[$1] = $11 } END { exit !(w[0] > 0.15 && c[1] > 0.15 && w[1] < 0.01 && c[0] < 0.01) }' \
    "$work/v.1.times/waits-issend/nodes.txt"

check "mpiprof-report show: the Issend's wait caused on node1, suffered on node0" sh -c "
    '$top_builddir/tools/mpiprof-report' show '$work/v.1.times/waits-issend' > '$work/show.waits' &&
    grep -q '^waits    node1 caused 0\.[12][0-9]* s, waited 0\.000000 s; node0 caused 0\.000000 s, waited 0\.[12]' '$work/show.waits'"
check "mpiprof-report show names the nodes and the node of the rank it shows" sh -c "
    '$top_builddir/tools/mpiprof-report' show --rank 1 '$work/v.1.times/late-sender' > '$work/show.out' &&
    grep -qx 'nodes    2: node0 (rank 0), node1 (rank 1)' '$work/show.out' && grep -q '^rank 1 on node1 ' '$work/show.out'"

# The job never breaks: every option on mix, over TCP, the MPI's defaults.
mix="$top_builddir/tests/integration/mix"
nodes_mpirun 1 2 "$mix" > "$work/plain.out" 2> "$work/plain.err" || fail "mix runs on the nodes without the profiler"
for opts in "" --slt --waits --collwait "--model perfect" "--model lat=5,bw=1000" "--slt --waits --collwait --model perfect"; do
    rm -rf "$work/mix"
    # shellcheck disable=SC2086 # the options are words
    nodes_mpirun 1 2 "$launcher" -q $opts -o "$work/mix" "$mix" > "$work/opt.out" 2> "$work/opt.err"
    status=$?
    if [ $status -eq 0 ] && cmp -s "$work/plain.out" "$work/opt.out" && tail -1 "$work/mix/summary.txt" | grep -qx '# complete'; then
        ok "mpiprof ${opts:-(no option)} on 2 nodes: same output, complete report"
    else
        fail "mpiprof ${opts:-(no option)} on 2 nodes: status $status, output or report differs:"
        cat "$work/opt.err"
    fi
done

[ $failures -eq 0 ]
