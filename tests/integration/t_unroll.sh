#!/bin/sh
# t_unroll.sh: one branch per printed call stack (issue 14). unroll.c,
# built with -O2 -funroll-loops, has several call instructions for its
# MPI_Allreduce line (an unrolled loop): exactly one branch per rank, with
# the exact call count and the same id on both ranks (which run main at
# different load addresses), at depth 1 and at depth 4. Its MPI_Bcast line
# is in a function inlined at three places: named for itself with the line
# of each place it was inlined at (issue 35), three branches of one call.
. "$top_srcdir/tests/integration/lib.sh"

np=2
prog="$top_builddir/tests/integration/unroll"
src="$top_srcdir/tests/integration/unroll.c"
line() { grep -n "$1" "$src" | cut -d: -f1; }
la=$(line 'the MPI_Allreduce line')
lb=$(line 'the MPI_Bcast line')
inlined_at=$(line 'bcast_one(&v);')

# Without several copies of each call the test would prove nothing.
copies() { objdump -d "$prog" | grep -c "call.*<$1@plt>"; }
check "the binary has several MPI_Allreduce calls ($(copies MPI_Allreduce))" test "$(copies MPI_Allreduce)" -ge 2
check "the binary has three MPI_Bcast calls ($(copies MPI_Bcast))" test "$(copies MPI_Bcast)" -eq 3

run "$np" "$prog" > "$work/plain.out" || fail "unroll runs without the profiler"
if [ "$(cat /proc/sys/kernel/randomize_va_space 2>/dev/null)" != 0 ]; then
    check "the ranks run main at different addresses" grep -q 'different addresses: yes' "$work/plain.out"
fi

# rows REPORT FUNCTION: how many rows the function has (all ranks).
rows() { awk -v fn="$2" '!/^#/ && $3 == fn' "$work/$1/branches.txt" | wc -l; }

for depth in 1 4; do
    r=d$depth
    run "$np" "$launcher" -q --depth "$depth" -o "$work/$r" "$prog" > "$work/$r.out" || fail "$r: profiled run"
    check "$r: program output unchanged" cmp "$work/plain.out" "$work/$r.out"
    check "$r: unrolled loop: one MPI_Allreduce branch, 37 calls" one_branch "$r" MPI_Allreduce "main@unroll.c:$la" 37
    for at in $inlined_at; do
        check "$r: inlined function: one MPI_Bcast branch per place it was inlined at (line $at), 1 call" \
            one_branch "$r" MPI_Bcast "bcast_one@unroll.c:$lb(inlined_in_main@unroll.c:$at)" 1
    done
    check "$r: no other MPI_Allreduce or MPI_Bcast rows" test "$(rows "$r" MPI_Allreduce)" -eq "$np" -a \
        "$(rows "$r" MPI_Bcast)" -eq $((3 * np))
    check "$r: functions.txt agrees: 37 MPI_Allreduce, 3 MPI_Bcast per rank" awk -v np="$np" '
        !/^#/ && $2 == "MPI_Allreduce" && $3 == 37 { a++ } !/^#/ && $2 == "MPI_Bcast" && $3 == 3 { b++ }
        END { exit !(a == np && b == np) }' "$work/$r/functions.txt"
done
check "d4: the stacks have 3 ancestors" test "$(awk '!/^#/ && $3 == "MPI_Allreduce" { print split($16, a, ";") }' "$work/d4/branches.txt" | sort -u)" = 3

# The report message on one rank: "1 rank", and the phases.
run 1 "$launcher" -o "$work/one" "$prog" > /dev/null 2> "$work/one.err" || fail "one rank: profiled run"
check "one rank: the message says '1 rank' and the phases" grep -q \
    "^mpiprof: report written to $work/one (1 rank, [0-9.]* s at MPI_Finalize: merge [0-9.]*, symbolize [0-9.]*, gather [0-9.]*, write [0-9.]*)\$" \
    "$work/one.err"
finish
