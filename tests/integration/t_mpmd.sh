#!/bin/sh
# t_mpmd.sh: call sites named once per job, per binary (issue 14). Two
# binaries with the same base name and the same code offsets but their own
# function names (mpmd.c built with SIDE=a and SIDE=b) run as one MPMD job,
# `mpirun -np 1 a/mpmd : -np 1 b/mpmd`: each rank's site keeps its own
# binary's name (site_a on rank 0, site_b on rank 1, two different ids),
# and the line both share (main's) is one id on both ranks.
. "$top_srcdir/tests/integration/lib.sh"

mkdir -p "$work/a" "$work/b"
cp "$top_builddir/tests/integration/mpmd_a" "$work/a/mpmd"
cp "$top_builddir/tests/integration/mpmd_b" "$work/b/mpmd"
src="$top_srcdir/tests/integration/mpmd.c"
ls=$(grep -n 'the site line' "$src" | cut -d: -f1)
lm=$(grep -n 'the main line' "$src" | cut -d: -f1)
check "the two sides have their sites at the same offset" test \
    "$(nm "$work/a/mpmd" | awk '$3 == "site_a" { print $1 }')" = "$(nm "$work/b/mpmd" | awk '$3 == "site_b" { print $1 }')"

echo "+ $MPIRUN -np 1 mpiprof a/mpmd : -np 1 mpiprof b/mpmd" >&2
with_lock -s "$MPIRUN" -np 1 "$launcher" -q -o "$work/rep" "$work/a/mpmd" : -np 1 "$launcher" -q -o "$work/rep" "$work/b/mpmd" \
    > "$work/out" || fail "MPMD run"
check "the job had 2 ranks" grep -q '^2 ranks$' "$work/out"
# row RANK SITE: "calls id" of the rank's MPI_Bcast row at SITE.
row() {
    awk -v r="$1" -v site="$2" '!/^#/ && $1 == r && $3 == "MPI_Bcast" && $15 == site { print $4, $2 }' \
        "$work/rep/branches.txt"
}
a=$(row 0 "site_a@mpmd.c:$ls"); b=$(row 1 "site_b@mpmd.c:$ls")
check "rank 0 (a/mpmd): site_a, 2 calls ($a)" test "${a% *}" = 2
check "rank 1 (b/mpmd): site_b, 2 calls ($b)" test "${b% *}" = 2
check "the two sites have different ids" test -n "${a#* }" -a "${a#* }" != "${b#* }"
check "no rank names the other binary's site" test "$(grep -c 'site_b' "$work/rep/branches.txt")" -eq 1 -a \
    "$(grep -c 'site_a' "$work/rep/branches.txt")" -eq 1
m0=$(row 0 "main@mpmd.c:$lm"); m1=$(row 1 "main@mpmd.c:$lm")
check "main's line: 1 call on each rank, one id ($m0, $m1)" test "$m0" = "$m1" -a "${m0% *}" = 1
finish
