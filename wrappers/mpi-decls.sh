#!/bin/sh
# mpi-decls.sh: the MPI_ functions an <mpi.h> declares, one name a line,
# sorted. Run by configure (wrappers/mpi-declared.list in the build tree,
# which gen-wrappers.awk reads) and by tests/check-table.sh.
#
#   mpi-decls.sh MPICC
#
# Exit 2, saying why on stderr, when MPICC cannot preprocess <mpi.h>.

if [ $# -ne 1 ]; then
    echo "usage: mpi-decls.sh MPICC" >&2
    exit 2
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mpi-decls.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

echo '#include <mpi.h>' > "$tmp/h.c"
if ! $1 -E -P "$tmp/h.c" > "$tmp/h.i" 2> "$tmp/err"; then
    echo "mpi-decls.sh: '$1 -E' failed on <mpi.h>:" >&2
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
}' "$tmp/h.i" | LC_ALL=C sort -u
