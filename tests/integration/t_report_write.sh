#!/bin/sh
# t_report_write.sh: the report written with MPI-IO by every rank
# (MPIPROF_REPORT_WRITE=collective) against rank 0 pulling every rank's rows
# (pull), issue 37, at 4 ranks (MPICH: 2). Workloads: mpiprof-known io with
# every analysis on (a file per module) and regions.c (the region files).
# Checks:
#   the same files; each as many lines, and the same bytes once what
#   depends on the run's times is set aside: the first line (start time,
#   options), decimal fields (seconds, percentages), min_rank and max_rank, and the
#   order of rows and matrix columns within one rank's rows (sorted by
#   time); the rank of every row in the same place; waits.txt, whose rows
#   (who waited for whom) follow the times, by its # lines;
#   io.txt's rows exactly mpiprof-known io's (the profiler's own MPI-IO is
#   not the program's), and the MPI_File_* calls of functions.txt the same;
#   MPIPROF_REPORT_WRITE=auto pulls below 64 ranks, and at 64 ranks (Open
#   MPI only) on a node with fewer processors (oversubscribed), writes with
#   MPI-IO on one with as many: the message names the way taken;
#   MPI-IO that cannot open the files (Open MPI without its MPI-IO
#   components, OMPI_MCA_io=^ompio,romio321; MPICH: a directory named
#   "fs:x", which ROMIO reads as a file system "fs"): the report is pulled,
#   every file says so in one note line naming the error, the message says
#   so, and the files are those of the pull otherwise;
#   a bad value: one message naming the variable, the value and what is
#   accepted, and the default used.
. "$top_srcdir/tests/integration/lib.sh"

np=4
[ "$MPI_FLAVOR" = mpich ] && np=2    # MPICH busy-polls: 2 ranks on 2 cores
known="$top_builddir/bench/mpiprof-known"
regions="$top_builddir/tests/integration/regions"
mkdir "$work/data"

# norm FILE NAME: FILE (report file NAME) without what depends on the run's times (above), one
# line per row: its section (the rows of one rank: a new one where the
# first column, rank, changes, and at each "mpiprof report rank" of
# branches.human), then its fields as column=value sorted by column name
# (matrix columns are ordered by time), decimals as T. The ranks named
# for their time (min_rank, max_rank, waits.txt's rank) are T too; runs of blanks
# one (branches.human's widths follow the times). waits.txt's rows (who
# waited for whom) follow the times: its # lines only.
norm() {
    awk -v rows="$(case $2 in waits.txt) echo 0 ;; *) echo 1 ;; esac)" 'function put(s, v) { n = split(s, a, " "); for (i = 2; i <= n; i++) { v = a[i]; j = i - 1
             while (j > 0 && a[j] > v) { a[j + 1] = a[j]; j-- }; a[j + 1] = v }
             s = a[1]; for (i = 2; i <= n; i++) s = s " " a[i]; return s }
         FNR == 1 { next }
         { gsub(/[0-9]*\.[0-9]+(e[-+]?[0-9]+)?/, "T"); $1 = $1 }
         /^mpiprof report rank / { sect++ }
         /^#/ { nc = NF - 1; for (i = 2; i <= NF; i++) col[i - 1] = $i; print sect, put($0); next }
         !rows { next }
         nc == NF { for (i = 2; i <= NF; i++) if (col[i] ~ /^(rank|min_rank|max_rank)$/) $i = "T"
             if (col[1] == "rank" && $1 != prev) { sect++; prev = $1 }
             s = $1; for (i = 2; i <= NF; i++) s = s " " col[i] "=" $i; print sect, put(s); next }
         { print sect, $0 }' "$1" | sort -k1,1n -k2
}

# same_report A B WHAT: the reports A and B have the same files, the same
# once norm has set the times aside (and B's MPI-IO note line).
same_report() {
    (cd "$work/$1" && ls) > "$work/files.a"
    (cd "$work/$2" && ls) > "$work/files.b"
    if ! cmp -s "$work/files.a" "$work/files.b"; then
        fail "$3: not the same files"; diff "$work/files.a" "$work/files.b"; return
    fi
    bad=0
    for f in $(cat "$work/files.a"); do
        norm "$work/$1/$f" "$f" > "$work/a"
        grep -v '^# note: cannot open .* with MPI-IO' "$work/$2/$f" | norm /dev/stdin "$f" > "$work/b"
        lines=$(grep -vc '^# note: cannot open .* with MPI-IO' "$work/$2/$f")
        [ -s "$work/a" ] && diff "$work/a" "$work/b" > "$work/diff" &&
            { [ "$f" = waits.txt ] || [ "$(wc -l < "$work/$1/$f")" = "$lines" ]; } && continue
        fail "$3: $f differs (< $1, > $2):"; head -20 "$work/diff"; bad=1
    done
    [ $bad = 1 ] || ok "$3: $(wc -l < "$work/files.a") files the same, times aside"
}

# report NAME HOW PROGRAM...: the profiled run, its report in $work/NAME
# and its messages in $work/NAME.err.
report() {
    name=$1 how=$2
    shift 2
    MPIPROF_REPORT_WRITE=$how run $np "$launcher" -o "$work/$name" "$@" > "$work/$name.out" 2> "$work/$name.err" ||
        fail "$name: $* runs under the profiler ($(cat "$work/$name.err"))"
}

MPIPROF_EVAL_SLT=1 MPIPROF_EVAL_COLLECTIVE_WAIT=1 MPIPROF_EVAL_WAITS=1 MPIPROF_COMMS=1 MPIPROF_MODEL=perfect
export MPIPROF_EVAL_SLT MPIPROF_EVAL_COLLECTIVE_WAIT MPIPROF_EVAL_WAITS MPIPROF_COMMS MPIPROF_MODEL
for how in pull collective; do
    report io-$how $how "$known" io -d "$work/data"
done
unset MPIPROF_EVAL_SLT MPIPROF_EVAL_COLLECTIVE_WAIT MPIPROF_EVAL_WAITS MPIPROF_COMMS MPIPROF_MODEL
for how in pull collective; do
    report regions-$how $how "$regions"
done
grep -q 'gather [0-9.]*, write' "$work/io-pull.err" && grep -q 'MPI-IO open [0-9.]*, write_at_all' "$work/io-collective.err" ||
    fail "the messages name the way the files were written: $(cat "$work/io-pull.err" "$work/io-collective.err")"
same_report io-pull io-collective "mpiprof-known io, every analysis on"
same_report regions-pull regions-collective "regions"
for f in slt.txt collwait.txt waits.txt comms.txt model.txt io.txt region_branches.txt; do
    [ -s "$work/io-collective/$f" ] || [ -s "$work/regions-collective/$f" ] || fail "no $f written"
done

tr ' ' '\n' < "$work/io-collective.out" | sed -n 's/^rows=//p' | tr ',' '\n' | tr ':' ' ' | sort > "$work/expected"
awk '!/^#/ { print $1, $NF, $3, $4, $5, $6 }' "$work/io-collective/io.txt" | sort > "$work/actual"
same_rows "io.txt after MPI-IO of the profiler's own"
for how in pull collective; do
    awk '!/^#/ && $2 ~ /^MPI_File_/ { print $1, $2, $3 }' "$work/io-$how/functions.txt" | sort > "$work/$how.calls"
done
[ -s "$work/pull.calls" ] && cmp -s "$work/pull.calls" "$work/collective.calls" ||
    fail "functions.txt's MPI_File_* calls differ between pull and collective"

# auto: below 64 ranks, the pull; at 64 (Open MPI: MPICH polls), MPI-IO
# unless a node runs more ranks than it has processors.
report regions-auto auto "$regions"
grep -q 'gather [0-9.]*, write' "$work/regions-auto.err" || fail "auto at $np ranks pulls: $(cat "$work/regions-auto.err")"
if [ "$MPI_FLAVOR" = openmpi ]; then
    saved=$np np=64
    report auto64 auto "$regions"
    np=$saved
    if [ "$(getconf _NPROCESSORS_ONLN)" -lt 64 ]; then want='gather [0-9.]*, write'; else want='MPI-IO open'; fi
    grep -q "report written .*(64 ranks, .*$want" "$work/auto64.err" || fail "auto at 64 ranks: $(cat "$work/auto64.err")"
fi

# MPI-IO that cannot open the files.
if [ "$MPI_FLAVOR" = mpich ]; then
    mkdir "$work/fs:x"
    out="fs:x/rep"
    report "$out" collective "$regions"
else
    out=noio
    OMPI_MCA_io=^ompio,romio321
    export OMPI_MCA_io
    report "$out" collective "$regions"
    unset OMPI_MCA_io
fi
n=$(cat "$work/regions-pull/"* | grep -c '^# note: cannot open .* with MPI-IO') 
notes=$(cat "$work/$out/"* | grep -c '^# note: cannot open .* with MPI-IO: .*; rank 0 wrote the files, receiving each rank.s rows in turn$')
files=$(ls "$work/$out" | wc -l)
[ "$n" = 0 ] && [ "$notes" = "$files" ] && [ "$files" -gt 5 ] || fail "MPI-IO failing: $notes notes in $files files"
grep -q "cannot open .* with MPI-IO.*; rank 0 writes the report's files itself" "$work/$out.err" &&
    grep -q 'MPI-IO open [0-9.]* (failed), gather' "$work/$out.err" || fail "MPI-IO failing: messages $(cat "$work/$out.err")"
same_report regions-pull "$out" "MPI-IO failing: pulled"

# A bad value.
report bad sideways "$regions"
grep -q "MPIPROF_REPORT_WRITE='sideways' is not valid; expected auto (MPI-IO from 64 ranks on, unless oversubscribed), collective .* or pull .*; using the default 'auto'" \
    "$work/bad.err" && [ -s "$work/bad/summary.txt" ] || fail "bad value: $(cat "$work/bad.err")"
finish
