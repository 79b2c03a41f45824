#!/bin/sh
# latency-compare.sh: mpiprof-mpi1's PingPong latency at 1 byte against a
# minimal hand-written ping-pong loop (bench/pingpong-ref.c), both run the
# same way: mpirun -np 2, 2 warm-up round trips, 1000 timed round trips of
# 1 byte, half the round trip reported. The two programs run alternately
# RUNS times; prints every pair, the median of each and their ratio.
# A benchmark, not a test: the CI does not time anything.
#
#   bench/latency-compare.sh [BUILDDIR [RUNS]]
#
# BUILDDIR: a configured and built tree (default: .), whose Makefile names
# the MPIRUN to use; RUNS: default 11. Exit 0 when the medians are within
# 10% of each other, 1 otherwise, 2 on usage errors.

me=latency-compare.sh
build=${1:-.}
runs=${2:-11}
mpi1=$build/bench/mpiprof-mpi1
ref=$build/bench/pingpong-ref
[ -x "$mpi1" ] && [ -x "$ref" ] || { echo "$me: build $mpi1 and $ref first (make in $build)" >&2; exit 2; }
case $runs in '' | *[!0-9]*) echo "$me: RUNS '$runs' is not a number" >&2; exit 2 ;; esac
. "$(dirname "$0")/compare-lib.sh"
mpirun=$(build_mpirun "$build") || exit 2

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

echo "# $mpirun -np 2: mpiprof-mpi1 PingPong -msglog 0:0 (1-byte row) vs pingpong-ref 1 1000, $runs runs each"
echo "# run mpi1_us ref_us"
i=1
while [ "$i" -le "$runs" ]; do
    a=$("$mpirun" -np 2 "$mpi1" PingPong -msglog 0:0 | awk '$1 == 1 && $2 ~ /^[0-9]+$/ { print $3 }')
    b=$("$mpirun" -np 2 "$ref" 1 1000 | awk '$1 == "t[usec]" { print $2 }')
    [ -n "$a" ] && [ -n "$b" ] || { echo "$me: run $i failed" >&2; exit 2; }
    echo "$i $a $b" | tee -a "$tmp/pairs"
    i=$((i + 1))
done

m1=$(awk '{ print $2 }' "$tmp/pairs" | median)
m2=$(awk '{ print $3 }' "$tmp/pairs" | median)
awk -v a="$m1" -v b="$m2" 'BEGIN {
    r = a / b
    printf "median mpiprof-mpi1 PingPong %.2f us, pingpong-ref %.2f us, ratio %.3f (%s 10%%)\n",
        a, b, r, (r >= 0.9 && r <= 1.1) ? "within" : "NOT within"
    exit !(r >= 0.9 && r <= 1.1)
}'
