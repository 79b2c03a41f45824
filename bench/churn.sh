#!/bin/sh
# bench/churn.sh: the profiler's memory when a program creates and frees
# many windows and opens and closes many files: mpiprof-known rma -w N
# (N windows of MPI_Win_allocate at one call site) and mpiprof-known io
# -k N -s 1 (one file opened and closed N times), for a small and a large
# N, on 2 ranks, without and with the profiler; prints the largest
# resident set of any rank (KiB, /usr/bin/time %M) and the profiler's
# share (profiled minus plain). Flat memory: the share at the large N is
# the share at the small one. A benchmark, not a test. Open MPI only.
#   bench/churn.sh [-b BUILDDIR] [-n "1000 10000"]
b=. counts="1000 10000"
while getopts b:n:h o; do
    case $o in
        b) b=$OPTARG ;; n) counts=$OPTARG ;;
        *) sed -n '2,11s/^# \{0,1\}//p' "$0"; [ "$o" = h ]; exit $? ;;
    esac
done
mpirun=$(sed -n 's/^MPIRUN = //p' "$b/Makefile")
case "$mpirun" in *openmpi*|*orterun*) ;; *) echo "churn.sh: needs an Open MPI build (got '$mpirun')" >&2; exit 2 ;; esac
[ -x "$b/bench/mpiprof-known" ] || { echo "churn.sh: build $b first (no bench/mpiprof-known)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "churn.sh: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
lib=$(cd "$b/.libs" && pwd)/libmpiprof.so
known=$(cd "$b/bench" && pwd)/mpiprof-known
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# rss PRELOAD ARGS...: the largest %M of the 2 ranks.
rss() {
    pre=$1
    shift
    rm -f "$tmp/rss"
    "$mpirun" -np 2 -x MPIPROF_OUTPUT="$tmp/rep.$(date +%s%N)" -x MPIPROF_QUIET=1 \
        /usr/bin/time -a -o "$tmp/rss" -f 'rss %M' env ${pre:+LD_PRELOAD=$pre} "$known" "$@" >/dev/null ||
        { echo "churn.sh: mpiprof-known $* failed" >&2; exit 1; }
    awk '$1 == "rss" && $2 > m { m = $2 } END { print m + 0 }' "$tmp/rss"
}

echo "# workload N plain_kib profiled_kib profiler_kib"
for w in rma io; do
    for n in $counts; do
        case $w in
            rma) args="rma -w $n" ;;
            io) args="io -k $n -s 1 -d $tmp" ;;
        esac
        # shellcheck disable=SC2086 # args are words
        plain=$(rss "" $args)
        # shellcheck disable=SC2086
        prof=$(rss "$lib" $args)
        echo "$w $n $plain $prof $((prof - plain))"
    done
done
