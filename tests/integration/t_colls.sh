#!/bin/sh
# t_colls.sh: bytes of every collective (colls.c, 4 ranks, MPI_INT) against
# the volume rules of mpiprof-report(5): the call's send and receive
# buffers, MPI_IN_PLACE as the rank's own block, roots and neighbourhoods.
. "$top_srcdir/tests/integration/lib.sh"

prog="$top_builddir/tests/integration/colls"
run 4 "$prog" > "$work/plain.out" || fail "colls runs"
run 4 "$launcher" -q -o "$work/rep" "$prog" > "$work/prof.out" || fail "colls under the profiler"
check "same output with the profiler" cmp "$work/plain.out" "$work/prof.out"

# function calls sent recv, per rank r (P = 4, 4-byte ints); MPI_Gather
# includes the final gather of one 8-byte long to rank 0.
expected() {
    awk 'BEGIN { P = 4
        for (r = 0; r < P; r++) {
            e(r, "MPI_Bcast", 1, r == 1 ? 40 : 0, r == 1 ? 0 : 40)
            e(r, "MPI_Reduce", 1, 12, r == 2 ? 12 : 0)
            e(r, "MPI_Allreduce", 1, 20, 20)
            e(r, "MPI_Scan", 1, 8, 8)
            e(r, "MPI_Exscan", 1, 8, 8)
            e(r, "MPI_Reduce_scatter", 1, 40, 4 * (r + 1))
            e(r, "MPI_Reduce_scatter_block", 1, 32, 8)
            # 3 ints to root 0; 3 ints to root 3 (its own block in place); a long to root 0
            e(r, "MPI_Gather", 3, 12 + 12 + 8, (r == 0 ? 48 + 32 : 0) + (r == 3 ? 48 : 0))
            e(r, "MPI_Gatherv", 1, 4 * (r + 1), r == 1 ? 40 : 0)
            e(r, "MPI_Scatter", 1, r == 0 ? 32 : 0, 8)
            e(r, "MPI_Scatterv", 1, r == 2 ? 40 : 0, 4 * (r + 1))
            e(r, "MPI_Allgather", 2, 8 + 8, 32 + 32)
            e(r, "MPI_Allgatherv", 1, 4 * (r + 1), 40)
            e(r, "MPI_Alltoall", 1, 16, 16)
            e(r, "MPI_Alltoallv", 1, 40, 16 * (r + 1))
            e(r, "MPI_Alltoallw", 1, 40, 16 * (r + 1))
            e(r, "MPI_Ibcast", 1, r == 0 ? 40 : 0, r == 0 ? 0 : 40)
            e(r, "MPI_Iallreduce", 1, 20, 20)
            e(r, "MPI_Barrier", 1, 0, 0)
            e(r, "MPI_Neighbor_allgather", 1, 4, 8)
            e(r, "MPI_Neighbor_alltoall", 1, 8, 8)
        } }
        function e(r, f, c, s, v) { print r, f, c, s, v }' | sort
}
expected > "$work/expected"
awk '!/^#/ && $2 ~ /^MPI_(Bcast|Reduce|Allreduce|Scan|Exscan|Reduce_scatter|Reduce_scatter_block|Gather|Gatherv|Scatter|Scatterv|Allgather|Allgatherv|Alltoall|Alltoallv|Alltoallw|Ibcast|Iallreduce|Barrier|Neighbor_allgather|Neighbor_alltoall)$/ { print $1, $2, $3, $7, $8 }' \
    "$work/rep/functions.txt" | sort > "$work/actual"
same_rows "every collective's calls and bytes"
finish
