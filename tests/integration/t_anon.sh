#!/bin/sh
# t_anon.sh: call sites outside every module (issue 24): anon.c calls
# MPI_Barrier from trampolines in anonymous executable memory, at other
# addresses on each rank. At depth 1 and 4: one branch "[anon]" per rank
# with all 5 calls and the same id on both ranks (not a library's name,
# which dladdr gives for such addresses), and main's own barrier apart.
# x86-64 only (the trampoline is machine code).
. "$top_srcdir/tests/integration/lib.sh"

[ "$(uname -m)" = x86_64 ] || { echo "SKIP: the trampoline is x86-64 code"; exit 77; }
np=2
prog="$top_builddir/tests/integration/anon"
lm=$(grep -n 'the main barrier' "$top_srcdir/tests/integration/anon.c" | cut -d: -f1)
run "$np" "$prog" > "$work/plain.out" || fail "anon runs without the profiler"
check "the trampolines ran" grep -q '^5 barriers through anonymous code$' "$work/plain.out"

for depth in 1 4; do
    r=d$depth
    run "$np" "$launcher" -q --depth "$depth" -o "$work/$r" "$prog" > "$work/$r.out" || fail "$r: profiled run"
    check "$r: program output unchanged" cmp "$work/plain.out" "$work/$r.out"
    check "$r: anonymous code: one [anon] branch, 5 calls, one id" one_branch "$r" MPI_Barrier '[anon]' 5
    check "$r: main's barrier: its own branch, 1 call" one_branch "$r" MPI_Barrier "main@anon.c:$lm" 1
    check "$r: two MPI_Barrier branches per rank, 6 calls in all" awk -v np="$np" '
        !/^#/ && $3 == "MPI_Barrier" { n++; c += $4 } END { exit !(n == 2 * np && c == 6 * np) }' "$work/$r/branches.txt"
done
finish
