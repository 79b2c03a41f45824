#!/bin/sh
# t_imb_compare.sh: bench/imb-compare.sh's command line, which needs no
# MPI run: -h prints the usage and exits 0; no IMBDIR, or one without the
# upstream programs, exits 2 with the usage or one line naming it. The
# comparison itself is a benchmark (times), which make check does not run.
. "$top_srcdir/tests/integration/lib.sh"

cmp="$top_srcdir/bench/imb-compare.sh"

sh "$cmp" -h > "$work/help" 2> "$work/help.err"
rc=$?
check "-h: exit 0 (got $rc), the usage on stdout" \
    sh -c "[ $rc -eq 0 ] && grep -q '^Usage: bench/imb-compare.sh' '$work/help' && [ ! -s '$work/help.err' ]"

sh "$cmp" > "$work/none.out" 2> "$work/none.err"
rc=$?
check "no IMBDIR: exit 2 (got $rc), the usage on stderr" \
    sh -c "[ $rc -eq 2 ] && grep -q '^Usage: bench/imb-compare.sh' '$work/none.err' && [ ! -s '$work/none.out' ]"

mkdir "$work/imb"
sh "$cmp" -b "$top_builddir" "$work/imb" > "$work/empty.out" 2> "$work/empty.err"
rc=$?
check "IMBDIR without IMB-EXT and IMB-IO: exit 2 (got $rc), one line naming it" \
    sh -c "[ $rc -eq 2 ] && [ \$(wc -l < '$work/empty.err') -eq 1 ] &&
           grep -q \"^imb-compare.sh: no upstream IMB-EXT and IMB-IO in '$work/imb'\" '$work/empty.err'"

sh "$cmp" -b "$top_builddir" "$work/missing" 2> "$work/missing.err"
rc=$?
check "IMBDIR that is not there: exit 2 (got $rc), one line naming it" \
    sh -c "[ $rc -eq 2 ] && [ \$(wc -l < '$work/missing.err') -eq 1 ] && grep -q \"'$work/missing'\" '$work/missing.err'"
finish
