#!/bin/sh
# t_known_rmaio.sh: rma.txt and io.txt against mpiprof-known rma and io at
# 3 ranks: every row's calls and bytes exactly (rma.txt summed over the
# windows of a rank, per target and kind); windows made at one call site
# are one entry whose id is the branch id of the creating call; a file
# opened by all ranks and the same name opened by rank 0 alone are two
# files; file ids and the job's lines agree with the ranks' rows.
. "$top_srcdir/tests/integration/lib.sh"

np=3
known="$top_builddir/bench/mpiprof-known"

# rows KEY FILE.out: the expect line's rows, one per line, fields spaced.
rows() {
    tr ' ' '\n' < "$1" | sed -n 's/^rows=//p' | tr ',' '\n' | tr ':' ' ' | sort
}

# --- one-sided ---------------------------------------------------------------
run $np "$known" rma -w 5 > "$work/rma-plain.out" || fail "mpiprof-known rma runs"
run $np "$launcher" -q -o "$work/rma" "$known" rma -w 5 > "$work/rma.out" || fail "mpiprof-known rma under the profiler"
check "rma: same output with the profiler" cmp "$work/rma-plain.out" "$work/rma.out"
rows "$work/rma.out" > "$work/expected"
awk '!/^#/ { k = $1 " " $3 " " $4; c[k] += $5; b[k] += $6 } END { for (k in c) print k, c[k], b[k] }' \
    "$work/rma/rma.txt" | sort > "$work/actual"
same_rows "rma.txt per rank, target and kind"

# Two windows per rank: the Win_create one, and the Win_allocate site that
# made -w 5 windows (creates=1,5); their ids are the creating calls' branches.
creates=$(tr ' ' '\n' < "$work/rma.out" | sed -n 's/^creates=//p')
for r in 0 1 2; do
    got=$(awk -v r=$r '!/^#/ && $1 == r && $4 == "create" { print $5 }' "$work/rma/rma.txt" | sort -n | paste -sd, -)
    [ "$got" = "$creates" ] || fail "rma: rank $r creates per window $got, expected $creates"
done
awk 'FNR == NR { if (!/^#/) fn[$2] = $3; next }
     !/^#/ && $4 == "create" { if (fn[$2] != "MPI_Win_create" && fn[$2] != "MPI_Win_allocate") { print "win " $2 ": " fn[$2]; bad = 1 }; n++ }
     END { exit bad || n != 6 }' "$work/rma/branches.txt" "$work/rma/rma.txt" ||
    fail "rma: window ids are the branch ids of MPI_Win_create and MPI_Win_allocate"
ok "rma: two windows per rank, named by their creating branches"

# --- MPI-IO ------------------------------------------------------------------
mkdir "$work/io-plain" "$work/io-prof"
run $np "$known" io -d "$work/io-plain" > "$work/io-plain.out" || fail "mpiprof-known io runs"
run $np "$launcher" -q -o "$work/io" "$known" io -d "$work/io-prof" > "$work/io.out" || fail "mpiprof-known io under the profiler"
sed "s|$work/io-plain|DIR|g" "$work/io-plain.out" > "$work/a"
sed "s|$work/io-prof|DIR|g" "$work/io.out" > "$work/b"
check "io: same output with the profiler" cmp "$work/a" "$work/b"
rows "$work/io.out" > "$work/expected"
awk '!/^#/ { print $1, $NF, $3, $4, $5, $6 }' "$work/io/io.txt" | sort > "$work/actual"
same_rows "io.txt per rank, file and access"

# One id per (name, procs), the same on every rank; the shared name twice.
awk '!/^#/ { k = $NF " " $3; if ((k in id) && id[k] != $2) bad = 1; id[k] = $2; if (($2 in key) && key[$2] != k) bad = 1; key[$2] = k }
     END { for (k in id) if (k ~ /known-io-shared.dat /) n++; exit bad || n != 2 }' "$work/io/io.txt" ||
    fail "io: file ids differ between ranks, or the shared name is not two files"
# The job's line of each file: the sum of its ranks' calls and bytes, and
# the bandwidth of its bytes over the slowest rank's time.
awk '!/^#/ && $1 == "all" { c[$2] = $5; b[$2] = $6; t[$2] = $7; bw[$2] = $8; next }
     !/^#/ && $4 !~ /size/ { sc[$2] += $5; sb[$2] += $6; st[$1 " " $2] += $7 }
     END { for (f in c) { slow = 0; for (r = 0; r < 3; r++) if (st[r " " f] > slow) slow = st[r " " f]
               if (c[f] != sc[f] || b[f] != sb[f]) { print "file " f ": " c[f] " " b[f] " vs " sc[f] " " sb[f]; bad = 1 }
               if (t[f] - slow > 1e-6 || slow - t[f] > 1e-6) { print "file " f ": slowest " t[f] " vs " slow; bad = 1 }
               if (t[f] > 0 && (bw[f] - b[f] / t[f] / 1e6) ^ 2 > 1e-3 * (1 + bw[f])) { print "file " f ": bandwidth " bw[f]; bad = 1 } }
           exit bad }' "$work/io/io.txt" || fail "io: job lines"
ok "io: ids, separate entries and job lines"
finish
