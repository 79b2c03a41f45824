#!/bin/sh
# bench/churn.sh: the profiler's memory against the number of calls and
# handle churn (issue 22 item 6). Each workload runs at a small and a large
# N on 2 ranks, without and with the profiler; the line gives the largest
# resident set of any rank (KiB, /usr/bin/time %M) and the profiler's share
# (profiled minus plain). Memory is bounded when the share at the large N
# is the share at the small one (a few pages of noise). Workloads:
#   calls     mpiprof-churn -w calls: MPI_Comm_rank from one site (10^4, 10^8)
#   comms     mpiprof-churn -w comms: MPI_Comm_dup/free pairs with a message
#             on each (10^3, 10^5)
#   types     mpiprof-churn -w types: datatype create/commit/free with a
#             message of each (10^3, 10^5)
#   requests  mpiprof-churn -w requests: Irecv/Isend/Waitall (10^3, 10^5)
#   rma       mpiprof-known rma -w N: N windows at one site (10^3, 10^4)
#   io        mpiprof-known io -k N -s 1: one file opened N times (10^3, 10^4)
# A benchmark, not a test. Open MPI only.
#   bench/churn.sh [-b BUILDDIR] [-w "calls comms ..."] [-n "SMALL LARGE"]
b=. which="calls comms types requests rma io" counts=""
while getopts b:w:n:h o; do
    case $o in
        b) b=$OPTARG ;; w) which=$OPTARG ;; n) counts=$OPTARG ;;
        *) sed -n '2,17s/^# \{0,1\}//p' "$0"; [ "$o" = h ]; exit $? ;;
    esac
done
mpirun=$(sed -n 's/^MPIRUN = //p' "$b/Makefile")
case "$mpirun" in *openmpi*|*orterun*) ;; *) echo "churn.sh: needs an Open MPI build (got '$mpirun')" >&2; exit 2 ;; esac
for p in known churn; do
    [ -x "$b/bench/mpiprof-$p" ] || { echo "churn.sh: build $b first (no bench/mpiprof-$p; make bench/mpiprof-$p)" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "churn.sh: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
lib=$(cd "$b/.libs" && pwd)/libmpiprof.so
bench=$(cd "$b/bench" && pwd)
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# rss PRELOAD ARGS...: the largest %M of the 2 ranks.
rss() {
    pre=$1
    shift
    rm -f "$tmp/rss"
    "$mpirun" -np 2 -x MPIPROF_OUTPUT="$tmp/rep.$(date +%s%N)" -x MPIPROF_QUIET=1 \
        /usr/bin/time -a -o "$tmp/rss" -f 'rss %M' env ${pre:+LD_PRELOAD=$pre} "$@" >/dev/null ||
        { echo "churn.sh: $* failed" >&2; exit 1; }
    awk '$1 == "rss" && $2 > m { m = $2 } END { print m + 0 }' "$tmp/rss"
}

echo "# workload N plain_kib profiled_kib profiler_kib"
for w in $which; do
    case $w in
        calls) n=${counts:-"10000 100000000"} ;;
        comms|types|requests) n=${counts:-"1000 100000"} ;;
        rma|io) n=${counts:-"1000 10000"} ;;
        *) echo "churn.sh: unknown workload '$w'" >&2; exit 2 ;;
    esac
    for k in $n; do
        case $w in
            rma) args="$bench/mpiprof-known rma -w $k" ;;
            io) args="$bench/mpiprof-known io -k $k -s 1 -d $tmp" ;;
            *) args="$bench/mpiprof-churn -w $w -n $k" ;;
        esac
        # shellcheck disable=SC2086 # args are words
        plain=$(rss "" $args)
        # shellcheck disable=SC2086
        prof=$(rss "$lib" $args)
        echo "$w $k $plain $prof $((prof - plain))"
    done
done
