#!/bin/sh
# t_sites.sh: sites.txt, one line per call site over all ranks. For mix on
# 4 ranks, every site's ranks, calls and bytes are exactly the sums of its
# branches.txt rows (and its time, least, mean, most and the ranks of the
# least and the most agree with them to 1 us), sorted by total time, and the known sites
# have their known figures; for slowrank, the rank that waited is named.
. "$top_srcdir/tests/integration/lib.sh"

np=4
bin="$top_builddir/tests/integration"
run "$np" "$launcher" -q -o "$work/mix" "$bin/mix" > /dev/null || fail "mix runs"

# What branches.txt implies, one line per branch id.
awk '!/^#/ {
        id = $2; r[id]++; c[id] += $4; t[id] += $5; s[id] += $12; v[id] += $13; f[id] = $3
        site[id] = $15; anc[id] = $16
        if (!(id in mn) || $5 < mn[id]) mn[id] = $5
        if (!(id in mx) || $5 > mx[id]) { mx[id] = $5; mr[id] = $1 }
     }
     END { for (id in r) printf "%s %s %d %d %s %s %.0f %.0f %s %s %s\n", id, f[id], r[id], c[id], t[id], mn[id], s[id], v[id], site[id], anc[id], mx[id] }' \
    "$work/mix/branches.txt" | sort -n > "$work/from_branches"
awk '!/^#/ { print $1, $2, $3, $4, $5, $6, $11, $12, $13, $14, $9 }' "$work/mix/sites.txt" | sort -n > "$work/from_sites"
check "sites.txt: one line per branch id of branches.txt" \
    test "$(wc -l < "$work/from_sites")" -eq "$(wc -l < "$work/from_branches")" -a -s "$work/from_sites"
awk '{ print $1, $2, $3, $4, $7, $8, $9, $10 }' "$work/from_branches" > "$work/expected"
awk '{ print $1, $2, $3, $4, $7, $8, $9, $10 }' "$work/from_sites" > "$work/actual"
same_rows "sites.txt ranks, calls, bytes, site and ancestors against branches.txt"
check "sites.txt times (total, least, most) agree with branches.txt to 1 us" \
    awk 'NR == FNR { t[$1] = $5; mn[$1] = $6; mx[$1] = $11; next }
         function off(a, b) { return a - b > 1e-6 || b - a > 1e-6 }
         off($5, t[$1]) || off($6, mn[$1]) || off($11, mx[$1]) { bad = 1; print "id " $1 ": " $0 }
         END { exit bad }' "$work/from_branches" "$work/from_sites"
check "sites.txt: mean is time / ranks, min_rank has the least time, max_rank the most" \
    awk 'NR == FNR { if (!/^#/) tm[$2 " " $1] = $5; next }
         /^#/ { next }
         { d = $8 - $5 / $3; if (d > 1e-9 || d < -1e-9 || tm[$1 " " $10] != $9 || tm[$1 " " $7] != $6) bad = 1 }
         END { exit bad }' "$work/mix/branches.txt" "$work/mix/sites.txt"
check "sites.txt: sorted by total time" \
    awk '!/^#/ { if (n++ && $5 > last) bad = 1; last = $5 } END { exit bad }' "$work/mix/sites.txt"
# Known sites of mix.c (exact, see mix.c): the ring of blocking receives
# and the Bcast of 100 ints from rank 0.
awk '!/^#/ && ($13 == "main@mix.c:35" || $13 == "main@mix.c:141") { print $2, $3, $4, $11, $12, $13 }' \
    "$work/mix/sites.txt" | sort > "$work/actual"
printf '%s\n' "MPI_Bcast 4 4 400 1200 main@mix.c:141" "MPI_Recv 4 12 0 40404 main@mix.c:35" > "$work/expected"
same_rows "sites.txt known sites of mix.c"

# The slow rank: rank 1 waits 0.5 s for rank 0 in the one MPI_Sendrecv.
[ "$MPI_FLAVOR" = mpich ] && np=2
run "$np" "$launcher" -q -o "$work/slow" "$bin/slowrank" > /dev/null || fail "slowrank runs"
awk '$2 == "MPI_Sendrecv" { print $3, $4, $10, $11, $12, ($9 >= 0.4), $13 }' "$work/slow/sites.txt" > "$work/actual"
echo "$np $np 1 $((4 * np)) $((4 * np)) 1 main@slowrank.c:16" > "$work/expected"
same_rows "slowrank: MPI_Sendrecv site names rank 1 as max_rank (>= 0.4 s)"
finish
