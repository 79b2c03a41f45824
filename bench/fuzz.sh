#!/bin/sh
# bench/fuzz.sh: the long run of the fuzzer of legal point-to-point
# programs (tests/integration/fuzz.c; t_fuzz.sh is the short one in make
# check). Seeds FIRST .. FIRST+COUNT-1 in batches of B schedules: each batch
# runs without the profiler, then under each option set; a hang (no end
# within TIMEOUT s, the job killed), a sorted output that differs from the
# plain run's, (under --slt) send_late_s per rank and site off fuzz's
# truth by more than 20 % (floor 5 ms), or a report whose figures do not
# add up (mpiprof-report check: an invariant broken) is a failure, which is then narrowed
# to its seeds (each run alone) and printed with the command that repeats
# it. Not a test: not in make check.

usage() {
    cat <<USAGE
Usage: bench/fuzz.sh [-m openmpi|mpich] [-b BUILDDIR] [-s FIRST] [-c COUNT] [-np N] [-t TIMEOUT]
                     [-B BATCH] [-O "SET|SET..."] [-- FUZZ ARGS]

Run the schedules of seeds FIRST..FIRST+COUNT-1 of BUILDDIR/tests/integration/fuzz
without the profiler and under each option set, and report hangs, output
differences, late-sender figures off the truth and reports whose figures do not
add up (mpiprof-report check), each with its seed and the command that repeats
it; then "N schedules, N hangs, N differences, N figures off, N broken" and the
time taken.

  -m MPI       openmpi or mpich (default: the MPI BUILDDIR was configured with)
  -b BUILDDIR  configured and built mpiprof tree, with make tests/integration/fuzz
               done (default: .)
  -s FIRST     first seed, an integer below 10^18 (default 1)
  -c COUNT     number of seeds, 1..1000000 (default 100)
  -np N        ranks, 2..16 (default 3 with Open MPI, oversubscribed; 2 with MPICH,
               which busy-polls)
  -t TIMEOUT   seconds a run may take before it counts as a hang, 1..3600 (default 60)
  -B BATCH     schedules per run, 1..1000 (default 10; a failing batch is rerun
               seed by seed)
  -O SETS      option sets, |-separated (default "--slt|--collwait|--model perfect|
               --model lat=5,bw=1000|--slt --collwait --model perfect")
  -- ARGS      passed to fuzz (-d MAXDELAY_MS, -k SHAPES, -P, -T)
  -h           show this help and exit
USAGE
}

me=fuzz.sh
. "$(dirname "$0")/buildtree.sh"

flavor='' builddir=. first=1 count=100 np='' limit=60 batch=10
sets='--slt|--collwait|--model perfect|--model lat=5,bw=1000|--slt --collwait --model perfect'
while [ $# -gt 0 ]; do
    case $1 in
        -m | -b | -s | -c | -np | -t | -B | -O) [ $# -ge 2 ] || die "option $1 needs a value (try -h)" ;;
    esac
    case $1 in
        -m) flavor=$2; shift 2 ;;
        -b) builddir=$2; shift 2 ;;
        -s) first=$2; shift 2 ;;
        -c) count=$2; shift 2 ;;
        -np) np=$2; shift 2 ;;
        -t) limit=$2; shift 2 ;;
        -B) batch=$2; shift 2 ;;
        -O) sets=$2; shift 2 ;;
        -h | --help) usage; exit 0 ;;
        --) shift; break ;;
        *) die "unknown argument '$1' (try -h)" ;;
    esac
done
check_m "$flavor"
case $first in '' | *[!0-9]*) die "-s: '$first' is not a seed (an integer below 10^18)" ;; esac
[ ${#first} -le 18 ] || die "-s: '$first' is not a seed (an integer below 10^18)"
is_count "$count" 1000000 || die "-c: '$count' is not a count of seeds in 1..1000000"
[ -z "$np" ] || { is_count "$np" 16 && [ "$np" -ge 2 ]; } || die "-np: '$np' is not a number of ranks in 2..16"
is_count "$limit" 3600 || die "-t: '$limit' is not a number of seconds in 1..3600"
is_count "$batch" 1000 || die "-B: '$batch' is not a number of schedules in 1..1000"
[ -n "$sets" ] || die "-O: empty list of option sets"

fuzz=$(built "$builddir" tests/integration/fuzz "make tests/integration/fuzz") || exit 2
MPIPROF_PRELOAD=$(built "$builddir" .libs/libmpiprof.so) || exit 2
launcher=$(built "$builddir" tools/mpiprof) || exit 2
checker=$(built "$builddir" tools/mpiprof-report) || exit 2
python=$(sed -n '1s/^#! *//p' "$checker")     # the Python mpiprof-report runs with
# shellcheck disable=SC2086 # a shebang's words
$python -c 'import pandas' 2> /dev/null || checker=''
export MPIPROF_PRELOAD
figures=$(dirname "$0")/../tests/integration/fuzz-figures.awk
stuck=$(dirname "$0")/../tests/integration/fuzz-stuck.awk
if [ ! -f "$figures" ] || [ ! -f "$stuck" ]; then
    die "no $figures or $stuck next to this script"
fi
command -v timeout >/dev/null 2>&1 || die "needs timeout (coreutils)"
buildtree_mpi "$builddir" "$flavor"
env=''
if [ "$flavor" = openmpi ]; then
    [ -n "$np" ] || np=3
    mpirun="$mpirun --oversubscribe"
    [ "$(id -u)" != 0 ] || env='OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 '
fi
[ -n "$np" ] || np=2

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mpiprof-fuzz.XXXXXX") || die "cannot create a temporary directory"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

schedules=0 hangs=0 diffs=0 offs=0 broken=0 start=$(date +%s)

# command SEED N OPTS: the command line of one run (OPTS empty: plain).
command_of() {
    if [ -z "$3" ]; then
        echo "$env$mpirun -np $np $fuzz -s $1 -n $2 $fuzzargs"
    else
        echo "${env}MPIPROF_PRELOAD=$MPIPROF_PRELOAD $mpirun -np $np $launcher -q $3 -o /tmp/fuzz-report $fuzz -s $1 -n $2 $fuzzargs"
    fi
}

# (The functions share the script's variables: no two use one name.)
# runone SEED N OPTS: run it (report in $tmp/rep); prints what went wrong:
# hang, fail (status, BAD lines), diff (against $tmp/ref.SEED.N), off; nothing if right.
runone() {
    out=$tmp/out
    rm -rf "$tmp/rep"
    if [ -z "$3" ]; then
        # shellcheck disable=SC2086 # mpirun and fuzzargs are words
        timeout -k 5 "$limit" $mpirun -np "$np" "$fuzz" -v -s "$1" -n "$2" $fuzzargs < /dev/null > "$out" 2> "$out.err"
    else
        # shellcheck disable=SC2086 # and so are the option set's
        timeout -k 5 "$limit" $mpirun -np "$np" "$launcher" -q $3 -o "$tmp/rep" "$fuzz" -v -s "$1" -n "$2" $fuzzargs \
            < /dev/null > "$out" 2> "$out.err"
    fi
    s=$?
    case $s in
        0) ;;
        124 | 137) echo hang; return ;;
        *) echo "fail $s"; return ;;
    esac
    grep -v '^truth ' "$out" | sort > "$out.sorted"
    if [ -z "$3" ]; then
        cp "$out.sorted" "$tmp/ref.$1.$2"
        return
    fi
    cmp -s "$tmp/ref.$1.$2" "$out.sorted" || { echo diff; return; }
    case $3 in *--slt*)
        awk -v pct=20 -v floor=0.005 -f "$figures" "$out" "$tmp/rep/branches.txt" "$tmp/rep/slt.txt" > "$tmp/fig" ||
            { echo off; return; } ;;
    esac
    [ -z "$checker" ] || "$checker" check "$tmp/rep" > "$tmp/inv" 2>&1 || echo broken
}

# stuck: where the last run was when it hung (fuzz -v's stderr).
stuck() {
    awk -f "$stuck" "$tmp/out.err"
}

seeds() {    # seeds FIRST N: how a range is said
    if [ "$2" -eq 1 ]; then echo "seed $1"; else echo "seeds $1..$(($1 + $2 - 1))"; fi
}

# report WHAT SEED N OPTS: one failure, with its command and evidence.
report() {
    cmd=$(command_of "$2" "$3" "$4")
    range=$(seeds "$2" "$3")
    case $1 in
        hang) hangs=$((hangs + 1)); echo "HANG $range under ${4:-no profiler} (no end in $limit s$(stuck)): $cmd" ;;
        diff) diffs=$((diffs + 1)); echo "DIFF $range under $4: output differs from the plain run: $cmd"
            diff "$tmp/ref.$2.$3" "$tmp/out.sorted" | head -6 | sed 's/^/    /' ;;
        off) offs=$((offs + 1)); echo "OFF $range under $4: send_late_s off the truth: $cmd"
            grep 'OFF$' "$tmp/fig" | sort | sed 's/^/    /' ;;
        broken) broken=$((broken + 1)); echo "BROKEN $range under $4: the report's figures do not add up: $cmd"
            head -6 "$tmp/inv" | sed 's/^/    /' ;;
        *) diffs=$((diffs + 1)); echo "FAIL $range under ${4:-no profiler}: exit status ${1#fail }: $cmd"
            { grep BAD "$tmp/out"; tail -3 "$tmp/out.err"; } | head -6 | sed 's/^/    /' ;;
    esac
}

# batch SEED N: plain, then every option set; a failure of N > 1 seeds is
# narrowed to the seeds that fail alone (if none does, the batch is reported).
run_batch() {
    bseed=$1 bn=$2
    what=$(runone "$bseed" "$bn" "")
    if [ -n "$what" ]; then
        report "$what" "$bseed" "$bn" ""
        return
    fi
    IFS='|'
    set -f
    for opts in $sets; do
        IFS=' '
        what=$(runone "$bseed" "$bn" "$opts")
        if [ -n "$what" ] && [ "$bn" -gt 1 ]; then
            narrowed=0
            k=$bseed
            while [ "$k" -lt $((bseed + bn)) ]; do
                w=$(runone "$k" 1 "")
                if [ -n "$w" ]; then
                    report "$w" "$k" 1 ""
                else
                    w=$(runone "$k" 1 "$opts")
                    [ -z "$w" ] || { report "$w" "$k" 1 "$opts"; narrowed=1; }
                fi
                k=$((k + 1))
            done
            if [ $narrowed = 0 ]; then    # none fails alone: the batch, again
                what=$(runone "$bseed" "$bn" "$opts")
                [ -z "$what" ] || report "$what" "$bseed" "$bn" "$opts"
            fi
        elif [ -n "$what" ]; then
            report "$what" "$bseed" "$bn" "$opts"
        fi
        IFS='|'
    done
    IFS=' '
    set +f
}

fuzzargs="$*"
echo "# fuzz.sh: $flavor, $np ranks, seeds $first..$((first + count - 1)), batches of $batch, limit $limit s"
echo "# plain: $(command_of SEED N "")"
echo "# option sets: $sets"
[ -n "$checker" ] || echo "# no Python 3 with pandas: the reports' invariants are not checked"
seed=$first
while [ "$seed" -lt $((first + count)) ]; do
    n=$batch
    [ $((seed + n)) -le $((first + count)) ] || n=$((first + count - seed))
    run_batch "$seed" "$n"
    schedules=$((schedules + n))
    seed=$((seed + n))
    printf '.' >&2
done
echo >&2
echo "$schedules schedules, $hangs hangs, $diffs differences, $offs figures off, $broken broken in" \
    "$(($(date +%s) - start)) s"
[ $((hangs + diffs + offs + broken)) -eq 0 ]
