#!/bin/sh
# bench/costs.sh: every option's cost, side by side, measured the same way
# each time (issue 52's table): the empty job, the 1-byte ping-pong and NPB
# programs per option set, RUNS interleaved rounds, medians; then the hot
# path (bench/overhead.sh). On one node, or with -N on 2 simulated nodes,
# one rank each (tests/integration/nodes.sh). A benchmark, not a test: not
# in make check.

usage() {
    cat <<USAGE
Usage: bench/costs.sh [-b BUILDDIR] [-k RUNS] [-O "SET|SET|..."] [-n NPBDIR] [-N] [-w LOAD]

Measure what each option set costs, 2 ranks, RUNS rounds of every set in
turn, and print one line per measure and set: the median, lowest and
highest figure, the median's difference from plain's and their ratio.

  empty_job_s   wall time of mpirun running a job that only calls MPI_Init
                and MPI_Finalize (mpiprof-known imbalance -k 1 -d 0)
  pingpong_us   mpiprof-mpi1 PingPong's 1-byte time (half a round trip)
  PROG_s        with -n: NPB's own time ("Time in seconds") of each NPB
                program PROG in NPBDIR (its *.x files: cg.A.x, lu.W.x, ...);
                a run whose verification fails stops the measure

Then, on one node, bench/overhead.sh -k RUNS: the added ns per call at
depths 1 and 5 against their budgets.

  -b BUILDDIR  configured and built mpiprof tree (default: .)
  -k RUNS      rounds, 1..99 (default 5)
  -O SETS      option sets, separated by '|' (default: "plain|prof|--slt|
               --collwait|--waits|--model perfect|--slt --waits --collwait
               --model perfect"): 'plain' runs without the profiler, 'prof'
               with it and no options, anything else is launcher options and
               MPIPROF_ variables set for the job ("MPIPROF_TEST_TOKEN=batch
               --slt")
  -n NPBDIR    NPB programs to time (built from NPB3.4-MPI: make cg CLASS=A)
  -N           on 2 simulated nodes, a rank each (as root, Open MPI; what
               tests/integration/nodes.sh makes: TCP between the nodes)
  -w LOAD      before each round, wait until the 1-minute load average is
               below LOAD (checked every 10 s, at most 1 hour)
  -h           show this help and exit

A set's label in the output is its words without their leading dashes,
joined by '+' (--model perfect: model+perfect). Time on an idle machine:
the load average at each round's start is printed.
USAGE
}

me=costs.sh
here=$(cd "$(dirname "$0")" && pwd)
. "$here/buildtree.sh"

builddir=. runs=5 npb='' nodes='' maxload=''
sets='plain|prof|--slt|--collwait|--waits|--model perfect|--slt --waits --collwait --model perfect'
while [ $# -gt 0 ]; do
    case $1 in
        -b | -k | -O | -n | -w) [ $# -ge 2 ] || die "option $1 needs a value (try -h)" ;;
    esac
    case $1 in
        -b) builddir=$2; shift 2 ;;
        -k) runs=$2; shift 2 ;;
        -O) sets=$2; shift 2 ;;
        -n) npb=$2; shift 2 ;;
        -N) nodes=1; shift ;;
        -w) maxload=$2; shift 2 ;;
        -h | --help) usage; exit 0 ;;
        *) die "unknown argument '$1' (try -h)" ;;
    esac
done
is_count "$runs" 99 || die "-k: '$runs' is not an integer in 1..99"
case $maxload in '' | [0-9] | [0-9].[0-9] | [0-9].[0-9][0-9] | [0-9][0-9]) ;;
    *) die "-w: '$maxload' is not a load average such as 1.5" ;;
esac
case "|$sets|" in *"|plain|"*) ;; *) die "-O: the sets must include plain (the figures are against it)" ;; esac
progs=
if [ -n "$npb" ]; then
    [ -d "$npb" ] || die "-n: '$npb' is not a directory"
    progs=$(for f in "$npb"/*.x; do [ -x "$f" ] && basename "$f"; done | tr '\n' ' ')
    [ -n "$progs" ] || die "-n: no NPB program (*.x) in '$npb'"
    npb=$(cd "$npb" && pwd)
fi
launcher=$(built "$builddir" tools/mpiprof) || exit 2
known=$(built "$builddir" bench/mpiprof-known) || exit 2
mpi1=$(built "$builddir" bench/mpiprof-mpi1) || exit 2
buildtree_mpi "$builddir" ""

work=$(mktemp -d "${TMPDIR:-/tmp}/mpiprof-costs.XXXXXX") || die "cannot create a temporary directory"
trap 'rm -rf "$work"' EXIT
if [ -n "$nodes" ]; then
    [ "$flavor" = openmpi ] || die "-N: $builddir is built with $flavor: the nodes' runs here need Open MPI"
    MPIPROF_PRELOAD=$(built "$builddir" .libs/libmpiprof.so) || exit 2
    MPIRUN=$(command -v "$mpirun") MPI_FLAVOR=$flavor top_srcdir=$(dirname "$here")
    export MPIPROF_PRELOAD MPIRUN MPI_FLAVOR top_srcdir
    . "$top_srcdir/tests/integration/nodes.sh"
    nodes_up 2 || die "-N: cannot make the simulated nodes: ${NODES_WHY:-see above}"
    trap 'nodes_down; rm -rf "$work"' EXIT
fi

# label SET: the set's words without their leading dashes, joined by '+'.
label() {
    echo "$1" | awk '{ for (i = 1; i <= NF; i++) { sub(/^-+/, "", $i); printf "%s%s", (i > 1 ? "+" : ""), $i } }'
}

# job SET COMMAND...: COMMAND on 2 ranks (on the nodes with -N) under SET,
# its output in $work/out; the status is the job's.
job() {
    local set=$1
    shift
    case $set in
        plain) ;;
        prof) set -- "$launcher" -q -o "$work/rep" "$@" ;;
        *) local w vars="" opts=""
           for w in $set; do
               case $w in
                   MPIPROF_*=*) vars="$vars $w" ;;
                   *) opts="$opts $w" ;;
               esac
           done
           # shellcheck disable=SC2086 # the set's words are variables and options
           set -- env $vars "$launcher" -q $opts -o "$work/rep" "$@" ;;
    esac
    rm -rf "$work/rep"
    if [ -n "$nodes" ]; then
        nodes_mpirun 1 2 "$@" > "$work/out" 2>&1
    else
        "$mpirun" -np 2 "$@" > "$work/out" 2>&1
    fi
}

# figure MEASURE SET: MEASURE's figure of the job just run ($work/out,
# $work/secs), or nothing.
figure() {
    case $1 in
        empty_job_s) cat "$work/secs" ;;
        pingpong_us) awk '$1 == 1 && $2 ~ /^[0-9]+$/ { print $3; exit }' "$work/out" ;;
        *) grep -q 'Verification *= *SUCCESSFUL' "$work/out" &&
            awk '/Time in seconds/ { print $NF; exit }' "$work/out" ;;
    esac
}

# measure MEASURE COMMAND...: one run of COMMAND per set, its figure
# appended to $work/MEASURE.LABEL.
measure() {
    local m=$1 set t0 f
    shift
    IFS='|'
    for set in $sets; do
        IFS=' '
        t0=$(date +%s.%N)
        job "$set" "$@" || die "$m under '$set' failed: $(tail -3 "$work/out")"
        awk -v t0="$t0" -v t1="$(date +%s.%N)" 'BEGIN { printf "%.6f\n", t1 - t0 }' > "$work/secs"
        f=$(figure "$m" "$set")
        [ -n "$f" ] || die "$m under '$set': no figure in its output: $(tail -3 "$work/out")"
        echo "$f" >> "$work/$m.$(label "$set")"
        IFS='|'
    done
    IFS=' '
}

measures="empty_job_s pingpong_us"
for p in $progs; do
    measures="$measures ${p%.x}_s"
done
echo "# mpiprof costs: $flavor, 2 ranks$([ -n "$nodes" ] && echo " on 2 simulated nodes, a rank each (TCP between them)" ||
    echo " on one node"), $runs rounds of every set in turn, medians"
round=1
while [ "$round" -le "$runs" ]; do
    if [ -n "$maxload" ]; then
        waited=0
        while awk -v max="$maxload" '{ exit !($1 >= max) }' /proc/loadavg && [ "$waited" -lt 3600 ]; do
            sleep 10
            waited=$((waited + 10))
        done
    fi
    echo "# round $round: load average $(cut -d' ' -f1 /proc/loadavg)"
    measure empty_job_s "$known" imbalance -k 1 -d 0
    measure pingpong_us "$mpi1" PingPong -msglog 0:0
    for p in $progs; do
        measure "${p%.x}_s" "$npb/$p"
    done
    round=$((round + 1))
done

printf '%-14s %-32s %10s %10s %10s %10s %7s\n' "# measure" set median low high added ratio
for m in $measures; do
    base=$(median < "$work/$m.plain")
    IFS='|'
    for set in $sets; do
        IFS=' '
        l=$(label "$set")
        sort -g "$work/$m.$l" | awk -v m="$m" -v l="$l" -v b="$base" -v med="$(median < "$work/$m.$l")" '
            { v[NR] = $1 }
            END { printf "%-14s %-32s %10.6g %10.6g %10.6g %10.4g %7.3f\n", m, l, med, v[1], v[NR], med - b,
                  (b > 0 ? med / b : 0) }'
        IFS='|'
    done
    IFS=' '
done
if [ -z "$nodes" ]; then
    echo "# the hot path: bench/overhead.sh -b $builddir -k $runs"
    sh "$here/overhead.sh" -b "$builddir" -k "$runs" 2>/dev/null || die "bench/overhead.sh failed"
fi
