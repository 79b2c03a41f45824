#!/bin/bash
# bench/compare-builds.sh: whether two builds of mpiprof write the same
# reports, times aside: each workload runs under each option set with the
# library of BEFORE and of AFTER, and tests/compare-reports.sh compares the
# two report directories. For changes that must not change behaviour (a
# refactoring, a hot-path change). Not in make check: about 1.5 minutes
# on 4 ranks over 2 cores (Open MPI).

usage() {
    cat <<USAGE
Usage: bench/compare-builds.sh [-m openmpi|mpich] [-n NP] [-w "WORKLOADS"] [-O "SET|SET..."] BEFORE AFTER

Run each workload under each option set (the flags of tools/mpiprof) with
the libmpiprof.so of the build tree BEFORE and of AFTER (the same MPI), and
compare the two reports with tests/compare-reports.sh. Prints one line per
(workload, option set), "same" or "DIFFERS" with the differing lines, and a
last line "N same, M differ"; exit 0 when all are the same, 1 when not, 2 on
bad arguments. AFTER's workload programs run in both (only the library
changes); the test programs need make check to have built them.

  -m MPI        openmpi or mpich (default: the MPI AFTER was configured with)
  -n NP         ranks, 2..8 (default 4 with Open MPI, 2 with MPICH)
  -w WORKLOADS  a list of: $all_workloads, mix (default: all but mix)
  -O SETS       option sets separated by |, "plain" for none (default:
                "$all_sets")
  -h            show this help and exit

The model workloads (model-comm, model-chain) run only under the sets
with --model. mix polls with MPI_Testsome, whose count depends on timing: its reports
are compared without the records naming MPI_Testsome
(tests/compare-reports.sh -i), but the totals of summary.txt and
model.txt include them and differ from run to run (hence not a default).
rmaio runs on 2 ranks and colls on 4, whatever -n says.
USAGE
}

me=compare-builds.sh
tree_hint=''
. "$(dirname "$0")/buildtree.sh"

all_workloads="late-sender late-receiver late-senders imbalance model-comm model-chain rma io jacobi regions colls rmaio"
all_sets="plain|--slt|--collwait|--model perfect|--model lat=5,bw=1000|--slt --collwait --model perfect --depth 3"
flavor='' np='' workloads=$all_workloads sets=$all_sets
while [ $# -gt 0 ]; do
    case $1 in
        -m | -n | -w | -O) [ $# -ge 2 ] || die "option $1 needs a value (try -h)" ;;
    esac
    case $1 in
        -m) flavor=$2; shift 2 ;;
        -n) np=$2; shift 2 ;;
        -w) workloads=$2; shift 2 ;;
        -O) sets=$2; shift 2 ;;
        -h | --help) usage; exit 0 ;;
        -*) die "unknown argument '$1' (try -h)" ;;
        *) break ;;
    esac
done
[ $# -eq 2 ] || die "name the two build trees, BEFORE and AFTER (try -h)"
before=$1 after=$2
for w in $workloads; do
    case " $all_workloads mix " in *" $w "*) ;; *) die "-w: unknown workload '$w' (one of: $all_workloads mix)" ;; esac
done
[ -n "$workloads" ] || die "-w: empty list of workloads"
check_m "$flavor"
buildtree_mpi "$after" "$flavor"
[ -n "$np" ] || { [ "$flavor" = openmpi ] && np=4 || np=2; }
{ is_count "$np" 8 && [ "$np" -ge 2 ]; } || die "-n: '$np' is not a number of ranks in 2..8"

lib_before=$(built "$before" .libs/libmpiprof.so) || exit 2
lib_after=$(built "$after" .libs/libmpiprof.so) || exit 2
launcher=$(built "$after" tools/mpiprof) || exit 2
compare=$(cd "$(dirname "$0")/.." && pwd)/tests/compare-reports.sh
[ -f "$compare" ] || die "no $compare"

# command WORKLOAD: the program and its arguments (AFTER's build).
command_of() {
    case $1 in
        late-sender | late-receiver | late-senders | imbalance | model-comm | model-chain)
            echo "$(built "$after" bench/mpiprof-known) $1 -k 5 -d 5" ;;
        rma) echo "$(built "$after" bench/mpiprof-known) rma -k 3" ;;
        io) echo "$(built "$after" bench/mpiprof-known) io -k 2 -d ." ;;
        jacobi) echo "$(built "$after" bench/mpiprof-jacobi)" ;;
        mix | regions | colls) echo "$(built "$after" "tests/integration/$1" "make check TESTS=")" ;;
        rmaio) echo "$(built "$after" tests/integration/rmaio "make check TESTS=") rmaio.dat" ;;
    esac
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/compare-builds.XXXXXX") || die "cannot create a temporary directory"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# profile LIB SET DIR WORKLOAD: the report of WORKLOAD under SET in DIR.
profile() {
    local set=$2 cmd
    [ "$set" = plain ] && set=''
    cmd=$(command_of "$4") || exit 2
    mkdir -p "$3.run"
    # shellcheck disable=SC2086 # the set's flags and the command's words are meant to split
    local n=$np
    case $4 in rmaio) n=2 ;; colls) n=4 ;; esac
    (cd "$3.run" && MPIPROF_PRELOAD=$1 "$mpirun" -np "$n" $oversub "$launcher" -q $set -o "$3" $cmd) \
        >"$3.out" 2>&1
}

oversub=''
[ "$flavor" = openmpi ] && oversub=--oversubscribe
echo "# compare-builds: $flavor, $np ranks; before $lib_before, after $lib_after"
same=0 differ=0 k=0
IFS='|' read -r -a set_list <<<"$sets"
for w in $workloads; do
    for set in "${set_list[@]}"; do
        k=$((k + 1))
        b=$tmp/b$k a=$tmp/a$k
        case $w,$set in
            model-*,*--model*) ;;
            model-*) continue ;;   # the model workloads need a model
        esac
        if ! profile "$lib_before" "$set" "$b" "$w" || ! profile "$lib_after" "$set" "$a" "$w"; then
            echo "$me: $w with '$set' failed:" >&2
            cat "$b.out" "$a.out" >&2 2>/dev/null
            exit 1
        fi
        ignore=''
        [ "$w" = mix ] && ignore='-i MPI_Testsome'
        # shellcheck disable=SC2086 # ignore's two words are meant to split
        if "$compare" $ignore "$b" "$a" >"$tmp/diff" 2>&1; then
            printf '%-14s %-52s same\n' "$w" "$set"
            same=$((same + 1))
        else
            printf '%-14s %-52s DIFFERS\n' "$w" "$set"
            sed -n '1,12s/^/    /p' "$tmp/diff"
            differ=$((differ + 1))
        fi
    done
done
echo "$same same, $differ differ"
[ "$differ" -eq 0 ]
