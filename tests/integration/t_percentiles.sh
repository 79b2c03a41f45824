#!/bin/sh
# t_percentiles.sh: -percentiles in mpiprof-mpi1, mpiprof-ext and
# mpiprof-io: the t_p50[usec] and t_p99[usec] columns, with 0 < p50 <= p99
# wherever each repetition completes alone, "-" in aggregate tables (whose
# transfers complete together); the same lengths and repetitions as
# without the flag, and no such columns without it.
. "$top_srcdir/tests/integration/lib.sh"

mkdir "$work/files"
# tails FILE: "table-number mode bytes reps p50 p99" per row of a table with the columns.
tails() {
    awk '/^# Benchmarking / { t++; mode = "-"; next }
         /^#    MODE: / { mode = $3; next }
         /^#/ { next }
         $1 == "#bytes" || $1 == "#repetitions" { split("", col); for (i = 1; i <= NF; i++) col[$i] = i; next }
         $1 ~ /^[0-9]+$/ && ("t_p50[usec]" in col) { print t, mode, ("#bytes" in col) ? $(col["#bytes"]) : "-",
                                                       $(col["#repetitions"]), $(col["t_p50[usec]"]), $(col["t_p99[usec]"]) }' "$1"
}
# reps FILE: "table bytes reps" of every row.
reps() {
    awk '/^# Benchmarking / { t++ }
         $1 == "#bytes" || $1 == "#repetitions" { split("", col); for (i = 1; i <= NF; i++) col[$i] = i; next }
         $1 ~ /^[0-9]+$/ { print t, ("#bytes" in col) ? $(col["#bytes"]) : "-", $(col["#repetitions"]) }' "$1"
}

for prog in "mpiprof-mpi1 PingPong Bcast -iter 30" "mpiprof-ext Unidir_Put Window" \
            "mpiprof-io P_Write_expl P_Read_expl Open_Close -dir $work/files"; do
    set -- $prog
    name=$1
    shift
    run 2 "$top_builddir/bench/$name" "$@" -msglog 0:2 -percentiles > "$work/$name.p" || fail "$name -percentiles"
    run 2 "$top_builddir/bench/$name" "$@" -msglog 0:2 > "$work/$name.plain" || fail "$name"
    check "$name: no percentile columns without the flag" sh -c "! grep -q t_p50 '$work/$name.plain'"
    reps "$work/$name.p" > "$work/expected"
    reps "$work/$name.plain" > "$work/actual"
    same_rows "$name: the same tables, lengths and repetitions with -percentiles"
    tails "$work/$name.p" > "$work/tails"
    check "$name: every table has the columns" test "$(cut -d' ' -f1 "$work/tails" | sort -u | wc -l)" -eq \
        "$(grep -c '^# Benchmarking ' "$work/$name.p")"
    check "$name: 0 < p50 <= p99 where repetitions complete alone, - in aggregate tables" awk '
        $2 == "AGGREGATE" { if ($5 != "-" || $6 != "-") bad = 1; next }
        { if (!($5 > 0 && $5 <= $6)) { print "bad row: " $0; bad = 1 } }
        END { exit bad || NR == 0 }' "$work/tails"
done
check "-percentiles: no file left in -dir" test -z "$(ls -A "$work/files")"
finish
