#!/bin/sh
# t_mpi1_prof.sh: mpiprof-mpi1 PingPong Exchange Allreduce on 4 processes
# under the profiler: functions.txt shows, per rank, exactly the calls and
# bytes the patterns imply (warm-up + repetitions of every length, summed
# over the tables the rank is active in: PingPong on 2 processes, Exchange
# and Allreduce on 2 and on 4) and the harness's own calls that
# mpiprof-mpi1(1) lists (barriers, gathers, scatters, broadcasts).
. "$top_srcdir/tests/integration/lib.sh"
. "$top_srcdir/tests/integration/t_mpi1_lib.sh"

np=4
n=5        # -iter: every length below 40 MiB / 1000 runs n times
run "$np" "$launcher" -q -o "$work/rep" "$mpi1" PingPong Exchange Allreduce -msglog 0:3 -iter "$n" \
    > "$work/out" || fail "mpiprof-mpi1 runs under the profiler"
check "report written" test -s "$work/rep/functions.txt"
tables "$work/out" | awk '{ print $1, $2, $5, $6 }' | sort -u | awk '{ r[$1] += $4 } END { for (b in r) print b, r[b] }' |
    sort > "$work/reps.got"
printf '%s\n' "Allreduce $((3 * n * 2))" "Exchange $((5 * n * 2))" "PingPong $((5 * n))" > "$work/reps.want"
same "tables: $n repetitions of each length (sum over the tables)" "$work/reps.want" "$work/reps.got"

# Expected rank function calls bytes_sent bytes_recv, from the patterns:
# W = 2 warm-up executions at the largest length, then n per length.
awk -v P="$np" -v n="$n" '
function add(r, fn, c, s, v) { calls[r, fn] += c; sent[r, fn] += s; recv[r, fn] += v; fns[fn] = 1 }
BEGIN {
    W = 2
    nl = split("0 1 2 4 8", len, " "); nr = split("0 4 8", rlen, " ")
    e = W; b = W * 8; for (i = 1; i <= nl; i++) { e += n; b += n * len[i] }    # executions, bytes per message
    re = W; rb = W * 8; for (i = 1; i <= nr; i++) { re += n; rb += n * rlen[i] }
    for (r = 0; r < P; r++) {
        add(r, "MPI_Bcast", 2, 0, 0)                   # the command line
        # tables: PingPong(2), Exchange(2), Exchange(4), Allreduce(2), Allreduce(4)
        split("2 2 4 2 4", q, " "); split("p x x a a", kind, " ")
        for (t = 1; t <= 5; t++) {
            lens = (kind[t] == "a") ? nr : nl
            add(r, "MPI_Gather", lens + 1, 0, 0)       # times per length, buffer agreement
            add(r, "MPI_Scatter", 1, 0, 0)
            if (r >= q[t]) continue                    # idle in this table
            add(r, "MPI_Barrier", 2 * lens, 0, 0)
            if (kind[t] == "p") { add(r, "MPI_Send", e, b, 0); add(r, "MPI_Recv", e, 0, b) }
            if (kind[t] == "x") { add(r, "MPI_Isend", 2 * e, 2 * b, 0); add(r, "MPI_Recv", 2 * e, 0, 2 * b)
                                  add(r, "MPI_Waitall", e, 0, 0) }
            if (kind[t] == "a") add(r, "MPI_Allreduce", re, rb, rb)
        }
    }
    for (r = 0; r < P; r++) for (fn in fns) if (calls[r, fn] > 0)
        print r, fn, calls[r, fn], sent[r, fn], recv[r, fn]
}' | sort > "$work/expected"
# the harness calls move fixed-size records: compare their counts only
awk '!/^#/ && $2 ~ /^MPI_(Send|Recv|Isend|Waitall|Allreduce|Barrier|Gather|Scatter|Bcast)$/ {
        if ($2 ~ /Gather|Scatter|Bcast/) $7 = $8 = 0
        print $1, $2, $3, $7, $8 }' "$work/rep/functions.txt" | sort > "$work/actual"
same "functions.txt: calls and bytes of PingPong, Exchange, Allreduce and the harness, every rank" \
    "$work/expected" "$work/actual"
check "no other point-to-point or collective function called" awk '
    !/^#/ && $2 !~ /^MPI_(Send|Recv|Isend|Waitall|Allreduce|Barrier|Gather|Scatter|Bcast|Comm_.*|Get_version|Get_library_version|Query_thread)$/ {
        print "unexpected: " $0; bad = 1 }
    END { exit bad }' "$work/rep/functions.txt"
finish
