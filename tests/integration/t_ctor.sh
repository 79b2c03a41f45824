#!/bin/sh
# t_ctor.sh: MPI_Init in a shared library's constructor and MPI_Finalize in
# its destructor (issue 24 item 12): the report is written with exact counts
# and no "exited without calling MPI_Finalize" message, on 2 ranks.
. "$top_srcdir/tests/integration/lib.sh"

np=2
src="$top_srcdir/tests/integration"
"$MPICC" -shared -fPIC -o "$work/libctor.so" "$src/ctorlib.c" &&
"$MPICC" -o "$work/ctormain" "$src/ctormain.c" -Wl,--no-as-needed -L"$work" -lctor -Wl,-rpath,"$work" ||
    { echo "FAIL: cannot build the test program"; exit 1; }

run "$np" "$work/ctormain" 2>/dev/null | sort > "$work/plain.out"
run "$np" "$launcher" -o "$work/rep" "$work/ctormain" > "$work/prof.out" 2> "$work/prof.err"
status=$?
sort -o "$work/prof.out" "$work/prof.out"
check "exit status 0" test "$status" -eq 0
check "same output as without the profiler (sorted)" cmp "$work/plain.out" "$work/prof.out"
check "no message about a missing MPI_Finalize" test -z "$(grep 'without calling MPI_Finalize' "$work/prof.err")"
check "the report is written, once" test "$(grep -c '^mpiprof: report written to' "$work/prof.err")" -eq 1
awk '!/^#/ { print $1, $2, $3, $7, $8 }' "$work/rep/functions.txt" | sort > "$work/actual"
for r in 0 1; do
    echo "$r MPI_Allreduce 2 8 8"
    echo "$r MPI_Barrier 3 0 0"
    echo "$r MPI_Comm_rank 1 0 0"
done | sort > "$work/expected"
same_rows "functions.txt"
finish
