#!/bin/sh
# check-table.sh: do the wrappers cover every function of this MPI's <mpi.h>?
#
#   check-table.sh MPICC SRCDIR
#   (no arguments, as under make check: $MPICC and $top_srcdir; AWK from
#   the environment, default awk)
#
# Lists the MPI_ functions <mpi.h> declares (wrappers/mpi-decls.sh, as
# configure does), runs the generator on SRCDIR/wrappers/*.tbl with that
# list, as the build does, and fails (exit 1) naming
#   - every declared function that is not wrapped, less MPI_T_*,
#     *_c2f/*_f2c, MPI_Wtime/MPI_Wtick and SRCDIR/wrappers/unwrapped.list;
#   - every wrapped function this mpi.h does not declare (a table line
#     without mpi=X.Y must be in every MPI the build supports);
#   - every function a table says MPI X.Y introduced (flag mpi=X.Y; the
#     large-count variant of flag c: 4.0) that this mpi.h, of MPI X.Y or
#     later by its MPI_VERSION, does not declare.
# Exit 2 on usage, preprocessing or generator errors.

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
awk=${AWK:-awk}
LC_ALL=C
export LC_ALL

tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-table.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

sh "$srcdir/wrappers/mpi-decls.sh" "$mpicc" > "$tmp/declared.all" || exit 2
printf '#include <mpi.h>\nmpiprof_version MPI_VERSION.MPI_SUBVERSION\n' > "$tmp/v.c"
version=$($mpicc -E -P "$tmp/v.c" 2> /dev/null | sed -n 's/^mpiprof_version *\([0-9][0-9]*\) *\. *\([0-9][0-9]*\).*/\1.\2/p')
if [ -z "$version" ]; then
    echo "check-table.sh: no MPI_VERSION in <mpi.h> from $mpicc" >&2
    exit 2
fi

# What the build generates from this list (prof_fn_name in fn_table.c).
mkdir "$tmp/gen"
if ! $awk -v outdir="$tmp/gen" -v declared="$tmp/declared.all" -f "$srcdir/wrappers/gen-wrappers.awk" \
        "$srcdir/wrappers/families.def" "$srcdir"/wrappers/*.tbl 2> "$tmp/gen.err"; then
    echo "check-table.sh: the generator failed:" >&2
    cat "$tmp/gen.err" >&2
    exit 2
fi
sed -n 's/^    "\(MPI_[A-Za-z0-9_]*\)",$/\1/p' "$tmp/gen/fn_table.c" | sort -u > "$tmp/wrapped"

# Names not expected among the wrapped.
awk '!/^[ \t]*(#|$)/ { print $1 }' "$srcdir/wrappers/unwrapped.list" | sort -u > "$tmp/skip"
grep -v -E '^MPI_T_|_c2f$|_f2c$|^MPI_Wti(me|ck)$' "$tmp/declared.all" |
    comm -23 - "$tmp/skip" > "$tmp/declared"

n=$(wc -l < "$tmp/declared" | tr -d ' ')
if [ "$n" -eq 0 ]; then
    echo "check-table.sh: found no MPI functions in <mpi.h> from $mpicc" >&2
    exit 2
fi

# Each table function with its file and the MPI version that introduced it
# (- for MPI 3.1 lines): "name file version".
for t in "$srcdir"/wrappers/*.tbl; do
    $awk -v f="${t##*/}" '!/^[ \t]*(#|$)/ {
        v = "-"
        if (match($3, /(^|,)mpi=[0-9.]+/))
            v = substr($3, RSTART + (RSTART > 1) + 4, RLENGTH - (RSTART > 1) - 4)
        print $1, f, v
        if (("," $3 ",") ~ /,c,/)
            print $1 "_c", f, "4.0"
    }' "$t"
done | sort -k1,1 > "$tmp/tables"

status=0
for f in $(comm -23 "$tmp/declared" "$tmp/wrapped"); do
    echo "check-table.sh: $f is declared by <mpi.h> ($mpicc) but not wrapped: in no wrappers/*.tbl line"
    status=1
done
for f in $(comm -13 "$tmp/declared.all" "$tmp/wrapped"); do
    where=$(awk -v n="$f" '$1 == n { print $2; exit }' "$tmp/tables")
    echo "check-table.sh: $f is in wrappers/$where but not declared by <mpi.h> ($mpicc)"
    status=1
done
# Version-flagged functions an MPI of that version must declare.
awk -v mv="$version" 'function num(v,  p) { split(v, p, "."); return p[1] * 100 + p[2] }
    $3 != "-" && num($3) <= num(mv) { print $1, $2, $3 }' "$tmp/tables" |
while read -r f where v; do
    if ! grep -qx "$f" "$tmp/declared.all"; then
        echo "check-table.sh: $f (wrappers/$where: MPI $v) is not declared by <mpi.h> ($mpicc), an MPI $version"
        echo 1 > "$tmp/failed"
    fi
done
[ -f "$tmp/failed" ] && status=1
if [ $status -eq 0 ]; then
    beyond=$(awk '$3 != "-" { print $1 }' "$tmp/tables" | sort | comm -12 - "$tmp/wrapped" | wc -l | tr -d ' ')
    echo "$n functions declared (MPI $version), all wrapped; $beyond of them beyond MPI 3.1 ($mpicc)"
fi
exit $status
