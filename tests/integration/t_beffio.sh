#!/bin/sh
# t_beffio.sh: mpiprof-beffio -T 10s on 2 processes finishes within 1.5 T;
# on 4 (Open MPI; MPICH, which busy-polls, stays at 2) with -T 3s it prints
# the five pattern types of the three access methods for every partition
# of section 6, and its partition and final values are the weightings of
# the printed type bandwidths, recomputed here; no file is left behind;
# bad arguments get one line and status 2.
#
# Only the 2-process run is timed: rewrite and read repeat the initial
# write's counts (section 3), so a run keeps to T only where reading is
# not much slower than writing. With 4 processes on 2 cores the
# collective reads of types 0, 1 and 4 run up to 30 times slower than
# their writes (a -T 30s run took 73 s on an idle machine).
. "$top_srcdir/tests/integration/lib.sh"

beffio="$top_builddir/bench/mpiprof-beffio"
mkdir "$work/files"

# Timed from when the run lock is held: waiting for it (other tests' runs
# hold it shared, and may keep it) is not the run's time.
T=10
echo "+ $MPIRUN -np 2 $beffio -T ${T}s -M 256 -dir $work/files" >&2
TOOK="$work/took"
export TOOK
with_lock -x sh -c 's=$(date +%s); "$@"; rc=$?; echo $(($(date +%s) - s)) > "$TOOK"; exit $rc' sh \
    "$MPIRUN" -np 2 "$beffio" -T ${T}s -M 256 -dir "$work/files" > "$work/out" 2> "$work/err" ||
    { fail "mpiprof-beffio runs"; cat "$work/err"; }
took=$(cat "$work/took" 2> /dev/null || echo 0)
check "2 processes: finishes within 1.5 T ($took s for T = $T s)" test "$took" -le $((T * 3 / 2))
check "no file left in -dir" test -z "$(ls -A "$work/files")"

parts="1 2"
if [ "$MPI_FLAVOR" != mpich ]; then
    parts="2 3 4"
    run 4 "$beffio" -T 3s -M 256 -dir "$work/files" > "$work/out" 2> "$work/err" ||
        { fail "mpiprof-beffio runs on 4"; cat "$work/err"; }
    check "4 processes: no file left in -dir" test -z "$(ls -A "$work/files")"
fi

# Every partition: 3 methods x 5 types, each with a bandwidth > 0.
for q in $parts; do
    check "partition $q: write, rewrite and read of types 0-4" awk -v q="$q" '
        $1 == q && $4 == "all" && $9 > 0 { n[$2 " " $3]++ }
        END { split("write rewrite read", m, " ")
              for (k = 1; k <= 3; k++) for (t = 0; t < 5; t++) if (n[m[k] " " t] != 1) bad = 1
              exit bad }' "$work/out"
done
check "the partitions are those of section 6 ($parts)" test \
    "$(awk '$2 == "b_eff_io" && $3 == "release2" && $1 != "max" { printf "%s%s", s, $1; s = " " }' "$work/out")" = "$parts"

# The weighting, recomputed from the type bandwidths (printed with 3 decimals).
check "partition and final values are the weightings of the type bandwidths" awk '
    function close_to(a, b) { d = a - b; if (d < 0) d = -d; return d <= 0.002 + 1e-4 * b }
    $4 == "all" { bw[$1, $2, $3] = $9; q[$1] = 1; next }
    $2 == "b_eff_io" { printed[$1, $3] = $9 }
    END {
        for (p in q) {
            for (k = 1; k <= 3; k++) { m = (k == 1) ? "write" : (k == 2) ? "rewrite" : "read"
                avg[m] = (2 * bw[p, m, 0] + bw[p, m, 1] + bw[p, m, 2] + bw[p, m, 3] + bw[p, m, 4]) / 6 }
            r1 = 0.25 * avg["write"] + 0.25 * avg["rewrite"] + 0.5 * avg["read"]
            w = (bw[p, "write", 0] + bw[p, "write", 1] + bw[p, "write", 2] + bw[p, "write", 3] + bw[p, "write", 4] \
                 + bw[p, "rewrite", 0]) / 6
            r2 = sqrt(w * avg["read"])
            printf "partition %s: release1 %.3f (printed %s), release2 %.3f (printed %s)\n", p, r1, printed[p, "release1"], r2, printed[p, "release2"]
            if (!close_to(r1, printed[p, "release1"]) || !close_to(r2, printed[p, "release2"])) bad = 1
            if (r1 > m1) m1 = r1; if (r2 > m2) m2 = r2; n++
        }
        printf "max: release1 %.3f (printed %s), release2 %.3f (printed %s)\n", m1, printed["max", "release1"], m2, printed["max", "release2"]
        exit bad || !n || !close_to(m1, printed["max", "release1"]) || !close_to(m2, printed["max", "release2"]) }' "$work/out"

# Bad arguments: one line, status 2.
for args in "-T 0" "-T 3x" "-M abc" "-dir $work/none" "-bogus"; do
    # shellcheck disable=SC2086
    run 2 "$beffio" $args > "$work/bad.out" 2> "$work/bad.err"
    rc=$?
    check "'$args': status 2 and one line" test "$rc" -ne 0 -a "$(grep -c '^mpiprof-beffio: ' "$work/bad.err")" -eq 1
done
printf '0 striping_unit 1048576\n5 bad line\n' > "$work/hints"
run 2 "$beffio" -hints "$work/hints" > "$work/bad.out" 2> "$work/bad.err"
check "a bad hints line is named" grep -q "^mpiprof-beffio: -hints: .*hints:2: " "$work/bad.err"
finish
