#!/bin/sh
# t_ext.sh: mpiprof-ext at 1, 2 and 3 processes with short lengths and
# -check: every table (benchmark, processes, mode, lengths, repetitions by
# the guide's rules, 5.2.8) and zero defects; a corrupted buffer shows as
# defects. Then Unidir_Put under the profiler: MPI_Put and MPI_Win_fence
# in functions.txt, and the put bytes of rma.txt, equal what the tables
# and mpiprof-ext(1)'s MPI CALLS imply.
. "$top_srcdir/tests/integration/lib.sh"

ext="$top_builddir/bench/mpiprof-ext"
# Open MPI 4.1 makes no window of one process with its default component.
one=
[ "$MPI_FLAVOR" = openmpi ] && one="--mca osc ^rdma"

# rows FILE: "name q mode bytes reps defects" per table row.
rows() {
    awk '/^# Benchmarking / { name = $3; mode = "-"; next }
         /^# #processes = / { q = $4; next }
         /^#    MODE: / { mode = $3; next }
         /^#/ { next }
         $1 == "#bytes" { split("", col); for (i = 1; i <= NF; i++) col[$i] = i; next }
         $1 ~ /^[0-9]+$/ { print name, q, mode, $(col["#bytes"]), $(col["#repetitions"]), ("defects" in col) ? $(col["defects"]) : "-" }' "$1"
}

# want NP ITER NAMES...: the rows the guide's rules give, lengths 0 1 2 4 8
# (Accumulate: 0 4 8), defects 0 (Window: -).
want() {
    np=$1 iter=$2
    shift 2
    for name in "$@"; do echo "$name"; done | awk -v np="$np" -v iter="$iter" '
    function reps(x, per,   n) {   # -iter sets MSGSPERSAMPLE, at most MSGS_NONAGGR
        if (iter > 0 && (per == 1000 || iter < per)) per = iter
        n = (x == 0) ? per : int(41943040 / x)
        if (n > per) n = per
        if (n < 1) n = 1
        return n
    }
    {
        nq = 0
        if ($1 ~ /dir_/) { if (np >= 2) qs[++nq] = 2 }
        else { for (q = (np < 2 ? np : 2); q < np; q *= 2) qs[++nq] = q; qs[++nq] = np }
        nl = split($1 == "Accumulate" ? "0 4 8" : "0 1 2 4 8", len, " ")
        nm = split($1 == "Window" ? "-" : "AGGREGATE NON-AGGREGATE", mode, " ")
        for (k = 1; k <= nq; k++) for (m = 1; m <= nm; m++) for (i = 1; i <= nl; i++)
            print $1, qs[k], mode[m], len[i], reps(len[i], mode[m] == "AGGREGATE" ? 1000 : 100), $1 == "Window" ? "-" : 0
    }'
}

all="Unidir_Put Unidir_Get Bidir_Put Bidir_Get Accumulate Window"
for np in 1 2 3; do
    iter=0 opts= args=
    [ "$np" -eq 3 ] && iter=5 && args="-iter 5"     # MPICH busy-polls beyond 2 processes
    [ "$np" -eq 1 ] && opts="$one"
    # shellcheck disable=SC2086
    run $np $opts "$ext" -msglog 0:3 -check $args > "$work/ext$np.out" 2> "$work/ext$np.err" ||
        { fail "mpiprof-ext on $np processes"; cat "$work/ext$np.err"; }
    # shellcheck disable=SC2086
    want $np $iter $all > "$work/expected"
    rows "$work/ext$np.out" > "$work/actual"
    same_rows "$np process(es): tables, modes, lengths, repetitions, zero defects"
    if [ "$np" -eq 1 ]; then
        check "1 process: the single transfers say they need 2" \
            test "$(grep -c 'needs 2 processes: not run' "$work/ext1.out")" -eq 4
    fi
done

# -iter N sets MSGSPERSAMPLE, above the guide's 1000 too; MSGS_NONAGGR stays 100.
run 2 "$ext" Unidir_Put -msglog 0:3 -iter 2000 -check > "$work/iter.out" 2> "$work/iter.err" ||
    { fail "mpiprof-ext -iter 2000"; cat "$work/iter.err"; }
want 2 2000 Unidir_Put > "$work/expected"
rows "$work/iter.out" > "$work/actual"
same_rows "-iter 2000: 2000 transfers a sample, 100 non-aggregate"

# -check finds what goes wrong: one corrupted byte per sample.
run 2 env BENCH_CHECK_CORRUPT=1 "$ext" Bidir_Get -msglog 2:2 -check > "$work/corrupt.out" ||
    fail "mpiprof-ext with a corrupted buffer"
check "-check counts defects" awk '$1 == 4 && $NF > 0 { n++ } END { exit n != 2 }' "$work/corrupt.out"

# Under the profiler: the calls and bytes the tables imply.
run 2 "$launcher" -q -o "$work/rep" "$ext" Unidir_Put -msglog 2:3 > "$work/prof.out" ||
    fail "mpiprof-ext Unidir_Put under the profiler"
rows "$work/prof.out" | awk '
    { reps[$3] += $5; bytes[$3] += $4 * $5; nl[$3]++; if ($4 > xmax) xmax = $4 }
    END { puts = 0; vol = 0; fences = 0
          for (m in reps) { puts += 2 + reps[m]; vol += 2 * xmax + bytes[m]
                            fences += 1 + 2 + (m == "AGGREGATE" ? 2 * nl[m] : reps[m]) }
          print 0, "MPI_Put", puts, vol; print 0, "MPI_Win_fence", fences, 0; print 1, "MPI_Win_fence", fences, 0
          print "rma", 0, 1, "put", puts, vol }' | sort > "$work/expected"
{ awk '!/^#/ && ($2 == "MPI_Put" || $2 == "MPI_Win_fence") { print $1, $2, $3, $7 }' "$work/rep/functions.txt"
  awk '!/^#/ && $4 == "put" { print "rma", $1, $3, $4, $5, $6 }' "$work/rep/rma.txt"; } | sort > "$work/actual"
same_rows "Unidir_Put: MPI_Put, MPI_Win_fence and rma.txt's put bytes as the tables imply"
finish
