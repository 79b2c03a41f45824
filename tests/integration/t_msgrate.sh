#!/bin/sh
# t_msgrate.sh: mpiprof-msgrate. Each kernel at small sizes, with an even
# and an odd peer count: the messages each process handled (exact), the
# parameters echoed, positive rates and aggregate = rate x processes; the
# MPI_Isend, MPI_Irecv and MPI_Waitall counts and bytes of the pair-based
# kernel in functions.txt under the profiler; one message and status 2 for
# an odd process count, too few processes for the peers, and bad flags.
. "$top_srcdir/tests/integration/lib.sh"

msgrate="$top_builddir/bench/mpiprof-msgrate"
np=4 peers="2 3"
[ "$MPI_FLAVOR" = mpich ] && np=2 peers=1    # MPICH busy-polls: 2 ranks on 2 cores
i=20 m=8 s=16

for p in $peers; do
    run $np "$msgrate" -o -p $p -i $i -m $m -s $s -c 65536 > "$work/o$p" || fail "msgrate -p $p"
    # messages per process: single n*m; pair, allstart 2*n*p*m; prepost 2*(n+1)*p*m
    awk -v np=$np -v p=$p -v i=$i -v m=$m -v s=$s '
        BEGIN { want["single"] = i * m; want["pair"] = want["allstart"] = 2 * i * p * m
                want["prepost"] = 2 * (i + 1) * p * m }
        { for (f = 1; f <= NF; f++) { split($f, kv, "="); v[kv[1]] = kv[2] }
          k = v["test"]; seen[k]++
          if (v["msgs"] != want[k] || v["ranks"] != np || v["npeers"] != p || v["niters"] != i ||
              v["nmsgs"] != m || v["nbytes"] != s || v["cache"] != 65536 || v["ppn"] != 1 ||
              !(v["rate"] > 0) || !(v["time_s"] > 0)) { print "bad line: " $0; bad = 1 }
          d = v["aggregate"] - v["rate"] * np; if (d < 0) d = -d
          if (d > 0.01 * v["aggregate"] + 0.01) { print "aggregate is not rate x " np ": " $0; bad = 1 } }
        END { for (k in want) if (seen[k] != 1) { print k ": " seen[k] " lines"; bad = 1 }
              exit bad }' "$work/o$p" > "$work/check" 2>&1
    check "msgrate -p $p: every kernel, its messages, parameters and rates" test ! -s "$work/check"
    cat "$work/check"
done

# Human-readable output: a header and one line per kernel.
run $np "$msgrate" -p 1 -i 2 -m 2 -c 0 > "$work/human" || fail "msgrate, human-readable"
check "human-readable: a header and four kernels" awk '
    NR == 1 { ok = /^# mpiprof-msgrate: [0-9]+ processes, 1 peers, 2 iterations, 2 messages of 8 bytes per peer, cache 0 bytes, 1 processes per node$/ }
    / msgs\/s per process .* msgs\/s aggregate / { n++ } END { exit !(ok && n == 4) }' "$work/human"

# Under the profiler, the pair-based kernel alone: per process n*p*m
# MPI_Isend and MPI_Irecv of s bytes, n*p MPI_Waitall.
p=1
run $np "$launcher" -q -o "$work/prof" "$msgrate" -o -t pair -p $p -i $i -m $m -s $s -c 0 > /dev/null ||
    fail "msgrate under the profiler"
awk '!/^#/ && ($2 == "MPI_Isend" || $2 == "MPI_Irecv" || $2 == "MPI_Waitall") { print $1, $2, $3, $7, $8 }' \
    "$work/prof/functions.txt" | sort > "$work/actual"
awk -v np=$np -v c=$((i * p * m)) -v b=$((i * p * m * s)) -v w=$((i * p)) 'BEGIN {
    for (r = 0; r < np; r++) { print r, "MPI_Irecv", c, 0, b; print r, "MPI_Isend", c, b, 0; print r, "MPI_Waitall", w, 0, 0 } }' |
    sort > "$work/expected"
same_rows "functions.txt: the pair-based kernel's MPI_Isend, MPI_Irecv and MPI_Waitall"

# Bad input: one line on stderr, status 2.
refuses "$msgrate" "needs an even number of processes (got 3)" 3 -p 1
refuses "$msgrate" "2 peers need at least 3 nodes of -n 1 processes: run at least 4 processes (got 2)" 2 -p 2
refuses "$msgrate" "-t: 'foo' is not a kernel" 2 -t foo
refuses "$msgrate" "unknown option '-x'" 2 -x
refuses "$msgrate" "-m: '0' is not an integer in 1..1000000" 2 -m 0
finish
