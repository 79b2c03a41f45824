#!/bin/sh
# t_handles.sh: issue 24 items 5 and 6 (handles.c, 2 ranks): a wildcard
# receive keeps its partner across unrelated MPI_Type_free/MPI_Comm_free,
# and a communicator's rank map dies with it (a reused handle gets its own);
# partners per function exact in partners.txt, output unchanged.
. "$top_srcdir/tests/integration/lib.sh"

run_compare 2 "$top_builddir/tests/integration/handles"

# rank function partner count, summed over the function's branches.
cat > "$work/expected" <<'ROWS'
0 MPI_Irecv 1 10
0 MPI_Isend 0 3
0 MPI_Isend 1 3
0 MPI_Recv 0 3
0 MPI_Recv 1 3
0 MPI_Wait 1 10
0 MPI_Waitall 0 3
0 MPI_Waitall 1 3
1 MPI_Isend 0 3
1 MPI_Isend 1 3
1 MPI_Recv 0 3
1 MPI_Recv 1 3
1 MPI_Send 0 10
1 MPI_Waitall 0 3
1 MPI_Waitall 1 3
ROWS
awk '!/^#/ { n[$1 " " $3 " " $4] += $6 } END { for (k in n) print k, n[k] }' "$work/rep/partners.txt" | sort > "$work/actual"
same_rows "partners.txt per rank, function and partner"
finish
