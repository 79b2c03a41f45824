#!/bin/sh
# bench/overhead.sh: the profiler's added cost per wrapped call. Runs
# mpiprof-overhead (2 ranks) unprofiled and profiled at each stack depth,
# interleaved (plain, depth d1, depth d2, plain, ...), K times each, and
# prints per measured call the median unprofiled and profiled ns, their
# difference and the clock floor. A benchmark, not a test: not in make check.
# Reports of the profiled runs go to a temporary directory, then removed.

usage() {
    cat <<USAGE
Usage: bench/overhead.sh [-m openmpi|mpich] [-b BUILDDIR] [-k RUNS] [-d "1 5"] [-- ARGS]

Time mpiprof's added cost per wrapped MPI call: run BUILDDIR/bench/mpiprof-overhead
on 2 ranks RUNS times unprofiled and RUNS times profiled at each stack depth of
the -d list, interleaved, and print the medians, the added ns (profiled median
minus unprofiled median) and the clock floor (two clock reads).

  -m MPI       openmpi or mpich (default: the MPI BUILDDIR was configured with)
  -b BUILDDIR  configured and built mpiprof tree (default: .)
  -k RUNS      runs per configuration, 1..999 (default 7)
  -d DEPTHS    stack depths to profile with, 1..32 (default "1 5")
  -- ARGS      passed to mpiprof-overhead (-n CALLS, -r REPETITIONS)
  -h           show this help and exit
USAGE
}

me=overhead.sh
. "$(dirname "$0")/buildtree.sh"

flavor='' builddir=. runs=7 depths="1 5"
while [ $# -gt 0 ]; do
    case $1 in
        -m | -b | -k | -d) [ $# -ge 2 ] || die "option $1 needs a value (try -h)" ;;
    esac
    case $1 in
        -m) flavor=$2; shift 2 ;;
        -b) builddir=$2; shift 2 ;;
        -k) runs=$2; shift 2 ;;
        -d) depths=$2; shift 2 ;;
        -h | --help) usage; exit 0 ;;
        --) shift; break ;;
        *) die "unknown argument '$1' (try -h)" ;;
    esac
done
check_m "$flavor"
is_count "$runs" 999 || die "-k: '$runs' is not an integer in 1..999"
[ -n "$depths" ] || die "-d: empty list of depths"
for d in $depths; do
    is_count "$d" 32 || die "-d: '$d' is not a stack depth in 1..32"
done

prog=$(built "$builddir" bench/mpiprof-overhead) || exit 2
lib=$(built "$builddir" .libs/libmpiprof.so) || exit 2
buildtree_mpi "$builddir" "$flavor"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mpiprof-overhead.XXXXXX") || die "cannot create a temporary directory"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# profile_env DEPTH REPORTDIR: the launcher's flags that pass the profiler's
# variables to the ranks (printed words, no spaces inside).
profile_env() {
    case $flavor in
        openmpi) echo "-x LD_PRELOAD=$lib -x MPIPROF_STACK_DEPTH=$1 -x MPIPROF_OUTPUT=$2 -x MPIPROF_QUIET=1" ;;
        mpich) echo "-env LD_PRELOAD $lib -env MPIPROF_STACK_DEPTH $1 -env MPIPROF_OUTPUT $2 -env MPIPROF_QUIET 1" ;;
    esac
}

echo "# mpiprof overhead: $flavor, $runs runs per configuration, interleaved (plain, then depth $depths, repeated), medians of runs"
if [ "$flavor" = openmpi ] && [ "$(id -u)" = 0 ]; then
    echo "# environment: OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"
fi
echo "# plain:    $mpirun -np 2 $prog $*"
echo "# depth D:  $mpirun -np 2 $(profile_env D "$tmp/report.K.D") $prog $*"

k=1
while [ "$k" -le "$runs" ]; do
    for cfg in plain $depths; do
        out=$tmp/out.$cfg.$k
        if [ "$cfg" = plain ]; then
            "$mpirun" -np 2 "$prog" "$@" >"$out" 2>"$tmp/err"
        else
            # shellcheck disable=SC2046 # profile_env's words are meant to split
            "$mpirun" -np 2 $(profile_env "$cfg" "$tmp/report.$k.$cfg") "$prog" "$@" >"$out" 2>"$tmp/err"
        fi
        rc=$?
        if [ $rc -ne 0 ] || ! grep -q '^floor ' "$out"; then
            echo "overhead.sh: run $k, configuration $cfg failed (exit $rc):" >&2
            cat "$out" "$tmp/err" >&2
            exit 1
        fi
        if [ "$cfg" != plain ] && [ ! -f "$tmp/report.$k.$cfg/summary.txt" ]; then
            echo "overhead.sh: run $k at depth $cfg wrote no report: was the profiler preloaded?" >&2
            cat "$out" "$tmp/err" >&2
            exit 1
        fi
        awk -v cfg="$cfg" '!/^#/ && NF == 2 { print cfg, $1, $2; print "all", $1, $2 }' "$out" >>"$tmp/all"
        printf . >&2
    done
    k=$((k + 1))
done
echo >&2
sed -n 's/^# mpi=/# mpi: /p' "$tmp/out.plain.1"
sed -n '/^# floor:/p; /^# MPI_Send+MPI_Recv:/p' "$tmp/out.plain.1"

# Medians per (configuration, name): sorted input, one group at a time.
calls=$(awk '!/^#/ && $1 ~ /^MPI_/ { printf "%s ", $1 }' "$tmp/out.plain.1")
sort -k1,1 -k2,2 -k3,3n "$tmp/all" | awk -v depths="$depths" -v calls="$calls" '
function flush(   m) {
    if (n == 0)
        return
    m = int((n + 1) / 2)
    med[key] = n % 2 ? v[m] : (v[m] + v[m + 1]) / 2
    n = 0
}
{
    if ($1 SUBSEP $2 != key) {
        flush()
        key = $1 SUBSEP $2
    }
    v[++n] = $3
}
END {
    flush()
    nd = split(depths, d, " ")
    nnames = split(calls, names, " ")
    # The clock reads and unw_backtrace do not depend on the profiler: their
    # median over all runs.
    floor = med["all" SUBSEP "floor"]; rdtsc = med["all" SUBSEP "rdtsc"]
    cgt = med["all" SUBSEP "clock_gettime"]; unw = med["all" SUBSEP "unw_backtrace_5"]
    printf "%-18s %9s", "# call", "plain_ns"
    for (i = 1; i <= nd; i++)
        printf " %9s %9s", "depth" d[i] "_ns", "added" d[i] "_ns"
    printf " %9s\n", "floor_ns"
    for (j = 1; j <= nnames; j++) {
        c = names[j]
        printf "%-18s %9.1f", c, med["plain" SUBSEP c]
        for (i = 1; i <= nd; i++)
            printf " %9.1f %9.1f", med[d[i] SUBSEP c], med[d[i] SUBSEP c] - med["plain" SUBSEP c]
        printf " %9.1f\n", floor
    }
    printf "# clock reads: rdtsc %.1f ns, clock_gettime %.1f ns; floor = 2 x the profiler clock = %.1f ns\n", rdtsc, cgt, floor
    printf "# unw_backtrace of 5 frames: %.1f ns\n", unw
    printf "# budgets (SPEC.md): depth 1 added <= floor + 15 = %.1f ns; depth 5 added <= 2 x unw_backtrace_5 = %.1f ns\n", floor + 15, 2 * unw
}'
