#!/bin/sh
# t_rmaio.sh: bytes of the one-sided and MPI-IO families (rmaio.c, 2 ranks)
# against the volume rules of mpiprof-report(5): a put or write reads its
# origin buffer (bytes_sent), a get or read writes it (bytes_recv);
# Get_accumulate both; Fetch_and_op one element each way; Compare_and_swap
# reads origin and compare, writes the result.
. "$top_srcdir/tests/integration/lib.sh"

prog="$top_builddir/tests/integration/rmaio"
run 2 "$prog" "$work/plain.dat" > "$work/plain.out" || fail "rmaio runs"
run 2 "$launcher" -q -o "$work/rep" "$prog" "$work/prof.dat" > "$work/prof.out" || fail "rmaio under the profiler"
check "same output with the profiler" cmp "$work/plain.out" "$work/prof.out"
check "same file written with the profiler" cmp "$work/plain.dat" "$work/prof.dat"

printf '%s\n' \
    "MPI_Put 1 20 0" "MPI_Get 1 0 12" "MPI_Accumulate 1 16 0" "MPI_Get_accumulate 1 8 8" \
    "MPI_Fetch_and_op 1 4 4" "MPI_Compare_and_swap 1 8 4" "MPI_Rput 1 8 0" \
    "MPI_Win_fence 6 0 0" "MPI_Win_create 1 0 0" "MPI_Win_free 1 0 0" "MPI_Win_lock 1 0 0" "MPI_Win_unlock 1 0 0" \
    "MPI_File_open 1 0 0" "MPI_File_write_at 1 40 0" "MPI_File_read_at 1 0 40" \
    "MPI_File_write_at_all 1 24 0" "MPI_File_read_at_all 1 0 24" "MPI_File_iwrite_at 1 8 0" \
    "MPI_File_sync 2 0 0" "MPI_File_close 1 0 0" |
    awk '{ for (r = 0; r < 2; r++) print r, $0 }' | sort > "$work/expected"
awk '!/^#/ && $2 ~ /^MPI_(Put|Get|Accumulate|Get_accumulate|Fetch_and_op|Compare_and_swap|Rput|Win_|File_)/ { print $1, $2, $3, $7, $8 }' \
    "$work/rep/functions.txt" | sort > "$work/actual"
same_rows "one-sided and MPI-IO calls and bytes"
finish
