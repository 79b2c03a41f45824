#!/bin/sh
# t_intercolls.sh: the volume rules of every blocking collective on an
# intercommunicator whose groups differ in size (intercolls.c, 4 processes:
# group A = world rank 0, group B = ranks 1-3), against the MPI standard's
# definitions (MPI-3.1 5.2.2 and each collective's section): per-rank arrays
# and blocks count the remote group; Reduce_scatter and
# Reduce_scatter_block the local group (their recvcounts describe the
# local processes); MPI_ROOT holds the root's buffers, MPI_PROC_NULL moves
# nothing; Allreduce gets the other group's result. The program checks its
# results, so both libraries are held to the same definitions.
. "$top_srcdir/tests/integration/lib.sh"

prog="$top_builddir/tests/integration/intercolls"
run 4 "$prog" | sort > "$work/plain.out" || fail "intercolls runs"
run 4 "$launcher" -q -o "$work/rep" "$prog" | sort > "$work/prof.out" || fail "intercolls under the profiler"
check "results checked, same output with the profiler" cmp "$work/plain.out" "$work/prof.out"
check "every rank ok" test "$(grep -c ' ok$' "$work/prof.out")" -eq 4

# rank function bytes_sent bytes_recv (4-byte ints); A = rank 0.
awk 'function e(r, f, s, v) { print r, f, s, v }
BEGIN {
    for (r = 0; r < 4; r++) {
        A = (r == 0); B0 = (r == 1); j = r - 1    # j: rank in group B
        e(r, "MPI_Bcast", A ? 20 : 0, A ? 0 : 20)                      # 5 ints from A
        e(r, "MPI_Reduce", A ? 16 : 0, B0 ? 16 : 0)                    # 4 ints A -> B rank 0
        e(r, "MPI_Allreduce", 12, 12)
        e(r, "MPI_Reduce_scatter", 24, A ? 24 : 4 * (j + 1))           # local recvcounts {6} / {1,2,3}
        e(r, "MPI_Reduce_scatter_block", 24, A ? 24 : 8)               # 6 x 1 / 2 x 3
        e(r, "MPI_Gather", A ? 0 : 8, A ? 24 : 0)                      # 2 ints from each of B to A
        e(r, "MPI_Gatherv", A ? 12 : 0, B0 ? 12 : 0)                   # 3 ints A -> B rank 0
        e(r, "MPI_Scatter", A ? 24 : 0, A ? 0 : 8)                     # 2 ints to each of B
        e(r, "MPI_Scatterv", B0 ? 16 : 0, A ? 16 : 0)                  # 4 ints B rank 0 -> A
        e(r, "MPI_Allgather", 8, A ? 24 : 8)                           # 2 ints x remote size
        e(r, "MPI_Allgatherv", A ? 8 : 4 * (j + 1), A ? 24 : 8)
        e(r, "MPI_Alltoall", A ? 12 : 4, A ? 12 : 4)                   # 1 int per remote process
        e(r, "MPI_Alltoallv", A ? 12 : 8, A ? 24 : 4)
        e(r, "MPI_Alltoallw", A ? 12 : 4, A ? 12 : 4)
        e(r, "MPI_Barrier", 0, 0)
    }
}' | sort > "$work/expected"
awk '!/^#/ && $2 ~ /^MPI_(Bcast|Reduce|Allreduce|Reduce_scatter|Reduce_scatter_block|Gather|Gatherv|Scatter|Scatterv|Allgather|Allgatherv|Alltoall|Alltoallv|Alltoallw|Barrier)$/ {
        print $1, $2, $7, $8 }' "$work/rep/functions.txt" | sort > "$work/actual"
same_rows "intercommunicator collectives: bytes sent and received per rank"
finish
