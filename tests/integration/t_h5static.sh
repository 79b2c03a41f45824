#!/bin/sh
# t_h5static.sh: a parallel HDF5 program built with the MPI's h5pcc, which
# links HDF5 into the executable (h5static.c; issue 50): by the default
# MPIPROF_VIA's function names (H5*), its collective writes are named at
# the user's line at depth 1, write_block's, with HDF5's frame beside it,
# 3 calls a rank; no site is HDF5's own, and the output is the same as
# unprofiled. With --via none the writes are HDF5's (the shape before).
# Skipped without h5pcc.openmpi or h5pcc.mpich (Debian libhdf5-openmpi-dev,
# libhdf5-mpich-dev).
. "$top_srcdir/tests/integration/lib.sh"

h5pcc=$(command -v "h5pcc.$MPI_FLAVOR") || { echo "SKIP: no h5pcc.$MPI_FLAVOR (libhdf5-$MPI_FLAVOR-dev)"; exit 77; }
src="$top_srcdir/tests/integration/h5static.c"
prog="$work/h5static"
"$h5pcc" -g -O0 -o "$prog" "$src" || { echo "FAIL: $h5pcc -g -O0 -o $prog $src"; exit 1; }
nm "$prog" | grep -q ' [tT] H5FD__mpio_write$' || { echo "FAIL: $h5pcc did not link HDF5 into $prog"; exit 1; }
write="write_block@h5static.c:$(grep -n '// user: write$' "$src" | cut -d: -f1)"

run 2 "$prog" "$work/plain.h5" > "$work/plain.out" || fail "h5static runs"
run 2 "$launcher" -q -o "$work/rep" "$prog" "$work/prof.h5" > "$work/prof.out" || fail "h5static under mpiprof"
check "the same output profiled" cmp "$work/plain.out" "$work/prof.out"
check "the output is the sum of the dataset" grep -qx 'h5static: 2096128' "$work/plain.out"

# rank, calls and site of the MPI_File_write_at_all branches
awk '!/^#/ && $3 == "MPI_File_write_at_all" { print $1, $4, $15 }' "$work/rep/branches.txt" | sort > "$work/writes"
check "MPI_File_write_at_all: one site a rank, $write(via_H5FD__mpio_write@...), 3 calls" awk -v w="$write(via_H5FD__mpio_write@" '
    index($3, w) == 1 && $2 == 3 { n[$1]++; next } { bad = 1 } END { exit bad || n[0] != 1 || n[1] != 1 }' "$work/writes"
check "no call site is HDF5's own: each is main's or write_block's" awk '
    !/^#/ && $15 !~ /^(main|write_block)@h5static\.c:[0-9]+(\(via_H5[A-Za-z0-9_]*@|$)/ { print "rank " $1 " " $3 ": " $15; bad = 1 }
    END { exit bad }' "$work/rep/branches.txt"

run 2 "$launcher" -q --via none -o "$work/none" "$prog" "$work/none.h5" > /dev/null || fail "h5static with --via none"
check "--via none: the writes are HDF5's own, H5FD__mpio_write's" awk '
    !/^#/ && $3 == "MPI_File_write_at_all" { n++; if ($15 !~ /^H5FD__mpio_write@/ || $4 != 3) bad = 1 }
    END { exit bad || n != 2 }' "$work/none/branches.txt"
finish
