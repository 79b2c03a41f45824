#!/bin/sh
# t_python.sh: call sites in Python code (issue 35): pysites.py, an mpi4py
# program on 2 ranks. Each checked call is named by its Python line,
# function@pysites.py:LINE, with exact calls per rank: the same function
# on different lines is different sites; two threads at one line are one
# site; at depth 2 the caller is the Python caller; through a library of
# its own (ctypes, --via) the Python line with the library's frame beside
# it; with --via none the C sites of before. The program's output is the
# same with and without the profiler. Also checks python_layout.h against
# the CPython headers (pylayout.c). Skipped where no python3 has an
# mpi4py built for this MPI (bench/mpi4py.sh; Debian's is built for Open MPI).
. "$top_srcdir/tests/integration/lib.sh"

src="$top_srcdir/tests/integration"
prog="$src/pysites.py"
lib="$top_builddir/tests/integration/.libs/libviatest.so"
. "$top_srcdir/bench/mpi4py.sh"
if ! py=$(mpi4py_python "$MPI_FLAVOR"); then
    echo "SKIP: no python3 with an mpi4py built for $MPI_FLAVOR" \
        "(Debian's python3-mpi4py, which ./quickstart test installs, is built for Open MPI)"
    exit 77
fi
echo "python: $py, mpi4py: $mpi4py_module"

inc=$("$py" -c 'import sysconfig; print(sysconfig.get_path("include"))')
if [ -f "$inc/internal/pycore_frame.h" ]; then
    check "python_layout.h agrees with the CPython headers" sh -c \
        "cc -I'$inc' -I'$top_srcdir/libprof/core' -o '$work/pylayout' '$src/pylayout.c' && '$work/pylayout'"
else
    echo "no CPython headers in $inc (python3-dev): python_layout.h not checked"
fi

line() { grep -n "# py: $1\$" "$prog" | cut -d: -f1; }
at() { echo "$1@pysites.py:$(line "$2")"; }

run 2 "$py" "$prog" "$lib" | sort > "$work/plain.out" || fail "pysites.py runs"
run 2 "$launcher" -q -o "$work/py" "$py" "$prog" "$lib" | sort > "$work/prof.out" ||
    fail "pysites.py under the profiler"
check "the same output with and without the profiler" cmp "$work/plain.out" "$work/prof.out"

# rows REPORT: rank, function, calls and site of every branch at a line of
# pysites.py, sorted.
rows() { awk '!/^#/ && $15 ~ /@pysites\.py:/ { print $1, $3, $4, $15 }' "$work/$1/branches.txt" | sort; }
{
    echo "0 MPI_Send 3 $(at exchange send)"
    echo "1 MPI_Recv 3 $(at exchange recv)"
    for r in 0 1; do
        echo "$r MPI_Barrier 1 $(at main barrier)"
        echo "$r MPI_Irecv 1 $(at two_irecvs 'irecv one')"
        echo "$r MPI_Irecv 1 $(at two_irecvs 'irecv two')"
        echo "$r MPI_Send 1 $(at two_irecvs 'send two')"
        echo "$r MPI_Send 1 $(at two_irecvs 'send two more')"
        echo "$r MPI_Sendrecv 3 $(at worker thread)"
    done
} | sort > "$work/expected"
rows py | grep -E ' (MPI_Send|MPI_Recv|MPI_Irecv|MPI_Barrier|MPI_Sendrecv) ' > "$work/actual"
same_rows "Python lines, calls per rank"
check "no site in mpi4py's or the interpreter's code" awk '
    !/^#/ && $3 ~ /^MPI_(Send|Recv|Irecv|Barrier|Sendrecv)$/ && $15 !~ /\.py:[0-9]+/ { print; bad = 1 }
    END { exit bad }' "$work/py/branches.txt"
check "sites.txt names the Python lines" awk -v s="$(at worker thread)" '
    !/^#/ && $2 == "MPI_Sendrecv" && $13 == s && $4 == 6 { n++ }
    END { exit n != 1 }' "$work/py/sites.txt"
check "mpiprof-report show lists them" sh -c \
    "'$top_builddir/tools/mpiprof-report' show --top 100 '$work/py' | grep -q 'MPI_Sendrecv $(at worker thread)'"

run 2 "$launcher" -q --depth 2 -o "$work/py2" "$py" "$prog" > /dev/null || fail "pysites.py at depth 2"
check "depth 2: the Python caller" awk -v s="$(at exchange send)" -v c="$(at main 'main exchange')" '
    !/^#/ && $3 == "MPI_Send" && $15 == s && $16 == c && $4 == 3 { n++ } END { exit n != 1 }' "$work/py2/branches.txt"

run 2 "$launcher" -q --via '+libviatest*' -o "$work/via" "$py" "$prog" "$lib" > /dev/null ||
    fail "pysites.py with --via"
meta="lib_meta@vialib.c:$(grep -n '// via: meta$' "$src/vialib.c" | cut -d: -f1)"
raw="lib_raw@vialib.c:$(grep -n '// via: raw$' "$src/vialib.c" | cut -d: -f1)"
for r in 0 1; do
    echo "$r MPI_Allreduce 1 $(at through_library library)(via_$meta)"
    echo "$r MPI_Allreduce 2 $(at through_library library)(via_$raw)"
done | sort > "$work/expected"
awk '!/^#/ && $3 == "MPI_Allreduce" { print $1, $3, $4, $15 }' "$work/via/branches.txt" | sort > "$work/actual"
same_rows "--via +libviatest*: the Python line, with the library's two paths"

run 2 "$launcher" -q --via none -o "$work/none" "$py" "$prog" > /dev/null || fail "pysites.py with --via none"
check "--via none: no Python lines, the C sites" awk '
    !/^#/ { n++; if ($15 ~ /\.py:/) bad = 1 } END { exit bad || !n }' \
    "$work/none/branches.txt"
finish
