#!/bin/sh
# t_maxsites.sh: MPIPROF_MAX_SITES caps the call-site records of a thread
# (issue 22 item 6). mpiprof-sites -s 100 makes 100 MPI_Comm_rank calls per
# rank, each from its own site; with --max-sites 40 each of the 2 ranks has
# 40 site rows of one call and one (table-full) row of the other 60 calls,
# functions.txt still counts all 100, and the note says 120 calls and the
# cap. With the default cap (3072) the 1000 sites of -s 1000 all have rows
# and no note is written.
. "$top_srcdir/tests/integration/lib.sh"

np=2
sites="$top_builddir/bench/mpiprof-sites"
run "$np" "$launcher" -q --max-sites 40 -o "$work/cap" "$sites" -s 100 > /dev/null || fail "mpiprof-sites runs with --max-sites 40"

awk '!/^#/ && $3 == "MPI_Comm_rank" { print $1, ($15 == "(table-full)" ? $15 : "site"), $4 }' "$work/cap/branches.txt" |
    sort | uniq -c | sort > "$work/actual"
printf '%7d %s\n' 40 "0 site 1" 1 "0 (table-full) 60" 40 "1 site 1" 1 "1 (table-full) 60" | sort > "$work/expected"
same_rows "branches.txt under --max-sites 40: rows per rank (count, rank, site, calls)"
awk '!/^#/ && $2 == "MPI_Comm_rank" { print $1, $3 }' "$work/cap/functions.txt" > "$work/actual"
printf '%s\n' "0 100" "1 100" > "$work/expected"
same_rows "functions.txt counts every call under the cap"
for f in summary functions branches sites; do
    check "$f.txt names the 120 calls and the cap" \
        grep -q "^# note: 120 calls found their thread's call-site table full (MPIPROF_MAX_SITES=40); they are counted per function only$" \
        "$work/cap/$f.txt"
done
check "options= in the header names MAX_SITES=40" grep -q '^# mpiprof .*options=.*MAX_SITES=40' "$work/cap/summary.txt"

run "$np" "$launcher" -q -o "$work/all" "$sites" -s 1000 > /dev/null || fail "mpiprof-sites runs with the default cap"
check "default cap: 1000 site rows per rank, no table-full row" \
    awk '!/^#/ && $3 == "MPI_Comm_rank" { if ($15 == "(table-full)") bad = 1; n[$1]++ }
         END { exit bad || n[0] != 1000 || n[1] != 1000 }' "$work/all/branches.txt"
check "default cap: no note" sh -c "! grep -q 'table full' '$work/all/summary.txt'"
finish
