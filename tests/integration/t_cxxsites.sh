#!/bin/sh
# t_cxxsites.sh: call sites in C++ (cxxsites.cpp, issue 35): names
# demangled as people write them (a function template's instance, a
# lambda), the functions inlined at a call site named for themselves with
# the chain they were inlined into, each with the line of its call; the
# same in sites.txt and in mpiprof-report show; the program's output the
# same with and without the profiler.
. "$top_srcdir/tests/integration/lib.sh"

prog="$top_builddir/tests/integration/cxxsites"
[ -x "$prog" ] || { echo "SKIP: $prog not built (no MPI C++ compiler wrapper)"; exit 77; }
src="$top_srcdir/tests/integration/cxxsites.cpp"
at() { grep -n "// site: $1\$" "$src" | cut -d: -f1; }

run 2 "$prog" > "$work/plain.out" || fail "cxxsites runs"
run 2 "$launcher" -q --depth 2 -o "$work/rep" "$prog" > "$work/prof.out" || fail "cxxsites under the profiler"
check "the same output under the profiler" cmp "$work/plain.out" "$work/prof.out"

f=cxxsites.cpp
awk -v P=2 -v shift="ring::shift<double>@$f:$(at shift)" -v lambda="main::{lambda(double)#1}::operator()@$f:$(at lambda)" \
    -v total="total@$f:$(at total)(inlined_in_main@$f:$(at 'total call'))" \
    -v barrier="total_count@$f:$(at barrier)(inlined_in_count_all@$f:$(at 'barrier call'))(inlined_in_main@$f:$(at 'barrier call in main'))" '
    BEGIN { for (r = 0; r < P; r++) { print r, "MPI_Sendrecv", 3, shift; print r, "MPI_Bcast", 2, lambda
            print r, "MPI_Allreduce", 1, total; print r, "MPI_Barrier", 1, barrier } }' | sort > "$work/expected"
awk '!/^#/ && $3 ~ /^MPI_(Sendrecv|Bcast|Allreduce|Barrier)$/ { print $1, $3, $4, $15 }' "$work/rep/branches.txt" |
    sort > "$work/actual"
same_rows "branches.txt: demangled names and inline chains, with their lines"
check "branches.txt: ring::shift<double>'s caller is main (depth 2)" \
    awk -v want="main@$f:" '!/^#/ && $3 == "MPI_Sendrecv" && index($16, want) != 1 { bad = 1 } END { exit bad }' \
    "$work/rep/branches.txt"
check "sites.txt: the same names" awk -v lambda="main::{lambda(double)#1}::operator()@$f:$(at lambda)" '
    !/^#/ && $2 == "MPI_Bcast" && $13 == lambda { n++ } END { exit n != 1 }' "$work/rep/sites.txt"
check "no mangled name in any file" sh -c '! grep -l "_Z[A-Za-z0-9]" "$1"/*.txt "$1"/branches.human' - "$work/rep"
if "$top_builddir/tools/mpiprof-report" show "$work/rep" > "$work/show.out" 2>&1; then
    check "mpiprof-report show: the lambda's site" grep -qF "main::{lambda(double)#1}::operator()@$f:$(at lambda)" "$work/show.out"
else
    echo "SKIP: mpiprof-report show (no pandas?):"; cat "$work/show.out"
fi
finish
