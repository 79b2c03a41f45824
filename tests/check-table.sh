#!/bin/sh
# check-table.sh: do the wrapper tables cover this MPI's <mpi.h>?
#
#   check-table.sh MPICC SRCDIR
#   (no arguments, as under make check: $MPICC and $top_srcdir)
#
# Preprocesses <mpi.h> with MPICC and lists the MPI_ functions it declares,
# less MPI_T_*, *_c2f/*_f2c, MPI_Wtime/MPI_Wtick, large-count *_c variants and
# the names in SRCDIR/wrappers/beyond-mpi31.list. Fails (exit 1) naming every
# declared function no SRCDIR/wrappers/*.tbl lists, and every table function
# this mpi.h does not declare. Exit 2 on usage or preprocessing errors.

usage() {
    echo "usage: check-table.sh MPICC SRCDIR" >&2
    exit 2
}
case $# in
    2) mpicc=$1 srcdir=$2 ;;
    0) mpicc=${MPICC:-} srcdir=${top_srcdir:-} ;;
    *) usage ;;
esac
if [ -z "$mpicc" ] || [ -z "$srcdir" ]; then usage; fi
[ -d "$srcdir/wrappers" ] || { echo "check-table.sh: no $srcdir/wrappers" >&2; exit 2; }

# MPI 3.1 functions left out of the tables on purpose: address arithmetic that
# returns MPI_Aint (generated wrappers return int), and Open MPI 4.1 defines
# them as macros, so there is no symbol to interpose.
unwrapped="MPI_Aint_add MPI_Aint_diff"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-table.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

echo '#include <mpi.h>' > "$tmp/h.c"
if ! $mpicc -E -P "$tmp/h.c" > "$tmp/h.i" 2> "$tmp/err"; then
    echo "check-table.sh: '$mpicc -E' failed on <mpi.h>:" >&2
    cat "$tmp/err" >&2
    exit 2
fi

# Declarations: in each ';'-terminated statement, a name right after a type
# word ("int MPI_Send (", "MPI_Aint MPI_Aint_add(", "int\nMPI_Recv(" once
# newlines are spaces). Not "typedef MPI_Aint (QMPI_..." (MPICH) nor calls
# after "return" in inline bodies.
awk 'BEGIN { RS = ";" }
{
    s = $0
    gsub(/[ \t\r\n]+/, " ", s)
    while (match(s, /[A-Za-z_][A-Za-z0-9_]*[ *]+MPI_[A-Za-z0-9_]+ *\(/)) {
        m = substr(s, RSTART, RLENGTH)
        s = substr(s, RSTART + RLENGTH)
        word = m
        sub(/[ *].*$/, "", word)
        if (word == "typedef" || word == "return")
            continue
        sub(/^[A-Za-z0-9_]*[ *]+/, "", m)
        sub(/ *\($/, "", m)
        print m
    }
}' "$tmp/h.i" | sort -u > "$tmp/declared.all"

# Names not expected in the tables.
{
    awk '!/^[ \t]*(#|$)/ { print $1 }' "$srcdir/wrappers/beyond-mpi31.list"
    for f in $unwrapped; do echo "$f"; done
} | sort -u > "$tmp/skip"
grep -v -E '^MPI_T_|_c2f$|_f2c$|_c$|^MPI_Wti(me|ck)$' "$tmp/declared.all" |
    comm -23 - "$tmp/skip" > "$tmp/declared"

n=$(wc -l < "$tmp/declared" | tr -d ' ')
if [ "$n" -eq 0 ]; then
    echo "check-table.sh: found no MPI functions in <mpi.h> from $mpicc" >&2
    exit 2
fi

# Table functions: first field of every non-comment line, with its file.
for t in "$srcdir"/wrappers/*.tbl; do
    awk -v f="${t##*/}" '!/^[ \t]*(#|$)/ { print $1, f }' "$t"
done | sort -k1,1 > "$tmp/tables"
awk '{ print $1 }' "$tmp/tables" | sort -u > "$tmp/tabled"

status=0
for f in $(comm -23 "$tmp/declared" "$tmp/tabled"); do
    echo "check-table.sh: $f is declared by <mpi.h> ($mpicc) but in no wrappers/*.tbl"
    status=1
done
for f in $(comm -13 "$tmp/declared.all" "$tmp/tabled"); do
    where=$(awk -v n="$f" '$1 == n { print $2; exit }' "$tmp/tables")
    echo "check-table.sh: $f is in wrappers/$where but not declared by <mpi.h> ($mpicc)"
    status=1
done
[ $status -eq 0 ] && echo "$n functions declared, all in the table ($mpicc)"
exit $status
