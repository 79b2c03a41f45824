#!/bin/sh
# check-examples.sh: the documented examples run and print what the docs say.
#
#   check-examples.sh SRCDIR
#   (no argument, as under make check: $top_srcdir)
#   check-examples.sh --run REPORT SRCDIR
#
# tests/docs/mpiprof.mix.4p is the report of a real run (mpirun -np 4
# mpiprof ./mix) that README.md, mpiprof(1) and mpiprof-report(5) show.
# Checks, naming each failure:
#   (a) its column lines are the PROF_*_COLUMNS lists of libprof/report/report.h,
#       so a column added later fails here until the example report is
#       made again and the examples with it;
#   (b) every example command, a line "$ command" in a ```sh block of
#       README.md or in an .EX block of a man page, run by sh in the
#       report directory (README, mpiprof(1)) or in tests/docs
#       (mpiprof-report(5)), prints exactly the lines that follow it (up to
#       the next "$ " line or the end of the block); a man page line ending
#       in \e continues on the next line;
#   (c) no awk one-liner in an .EX block or a ```sh block is left without
#       its "$ " (so every one shown is checked).
# --run REPORT: run the example commands of README.md and mpiprof(1) in
# the report directory REPORT (a live run: t_oneliners.sh) instead, each
# printed as "$ command" (a continued line as "> line") followed by what it
# printed; a command that exits
# non-zero or writes to stderr fails, named.
# To make the example report again: run the mix test program as ./mix
# (build/*/tests/integration/mix) with mpirun -np 4 mpiprof ./mix, copy
# summary.txt functions.txt branches.txt partners.txt matrix.time and
# matrix.bytes here, and paste each example's new output into the docs.
# Exit 0 with a one-line summary, 1 on a failure, 2 on usage errors.

me=check-examples.sh
live=
if [ "${1:-}" = --run ] && [ $# -eq 3 ]; then
    live=$2
    shift 2
fi
case $# in
    1) srcdir=$1 ;;
    0) srcdir=${top_srcdir:-} ;;
    *) echo "usage: $me [--run REPORT] SRCDIR" >&2; exit 2 ;;
esac
docs=$srcdir/tests/docs
report=$docs/mpiprof.mix.4p
[ -d "$report" ] && [ -f "$srcdir/libprof/report/report.h" ] || { echo "$me: no $report or report.h" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-examples.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
failures=0
checked=0

fail() {
    echo "$me: FAIL: $*" >&2
    failures=$((failures + 1))
}

# (a) Column lines against report.h.
columns() {
    awk -v list="PROF_$1_COLUMNS(X)" '
        index($0, "#define " list) { on = 1 }
        on { line = line " " $0; if ($0 !~ /\\$/) on = 0 }
        END {
            out = "#"
            while (match(line, /X\([a-z_0-9]+\)/)) {
                out = out " " substr(line, RSTART + 2, RLENGTH - 3)
                line = substr(line, RSTART + RLENGTH)
            }
            print out
        }' "$srcdir/libprof/report/report.h"
}
for pair in summary.txt:SUMMARY functions.txt:FUNCTIONS branches.txt:BRANCHES partners.txt:PARTNERS; do
    f=${pair%%:*}
    want=$(columns "${pair#*:}")
    got=$(awk '/^#/ { h = $0; next } { print h; exit }' "$report/$f")
    [ "$want" = "$got" ] || fail "$f column line '$got' is not report.h's '$want': make the example report again"
done

# (b) Examples. blocks FILE KIND: the lines of README.md's ```sh blocks
# (KIND md) or of a man page's .EX blocks (KIND man, roff escapes undone),
# each block opened by a line "{".
blocks() {
    if [ "$2" = md ]; then
        awk '/^```sh$/ { on = 1; print "{"; next } /^```/ { on = 0 } on' "$1"
    else
        sed -e 's/\\-/-/g' -e 's/\\e/\\/g' -e 's/\\(dq/"/g' "$1" |
        awk '/^\.EX$/ { on = 1; print "{"; next } /^\.EE$/ { on = 0 } on'
    fi
}

# run_examples FILE KIND DIR
run_examples() {
    # One file per example: cmd.N (its lines) and exp.N (its output).
    blocks "$1" "$2" | awk -v dir="$tmp" '
        cont { print > cmd; cont = /\\$/; next }
        /^\{$/ { out = ""; next }
        /^\$ / { n++; cmd = dir "/cmd." n; out = dir "/exp." n; printf "" > out
                 print substr($0, 3) > cmd; cont = /\\$/; next }
        /^awk / { print > (dir "/unchecked"); next }
        out != "" { print > out }
        END { print n + 0 > (dir "/count") }'
    if [ -s "$tmp/unchecked" ]; then
        fail "$1: awk example without \"\$ \" (not checked): $(cat "$tmp/unchecked")"
    fi
    n=$(cat "$tmp/count")
    i=1
    while [ "$i" -le "$n" ]; do
        if [ -n "$live" ]; then
            sed -e '1s/^/$ /' -e '2,$s/^/> /' "$tmp/cmd.$i"
            if (cd "$3" && sh "$tmp/cmd.$i") 2> "$tmp/err.$i" && [ ! -s "$tmp/err.$i" ]; then
                checked=$((checked + 1))
            else
                fail "$1: '$(cat "$tmp/cmd.$i")' fails in $3: $(cat "$tmp/err.$i")"
            fi
            i=$((i + 1))
            continue
        fi
        (cd "$3" && sh "$tmp/cmd.$i") > "$tmp/got.$i" 2>&1
        if cmp -s "$tmp/exp.$i" "$tmp/got.$i"; then
            checked=$((checked + 1))
        else
            fail "$1: '$(cat "$tmp/cmd.$i")' prints (> shown, < printed):"
            diff "$tmp/got.$i" "$tmp/exp.$i" >&2
        fi
        i=$((i + 1))
    done
    rm -f "$tmp"/cmd.* "$tmp"/exp.* "$tmp"/got.* "$tmp"/err.* "$tmp/unchecked"
}
if [ -n "$live" ]; then
    run_examples "$srcdir/README.md" md "$live"
    run_examples "$srcdir/man/mpiprof.1" man "$live"
    [ "$failures" -eq 0 ] || exit 1
    exit 0
fi
run_examples "$srcdir/README.md" md "$report"
run_examples "$srcdir/man/mpiprof.1" man "$report"
run_examples "$srcdir/man/mpiprof-report.5" man "$docs"

if [ "$failures" -ne 0 ]; then
    echo "$me: $failures failure(s)"
    exit 1
fi
echo "$me: $checked examples print what the docs show"
