#!/bin/sh
# t_oneliners.sh: every example command of README.md and mpiprof(1), the
# awk one-liners among them, on live reports whose shapes could make a sum
# count a call twice (issue 36, item 1): regions.c (MPI_Pcontrol regions,
# nested) and threads.c (4 threads calling MPI), both under --slt
# --collwait --model perfect. Each command runs without an error
# (tests/check-examples.sh --run); each table holds one row per key; the
# bytes-per-rank one-liner prints the programs' exact bytes; the
# time-per-function one-liner prints matrix.time's column sums (another
# writer's figures), the largest first.
. "$top_srcdir/tests/integration/lib.sh"

np=4
[ "$MPI_FLAVOR" = mpich ] && np=2    # MPICH busy-polls: 2 ranks on 2 cores
opts="-q --slt --collwait --model perfect"

run $np "$launcher" $opts -o "$work/regions" "$top_builddir/tests/integration/regions" > /dev/null ||
    fail "regions under $opts"
run 2 "$launcher" $opts -o "$work/threads" "$top_builddir/tests/integration/threads" > /dev/null ||
    fail "threads under $opts"
check "the regions report has its region files and regions.txt" \
    test -s "$work/regions/region_functions.txt" -a -s "$work/regions/region_branches.txt" -a -s "$work/regions/regions.txt"
check "the threads report has threads.txt" test -s "$work/threads/threads.txt"

# unique REPORT FILE COLUMNS...: no two rows of FILE have the same values
# in COLUMNS (the table's key).
unique() {
    [ -e "$work/$1/$2" ] || return 0
    check "$1/$2: one row per key ($3)" awk -v key="$3" 'BEGIN { n = split(key, c, ",") }
        /^#/ { next } { k = ""; for (i = 1; i <= n; i++) k = k SUBSEP $c[i]; if (seen[k]++) { print "twice: " $0; exit 1 } }' \
        "$work/$1/$2"
}

# between FILE FIRST: what the transcript FILE printed for each command
# starting with FIRST (its "$ " line), each output block ended by "--".
between() {
    awk -v first="$2" '/^\$ / { on = index($0, first) == 3; if (on) print "--"; next } /^> / { next } on' "$1"
}

for rep in regions threads; do
    unique $rep summary.txt 1
    unique $rep functions.txt 1,2
    unique $rep branches.txt 1,2
    unique $rep partners.txt 1,2,4,5
    unique $rep matrix.time 1
    unique $rep matrix.bytes 1
    unique $rep threads.txt 1,2,3
    unique $rep slt.txt 1,2
    unique $rep collwait.txt 1,2
    unique $rep model.txt 1,2
    unique $rep sites.txt 1
    unique $rep region_functions.txt 1,2,9
    unique $rep region_branches.txt 1,2,17

    sh "$top_srcdir/tests/check-examples.sh" --run "$work/$rep" "$top_srcdir" > "$work/$rep.out" 2> "$work/$rep.err"
    check "$rep: every example command of README.md and mpiprof(1) runs ($(grep -c '^\$ ' "$work/$rep.out") commands)" \
        test ! -s "$work/$rep.err"
    cat "$work/$rep.err"

    # Bytes sent per rank: regions.c sends 192 (3 MPI_Bcast of 64 bytes,
    # root 0), 1,280 (20 MPI_Allreduce of 64) and 2,560 (40 MPI_Sendrecv of
    # 64); threads.c 20 t^2 on each of threads t = 1..4 (600).
    between "$work/$rep.out" "awk '!/^#/ {s[\$1] += \$7}" > "$work/actual"
    awk -v rep=$rep -v np=$([ $rep = regions ] && echo $np || echo 2) 'BEGIN {
        for (k = 0; k < 2; k++) { print "--"; for (r = 0; r < np; r++)
            print r, rep == "threads" ? 600 : (r == 0 ? 192 : 0) + 1280 + 2560 } }' > "$work/expected"
    check "$rep: the bytes-per-rank one-liner prints the exact bytes, in README.md and mpiprof(1)" \
        cmp -s "$work/expected" "$work/actual"
    diff "$work/expected" "$work/actual"

    # Time per function: matrix.time's column sums, largest first (the
    # top 5), to 1 ns a rank.
    between "$work/$rep.out" "awk '!/^#/ {t[\$2] += \$4}" > "$work/actual"
    check "$rep: the time-per-function one-liner prints matrix.time's column sums, largest first" awk -v np=$np '
        FNR == 1 { f++ }
        f == 1 && /^# rank/ { for (i = 4; i <= NF; i++) name[i - 1] = $i; next }
        f == 1 && !/^#/ { for (i = 3; i <= NF; i++) sum[name[i]] += $i; next }
        f == 2 && $0 == "--" { blocks++; prev = ""; next }
        f == 2 { n++; d = $2 - sum[$1]; if (!($1 in sum) || d > np * 1e-9 || d < -np * 1e-9) { print "not matrix.time: " $0; bad = 1 }
                 if (prev != "" && $2 > prev) bad = 1; prev = $2 }
        END { exit bad || blocks != 2 || n == 0 }' "$work/$rep/matrix.time" "$work/actual"
done

# The regions' calls, each counted once: the same one-liner summed over
# region_functions.txt gives each function's calls in regions (regions.c:
# 3 MPI_Bcast, 20 MPI_Allreduce, 40 MPI_Sendrecv, 42 MPI_Pcontrol a rank).
awk -v np=$np 'BEGIN { print "MPI_Allreduce", 20 * np; print "MPI_Bcast", 3 * np; print "MPI_Pcontrol", 42 * np
    print "MPI_Sendrecv", 40 * np }' > "$work/expected"
awk '!/^#/ {t[$2] += $3} END {for (f in t) printf "%s %d\n", f, t[f]}' "$work/regions/region_functions.txt" | sort > "$work/actual"
same_rows "region_functions.txt: calls summed over the regions, each call once"

exit $((failures > 0))
