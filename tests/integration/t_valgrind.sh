#!/bin/sh
# t_valgrind.sh: valgrind's memcheck over programs under the profiler, on 2
# ranks: mix.c with the default options and with every analysis at depth 5,
# errors.c (the error paths) under --slt and --model. Each run ends well,
# prints what it prints without the profiler, and valgrind reports nothing
# that is libprof's (tests/sanitizers/check-reports.sh: an error or a leak
# reached through a libprof function; tests/sanitizers/valgrind.supp
# suppresses, with their reasons, reports of others that would count).
. "$top_srcdir/tests/integration/lib.sh"

command -v valgrind > /dev/null 2>&1 || { echo "SKIP: no valgrind"; exit 77; }
# A library built with --enable-sanitizers (make check-sanitizers checks
# it) cannot run under valgrind.
[ -z "${SAN_PRELOAD:-}" ] || { echo "SKIP: libmpiprof is built with the sanitizers"; exit 77; }

np=2
mix="$top_builddir/tests/integration/mix"
errors="$top_builddir/tests/integration/errors"
vg="valgrind -q --fullpath-after= --leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=definite
    --num-callers=40 --suppressions=$top_srcdir/tests/sanitizers/valgrind.supp"

# memcheck NAME PROGRAM-AND-ARGS -- LAUNCHER-OPTIONS: PROGRAM under the
# profiler and valgrind; its output in $work/NAME.out, valgrind's logs in
# $work/NAME.vg.PID.
memcheck() {
    local name=$1 prog=$2 arg=$3
    shift 3
    run $np "$launcher" -q -o "$work/$name.rep" "$@" $vg --log-file="$work/$name.vg.%p" "$prog" $arg \
        < /dev/null > "$work/$name.out" 2> "$work/$name.err" ||
        { fail "$name: exit status $? under valgrind:"; cat "$work/$name.err"; }
    check "$name: valgrind ran on $np ranks" test "$(ls "$work/$name".vg.* | wc -l)" -eq $np
    check "$name: a complete report" grep -q '^# complete$' "$work/$name.rep/summary.txt"
    if $SHELL "$top_srcdir/tests/sanitizers/check-reports.sh" "$work/$name".vg.* > "$work/$name.reports"; then
        ok "$name: $(tail -1 "$work/$name.reports")"
    else
        fail "$name: valgrind reports of libprof:"
        cat "$work/$name.reports"
    fi
}

run $np "$mix" < /dev/null | sort > "$work/mix.plain" || fail "mix runs without the profiler"
for opts in "" "--depth 5 --slt --collwait --model perfect"; do
    name=mix$(echo "$opts" | tr -d ' -')
    memcheck "$name" "$mix" "" $opts
    check "$name: output as without the profiler" cmp "$work/mix.plain" "$work/$name.out"
done
mkdir "$work/errors.plain" "$work/errors.vg"
run $np "$errors" "$work/errors.plain" < /dev/null > /dev/null || fail "errors runs without the profiler"
memcheck errors "$errors" "$work/errors.vg" --slt --model perfect
for r in 0 1; do
    check "errors, rank $r: classes and handler calls as without the profiler (t_errors.sh compares the codes)" \
        test "$(sed 's/rc=[0-9]*//' "$work/errors.plain/$r.out")" = "$(sed 's/rc=[0-9]*//' "$work/errors.vg/$r.out")"
done
finish
