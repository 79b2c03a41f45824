#!/bin/sh
# t_coarray.sh: mpiprof-coarray. Each section at small sizes: every
# ping-pong row expected (pairs, operation, form, pattern, size) with its
# count, blksize, stride, nextent and repetitions recomputed, positive
# times and bandwidths, no wrong element; every sync pattern with its
# neighbours and a positive overhead; the halo swap on 4 ranks and on the
# 2x2x2 grid of 8 (oversubscribed), its bytes, and no wrong halo cell after
# any swap. The checks must be able to fail: with BENCH_CHECK_CORRUPT each
# check sees exactly its one spoilt value. Under the profiler, the MPI_Put,
# MPI_Get and MPI_Accumulate calls and bytes of the lock ping-pong, per
# rank, exactly. The man page names every flag and column. Bad input:
# one line on stderr, status 2.
. "$top_srcdir/tests/integration/lib.sh"

coarray="$top_builddir/bench/mpiprof-coarray"
np=4 pairs=single,multiple,crossing prof_pairs=multiple
# MPICH busy-polls: 2 ranks on 2 cores, where only the single pair fits.
[ "$MPI_FLAVOR" = mpich ] && np=2 pairs=single prof_pairs=single
n=16 b=4 t=8 r=3

# --- ping-pong ---------------------------------------------------------------
run $np "$coarray" -s pingpong -p $pairs -n $n -b $b -t $t -r $r > "$work/pp" || fail "pingpong runs"
# Expected rows: per pairs and (op, form), contig at 1, 2, 4 .. n, the
# block patterns at b .. n; 5 (op, form) combinations.
awk -v pairs=$pairs -v n=$n -v b=$b -v t=$t -v r=$r '
    BEGIN { np = split(pairs, P, ",")
            split("send:p2p put:fence get:fence put:lock get:lock", C, " ")
            split("contig many strided stridedmany", pat, " ")
            for (i = 1; i <= np; i++) for (c = 1; c <= 5; c++) for (k = 1; k <= 4; k++)
                for (s = (k == 1 ? 1 : b); s <= n; s *= 2) {
                    split(C[c], of, ":"); want[P[i] " " of[1] " " of[2] " " pat[k] " " s] = 1; nwant++ } }
    $1 != "pingpong" { next }
    { key = $2 " " $3 " " $4 " " $5 " " $9
      if (!(key in want)) { print "unexpected row: " $0; bad = 1; next }
      seen[key]++
      nd = $9; cnt = $5 == "contig" ? 1 : nd / b; blk = $5 == "contig" ? nd : b
      str = $5 == "contig" ? nd : $5 == "many" ? b : t
      if ($6 != cnt || $7 != blk || $8 != str || $10 != (cnt - 1) * str + blk || $11 != r) {
          print "bad geometry or reps: " $0; bad = 1 }
      if (!($12 > 0) || !($13 > 0) || $14 != 0) { print "bad result: " $0; bad = 1 }
      d = $13 - 8 * nd / $12; if (d < 0) d = -d
      if (d > 0.01 * $13 + 0.01) { print "mb_s is not 8 ndata / time_us: " $0; bad = 1 } }
    END { for (k in want) if (seen[k] != 1) { print k ": " seen[k] + 0 " rows"; bad = 1 }
          exit bad }' "$work/pp" > "$work/check" 2>&1
check "pingpong $pairs: $(grep -c '^pingpong' "$work/pp") rows, geometry, reps, positive results, no wrong element" \
    test ! -s "$work/check"
cat "$work/check"

# --- sync ----------------------------------------------------------------------
# sync_rows FILE NP: every pattern the README names for NP processes, in
# its forms, with its neighbours, reps = inner x outer and a positive
# overhead (time_us - delay_us).
sync_rows() {
    awk -v P=$2 -v reps=8 '
        BEGIN { want["all p2p"] = want["all fence"] = want["all lock"] = P - 1
                want["pairwise p2p"] = want["pairwise lock"] = 1
                want["lock lock"] = want["critical lock"] = 1
                for (k = 2; k <= 12 && k <= P - 2; k += 2) {
                    want["ring" k " p2p"] = want["ring" k " lock"] = k
                    want["random" k " p2p"] = want["random" k " lock"] = k }
                if (P >= 8) want["grid3d p2p"] = want["grid3d lock"] = 6 }
        $1 != "sync" { next }
        { key = $2 " " $3
          if (!(key in want)) { print "unexpected row: " $0; bad = 1; next }
          seen[key]++
          if ($4 != want[key] || $5 != reps || !($6 > 0) || !($7 > 0) || !($8 > 0) ||
              $8 - ($7 - $6) > 0.002 || $8 - ($7 - $6) < -0.002) { print "bad row: " $0; bad = 1 } }
        END { for (k in want) if (seen[k] != 1) { print k ": " seen[k] + 0 " rows"; bad = 1 }
              exit bad }' "$1"
}
run $np "$coarray" -s sync -i 4 -k 2 -d 50 > "$work/sync" || fail "sync runs"
sync_rows "$work/sync" $np > "$work/check" 2>&1
check "sync on $np: $(grep -c '^sync' "$work/sync") patterns, neighbours, reps, positive overheads" test ! -s "$work/check"
cat "$work/check"

# --- halo ------------------------------------------------------------------------
# halo_rows FILE DIMS REPS: n = 2 and 3 in each form, bytes 6 n^2 8 per
# swap, positive time and bandwidth, no wrong halo cell.
halo_rows() {
    awk -v dims=$2 -v reps=$3 '
        BEGIN { split("p2p fence lock", F, " "); for (f = 1; f <= 3; f++) { want[F[f] " 2"]; want[F[f] " 3"] } }
        $1 != "halo" { next }
        { key = $2 " " $3
          if (!(key in want)) { print "unexpected row: " $0; bad = 1; next }
          seen[key]++
          if ($4 != dims || $5 != reps || $6 != 48 * $3 * $3 || !($7 > 0) || !($8 > 0) || $9 != 0) {
              print "bad row: " $0; bad = 1 } }
        END { for (k in want) if (seen[k] != 1) { print k ": " seen[k] + 0 " rows"; bad = 1 }
              exit bad }' "$1"
}
dims=2x2x1
[ $np = 2 ] && dims=2x1x1
run $np "$coarray" -s halo -z 2,3 -r 2 > "$work/halo" || fail "halo runs on $np"
halo_rows "$work/halo" $dims 2 > "$work/check" 2>&1
check "halo on $np ($dims): every size and form, bytes, halos right after every swap" test ! -s "$work/check"
cat "$work/check"

# The 3D grid: 8 ranks, oversubscribed. MPICH waits a scheduler slice per
# blocking call there: the halo alone, one swap per size and form (its
# syncs at 8 ranks take tens of seconds).
if [ "$MPI_FLAVOR" = mpich ]; then
    run 8 "$coarray" -s halo -z 2,3 -r 1 > "$work/grid" || fail "halo runs on 8"
    halo_rows "$work/grid" 2x2x2 1 > "$work/check" 2>&1
    check "8 ranks: halo on the 2x2x2 grid" test ! -s "$work/check"
else
    run 8 "$coarray" -s sync,halo -z 2,3 -r 2 -i 4 -k 2 -d 50 > "$work/grid" || fail "sync and halo run on 8"
    { sync_rows "$work/grid" 8; halo_rows "$work/grid" 2x2x2 2; } > "$work/check" 2>&1
    check "8 ranks: grid3d, ring and random syncs up to 6 neighbours, halo on the 2x2x2 grid" test ! -s "$work/check"
fi
cat "$work/check"

# --- the checks can fail -------------------------------------------------------
# One spoilt element per checking process and measurement: 2 per
# single-pair ping-pong row (5 (op, form) x 6 rows), P per halo swap (3
# rows); status 1.
BENCH_CHECK_CORRUPT=1 run $np "$coarray" -s pingpong,halo -p single -n 4 -b 4 -r 2 -z 2 > "$work/corrupt" 2> /dev/null
status=$?
check "with BENCH_CHECK_CORRUPT: status 1 (got $status)" test $status -eq 1
check "with BENCH_CHECK_CORRUPT: every check sees its one spoilt value" awk -v np=$np '
    $1 == "pingpong" { rows++; if ($14 != 2) bad = 1 }
    $1 == "halo" { rows++; if ($9 != np * $5) bad = 1 }
    END { exit bad || rows != 5 * (3 + 3) + 3 }' "$work/corrupt"

# --- under the profiler ----------------------------------------------------------
# The lock ping-pong: every rank of a pair does one leg per repetition; per
# repetition a leg makes 1 call (contig, strided) or ndata/b calls (many,
# stridedmany) at every size; MPI_Put and MPI_Get each, and one
# MPI_Accumulate (the notification) per leg and row.
run $np "$launcher" -q -o "$work/prof" "$coarray" -s pingpong -p $prof_pairs -f lock -n $n -b $b -t $t -r $r \
    > /dev/null || fail "pingpong under the profiler"
awk '!/^#/ && ($2 == "MPI_Put" || $2 == "MPI_Get" || $2 == "MPI_Accumulate") { print $1, $2, $3, $7, $8 }' \
    "$work/prof/functions.txt" | sort > "$work/actual"
awk -v np=$np -v n=$n -v b=$b -v r=$r 'BEGIN {
    for (s = 1; s <= n; s *= 2) { calls++; bytes += 8 * s; rows++ }
    for (s = b; s <= n; s *= 2) { calls += 1 + 2 * s / b; bytes += 3 * 8 * s; rows += 3 }
    for (k = 0; k < np; k++) {
        print k, "MPI_Accumulate", 2 * rows * r, 16 * rows * r, 0
        print k, "MPI_Get", calls * r, 0, bytes * r
        print k, "MPI_Put", calls * r, bytes * r, 0 } }' | sort > "$work/expected"
same_rows "functions.txt: MPI_Put, MPI_Get and MPI_Accumulate of the lock ping-pong ($prof_pairs)"

# --- the man page ----------------------------------------------------------------
# It names every flag of the usage text and every column of the headers.
run 2 "$coarray" -h > "$work/usage" || fail "coarray -h"
sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' "$top_srcdir/man/mpiprof-coarray.1" > "$work/man"
{ grep -o '^  *-[a-z]' "$work/usage" | tr -d ' '
  cat "$work/pp" "$work/sync" "$work/halo" | sed -n 's/^# section //p' | tr ' ' '\n'; } | sort -u |
    while read -r word; do
        grep -qw -- "$word" "$work/man" || echo "mpiprof-coarray(1) does not name $word"
    done > "$work/check"
check "mpiprof-coarray(1) names every flag ($(grep -c '^  *-[a-z]' "$work/usage")) and column" test ! -s "$work/check"
cat "$work/check"

# --- bad input -------------------------------------------------------------------
refuses "$coarray" "needs at least 2 processes (got 1)" 1 -s halo
refuses "$coarray" "multiple and crossing ping-pong need an even number of processes, at least 4 (got 3)" 3 -s pingpong
refuses "$coarray" "multiple and crossing ping-pong need an even number of processes, at least 4 (got 2)" 2 -s pingpong -p crossing
refuses "$coarray" "the sync section needs an even number of processes" 3 -s sync
refuses "$coarray" "-s: 'foo' is not one of pingpong, sync, halo" 2 -s foo
refuses "$coarray" "unknown option '-x'" 2 -x
refuses "$coarray" "-b: '3' is not a power of two" 2 -b 3
refuses "$coarray" "-t: stride 2 is less than the block size 4" 2 -b 4 -t 2
refuses "$coarray" "-z: '513' is not an integer in 1..512" 2 -z 10,513
refuses "$coarray" "-n, -b, -t: the strided patterns span" 2 -n 4194304 -b 1 -t 2097152
finish
