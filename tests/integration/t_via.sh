#!/bin/sh
# t_via.sh: MPI called through a library (viaprog.c through libviatest,
# vialib.c; issue 35). With the library among MPIPROF_VIA (--via), each
# call site is the user's line at depth 1, with the library's frame beside
# it, so that the library's two paths from one line (its "metadata" and
# "raw data" MPI_Allreduce) stay two sites: exact calls per site. Without it
# (the default list, or none), the sites are the library's own. The
# program's output is the same in every run. With the library linked into
# the program (viaprog_static, issue 50), its functions' names (--via
# '+lib_*') find it the same way; a bad pattern is said in one line and
# the default list is used.
. "$top_srcdir/tests/integration/lib.sh"

prog="$top_builddir/tests/integration/viaprog"
at() { grep -n "// $2\$" "$top_srcdir/tests/integration/$1" | cut -d: -f1; }
once="main@viaprog.c:$(at viaprog.c 'user: once')"
loop="main@viaprog.c:$(at viaprog.c 'user: loop')"
meta="lib_meta@vialib.c:$(at vialib.c 'via: meta')"
raw="lib_raw@vialib.c:$(at vialib.c 'via: raw')"

run 2 "$prog" > "$work/plain.out" || fail "viaprog runs"
# sites REPORT: rank, calls and site of every MPI_Allreduce branch, sorted.
sites() {
    awk '!/^#/ && $3 == "MPI_Allreduce" { print $1, $4, $15 }' "$work/$1/branches.txt" | sort
}

# user_sites REPORT WHAT: every rank's MPI_Allreduce sites are the user's
# two lines, each with the library's two paths, with exact calls.
user_sites() {
    for r in 0 1; do
        echo "$r 1 $once(via_$meta)"; echo "$r 2 $once(via_$raw)"; echo "$r 3 $loop(via_$meta)"; echo "$r 6 $loop(via_$raw)"
    done | sort > "$work/expected"
    sites "$1" > "$work/actual"
    same_rows "$2: the user's lines, each with the library's two paths"
}
# callers_outside REPORT WHAT: deeper, the same sites, and no library frame
# among their ancestors.
callers_outside() {
    check "$2: the same sites, their callers outside the library" awk -v s="$loop(via_$raw)" '
        !/^#/ && $3 == "MPI_Allreduce" { n++; if ($16 ~ /vialib|lib_/) bad = 1 } !/^#/ && $15 == s && $4 == 6 { m++ }
        END { exit bad || n != 8 || m != 2 }' "$work/$1/branches.txt"
}

run 2 "$launcher" -q --via '+libviatest*' -o "$work/via" "$prog" > "$work/via.out" || fail "viaprog with --via +libviatest*"
check "--via: the same output" cmp "$work/plain.out" "$work/via.out"
user_sites via "--via +libviatest*"
check "--via: the other calls' sites unchanged" awk -v want="main@viaprog.c:" '
    !/^#/ && $3 == "MPI_Comm_size" && index($15, want) == 1 { n++ } END { exit n != 2 }' "$work/via/branches.txt"
check "--via: sites.txt names the same sites" awk -v s="$loop(via_$raw)" '!/^#/ && $13 == s && $4 == 12 { n++ } END { exit n != 1 }' \
    "$work/via/sites.txt"

MPIPROF_VIA='libviatest*' run 2 "$launcher" -q --depth 2 -o "$work/via2" "$prog" > /dev/null || fail "viaprog with MPIPROF_VIA"
callers_outside via2 "MPIPROF_VIA=libviatest* at depth 2"

static="$top_builddir/tests/integration/viaprog_static"
run 2 "$launcher" -q --via '+lib_*' -o "$work/static" "$static" > "$work/static.out" || fail "viaprog_static with --via +lib_*"
check "--via +lib_* (linked in): the same output" cmp "$work/plain.out" "$work/static.out"
user_sites static "--via +lib_* (linked in)"
check "--via +lib_* (linked in): main's own calls stay main's" awk -v want="main@viaprog.c:" '
    !/^#/ && $3 == "MPI_Comm_size" && index($15, want) == 1 && $15 !~ /via_/ { n++ } END { exit n != 2 }' \
    "$work/static/branches.txt"
MPIPROF_VIA='lib_*' run 2 "$launcher" -q --depth 3 -o "$work/static3" "$static" > /dev/null || fail "viaprog_static at depth 3"
callers_outside static3 "MPIPROF_VIA=lib_* (linked in) at depth 3"

MPIPROF_VIA='lib::*' run 2 "$launcher" -o "$work/bad" "$static" > /dev/null 2> "$work/bad.err" || fail "viaprog_static with a bad MPIPROF_VIA"
check "MPIPROF_VIA=lib::*: one line, the value and what is accepted" awk '
    /^mpiprof: MPIPROF_VIA=.lib::\*. is not valid; expected none, or a comma-separated list of library file name patterns/ { n++ }
    END { exit n != 1 }' "$work/bad.err"
for r in 0 1; do echo "$r 4 $meta"; echo "$r 8 $raw"; done | sort > "$work/expected"
sites bad > "$work/actual"
same_rows "MPIPROF_VIA=lib::* (linked in): the default list, the library's own sites"

for how in default none; do
    case $how in
        default) run 2 "$launcher" -q -o "$work/$how" "$prog" > /dev/null ;;
        none) run 2 "$launcher" -q --via none -o "$work/$how" "$prog" > /dev/null ;;
    esac || fail "viaprog ($how)"
    for r in 0 1; do echo "$r 4 $meta"; echo "$r 8 $raw"; done | sort > "$work/expected"
    sites $how > "$work/actual"
    same_rows "--via $how: the library's own sites"
done
finish
