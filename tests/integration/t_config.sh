#!/bin/sh
# t_config.sh: bad MPIPROF_* input and report directories. A bad value or an
# unknown name gives one message (from rank 0) and a complete report; an
# unwritable directory gives one message, the same output and exit 0, and
# the report in the default place in the working directory, else in
# $TMPDIR, said at MPI_Init and at the end; a second run with the same -o keeps both reports;
# MPIPROF_FUNCTIONS limits what is profiled.
. "$top_srcdir/tests/integration/lib.sh"

np=4

mix="$top_builddir/tests/integration/mix"
run "$np" "$mix" > "$work/plain.out" 2>/dev/null || fail "mix runs without the profiler"

# complete REPORT: every file, one summary line per rank, MPI_Allreduce twice on every rank.
complete() {
    for f in summary.txt functions.txt matrix.time matrix.calls matrix.bytes; do
        [ -s "$1/$f" ] || return 1
    done
    [ "$(grep -vc '^#' "$1/summary.txt")" -eq "$np" ] &&
    [ "$(awk '$2 == "MPI_Allreduce" && $3 == 2' "$1/functions.txt" | wc -l)" -eq "$np" ]
}

# one_message NAME PATTERN ENV...: a run with ENV gives exactly one stderr
# line matching PATTERN, the same program output, and a complete report.
one_message() {
    name=$1
    pattern=$2
    shift 2
    with_lock -s env "$@" "$MPIRUN" -np "$np" "$launcher" -o "$work/$name" "$mix" > "$work/$name.out" 2> "$work/$name.err"
    status=$?
    n=$(grep -c -e "$pattern" "$work/$name.err")
    others=$(grep '^mpiprof:' "$work/$name.err" | grep -v -e "$pattern" | grep -vc '^mpiprof: report written to')
    if [ "$status" -eq 0 ] && [ "$n" -eq 1 ] && [ "$others" -eq 0 ] && cmp -s "$work/plain.out" "$work/$name.out" &&
       complete "$work/$name"; then
        ok "$*: one message, complete report: $(grep -e "$pattern" "$work/$name.err")"
    else
        fail "$*: status $status, $n matching message(s), $others other(s), stderr:"
        cat "$work/$name.err"
    fi
}
one_message banana "^mpiprof: MPIPROF_STACK_DEPTH='banana' is not valid; expected an integer from 1 to 32; using the default '1'\$" \
    MPIPROF_STACK_DEPTH=banana
one_message nosuch "^mpiprof: unknown variable MPIPROF_NOSUCH (value '1') ignored; known variables: MPIPROF_OUTPUT," \
    MPIPROF_NOSUCH=1
one_message model "^mpiprof: MPIPROF_MODEL='warp9' is not valid; expected perfect, .*; using the default (no model)\$" \
    MPIPROF_MODEL=warp9
check "the header lists no option that was refused" grep -q " options=OUTPUT=$work/model\$" "$work/model/summary.txt"
# MPIPROF_CLOCK=monotonic (and --clock): the header names the clock.
one_message mono "^mpiprof: report written to" MPIPROF_CLOCK=monotonic
check "MPIPROF_CLOCK=monotonic: clock=monotonic in the header" grep -q " clock=monotonic options=OUTPUT=$work/mono;CLOCK=monotonic\$" "$work/mono/summary.txt"
with_lock -s "$MPIRUN" -np "$np" "$launcher" -q --clock monotonic -o "$work/clockflag" "$mix" > /dev/null 2>&1
check "--clock monotonic: clock=monotonic in every file's header" \
    test "$(grep -l ' clock=monotonic options=.*CLOCK=monotonic' "$work/clockflag"/*.txt | wc -l)" -eq "$(ls "$work/clockflag"/*.txt | wc -l)"
check "a refused model: no model.txt" test ! -e "$work/model/model.txt"

# An unwritable report directory (below a regular file: even root cannot):
# the report goes to the default name in the working directory, said at
# MPI_Init and at the end, even with -q.
: > "$work/plainfile"
mkdir "$work/cwd"
(cd "$work/cwd" && with_lock -s "$MPIRUN" -np "$np" "$launcher" -q -o "$work/plainfile/rep" "$mix") > "$work/unw.out" 2> "$work/unw.err"
status=$?
check "unwritable directory: the program still exits 0" test "$status" -eq 0
check "unwritable directory: same program output" cmp "$work/plain.out" "$work/unw.out"
check "unwritable directory: the report complete in the working directory" complete "$work/cwd/mpiprof.mix.${np}p"
check "unwritable directory: said at MPI_Init and at the end, naming both places" \
    test "$(grep -c "^mpiprof: cannot create the report directory '$work/plainfile/rep': Not a directory; the report goes to 'mpiprof.mix.${np}p' instead\$" "$work/unw.err")" -eq 1 -a \
         "$(grep -c "^mpiprof: report written to mpiprof.mix.${np}p, as '$work/plainfile/rep' could not be made\$" "$work/unw.err")" -eq 1 -a \
         "$(grep -c '^mpiprof:' "$work/unw.err")" -eq 2
cat "$work/unw.err"
# ... and when the working directory cannot hold it either (/proc), to $TMPDIR.
mkdir "$work/tmp"
(cd /proc && TMPDIR="$work/tmp" with_lock -s "$MPIRUN" -np "$np" "$launcher" -o "$work/plainfile/rep" "$mix") > "$work/unw2.out" 2> "$work/unw2.err"
check "unwritable directory and working directory: the report complete in \$TMPDIR, said" \
    sh -c 'complete() { test -s "$1/summary.txt" && grep -q "^# complete" "$1/summary.txt"; }; complete "$1" &&
           grep -q "; the report goes to '\''$1'\'' instead\$" "$2"' - "$work/tmp/mpiprof.mix.${np}p" "$work/unw2.err"
cat "$work/unw2.err"

# A program that exits without MPI_Finalize: one message naming the
# partial report (t_endings checks it), its output and exit status unchanged.
# MPICH's launcher ends such a job one way or another: twice in CI under
# load a run (plain once, profiled once, also on 1 rank) gave more than
# the program's line on stdout and another exit status, which quiet runs
# never do, and once (CI, MPICH) no message: the launcher killed rank 0,
# which says it, when rank 1 exited first. So the pair is run up to 3
# times until the two runs agree and the message is there, each try
# logged: a profiler that changed the output or the status, or did not
# say it, would fail all three.
nofin="$top_builddir/tests/integration/nofinalize"
said="^mpiprof: the program exited without calling MPI_Finalize; each rank that exited wrote what it had in $work/nofin.partial (mpiprof-merge $work/nofin.partial makes the tables)\$"
for try in 1 2 3; do
    rm -rf "$work/nofin" "$work/nofin.partial"
    with_lock -s "$MPIRUN" -np 2 "$nofin" > "$work/nofin-plain.out" 2>/dev/null
    plain_status=$?
    with_lock -s "$MPIRUN" -np 2 "$launcher" -o "$work/nofin" "$nofin" > "$work/nofin.out" 2> "$work/nofin.err"
    status=$?
    cmp -s "$work/nofin-plain.out" "$work/nofin.out" && [ "$status" -eq "$plain_status" ] &&
        [ "$(grep -c "$said" "$work/nofin.err")" -eq 1 ] && break
    echo "try $try: plain exit $plain_status, profiled exit $status; outputs, then the profiled run's stderr:"
    cat "$work/nofin-plain.out" "$work/nofin.out" "$work/nofin.err"
done
check "no MPI_Finalize: same output" cmp "$work/nofin-plain.out" "$work/nofin.out"
check "no MPI_Finalize: same exit status ($plain_status)" test "$status" -eq "$plain_status" -a "$status" -ne 0
check "no MPI_Finalize: one message, naming the partial report" test "$(grep -c "$said" "$work/nofin.err")" -eq 1
check "no MPI_Finalize: no report directory" test ! -e "$work/nofin"
MPIPROF_PARTIAL=0 with_lock -s "$MPIRUN" -np 2 "$launcher" -o "$work/nofin0" "$nofin" > /dev/null 2> "$work/nofin0.err"
check "no MPI_Finalize, MPIPROF_PARTIAL=0: one message, nothing written" test "$(grep -c '^mpiprof: the program exited without calling MPI_Finalize; no report written$' "$work/nofin0.err")" -eq 1 -a ! -e "$work/nofin0" -a ! -e "$work/nofin0.partial"
# ... and when the report could not have been written anyway, that was said at MPI_Init.
(cd "$work/cwd" && with_lock -s "$MPIRUN" -np 2 "$launcher" -o "$work/plainfile/nofin" "$nofin") > /dev/null 2> "$work/nofin2.err"
check "no MPI_Finalize, unwritable -o: said at MPI_Init, the partial report in the working directory" \
    test -d "$work/cwd/mpiprof.nofinalize.2p.partial/snapshots" -a \
    "$(grep -c "^mpiprof: cannot create the report directory '$work/plainfile/nofin': Not a directory; the report goes to 'mpiprof.nofinalize.2p' instead" "$work/nofin2.err")" -eq 1

# A program that does not exist: the launcher says so, with the shell's status 127.
"$launcher" "$work/no-such-program" > /dev/null 2> "$work/nosuch.err"
status=$?
check "no such program: status 127" test "$status" -eq 127
check "no such program: one message" test "$(cat "$work/nosuch.err")" = "mpiprof: program '$work/no-such-program' not found"

# Twice with the same -o: the first report is kept as it was, the second is rep.1.
run "$np" "$launcher" -q -o "$work/twice" "$mix" > /dev/null 2>&1
sum1=$(cat "$work/twice"/* | cksum)
with_lock -s "$MPIRUN" -np "$np" "$launcher" -q -o "$work/twice" "$mix" > /dev/null 2> "$work/twice.err"
check "second run with the same -o writes twice.1" complete "$work/twice.1"
check "first report untouched" test "$(cat "$work/twice"/* | cksum)" = "$sum1"
check "-q: no message on stderr" test ! -s "$work/twice.err"

# An argument with a newline, a tab, a quote, a backslash and an escape
# character: every file keeps its header structure (as many # lines and
# lines as the run above), the first line shows the argument escaped.
nl='
'
tab=$(printf '\t')
esc=$(printf '\033')
odd="$work/ctl${nl}a${tab}b\"c\\d${esc}e"
run "$np" "$launcher" -q -o "$work/ctl" "$mix" "$odd" > /dev/null 2>&1
for f in $(cd "$work/twice" && ls); do
    check "control characters in the command line: $f keeps its header structure" \
        test "$(grep -c '^#' "$work/ctl/$f")" -eq "$(grep -c '^#' "$work/twice/$f")" -a \
             "$(wc -l < "$work/ctl/$f")" -eq "$(wc -l < "$work/twice/$f")"
done
check "control characters in the command line: escaped in command=" \
    grep -qF "command=\"$mix $work/ctl\\na\\tb\\\"c\\\\d\\x1be\" ranks=$np " "$work/ctl/summary.txt"

# A trailing slash names the same directory.
run "$np" "$launcher" -q -o "$work/slash/" "$mix" > /dev/null 2>&1
check "-o DIR/ writes DIR" complete "$work/slash"

# Parent directories are created.
run "$np" "$launcher" -q -o "$work/a/b/c" "$mix" > /dev/null 2>&1
check "parent directories created" complete "$work/a/b/c"

# MPIPROF_FUNCTIONS: only the selected functions appear (globs, any case).
run "$np" "$launcher" -q --functions 'MPI_Allreduce,mpi_send*' -o "$work/sel" "$mix" > /dev/null 2>&1
check "--functions: only MPI_Allreduce, MPI_Send, MPI_Sendrecv, MPI_Send_init" awk '
    /^#/ { next }
    { seen[$2] = 1; if ($2 != "MPI_Allreduce" && $2 != "MPI_Send" && $2 != "MPI_Sendrecv" && $2 != "MPI_Send_init") bad = 1 }
    END { exit bad || !seen["MPI_Allreduce"] || !seen["MPI_Send"] || !seen["MPI_Sendrecv"] }' "$work/sel/functions.txt"
check "--functions: options line lists the selection" grep -q 'options=.*FUNCTIONS=MPI_Allreduce,mpi_send\*' "$work/sel/summary.txt"
finish
