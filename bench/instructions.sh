#!/bin/sh
# bench/instructions.sh: instructions per call spent in libmpiprof, counted
# by callgrind (deterministic, unlike times: a machine's load does not
# change it). Runs mpiprof-overhead on 2 ranks under valgrind --tool=callgrind
# with N1 and then N2 calls per loop (warm-up and one repetition: 2N calls),
# collecting only inside the loop of each measured function, and prints
# (Ir(N2) - Ir(N1)) / (2 (N2 - N1)) counted in libmpiprof's code (its
# sources and generated wrappers) on rank 0. A benchmark, not a test.

usage() {
    cat <<USAGE
Usage: bench/instructions.sh [-m openmpi|mpich] [-b BUILDDIR] [-d DEPTH] [-n "N1 N2"]
                             [-e MPIPROF_NAME=VALUE]...

Instructions per profiled MPI_Comm_rank, MPI_Iprobe, 1-byte
MPI_Send+MPI_Recv pair (rank 0's side of a ping-pong) and 1-byte
MPI_Irecv+MPI_Isend+MPI_Waitall exchange spent in libmpiprof,
counted by callgrind on rank 0 of BUILDDIR/bench/mpiprof-overhead (2 ranks),
from two runs with N1 and N2 calls per loop.

  -m MPI       openmpi or mpich (default: the MPI BUILDDIR was configured with)
  -b BUILDDIR  configured and built mpiprof tree (default: .)
  -d DEPTH     MPIPROF_STACK_DEPTH, 1..32 (default 1)
  -n "N1 N2"   calls per loop, N1 < N2, each 1..10000000 (default "20000 40000")
  -e NAME=VALUE  an MPIPROF_ variable set in both runs (repeatable), e.g.
               -e MPIPROF_EVAL_SLT=1 for what --slt adds
  -h           show this help and exit
USAGE
}

me=instructions.sh
. "$(dirname "$0")/buildtree.sh"

flavor='' builddir=. depth=1 counts="20000 40000" vars=''
while [ $# -gt 0 ]; do
    case $1 in
        -m | -b | -d | -n | -e) [ $# -ge 2 ] || die "option $1 needs a value (try -h)" ;;
    esac
    case $1 in
        -m) flavor=$2; shift 2 ;;
        -b) builddir=$2; shift 2 ;;
        -d) depth=$2; shift 2 ;;
        -n) counts=$2; shift 2 ;;
        -e) case $2 in
                MPIPROF_*=* | MPIPROF_*=) ;;
                *) die "-e: '$2' is not MPIPROF_NAME=VALUE" ;;
            esac
            case ${2%%=*} in *[!A-Z0-9_]*) die "-e: '${2%%=*}' is not a variable name" ;; esac
            vars="$vars ${2%%=*}"; export "$2"; shift 2 ;;
        -h | --help) usage; exit 0 ;;
        *) die "unknown argument '$1' (try -h)" ;;
    esac
done
check_m "$flavor"
is_count "$depth" 32 || die "-d: '$depth' is not a stack depth in 1..32"
set -- $counts
[ $# -eq 2 ] && is_count "$1" 10000000 && is_count "$2" 10000000 && [ "$1" -lt "$2" ] ||
    die "-n: '$counts' is not two call counts N1 < N2 in 1..10000000"
n1=$1 n2=$2
command -v valgrind > /dev/null 2>&1 && command -v callgrind_annotate > /dev/null 2>&1 ||
    die "needs valgrind and callgrind_annotate"
prog=$(built "$builddir" bench/mpiprof-overhead) || exit 2
lib=$(built "$builddir" .libs/libmpiprof.so) || exit 2
buildtree_mpi "$builddir" "$flavor"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mpiprof-instructions.XXXXXX") || die "cannot create a temporary directory"
trap 'rm -rf "$tmp"' EXIT

# run LOOP N: rank 0's callgrind profile of LOOP with N calls per loop
# (the -e variables passed by name: both launchers take this
# environment's value).
run() {
    pass=''
    if [ -n "$vars" ]; then
        case $flavor in
            openmpi) for v in $vars; do pass="$pass -x $v"; done ;;
            mpich) pass="-genvlist $(echo $vars | tr ' ' ,)" ;;
        esac
    fi
    case $flavor in
        openmpi) set -- "$mpirun" -np 2 $pass -x LD_PRELOAD="$lib" -x MPIPROF_OUTPUT="$tmp/rep" -x MPIPROF_QUIET=1 \
                     -x MPIPROF_STACK_DEPTH="$depth" valgrind --tool=callgrind --toggle-collect="$1" \
                     --callgrind-out-file="$tmp/cg.$1.$2.%q{OMPI_COMM_WORLD_RANK}" "$prog" -n "$2" -r 1 ;;
        mpich) set -- "$mpirun" -np 2 $pass -genv LD_PRELOAD "$lib" -genv MPIPROF_OUTPUT "$tmp/rep" -genv MPIPROF_QUIET 1 \
                   -genv MPIPROF_STACK_DEPTH "$depth" valgrind --tool=callgrind --toggle-collect="$1" \
                   --callgrind-out-file="$tmp/cg.$1.$2.%q{PMI_RANK}" "$prog" -n "$2" -r 1 ;;
    esac
    rm -rf "$tmp/rep"*
    "$@" > "$tmp/out" 2>&1 || { cat "$tmp/out" >&2; die "the run under callgrind failed: $*"; }
}

# ours LOOP N: the instructions of rank 0's profile in libmpiprof: the
# functions callgrind places in libmpiprof.so, and the code inlined in
# them (listed under its header's name, without an object).
ours() {
    callgrind_annotate --auto=no --inclusive=no --threshold=100 "$tmp/cg.$1.$2.0" | awk '
        $1 ~ /^[0-9,]+$/ {
            for (i = 2; i <= NF && index($i, ":") == 0; i++) ;
            if (i > NF) next
            fn = $i; sub(/^.*:/, "", fn); ir = $1; gsub(/,/, "", ir)
            n++; name[n] = fn; cost[n] = ir
            if ($0 ~ /libmpiprof[.]so/) mine[fn] = 1
        }
        END { for (k = 1; k <= n; k++) if (name[k] in mine) s += cost[k]; printf "%d\n", s }'
}

echo "# instructions per call in libmpiprof: $flavor, depth $depth,${vars:+$vars,} callgrind on rank 0, ($n2 - $n1) x 2 calls"
for f in MPI_Comm_rank:loop_comm_rank MPI_Iprobe:loop_iprobe MPI_Send+MPI_Recv:loop_pingpong \
         MPI_Irecv+MPI_Isend+MPI_Waitall:loop_exchange; do
    loop=${f#*:}
    run "$loop" "$n1"
    run "$loop" "$n2"
    a=$(ours "$loop" "$n1") b=$(ours "$loop" "$n2")
    awk -v f="${f%%:*}" -v a="$a" -v b="$b" -v n1="$n1" -v n2="$n2" \
        'BEGIN { printf "%-31s %7.1f\n", f, (b - a) / (2 * (n2 - n1)) }'
done
