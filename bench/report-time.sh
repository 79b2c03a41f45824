#!/bin/sh
# bench/report-time.sh: time mpiprof's report at MPI_Finalize for many ranks
# and many call sites: mpiprof-sites (1000 distinct MPI_Comm_rank sites per
# rank) on NP ranks (default 64, oversubscribed), K runs per stack depth;
# prints the time the profiler reports for MPI_Finalize (rank 0's view:
# merging, symbolizing, numbering branches, gathering and writing), median.
# A benchmark, not a test. Open MPI only (MPICH busy-polls when oversubscribed).
#   bench/report-time.sh [-b BUILDDIR] [-n NP] [-k RUNS] [-d "1 5"]
b=. np=64 k=5 depths="1 5"
while getopts b:n:k:d:h o; do
    case $o in
        b) b=$OPTARG ;; n) np=$OPTARG ;; k) k=$OPTARG ;; d) depths=$OPTARG ;;
        *) sed -n '2,8s/^# \{0,1\}//p' "$0"; [ "$o" = h ]; exit $? ;;
    esac
done
mpirun=$(sed -n 's/^MPIRUN = //p' "$b/Makefile")
case "$mpirun" in *openmpi*|*orterun*) ;; *) echo "report-time.sh: needs an Open MPI build (got '$mpirun')" >&2; exit 2 ;; esac
[ -x "$b/bench/mpiprof-sites" ] || { echo "report-time.sh: build $b first (no bench/mpiprof-sites)" >&2; exit 2; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
echo "# $mpirun -np $np -x LD_PRELOAD=$b/.libs/libmpiprof.so -x MPIPROF_STACK_DEPTH=D $b/bench/mpiprof-sites"
for d in $depths; do
    for i in $(seq "$k"); do
        "$mpirun" -np "$np" -x LD_PRELOAD="$b/.libs/libmpiprof.so" -x MPIPROF_STACK_DEPTH="$d" \
            -x MPIPROF_OUTPUT="$tmp/r$d.$i" "$b/bench/mpiprof-sites" 2>&1 |
            sed -n 's/.*ranks, \([0-9.]*\) s at MPI_Finalize.*/\1/p'
    done | sort -n | awk -v d="$d" -v np="$np" '{ v[NR] = $1 } END {
        printf "depth %s: %d ranks x 1000 sites: report %.2f s (median of %d; min %.2f, max %.2f)\n",
               d, np, v[int((NR + 1) / 2)], NR, v[1], v[NR] }'
done
