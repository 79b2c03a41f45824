# bench/buildtree.sh: what the bench scripts share (sourced after setting
# me, the script's name for messages): die, is_count, built and the MPI of
# a build tree; slowest and median.

die() {
    echo "$me: $*" >&2
    exit 2
}

# is_count VALUE MAX: VALUE is a decimal integer in 1..MAX.
is_count() {
    case $1 in '' | *[!0-9]*) return 1 ;; esac
    [ ${#1} -le ${#2} ] && [ "$1" -ge 1 ] && [ "$1" -le "$2" ]
}

# built BUILDDIR PATH [HOW]: the absolute path of BUILDDIR's file PATH;
# dies naming what to run (HOW, default "make") if it is not built, and
# $tree_hint (by default: the -b option that names the build tree).
tree_hint=${tree_hint-" (or name the build tree with -b)"}
built() {
    [ -e "$1/$2" ] || die "no $1/$2: run ${3:-make} in $1$tree_hint"
    echo "$(cd "$(dirname "$1/$2")" && pwd)/$(basename "$2")"
}

# check_m FLAVOR: -m's value is empty, openmpi or mpich.
check_m() {
    case $1 in '' | openmpi | mpich) ;; *) die "-m: '$1' is not openmpi or mpich" ;; esac
}

# buildtree_mpi BUILDDIR FLAVOR: sets flavor (FLAVOR, openmpi or mpich,
# or if empty the MPI BUILDDIR was configured with) and mpirun (the
# build's, else mpirun.FLAVOR); as root with Open MPI, exports its
# permission to run.
buildtree_mpi() {
    local configured
    configured=$(sed -n 's/^MPI_FLAVOR = *//p' "$1/Makefile" 2>/dev/null)
    mpirun=$(sed -n 's/^MPIRUN = *//p' "$1/Makefile" 2>/dev/null)
    flavor=${2:-$configured}
    case $flavor in
        openmpi | mpich) ;;
        *) die "cannot tell the MPI of $1: pass -m openmpi or -m mpich" ;;
    esac
    [ -z "$configured" ] || [ "$configured" = "$flavor" ] || die "-m $flavor, but $1 is built with $configured"
    [ -n "$mpirun" ] || mpirun=mpirun.$flavor
    command -v "$mpirun" >/dev/null 2>&1 || die "no $mpirun"
    if [ "$flavor" = openmpi ] && [ "$(id -u)" = 0 ]; then
        OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
        export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
    fi
}

# slowest REPORT COLUMN: the largest value of COLUMN in REPORT/summary.txt.
slowest() {
    awk -v col="$2" '/^# rank/ { for (i = 2; i <= NF; i++) if ($i == col) c = i - 1; next }
        /^#/ { next } c && (n++ == 0 || $c > m) { m = $c } END { if (!c || !n) exit 1; printf "%.6f\n", m }' \
        "$1/summary.txt"
}

# median: the median of the numbers on stdin, one a line (the mean of the
# two middle ones for an even count; nothing for none).
median() {
    sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
