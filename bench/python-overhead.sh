#!/bin/sh
# bench/python-overhead.sh: what naming call sites in Python code costs per
# mpi4py call (issue 35). Runs bench/pyoverhead.py on 2 ranks unprofiled,
# profiled with --via none (each call named by its C site in mpi4py's
# module, depth 1) and profiled with Python call sites at each depth of
# the -d list, interleaved, K times each; prints per call the median
# unprofiled ns (the mpi4py call's own price) and, per configuration, the
# median ns and the ns added to the unprofiled median. A benchmark, not a
# test: not in make check. Needs a python3 with an mpi4py built for the
# build's MPI (bench/mpi4py.sh).
#   bench/python-overhead.sh [-b BUILDDIR] [-k RUNS] [-d "1 5"] [-- N [R]]
me=python-overhead.sh
. "$(dirname "$0")/buildtree.sh"
. "$(dirname "$0")/mpi4py.sh"

builddir=. runs=5 depths="1 5"
while [ $# -gt 0 ]; do
    case $1 in
        -b | -k | -d) [ $# -ge 2 ] || die "option $1 needs a value (try -h)" ;;
    esac
    case $1 in
        -b) builddir=$2; shift 2 ;;
        -k) runs=$2; shift 2 ;;
        -d) depths=$2; shift 2 ;;
        -h | --help) sed -n '2,11s/^# \{0,1\}//p' "$0"; exit 0 ;;
        --) shift; break ;;
        *) die "unknown argument '$1' (try -h)" ;;
    esac
done
is_count "$runs" 999 || die "-k: '$runs' is not an integer in 1..999"
[ $# -le 2 ] || die "after --: N and R only"
for a in "$@"; do
    is_count "$a" 100000000 || die "'$a' is not a count in 1..100000000"
done
args="$*"
[ -n "$depths" ] || die "-d: empty list of depths"
for d in $depths; do
    is_count "$d" 32 || die "-d: '$d' is not a stack depth in 1..32"
done
launcher=$(built "$builddir" tools/mpiprof) || exit 2
buildtree_mpi "$builddir" ""
py=$(mpi4py_python "$flavor") || die "no python3 with an mpi4py built for $flavor (apt-get install python3-mpi4py)"
prog="$(cd "$(dirname "$0")" && pwd)/pyoverhead.py"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mpiprof-pyoverhead.XXXXXX") || die "cannot create a temporary directory"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

configs="plain c1"
for d in $depths; do configs="$configs py$d"; done
echo "# mpiprof per-call cost from Python: $flavor, $py, $runs runs per configuration, interleaved, medians of runs"
echo "# plain: $mpirun -np 2 $py $prog $args"
echo "# c1:    $mpirun -np 2 $launcher -q --via none -o DIR $py $prog $args  (C sites, depth 1)"
echo "# pyD:   $mpirun -np 2 $launcher -q --depth D -o DIR $py $prog $args  (Python sites)"
k=1
while [ "$k" -le "$runs" ]; do
    for cfg in $configs; do
        case $cfg in
            plain) how= ;;
            c1) how="$launcher -q --via none -o $tmp/r.$k.$cfg" ;;
            *) how="$launcher -q --depth ${cfg#py} -o $tmp/r.$k.$cfg" ;;
        esac
        # shellcheck disable=SC2086 # how and args are words without spaces
        "$mpirun" -np 2 $how "$py" "$prog" $args > "$tmp/out" 2> "$tmp/err" ||
            { cat "$tmp/out" "$tmp/err" >&2; die "run $k ($cfg) failed"; }
        case $cfg in plain) ;; *) [ -f "$tmp/r.$k.$cfg/summary.txt" ] || die "run $k ($cfg) wrote no report" ;; esac
        awk -v cfg="$cfg" 'NF == 2 { print cfg, $1, $2 }' "$tmp/out" >> "$tmp/all"
        printf . >&2
    done
    k=$((k + 1))
done
echo >&2
sort -k1,1 -k2,2 -k3,3n "$tmp/all" | awk -v configs="$configs" '
function flush(   m) { if (n) { m = int((n + 1) / 2); med[key] = n % 2 ? v[m] : (v[m] + v[m + 1]) / 2 }; n = 0 }
{
    if ($1 SUBSEP $2 != key) { flush(); key = $1 SUBSEP $2 }
    v[++n] = $3
    if (!($2 in seen)) { seen[$2]; names[++nn] = $2 }
}
END {
    flush()
    nc = split(configs, c, " ")
    printf "%-16s %9s", "# call", "plain_ns"
    for (i = 2; i <= nc; i++) printf " %9s %9s", c[i] "_ns", "added_" c[i]
    printf "\n"
    for (j = 1; j <= nn; j++) {
        printf "%-16s %9.1f", names[j], med["plain" SUBSEP names[j]]
        for (i = 2; i <= nc; i++)
            printf " %9.1f %9.1f", med[c[i] SUBSEP names[j]], med[c[i] SUBSEP names[j]] - med["plain" SUBSEP names[j]]
        printf "\n"
    }
}'
