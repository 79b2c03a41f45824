# shellcheck shell=sh disable=SC2154
# compare-lib.sh: what bench/latency-compare.sh and bench/imb-compare.sh
# share, sourced by both (POSIX sh): the MPI launcher of a build tree and
# the median of numbers; its messages start with the caller's $me. Sourcing
# it lets Open MPI run as root.

OMPI_ALLOW_RUN_AS_ROOT=1
OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM

# build_mpirun BUILDDIR: prints the MPIRUN its Makefile names; exits 2
# (from the command substitution) when there is none.
build_mpirun() {
    r=$(sed -n 's/^MPIRUN = //p' "$1/Makefile" 2>/dev/null)
    [ -x "$r" ] || { echo "$me: no MPIRUN in $1/Makefile (a configured build tree?)" >&2; exit 2; }
    echo "$r"
}

# median (and die, is_count, built): buildtree.sh's.
. "$(dirname "$0")/buildtree.sh"
