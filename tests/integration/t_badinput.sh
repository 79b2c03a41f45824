#!/bin/sh
# t_badinput.sh: the bad-input corpus (badinput.txt, one case a line: bad
# MPIPROF_* values and names, launcher flags, report paths), then programs
# that are not MPI programs (mpiprof /bin/true; libmpiprof.so preloaded
# into ls). Every case: one clear line naming the problem (none for a
# non-MPI program), the program's output and exit status unchanged, no
# crash, no hang (each run under a timeout). The corpus runs two cases at
# a time: 70 s one after another, 37 s so.
. "$top_srcdir/tests/integration/lib.sh"

np=2
prog="$top_builddir/tests/integration/regions"
corpus="$top_srcdir/tests/integration/badinput.txt"
limit=120

run_case() {   # run_case OUT ERR ENV...: the program under the profiler
    out=$1 err=$2
    shift 2
    with_lock -s env "$@" timeout $limit "$MPIRUN" -np $np "$launcher" "$prog" < /dev/null > "$out" 2> "$err"
}

with_lock -s timeout $limit "$MPIRUN" -np $np "$prog" > "$work/plain.out" 2> /dev/null
plain=$?
[ $plain -eq 0 ] || fail "the program runs without the profiler"
: > "$work/plain-file"
long="$work"
for i in $(seq 1 13); do long="$long/$(printf '%300s' | tr ' ' L)"; done

# mpiprof lines on stderr but "report written to ..."
said() { grep '^mpiprof:' "$1" | grep -v '^mpiprof: report written to '; }
complete() { [ "$(grep -vc '^#' "$1/summary.txt" 2> /dev/null)" = $np ]; }

# one_case C KIND INPUT TEXT: one case of the corpus, its files C.*; its
# ok and FAIL lines on stdout.
one_case() {
    c=$1 kind=$2 input=$3 text=$4
    case $kind in
    env | quiet)
        run_case "$c.out" "$c.err" MPIPROF_OUTPUT="$c.rep" "$input"
        status=$? lines=$(said "$c.err" | wc -l)
        if [ $kind = env ]; then want=1; else want=0; fi
        if [ $status -eq $plain ] && cmp -s "$work/plain.out" "$c.out" && [ "$lines" -eq $want ] &&
           { [ $kind = quiet ] || said "$c.err" | grep -qF -- "$text"; } && complete "$c.rep"; then
            ok "$kind $input: $(said "$c.err" || echo 'no message'), complete report"
        else
            fail "$kind $input: status $status, $lines message(s), want $want${text:+ containing '$text'}; stderr:"
            cat "$c.err"
        fi ;;
    flag)
        [ "$input" = "(none)" ] && input=
        # shellcheck disable=SC2086 # the arguments are split as written
        timeout $limit "$launcher" $input < /dev/null > "$c.out" 2> "$c.err"
        status=$?
        if [ $status -eq 2 ] && [ "$(wc -l < "$c.err")" -eq 1 ] && grep -qF -- "$text" "$c.err" && [ ! -s "$c.out" ]; then
            ok "mpiprof $input: status 2, $(cat "$c.err")"
        else
            fail "mpiprof $input: status $status, stderr:"
            cat "$c.err"
        fi ;;
    out | outok)
        run_case "$c.out" "$c.err" MPIPROF_OUTPUT="$input"
        status=$?
        if [ $kind = out ]; then
            good=$(said "$c.err" | grep -cF -- "$text") all=$(said "$c.err" | wc -l)
            verdict=$([ "$good" -ge 1 ] && [ "$good" -eq "$all" ] && echo yes)
        else
            verdict=$([ -z "$(said "$c.err")" ] && complete "$text" &&
                      grep -qxF "mpiprof: report written to $text (2 ranks, $(sed -n 's/.*(2 ranks, //p' "$c.err")" "$c.err" && echo yes)
        fi
        if [ $status -eq $plain ] && cmp -s "$work/plain.out" "$c.out" && [ "$verdict" = yes ]; then
            ok "$kind -o $(printf '%.60s' "$input"): $(said "$c.err" | head -1 | cut -c1-120)"
        else
            fail "$kind -o $input: status $status; stderr:"
            cut -c1-300 "$c.err"
        fi ;;
    *)
        fail "badinput.txt: unknown kind '$kind'" ;;
    esac
}

# Two cases at a time (each is mostly mpirun's start and end), their lines
# then printed in the corpus's order.
n=0
while IFS='|' read -r kind input text; do
    kind=$(echo $kind) input=$(echo "$input" | sed 's/^ *//; s/ *$//') text=$(echo "$text" | sed 's/^ *//; s/ *$//')
    case $kind in '' | '#'*) continue ;; esac
    n=$((n + 1))
    input=$(printf '%s' "$input" | sed "s|LONG|${long#$work/}|; s|@|$work|g")
    text=$(printf '%s' "$text" | sed "s|@|$work|g")
    one_case "$work/case$n" "$kind" "$input" "$text" > "$work/case$n.verdict" < /dev/null &
    [ $((n % 2)) -eq 0 ] && wait
done < "$corpus"
wait
for i in $(seq 1 $n); do
    cat "$work/case$i.verdict"
    failures=$((failures + $(grep -c '^FAIL: ' "$work/case$i.verdict")))
done
check "the corpus has at least 60 cases ($n)" test $n -ge 60

# A file that is not a program: the shell's status 126, one plain line.
"$launcher" "$top_srcdir/tests/integration/badinput.txt" > /dev/null 2> "$work/noexec.err"
check "mpiprof on a file that is not executable: status 126, one line" \
    sh -c '[ $1 -eq 126 ] && [ "$(wc -l < "$2")" -eq 1 ] && grep -q "^mpiprof: program .* is not an executable file$" "$2"' \
    sh $? "$work/noexec.err"
# Under mpirun each rank's launcher refuses, and only rank 0's says why.
run 3 "$launcher" --dpeth 2 /bin/true > /dev/null 2> "$work/ranks.err"
check "a bad flag on 3 ranks: said once ($(grep -c "^mpiprof: " "$work/ranks.err") lines)" \
    test "$(grep -c "^mpiprof: unknown option '--dpeth'" "$work/ranks.err")" -eq 1
run 3 "$launcher" --model perfekt /bin/true > /dev/null 2> "$work/ranks2.err"
check "a bad --model on 3 ranks: said once, the job not run" \
    test "$(grep -c "^mpiprof: --model 'perfekt' is not valid" "$work/ranks2.err")" -eq 1

# Not MPI programs under the launcher: one line saying no report was
# written, nothing written, status and output kept, the launcher's mark
# file removed; the processes they start say nothing.
mkdir "$work/nompi" "$work/marks" && cd "$work/nompi" || fail "cd $work/nompi"
never="exited without calling MPI_Init; no report written"
TMPDIR="$work/marks" timeout $limit "$launcher" /bin/true > "$work/true.out" 2> "$work/true.err"
check "mpiprof /bin/true: status 0, no output, no report, one line, no mark left" \
    test $? -eq 0 -a ! -s "$work/true.out" -a "$(cat "$work/true.err")" = "mpiprof: /bin/true $never" \
         -a -z "$(ls "$work/nompi")" -a -z "$(ls "$work/marks")"
TMPDIR="$work/marks" timeout $limit "$launcher" bash -c 'sh -c "exit 0"; ls / > /dev/null; exit 1' > /dev/null 2> "$work/false.err"
check "mpiprof bash -c '...; exit 1': status 1 kept, one line from the program's process" \
    test $? -eq 1 -a "$(cat "$work/false.err")" = "mpiprof: bash $never" -a -z "$(ls "$work/marks")"
run 3 "$launcher" /bin/true > /dev/null 2> "$work/true3.err"
check "mpiprof /bin/true on 3 ranks: said once" test "$(grep -c "$never" "$work/true3.err")" -eq 1
# A script that starts the MPI program: nothing said, the report written.
run 2 "$launcher" -q -o "$work/viash" sh -c '"$1" > /dev/null' - "$top_builddir/tests/integration/mix" 2> "$work/viash.err"
check "mpiprof sh -c 'mix': the report written, nothing said" \
    test -s "$work/viash/summary.txt" -a -z "$(grep "$never" "$work/viash.err")"
# (man/: nothing writes there while the tests run; -la of the source tree
# listed "..", whose time moves whenever a test makes a file beside it)
ls -l "$top_srcdir/man" > "$work/ls.plain" 2>&1
ls_plain=$?
LD_PRELOAD="$MPIPROF_PRELOAD" timeout $limit ls -l "$top_srcdir/man" > "$work/ls.out" 2> "$work/ls.err"
check "LD_PRELOAD=libmpiprof.so ls: same output and status, nothing said" \
    test $? -eq $ls_plain -a ! -s "$work/ls.err" -a -z "$(ls "$work/nompi")"
check "LD_PRELOAD=libmpiprof.so ls: same output" cmp "$work/ls.plain" "$work/ls.out"
LD_PRELOAD="$MPIPROF_PRELOAD" timeout $limit ls "$work/no-such-file" > /dev/null 2> "$work/ls2.err"
check "LD_PRELOAD=libmpiprof.so ls of a missing file: status 2, only ls's message" \
    test $? -eq 2 -a "$(grep -c . "$work/ls2.err")" -eq 1 -a -z "$(grep '^mpiprof:' "$work/ls2.err")"
cd "$work" || true
finish
