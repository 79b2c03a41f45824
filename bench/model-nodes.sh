#!/bin/sh
# bench/model-nodes.sh: does the model predict another placement? On two
# simulated nodes (tests/integration/nodes.sh: network namespaces, TCP
# between them, shared memory within one), runs each program at 2 ranks
# on one node (1 x 2) and on the two nodes, one rank each (2 x 1), RUNS
# times each without a model and RUNS times under a model asking for the
# other placement, interleaved, and prints per program and direction the
# median real elapsed time of the placement asked about (summary.txt
# elapsed_s, the slowest rank), the median modelled one (model_elapsed_s)
# and the error. The model is calibrated first: the network within a node
# by mpiprof-calibrate on node0, the one between nodes by
# mpiprof-calibrate --hosts. A benchmark, not a test: not in make check.

usage() {
    cat <<USAGE
Usage: bench/model-nodes.sh [-b BUILDDIR] [-k RUNS] [-r RATE [-B BURST]] [-x ITEMS] [PROGRAM...]

As root, with Open MPI: make two simulated nodes, calibrate the model on
them (table= on one node, nettable= between the two), then run each
PROGRAM (a command line in one word, spaces as commas: cg.W.x or
mpiprof-mpi1,Allreduce,-msglog,0:16) on 1 x 2 and on 2 x 1, RUNS times each
profiled without a model and RUNS times under --model
table=..,nettable=..,nodes=N with N the other placement's nodes, and
print per direction the medians of the real elapsed time there and the
modelled one, and the error (modelled / real - 1).

  -b BUILDDIR  configured and built mpiprof tree (default: .)
  -k RUNS      runs per configuration, 1..99 (default 3)
  -r RATE      limit each node's link to RATE each way (tc tbf: 1gbit,
               100mbit) before calibrating
  -B BURST     tbf's bucket (default 64kb, tests/integration/nodes.sh): a
               message that fits goes at the veth's speed after an idle
               time, which a link does not (NPB CG class W at 1gbit: 28 KB
               messages, 60 % faster than a 16kb bucket lets them)
  -x ITEMS     more MPIPROF_MODEL items after the tables (o=0.5,g=2)
  PROGRAM      a program found as given or in BUILDDIR/bench (default: the
               drivers mpiprof-mpi1 PingPong, Allreduce and Alltoall up to
               64 KiB, and mpiprof-msgrate -p 1 -i 256)
  -h           show this help and exit
USAGE
}

me=model-nodes.sh
here=$(cd "$(dirname "$0")" && pwd)
. "$here/buildtree.sh"

builddir=. runs=3 rate='' extra=''
while [ $# -gt 0 ]; do
    case $1 in
        -b | -k | -r | -B | -x) [ $# -ge 2 ] || die "option $1 needs a value (try -h)" ;;
    esac
    case $1 in
        -b) builddir=$2; shift 2 ;;
        -k) runs=$2; shift 2 ;;
        -r) rate=$2; shift 2 ;;
        -B) NODES_BURST=$2; export NODES_BURST; shift 2 ;;
        -x) extra=$2; shift 2 ;;
        -h | --help) usage; exit 0 ;;
        -*) die "unknown argument '$1' (try -h)" ;;
        *) break ;;
    esac
done
is_count "$runs" 99 || die "-k: '$runs' is not an integer in 1..99"
case $rate in '' | [1-9]*bit) ;; *) die "-r: '$rate' is not a rate such as 1gbit or 100mbit" ;; esac
case ${NODES_BURST:-64kb} in [1-9]*b) ;; *) die "-B: '$NODES_BURST' is not a size such as 16kb" ;; esac
launcher=$(built "$builddir" tools/mpiprof) || exit 2
calibrate=$(built "$builddir" tools/mpiprof-calibrate) || exit 2
bench=$(dirname "$(built "$builddir" bench/mpiprof-mpi1)") || exit 2
buildtree_mpi "$builddir" ""
[ "$flavor" = openmpi ] || die "$builddir is built with $flavor: the nodes' runs need Open MPI (MPICH's UCX hangs between them)"
MPIPROF_PRELOAD=$(built "$builddir" .libs/libmpiprof.so) || exit 2
MPIRUN=$(command -v "$mpirun") MPI_FLAVOR=$flavor top_srcdir=$(dirname "$here")
export MPIPROF_PRELOAD MPIRUN MPI_FLAVOR top_srcdir
[ $# -gt 0 ] || set -- mpiprof-mpi1,PingPong,-msglog,0:16 mpiprof-mpi1,Allreduce,-msglog,0:16 \
    mpiprof-mpi1,Alltoall,-msglog,0:16 mpiprof-msgrate,-p,1,-i,256
for p in "$@"; do
    cmd=${p%%,*}
    [ -x "$cmd" ] || [ -x "$bench/$cmd" ] || die "cannot run '$cmd' (not found as given nor in $bench)"
done

. "$top_srcdir/tests/integration/nodes.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/mpiprof-nodes.XXXXXX") || die "cannot create a temporary directory"
trap 'rm -rf "$work"' EXIT     # nodes_up's trap removes it too, after nodes_down
nodes_up 2 || die "cannot make the simulated nodes: ${NODES_WHY:-see above}"
[ -z "$rate" ] || nodes_rate "$rate" || die "-r $rate: tc refused it"

# The two networks: on node0 (2 ranks there), and between the nodes.
MPIPROF_MPI1=$bench/mpiprof-mpi1 "$calibrate" --mpirun "$top_srcdir/tests/integration/nodes-mpirun.sh 2" \
    -o "$work/node.txt" > "$work/node.out" 2>&1 || die "mpiprof-calibrate on a node failed: $(tail -1 "$work/node.out")"
MPIPROF_MPI1=$bench/mpiprof-mpi1 "$calibrate" --mpirun "$(nodes_launch)" --hosts "$(nodes_ip 0),$(nodes_ip 1)" \
    -o "$work/net.txt" > "$work/net.out" 2>&1 || die "mpiprof-calibrate --hosts failed: $(tail -1 "$work/net.out")"
model="$(tail -1 "$work/node.out"),$(tail -1 "$work/net.out")${extra:+,$extra}"
echo "# within a node: $(sed -n 's/^# latency/latency/p' "$work/node.out")"
echo "# between nodes${rate:+ (links at $rate, bucket ${NODES_BURST:-64kb})}: $(sed -n 's/^# latency/latency/p' "$work/net.out")"
echo "# mpiprof model across placements: $flavor, --model $model,nodes=N, $runs runs each, interleaved; medians of the slowest rank"
printf '%-36s %-8s %10s %10s %8s\n' "# program" from-to real_s model_s error

# once K DIR MODEL COMMAND...: one profiled run, K ranks a node, its
# report in DIR, under --model MODEL unless empty.
once() {
    local k=$1 rep=$2 m=$3
    shift 3
    rm -rf "$rep"
    nodes_mpirun "$k" 2 "$launcher" -q -o "$rep" ${m:+--model "$m"} "$@" > "$work/out" 2>&1 ||
        die "$* on $k rank(s) a node failed: $(tail -3 "$work/out")"
}

for p in "$@"; do
    cmd=${p%%,*}
    [ -x "$cmd" ] || cmd=$bench/$cmd
    args=$(echo "${p#"${p%%,*}"}" | tr ',' ' ')
    for k in 2 1; do
        : > "$work/real.$k" && : > "$work/model.$k"
    done
    i=1
    while [ "$i" -le "$runs" ]; do
        # From K ranks a node, the other placement: 2 x 1 from 1 x 2, 1 x 2 from 2 x 1.
        for k in 2 1; do
            # shellcheck disable=SC2086 # the program's arguments are words
            once "$k" "$work/rep" "" "$cmd" $args
            slowest "$work/rep" elapsed_s >> "$work/real.$k" || die "no figure in $work/rep/summary.txt"
            # shellcheck disable=SC2086
            once "$k" "$work/rep" "$model,nodes=$k" "$cmd" $args
            slowest "$work/rep" model_elapsed_s >> "$work/model.$((3 - k))" || die "no figure in $work/rep/summary.txt"
        done
        i=$((i + 1))
    done
    for k in 1 2; do    # the placement of k ranks a node, predicted from the other
        awk -v p="${p##*/}" -v d="${k}x$((3 - k))->$((3 - k))x$k" -v r="$(median < "$work/real.$k")" \
            -v m="$(median < "$work/model.$k")" 'BEGIN {
            printf "%-36s %-8s %10.4f %10.4f %+7.1f%%\n", p, d, r, m, (r > 0 ? 100 * (m / r - 1) : 0) }'
    done
done
