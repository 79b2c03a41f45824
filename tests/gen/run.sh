#!/bin/sh
# run.sh: tests of wrappers/gen-wrappers.awk.
#
#   run.sh SRCDIR        (AWK from the environment, default awk)
#   run.sh               (as under make check: SRCDIR is $top_srcdir)
#
# sample.tbl must generate exactly expected_wrap_c.c (without a declared
# list: every line, every large-count variant), and with a declared list
# lacking MPI_Gatherv_c, MPI_Pready and MPI_Bcast_init none of those; sample_f.tbl exactly
# expected_wrap_f.c (Fortran entries); each bad_*.tbl must make
# the generator exit non-zero, write no wrap_c.c, and name "bad_x.tbl:LINE:"
# on stderr, LINE taken from the file's first line "# expect: LINE".
# One line per check; exit 1 if any check fails.

src=${1:-${top_srcdir:-}}
if [ $# -gt 1 ] || [ -z "$src" ]; then
    echo "usage: run.sh SRCDIR" >&2
    exit 2
fi
gen="$src/wrappers/gen-wrappers.awk"
fam="$src/wrappers/families.def"
dir="$src/tests/gen"
awk=${AWK:-awk}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gen-test.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

failed=0
pass() { echo "ok   $1"; }
fail() { echo "FAIL $1"; failed=1; }

# (a) the golden output
mkdir "$tmp/sample"
if ! $awk -v outdir="$tmp/sample" -f "$gen" "$fam" "$dir/sample.tbl" 2> "$tmp/sample.err"; then
    fail "sample.tbl: generator failed: $(cat "$tmp/sample.err")"
elif ! diff -u "$dir/expected_wrap_c.c" "$tmp/sample/wrap_c.c" > "$tmp/sample.diff"; then
    fail "sample.tbl: wrap_c.c differs from expected_wrap_c.c:"
    cat "$tmp/sample.diff"
else
    pass "sample.tbl: wrap_c.c equals expected_wrap_c.c"
fi

# (a1) a declared list (configure's wrappers/mpi-declared.list) selects the
# lines flagged mpi=X.Y and the variants of flag c
mkdir "$tmp/declared"
printf '%s\n' MPI_Barrier MPI_Gatherv MPI_Recv MPI_Request_free MPI_Send MPI_Type_free MPI_Waitall \
    MPI_Win_fence > "$tmp/declared.list"
if ! $awk -v outdir="$tmp/declared" -v declared="$tmp/declared.list" -f "$gen" "$fam" "$dir/sample.tbl" \
        2> "$tmp/declared.err"; then
    fail "sample.tbl with a declared list: generator failed: $(cat "$tmp/declared.err")"
elif grep -q 'MPI_Gatherv_c\|MPI_Pready\|MPI_Bcast_init' "$tmp/declared/wrap_c.c" "$tmp/declared/fn_table.h"; then
    fail "sample.tbl with a declared list: MPI_Gatherv_c, MPI_Pready or MPI_Bcast_init generated, not declared"
elif ! grep -q 'FN_MPI_Gatherv,' "$tmp/declared/fn_table.h"; then
    fail "sample.tbl with a declared list: MPI_Gatherv not generated"
else
    pass "sample.tbl with a declared list: MPI_Gatherv_c, MPI_Pready and MPI_Bcast_init left out, MPI_Gatherv kept"
fi

# (a2) the Fortran entries: sample_f.tbl must generate exactly expected_wrap_f.c
mkdir "$tmp/sample_f"
if ! $awk -v outdir="$tmp/sample_f" -f "$gen" "$fam" "$dir/sample_f.tbl" 2> "$tmp/sample_f.err"; then
    fail "sample_f.tbl: generator failed: $(cat "$tmp/sample_f.err")"
elif ! diff -u "$dir/expected_wrap_f.c" "$tmp/sample_f/wrap_f.c" > "$tmp/sample_f.diff"; then
    fail "sample_f.tbl: wrap_f.c differs from expected_wrap_f.c:"
    cat "$tmp/sample_f.diff"
else
    pass "sample_f.tbl: wrap_f.c equals expected_wrap_f.c"
fi

# (b) each bad table fails at its line
for t in "$dir"/bad_*.tbl; do
    name=${t##*/}
    line=$(sed -n '1s/^# expect: *\([0-9][0-9]*\) *$/\1/p' "$t")
    if [ -z "$line" ]; then
        fail "$name: line 1 is not '# expect: LINE'"
        continue
    fi
    out="$tmp/$name.out"
    mkdir "$out"
    if $awk -v outdir="$out" -f "$gen" "$fam" "$t" 2> "$out.err"; then
        fail "$name: generator exited 0, expected an error at line $line"
        continue
    fi
    # The message must start with [dir/]bad_x.tbl:LINE:
    first=$(sed -n 1p "$out.err")
    loc=${first%%: *}
    if [ "${loc##*/}" != "$name:$line" ]; then
        fail "$name: expected '$name:$line:' on stderr, got: $(cat "$out.err")"
    elif [ -e "$out/wrap_c.c" ]; then
        fail "$name: error reported, but wrap_c.c was written"
    else
        pass "$name: rejected at line $line: $(sed 's/^[^ ]* //' "$out.err")"
    fi
done

exit $failed
