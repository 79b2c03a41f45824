#!/bin/sh
# bench/model-predict.sh: does the model predict this machine? Calibrates
# the model with mpiprof-calibrate, then runs each program RUNS times under
# mpiprof without a model and RUNS times under --model CALIBRATION,
# interleaved, and prints per program and rank count the median real
# elapsed time (summary.txt elapsed_s, the slowest rank), the median
# modelled one (model_elapsed_s, the slowest rank) and the error of the
# prediction; then the real elapsed time of the runs under the model and
# what the model cost (their median over the real one, less 1). The run
# without a model is the real time: a run with one is slower by its
# tokens, which the model cannot see. A benchmark, not a test: not in make
# check.

usage() {
    cat <<USAGE
Usage: bench/model-predict.sh [-m openmpi|mpich] [-b BUILDDIR] [-k RUNS] [-n "2 4"] [-M MODEL]
                              [PROGRAM...]

Calibrate the model on this machine (mpiprof-calibrate), run each PROGRAM
(a command line in one word, spaces as commas: cg.W.x or
mpiprof-mpi1,Allreduce) on each rank count RUNS times profiled without a
model and RUNS times under --model, and print the medians of the real and
modelled elapsed times and the error (modelled / real - 1), and the real
elapsed of the runs under the model and its cost (that / real - 1).

  -m MPI       openmpi or mpich (default: the MPI BUILDDIR was configured with)
  -b BUILDDIR  configured and built mpiprof tree (default: .)
  -k RUNS      runs per configuration, 1..99 (default 3)
  -n RANKS     rank counts, 2..16 (default "2 4")
  -M MODEL     this model instead of the calibration's
  PROGRAM      a program found as given or in BUILDDIR/bench (default: the
               drivers mpiprof-mpi1 PingPong, Allreduce and Alltoall, and
               mpiprof-msgrate -p 1 -i 256)
  -h           show this help and exit
USAGE
}

me=model-predict.sh
. "$(dirname "$0")/buildtree.sh"

flavor='' builddir=. runs=3 ranks="2 4" model=''
while [ $# -gt 0 ]; do
    case $1 in
        -m | -b | -k | -n | -M) [ $# -ge 2 ] || die "option $1 needs a value (try -h)" ;;
    esac
    case $1 in
        -m) flavor=$2; shift 2 ;;
        -b) builddir=$2; shift 2 ;;
        -k) runs=$2; shift 2 ;;
        -n) ranks=$2; shift 2 ;;
        -M) model=$2; shift 2 ;;
        -h | --help) usage; exit 0 ;;
        -*) die "unknown argument '$1' (try -h)" ;;
        *) break ;;
    esac
done
check_m "$flavor"
is_count "$runs" 99 || die "-k: '$runs' is not an integer in 1..99"
[ -n "$ranks" ] || die "-n: empty list of rank counts"
for n in $ranks; do
    is_count "$n" 16 && [ "$n" -ge 2 ] || die "-n: '$n' is not a rank count in 2..16"
done
launcher=$(built "$builddir" tools/mpiprof) || exit 2
calibrate=$(built "$builddir" tools/mpiprof-calibrate) || exit 2
bench=$(dirname "$(built "$builddir" bench/mpiprof-mpi1)") || exit 2
buildtree_mpi "$builddir" "$flavor"
MPIPROF_PRELOAD=$(built "$builddir" .libs/libmpiprof.so) || exit 2
export MPIPROF_PRELOAD
[ "$flavor" = openmpi ] && OMPI_MCA_rmaps_base_oversubscribe=1 && export OMPI_MCA_rmaps_base_oversubscribe
[ $# -gt 0 ] || set -- mpiprof-mpi1,PingPong mpiprof-mpi1,Allreduce mpiprof-mpi1,Alltoall mpiprof-msgrate,-p,1,-i,256
for p in "$@"; do
    cmd=${p%%,*}
    [ -x "$cmd" ] || [ -x "$bench/$cmd" ] || die "cannot run '$cmd' (not found as given nor in $bench)"
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mpiprof-predict.XXXXXX") || die "cannot create a temporary directory"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [ -z "$model" ]; then
    MPIPROF_MPI1=$bench/mpiprof-mpi1 "$calibrate" --mpirun "$mpirun" -o "$tmp/table" > "$tmp/cal" 2>&1 ||
        die "mpiprof-calibrate failed: $(tail -1 "$tmp/cal")"
    model=$(tail -1 "$tmp/cal")
    echo "# calibration: $(sed -n 's/^# latency/latency/p' "$tmp/cal")"
fi
echo "# mpiprof model prediction: $flavor, --model $model, $runs runs each, interleaved; medians of the slowest rank"
printf '%-28s %5s %10s %10s %8s %10s %8s\n' "# program" ranks real_s model_s error run_s cost

for p in "$@"; do
    cmd=${p%%,*}
    [ -x "$cmd" ] || cmd=$bench/$cmd
    args=$(echo "${p#"${p%%,*}"}" | tr ',' ' ')
    for n in $ranks; do
        : > "$tmp/real" && : > "$tmp/model" && : > "$tmp/run"
        k=1
        while [ "$k" -le "$runs" ]; do
            for how in real model; do
                rep=$tmp/rep.$how.$k
                rm -rf "$rep"
                set -- -q -o "$rep"
                [ $how = model ] && set -- "$@" --model "$model"
                # shellcheck disable=SC2086 # the program's arguments are words
                "$mpirun" -np "$n" "$launcher" "$@" "$cmd" $args > "$tmp/out" 2>&1 ||
                    die "$cmd$args on $n ranks failed: $(tail -3 "$tmp/out")"
                if [ $how = real ]; then
                    slowest "$rep" elapsed_s >> "$tmp/real"
                else
                    slowest "$rep" model_elapsed_s >> "$tmp/model" && slowest "$rep" elapsed_s >> "$tmp/run"
                fi || die "no figure in $rep/summary.txt"
            done
            k=$((k + 1))
        done
        real=$(median < "$tmp/real")
        modelled=$(median < "$tmp/model")
        run=$(median < "$tmp/run")
        awk -v p="${p##*/}" -v n="$n" -v r="$real" -v m="$modelled" -v u="$run" 'BEGIN {
            printf "%-28s %5d %10.4f %10.4f %+7.1f%% %10.4f %+7.1f%%\n", p, n, r, m, (r > 0 ? 100 * (m / r - 1) : 0),
                   u, (r > 0 ? 100 * (u / r - 1) : 0) }'
    done
done
