#!/bin/sh
# t_io.sh: mpiprof-io at 1, 2 and 3 processes with short lengths and
# -check in a temporary directory: every table (benchmark, processes,
# mode, lengths, repetitions by the guide's rules, 5.2.8) and zero
# defects, and the directory empty afterwards, also after a run stopped by
# SIGTERM in the middle. Then P_Write_expl under the profiler:
# MPI_File_write_at and MPI_File_sync in functions.txt, and io.txt's bytes,
# equal what the tables and each table's fill of its file imply.
. "$top_srcdir/tests/integration/lib.sh"

io="$top_builddir/bench/mpiprof-io"
dir="$work/files"
mkdir "$dir"

# rows FILE: "name q mode bytes reps defects" per table row.
rows() {
    awk '/^# Benchmarking / { name = $3; mode = "-"; next }
         /^# #processes = / { q = $4; next }
         /^#    MODE: / { mode = $3; next }
         /^#/ { next }
         $1 == "#bytes" || $1 == "#repetitions" { split("", col); for (i = 1; i <= NF; i++) col[$i] = i; next }
         $1 ~ /^[0-9]+$/ { print name, q, mode, ("#bytes" in col) ? $(col["#bytes"]) : "-", $(col["#repetitions"]),
                           ("defects" in col) ? $(col["defects"]) : "-" }' "$1"
}

blocking="S_Write_indv S_Read_indv S_Write_expl S_Read_expl P_Write_indv P_Read_indv P_Write_expl P_Read_expl
P_Write_shared P_Read_shared P_Write_priv P_Read_priv C_Write_indv C_Read_indv C_Write_expl C_Read_expl
C_Write_shared C_Read_shared Open_Close"
nonblocking="S_IWrite_indv S_IRead_indv S_IWrite_expl S_IRead_expl P_IWrite_indv P_IRead_indv P_IWrite_expl
P_IRead_expl P_IWrite_shared P_IRead_shared P_IWrite_priv P_IRead_priv C_IWrite_indv C_IRead_indv C_IWrite_expl
C_IRead_expl C_IWrite_shared C_IRead_shared"

# want NP ITER LENGTHS NAMES: the rows the guide's rules give (the I-
# variants: one AGGREGATE table for writes, 4.2.5).
want() {
    awk -v np="$1" -v iter="$2" -v lens="$3" -v names="$4" '
    function reps(x, per,   n) {   # -iter sets MSGSPERSAMPLE, at most MSGS_NONAGGR
        if (iter > 0 && (per == 50 || iter < per)) per = iter
        n = (x == 0) ? per : int(16777216 / x)
        if (n > per) n = per
        if (n < 1) n = 1
        return n
    }
    BEGIN {
        nl = split(lens, len, " ")
        nb = split(names, b, " ")
        for (k = 1; k <= nb; k++) {
            nq = 0
            if (b[k] ~ /^S_/) qs[++nq] = 1
            else { for (q = 1; q < np; q *= 2) qs[++nq] = q; qs[++nq] = np }
            nm = split(b[k] ~ /_IWrite/ ? "AGGREGATE" : b[k] ~ /Write/ ? "AGGREGATE NON-AGGREGATE" : "-", mode, " ")
            for (j = 1; j <= nq; j++) for (m = 1; m <= nm; m++) {
                if (b[k] == "Open_Close") { print b[k], qs[j], "-", "-", reps(0, 10), "-"; continue }
                for (i = 1; i <= nl; i++)
                    print b[k], qs[j], mode[m], len[i], reps(len[i], mode[m] == "NON-AGGREGATE" ? 10 : 50), 0
            }
        }
    }'
}

for np in 1 2 3; do
    lens="0 1 2 4 8" iter=0 args="-msglog 0:3"
    if [ "$np" -eq 3 ]; then     # MPICH busy-polls beyond 2 processes: fewer calls
        lens="0 8" iter=2 args="-msglog 3:3 -iter 2"
    fi
    # shellcheck disable=SC2086
    run $np "$io" $blocking $args -check -dir "$dir" > "$work/io$np.out" 2> "$work/io$np.err" ||
        { fail "mpiprof-io on $np processes"; cat "$work/io$np.err"; }
    # The I- variants spend 10 ms of CPU_Exploit per action: two of them.
    # shellcheck disable=SC2086
    run $np "$io" $nonblocking -msglog 3:3 -iter 2 -check -dir "$dir" > "$work/nb$np.out" 2> "$work/nb$np.err" ||
        { fail "mpiprof-io I- variants on $np processes"; cat "$work/nb$np.err"; }
    { want $np $iter "$lens" "$blocking"; want $np 2 "0 8" "$nonblocking"; } | sort > "$work/expected"
    { rows "$work/io$np.out"; rows "$work/nb$np.out"; } | sort > "$work/actual"
    same_rows "$np process(es): tables, modes, lengths, repetitions, zero defects"
    check "$np process(es): no file left in -dir" test -z "$(ls -A "$dir")"
    check "$np process(es): I- variants: t_pure, t_CPU > 0, overlap in [0, 100] %" awk '
        $1 == "#bytes" { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $1 ~ /^[0-9]+$/ { n++; if (!($(col["t_pure[usec]"]) > 0 && $(col["t_CPU[usec]"]) > 0 &&
                                    $(col["overlap[%]"]) >= 0 && $(col["overlap[%]"]) <= 100)) bad = 1 }
        END { exit bad || !n }' "$work/nb$np.out"
done

# -check finds what goes wrong: one corrupted byte per check.
run 2 env BENCH_CHECK_CORRUPT=1 "$io" P_Read_expl P_Write_shared -msglog 3:3 -check -dir "$dir" \
    > "$work/corrupt.out" || fail "mpiprof-io with a corrupted buffer"
check "-check counts defects" awk '$1 == 8 && $NF > 0 { n++ } END { exit n != 6 }' "$work/corrupt.out"
check "no file left after -check" test -z "$(ls -A "$dir")"

# -iter N sets MSGSPERSAMPLE, above the guide's 50 too; MSGS_NONAGGR stays 10.
run 1 "$io" S_Read_indv S_Write_indv -msglog 15:15 -iter 1000 -check -dir "$dir" > "$work/iter.out" ||
    fail "mpiprof-io -iter 1000"
want 1 1000 "0 32768" "S_Read_indv S_Write_indv" | sort > "$work/expected"
rows "$work/iter.out" | sort > "$work/actual"
same_rows "-iter 1000: 1000 repetitions at 0 bytes, 512 at 32768 (OVERALL_VOL), 10 non-aggregate"

# A run stopped in the middle (its files 1 to 16 MiB) leaves no file behind.
with_lock -s timeout -s TERM 0.7 "$MPIRUN" -np 2 "$io" P_Write_indv P_Write_priv P_Write_expl C_Write_indv \
    C_Write_expl -msglog 20:24 -dir "$dir" > /dev/null 2>&1
rc=$?
sleep 1
check "the run was stopped by SIGTERM (status 124, got $rc)" test "$rc" -eq 124
check "a run stopped by SIGTERM leaves no file in -dir" test -z "$(ls -A "$dir")"

# A directory that is not there: one message, status 2, before anything runs.
run 2 "$io" -dir "$work/none" > "$work/none.out" 2> "$work/none.err"
check "-dir naming no directory: exit 2 with one message" \
    grep -q "^mpiprof-io: -dir: cannot use '$work/none'" "$work/none.err"

# Under the profiler: the calls and bytes the tables imply.
run 2 "$launcher" -q -o "$work/rep" "$io" P_Write_expl -msglog 2:3 -dir "$dir" > "$work/prof.out" ||
    fail "mpiprof-io P_Write_expl under the profiler"
rows "$work/prof.out" | awk '
    function part(x, j, q,   units, base, extra, first, n, s, e) {   # portion of x for process j of q
        units = int((x + 3) / 4); base = int(units / q); extra = units % q
        first = j * base + (j < extra ? j : extra); n = base + (j < extra)
        s = first * 4 > x ? x : first * 4; e = (first + n) * 4 > x ? x : (first + n) * 4
        return e - s }
    { for (j = 0; j < $2; j++) { w[j] += $5; b[j] += $5 * part($4, j, $2); s[j] += ($3 == "AGGREGATE") ? 1 : $5 }
      total += $5 * $4; k = $2 " " $3; q[k] = $2; if ($5 * $4 > f[k]) f[k] = $5 * $4 }
    END { for (k in q) {         # each table first fills its file: one write (under 1 MiB) and 2 syncs
              for (j = 0; j < q[k]; j++) { p = part(f[k], j, q[k]); w[j] += p > 0; b[j] += p; s[j] += 2 }
              total += f[k] }
          for (j = 0; j < 2; j++) { print j, "MPI_File_write_at", w[j], b[j]; print j, "MPI_File_sync", s[j], 0 }
          print "io-total", total }' | sort > "$work/expected"
{ awk '!/^#/ && ($2 == "MPI_File_write_at" || $2 == "MPI_File_sync") { print $1, $2, $3, $7 }' "$work/rep/functions.txt"
  awk '!/^#/ && $1 == "all" { t += $6 } END { print "io-total", t }' "$work/rep/io.txt"; } | sort > "$work/actual"
same_rows "P_Write_expl: MPI_File_write_at, MPI_File_sync and io.txt's bytes as the tables imply"
check "no file left after the profiled run" test -z "$(ls -A "$dir")"
finish
