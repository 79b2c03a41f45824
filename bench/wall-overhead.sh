#!/bin/sh
# bench/wall-overhead.sh: the profiler's cost on a whole application. Runs
# one MPI program unprofiled and under each set of launcher options,
# interleaved (plain, set 1, set 2, plain, ...), K times each, and prints per
# set the median wall time of the whole mpirun and its ratio to the plain
# median. A benchmark, not a test: not in make check. Reports go to a
# temporary directory, then removed, unless -o names one to keep.

usage() {
    cat <<USAGE
Usage: bench/wall-overhead.sh [-m openmpi|mpich] [-b BUILDDIR] [-np RANKS] [-k RUNS]
                              [-O "SET|SET|..."] [-a "MPIRUN ARGS"] [-t SECONDS]
                              [-w LOAD] [-o OUTDIR] -- COMMAND [ARGS]

Time an MPI application with and without mpiprof: run 'mpirun -np RANKS
COMMAND ARGS' once per option set in turn, the whole round RUNS times, and
print per set the median, lowest and highest wall time of the mpirun and
the ratio of its median to the plain median.

  -m MPI       openmpi or mpich (default: the MPI BUILDDIR was configured with)
  -b BUILDDIR  configured and built mpiprof tree (default: .)
  -np RANKS    ranks, 1..4096 (default 2); Open MPI gets --oversubscribe
               when RANKS is more than the cores (nproc)
  -k RUNS      runs per option set, 1..999 (default 5)
  -O SETS      option sets, separated by '|' (default "plain|prof|--slt"):
               'plain' runs without the profiler, 'prof' with the profiler
               and no options, anything else is launcher options
               (mpiprof --help; not -o, -q, -h, -V or --), e.g.
               "plain|--slt|--slt --collwait --model perfect"
  -a ARGS      more mpirun arguments, split at spaces (e.g. "--mca osc ^rdma")
  -t SECONDS   kill a run after SECONDS, 1..86400, and stop (default: no limit)
  -w LOAD      before each round, wait until the 1-minute load average is
               below LOAD (e.g. 1.5; checked every 10 s, at most 1 hour)
  -o OUTDIR    keep the reports, each run's output and times.txt in OUTDIR
               (created; must not exist or be empty)
  -h           show this help and exit

COMMAND runs in the current directory; every run's standard output and error
go to files (in OUTDIR with -o). The 1-minute load average at the start of
each round and at the end is printed: time on an idle machine (-w).
USAGE
}

me=wall-overhead.sh
. "$(dirname "$0")/buildtree.sh"

flavor='' builddir=. ranks=2 runs=5 sets='plain|prof|--slt' extra='' limit='' outdir='' maxload='' wflag=''
while [ $# -gt 0 ]; do
    case $1 in
        -m | -b | -np | -k | -O | -a | -t | -w | -o) [ $# -ge 2 ] || die "option $1 needs a value (try -h)" ;;
    esac
    case $1 in
        -m) flavor=$2; shift 2 ;;
        -b) builddir=$2; shift 2 ;;
        -np) ranks=$2; shift 2 ;;
        -k) runs=$2; shift 2 ;;
        -O) sets=$2; shift 2 ;;
        -a) extra=$2; shift 2 ;;
        -t) limit=$2; shift 2 ;;
        -w) maxload=$2 wflag=1; shift 2 ;;
        -o) outdir=$2; shift 2 ;;
        -h | --help) usage; exit 0 ;;
        --) shift; break ;;
        *) die "unknown argument '$1' (try -h)" ;;
    esac
done
check_m "$flavor"
is_count "$ranks" 4096 || die "-np: '$ranks' is not an integer in 1..4096"
is_count "$runs" 999 || die "-k: '$runs' is not an integer in 1..999"
[ -z "$limit" ] || is_count "$limit" 86400 || die "-t: '$limit' is not a number of seconds in 1..86400"
if [ -n "$wflag" ]; then
    case $maxload in
        [0-9] | [0-9].[0-9] | [0-9].[0-9][0-9] | [1-9][0-9] | [1-9][0-9].[0-9] | [1-9][0-9].[0-9][0-9]) m=$maxload ;;
        *) m=0 ;;
    esac
    awk -v m="$m" 'BEGIN { exit !(m + 0 > 0) }' ||
        die "-w: '$maxload' is not a load average like 1.5 (0.01..99.99)"
fi
[ $# -gt 0 ] || die "no command to time: give it after -- (try -h)"
command -v "$1" >/dev/null 2>&1 || die "command '$1' not found"
if [ -n "$limit" ]; then
    command -v timeout >/dev/null 2>&1 || die "-t needs timeout(1), not found"
fi
if [ -n "$outdir" ]; then
    if [ -e "$outdir" ]; then
        [ -d "$outdir" ] || die "-o: '$outdir' exists and is not a directory"
        [ -z "$(ls -A "$outdir")" ] || die "-o: '$outdir' is not empty"
    fi
fi

launcher=$(built "$builddir" tools/mpiprof) || exit 2
MPIPROF_PRELOAD=$(built "$builddir" .libs/libmpiprof.so) || exit 2
export MPIPROF_PRELOAD
buildtree_mpi "$builddir" "$flavor"
cores=$(nproc 2>/dev/null || echo 1)
if [ "$flavor" = openmpi ] && [ "$ranks" -gt "$cores" ]; then
    extra="--oversubscribe${extra:+ $extra}"
fi

# The option sets, one a line in $setlist, words normalised to single spaces.
# Each is checked here, by the launcher itself on a program that makes no MPI
# call, so that a bad option stops us before the first timed run.
set -f
setlist='' nsets=0
oldifs=$IFS
IFS='|'
for s in $sets; do
    IFS=$oldifs
    words=''
    for w in $s; do
        case $w in
            -o | --output | --output=* | -q | --quiet | -h | --help | -V | --version | --)
                die "-O: set '$s' has '$w': the script itself passes -q and -o" ;;
        esac
        words="${words:+$words }$w"
    done
    [ -n "$words" ] || die "-O: empty option set in '$sets'"
    case $words in
        plain | prof) ;;
        -*)
            # shellcheck disable=SC2086
            if ! msg=$("$launcher" $words -- true 2>&1); then
                msg=$(printf '%s\n' "$msg" | sed -n '1{s/^mpiprof: //; s/ (see .*//; p;}')
                die "-O: set '$words' is not valid: $msg"
            fi
            ;;
        *) die "-O: set '$words' is not plain, prof or launcher options" ;;
    esac
    setlist="$setlist$words
"
    nsets=$((nsets + 1))
    IFS='|'
done
IFS=$oldifs
set +f
[ "$nsets" -gt 0 ] || die "-O: no option set in '$sets'"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mpiprof-wall.XXXXXX") || die "cannot create a temporary directory"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
if [ -n "$outdir" ]; then
    mkdir -p "$outdir" || die "-o: cannot create '$outdir'"
    keep=$(cd "$outdir" && pwd)
else
    keep=$tmp
fi

# nth_set N: the Nth line of $setlist.
nth_set() {
    printf '%s' "$setlist" | sed -n "${1}p"
}

loadavg() {
    cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?'
}

# wait_load: with -w, sleep until the 1-minute load is below $maxload.
wait_load() {
    [ -n "$maxload" ] || return 0
    waited=0
    while ! awk -v l="$(loadavg)" -v m="$maxload" 'BEGIN { exit !(l + 0 < m + 0) }'; do
        [ "$waited" -lt 3600 ] ||
            { echo >&2; echo "wall-overhead.sh: -w: the load stayed at or above $maxload for an hour" >&2; exit 1; }
        sleep 10
        waited=$((waited + 10))
    done
}

order=$(printf '%s' "$setlist" | awk 'NR > 1 { printf ", " } { printf "%s", $0 }')
echo "# mpiprof wall time: $flavor, $ranks ranks on $cores cores, $runs runs per set, interleaved ($order, repeated), medians of whole mpirun wall times"
if [ "$flavor" = openmpi ] && [ "$(id -u)" = 0 ]; then
    echo "# environment: OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"
fi
echo "# plain:    $mpirun -np $ranks${extra:+ $extra} $*"
echo "# set S:    $mpirun -np $ranks${extra:+ $extra} $launcher -q -o $keep/report.S.K S $*"
[ -z "$maxload" ] || echo "# each round starts when the 1-minute load average is below $maxload"

k=1
loads=''
while [ "$k" -le "$runs" ]; do
    wait_load
    loads="${loads:+$loads }$(loadavg)"
    i=1
    while [ "$i" -le "$nsets" ]; do
        s=$(nth_set "$i")
        out=$keep/out.$i.$k
        case $s in
            plain) prof='' ;;
            prof) prof="$launcher -q -o $keep/report.$i.$k" ;;
            *) prof="$launcher -q -o $keep/report.$i.$k $s" ;;
        esac
        t0=$(date +%s.%N)
        # shellcheck disable=SC2086 # $extra and $prof are lists of words
        ${limit:+timeout $limit} "$mpirun" -np "$ranks" $extra $prof "$@" >"$out" 2>"$out.err"
        rc=$?
        t1=$(date +%s.%N)
        if [ $rc -ne 0 ]; then
            [ -n "$limit" ] && [ $rc -eq 124 ] && rc="killed after $limit s"
            echo >&2
            echo "wall-overhead.sh: run $k of set '$s' failed (exit $rc): $mpirun -np $ranks $extra $prof $*" >&2
            tail -n 20 "$out" "$out.err" >&2
            exit 1
        fi
        if [ "$s" != plain ] && [ ! -f "$keep/report.$i.$k/summary.txt" ]; then
            echo >&2
            echo "wall-overhead.sh: run $k of set '$s' wrote no report in $keep/report.$i.$k" >&2
            tail -n 20 "$out" "$out.err" >&2
            exit 1
        fi
        awk -v i="$i" -v k="$k" -v t0="$t0" -v t1="$t1" 'BEGIN { printf "%d %d %.6f\n", i, k, t1 - t0 }' >>"$keep/times.txt"
        printf . >&2
        i=$((i + 1))
    done
    k=$((k + 1))
done
echo >&2
echo "# load average (1 min) at the start of each round: $loads; at the end: $(loadavg)"

# Median, lowest and highest per set: sorted by set, then seconds.
sort -k1,1n -k3,3n "$keep/times.txt" | awk -v sets="$setlist" '
{
    n[$1]++
    v[$1, n[$1]] = $3
}
END {
    nsets = split(sets, name, "\n")
    for (i = 1; i <= nsets; i++) {
        if (name[i] == "")
            continue
        m = int((n[i] + 1) / 2)
        med[i] = n[i] % 2 ? v[i, m] : (v[i, m] + v[i, m + 1]) / 2
        if (name[i] == "plain" && !plain)
            plain = i
    }
    printf "# %9s %9s %9s %7s  %s\n", "median_s", "min_s", "max_s", "ratio", "set"
    for (i = 1; i <= nsets; i++) {
        if (name[i] == "")
            continue
        printf "%11.3f %9.3f %9.3f", med[i], v[i, 1], v[i, n[i]]
        if (plain && med[plain] > 0)
            printf " %7.3f", med[i] / med[plain]
        else
            printf " %7s", "-"
        printf "  %s\n", name[i]
    }
}'
[ -z "$outdir" ] || echo "# runs kept in $keep (times.txt: set run seconds)"
