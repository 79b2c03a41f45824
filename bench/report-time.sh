#!/bin/sh
# bench/report-time.sh: time mpiprof's report at MPI_Finalize for many ranks
# and many call sites: mpiprof-sites (1000 distinct MPI_Comm_rank sites per
# rank) on NP ranks (default 64, oversubscribed), K runs per stack depth;
# prints the time the profiler reports for MPI_Finalize (rank 0's view),
# median, and the phases of the median run: merge (threads, call sites,
# branch ids), symbolize (naming call sites), gather, write.
# A benchmark, not a test. Open MPI only (MPICH busy-polls when oversubscribed).
#   bench/report-time.sh [-b BUILDDIR] [-n NP] [-k RUNS] [-d "1 5"]
b=. np=64 k=5 depths="1 5"
while getopts b:n:k:d:h o; do
    case $o in
        b) b=$OPTARG ;; n) np=$OPTARG ;; k) k=$OPTARG ;; d) depths=$OPTARG ;;
        *) sed -n '2,9s/^# \{0,1\}//p' "$0"; [ "$o" = h ]; exit $? ;;
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
            sed -n 's/.*ranks\{0,1\}, \([0-9.]*\) s at MPI_Finalize: merge \([0-9.]*\), symbolize \([0-9.]*\), gather \([0-9.]*\), write \([0-9.]*\)).*/\1 \2 \3 \4 \5/p'
    done | sort -n | awk -v d="$d" -v np="$np" '{ v[NR] = $0 } END {
        m = split(v[int((NR + 1) / 2)], t, " "); split(v[1], lo, " "); split(v[NR], hi, " ")
        printf "depth %s: %d ranks x 1000 sites: report %.2f s (median of %d; min %.2f, max %.2f)", d, np, t[1], NR, lo[1], hi[1]
        printf "; median run: merge %.2f, symbolize %.2f, gather %.2f, write %.2f\n", t[2], t[3], t[4], t[5] }'
done
