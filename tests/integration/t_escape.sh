#!/bin/sh
# t_escape.sh: issue 24 item 9 (escape.c, 2 ranks): after an error handler
# longjmp'd out of 5 calls, the thread's later calls are counted exactly,
# the handler's own MPI call still counts as nested (not at all), and the
# report says how many calls never returned.
. "$top_srcdir/tests/integration/lib.sh"

run_compare 2 "$top_builddir/tests/integration/escape"

cat > "$work/expected" <<'ROWS'
0 MPI_Allreduce 3
0 MPI_Barrier 7
0 MPI_Comm_create_errhandler 1
0 MPI_Comm_dup 1
0 MPI_Comm_free 1
0 MPI_Comm_rank 1
0 MPI_Comm_set_errhandler 1
0 MPI_Comm_size 1
0 MPI_Errhandler_free 1
1 MPI_Allreduce 3
1 MPI_Barrier 7
1 MPI_Comm_create_errhandler 1
1 MPI_Comm_dup 1
1 MPI_Comm_free 1
1 MPI_Comm_rank 1
1 MPI_Comm_set_errhandler 1
1 MPI_Comm_size 1
1 MPI_Errhandler_free 1
ROWS
awk '!/^#/ { print $1, $2, $3 }' "$work/rep/functions.txt" | sort > "$work/actual"
same_rows "functions.txt calls per rank (no MPI_Send, no MPI_Error_string)"
check "note: 10 calls never returned" grep -q "^# note: 10 calls never returned to the profiler" "$work/rep/functions.txt"
finish
