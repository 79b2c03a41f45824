#!/bin/sh
# t_mix.sh: the known mix of calls (mix.c) on 4 ranks: the program's output
# is byte-identical with and without the profiler, and every call count and
# byte count in functions.txt is exactly the one the program's pattern implies.
. "$top_srcdir/tests/integration/lib.sh"

np=4

mix="$top_builddir/tests/integration/mix"

run "$np" "$mix" > "$work/plain.out" || fail "mix runs without the profiler"
run "$np" "$launcher" -o "$work/rep" "$mix" "$work/testsome" > "$work/prof.out" 2> "$work/prof.err" ||
    fail "mix runs under the profiler"
check "program output identical with and without the profiler" cmp "$work/plain.out" "$work/prof.out"
check "report announced on stderr" grep -q "^mpiprof: report written to $work/rep (4 ranks, [0-9.]* s at MPI_Finalize: merge [0-9.]*, symbolize [0-9.]*, gather [0-9.]*, write [0-9.]*)\$" "$work/prof.err"
for f in summary.txt functions.txt matrix.time matrix.calls matrix.bytes; do
    check "$f written" test -s "$work/rep/$f"
done

# Expected calls, bytes_sent, bytes_recv per rank and function (see mix.c).
expected() {
    awk -v P="$np" -v dir="$work" '
    function row(fn, c, s, r) { if (c > 0) printf "%d %s %d %d %d\n", rank, fn, c, s, r }
    BEGIN {
        tri = P * (P + 1) / 2
        for (rank = 0; rank < P; rank++) {
            f = dir "/testsome." rank
            if ((getline line < f) <= 0) { print "missing " f > "/dev/stderr"; exit 1 }
            split(line, t, " ")
            row("MPI_Comm_rank", 2, 0, 0)
            row("MPI_Comm_size", 1, 0, 0)
            row("MPI_Send", 4 + (rank != 0) + (rank == 1), 10129 + (rank != 0) * 32 + (rank == 1) * 20, 0)
            row("MPI_Recv", 4 + (rank == 0) * P, 0, 10129 + (rank == 0) * (32 * (P - 1) + 20))
            row("MPI_Isend", 5, 320, 0)
            row("MPI_Irecv", 5, 0, 320)
            row("MPI_Waitall", 4, 0, 0)
            row("MPI_Waitany", 4, 0, 0)
            row("MPI_Testsome", t[2], 0, 0)
            row("MPI_Recv_init", 1, 0, 0)
            row("MPI_Send_init", 1, 0, 0)
            row("MPI_Start", 6, 72, 72)
            row("MPI_Request_free", 2, 0, 0)
            row("MPI_Sendrecv", 1, 128, 128)
            row("MPI_Probe", rank == 0, 0, 0)
            row("MPI_Get_count", rank == 0, 0, 0)
            row("MPI_Bcast", 1, (rank == 0) * 400, (rank != 0) * 400)
            row("MPI_Reduce", 1, 80, (rank == 1) * 80)
            row("MPI_Allreduce", 2, 20, 20)
            row("MPI_Allgatherv", 1, 4 * (rank + 1), 4 * tri)
            row("MPI_Alltoallv", 1, 4 * tri, 4 * P * (rank + 1))
            row("MPI_Barrier", 1, 0, 0)
            row("MPI_Comm_split", 1, 0, 0)
            row("MPI_Comm_free", 1, 0, 0)
            row("MPI_Gather", 1, 8, (rank == 0) * 8 * P)
        }
    }' | sort
}
expected > "$work/expected" && [ -s "$work/expected" ] || fail "expected counts computed"
grep -v '^#' "$work/rep/functions.txt" | awk '{ print $1, $2, $3, $7, $8 }' | sort > "$work/actual"
same_rows "functions.txt: every count and byte total"

# Times: min <= time/calls <= max, all non-negative; header and columns.
check "functions.txt: min <= mean <= max for every row" awk '
    /^#/ { next }
    { mean = $4 / $3; if ($5 < 0 || $5 > mean + 1e-9 || mean > $6 + 1e-9) { print "bad times: " $0; bad = 1 } }
    END { exit bad }' "$work/rep/functions.txt"
check "functions.txt: column line" grep -qx '# rank function calls time_s min_s max_s bytes_sent bytes_recv' "$work/rep/functions.txt"
check "header names the command, the rank count and the form" \
    grep -q "^# mpiprof [0-9.]* command=\"$mix $work/testsome\" ranks=$np form=ranks start=" "$work/rep/summary.txt"

# summary.txt agrees with functions.txt: calls, and compute = elapsed -
# mpi - profiler (the first call's thread state: about 1 ms here, 40 ms
# under ASan; t_selftime bounds it).
check "summary.txt: one line per rank, mpi_calls = sum of calls, compute = elapsed - mpi - profiler" awk -v P="$np" '
    FNR == 1 { file++ }
    /^#/ { next }
    file == 1 { calls[$1] += $3; t[$1] += $4; next }
    { n++
      if ($6 != calls[$1]) { print "rank " $1 ": mpi_calls " $6 " != " calls[$1]; bad = 1 }
      if ($3 - t[$1] > 1e-6 || t[$1] - $3 > 1e-6) { print "rank " $1 ": mpi_s " $3 " != " t[$1]; bad = 1 }
      if ($5 - ($2 - $3 - $7) > 1e-6 || ($2 - $3 - $7) - $5 > 1e-6) { print "rank " $1 ": compute"; bad = 1 }
      if ($7 < 0) { print "rank " $1 ": profiler_s " $7; bad = 1 }
      if ($2 <= 0 || $3 > $2) { print "rank " $1 ": elapsed " $2 " mpi " $3; bad = 1 } }
    END { if (n != P) { print n " lines"; bad = 1 } exit bad }' "$work/rep/functions.txt" "$work/rep/summary.txt"

# matrix.calls and matrix.bytes: the same numbers, one column per function
# (a function a rank did not call shows 0 there).
matrix_agrees() {
    awk -v what="$1" '
    FNR == 1 { file++ }
    file == 1 && !/^#/ { v[$1 " " $2] = (what == "calls") ? $3 : $7 + $8; next }
    file == 1 { next }
    /^# rank/ { for (i = 3; i <= NF; i++) col[i - 1] = $i; ncol = NF - 1; next }
    /^#/ { next }
    { rows++
      for (i = 2; i <= ncol; i++)
          if ($i != v[$1 " " col[i]] + 0) { print "rank " $1 " " col[i] ": " $i " != " v[$1 " " col[i]]; bad = 1 } }
    END { if (!rows) bad = 1; exit bad }' "$work/rep/functions.txt" "$work/rep/matrix.$1"
}
check "matrix.calls agrees with functions.txt" matrix_agrees calls
check "matrix.bytes agrees with functions.txt (sent + received)" matrix_agrees bytes

# sizes.txt, bin by bin: rank function bin_lo bin_hi calls bytes. A call's
# bin is the larger of what it sent and received, its bytes the two added
# (mpiprof-report(5)); receives by what arrived; MPI_Barrier is not binned.
expected_sizes() {
    awk -v P="$np" '
    function bin(n,    lo) { if (n == 0) return "0 0"; lo = 1; while (lo * 2 <= n) lo *= 2; return lo " " (2 * lo - 1) }
    function add(fn, size, bytes) { k = rank " " fn " " bin(size); calls[k]++; total[k] += bytes }
    function max(a, b) { return a > b ? a : b }
    BEGIN {
        tri = P * (P + 1) / 2
        for (rank = 0; rank < P; rank++) {
            split("1 100 10000 28", ring, " ")
            for (i = 1; i <= 4; i++) { add("MPI_Send", ring[i], ring[i]); add("MPI_Recv", ring[i], ring[i]) }
            if (rank != 0) add("MPI_Send", 32, 32)
            else for (i = 1; i < P; i++) add("MPI_Recv", 32, 32)
            if (rank == 1) add("MPI_Send", 20, 20)
            if (rank == 0) add("MPI_Recv", 20, 20)
            split("128 128 12 12 40", nb, " ")
            for (i = 1; i <= 5; i++) { add("MPI_Isend", nb[i], nb[i]); add("MPI_Irecv", nb[i], nb[i]) }
            for (i = 1; i <= 6; i++) add("MPI_Start", 24, 24)
            add("MPI_Sendrecv", 128, 256)
            add("MPI_Bcast", 400, 400)
            add("MPI_Reduce", 80, 80 + (rank == 1) * 80)
            add("MPI_Allreduce", 16, 32)
            add("MPI_Allreduce", 4, 8)
            add("MPI_Allgatherv", max(4 * (rank + 1), 4 * tri), 4 * (rank + 1) + 4 * tri)
            add("MPI_Alltoallv", max(4 * tri, 4 * P * (rank + 1)), 4 * tri + 4 * P * (rank + 1))
            add("MPI_Gather", max(8, (rank == 0) * 8 * P), 8 + (rank == 0) * 8 * P)
        }
        for (k in calls) print k, calls[k], total[k]
    }' | sort
}
expected_sizes > "$work/expected"
grep -v '^#' "$work/rep/sizes.txt" | awk '{ print $1, $2, $3, $4, $5, $6 }' | sort > "$work/actual"
same_rows "sizes.txt: every bin's calls and bytes"
check "sizes.txt: column line" grep -qx '# rank function bin_lo bin_hi calls bytes time_s' "$work/rep/sizes.txt"
check "sizes.txt: per function, the bins' time adds up to at most functions.txt's" awk '
    FNR == 1 { file++ }
    /^#/ { next }
    file == 1 { t[$1 " " $2] = $4; next }
    { s[$1 " " $2] += $7; if ($7 < 0) bad = 1 }
    END { for (k in s) if (s[k] > t[k] + 1e-6) { print k; bad = 1 }; exit bad }' \
    "$work/rep/functions.txt" "$work/rep/sizes.txt"
finish
