#!/bin/sh
# imb-compare.sh: mpiprof-ext and mpiprof-io against upstream Intel MPI
# Benchmarks' IMB-EXT and IMB-IO at equal repetitions. Each run starts the
# mpiprof driver, then the upstream program, on the same benchmarks and
# lengths (A, B, A, B, ...: the machine's load falls on both); per
# benchmark, mode and length prints the median time of each over the runs
# and their ratio (mpiprof / upstream), then per benchmark and mode the
# median of the ratios over the lengths above 0 bytes (at 0 bytes the times
# are the clock's resolution). A benchmark, not a test: the CI does not
# time anything.
usage() {
    cat <<EOF
Usage: bench/imb-compare.sh [-b BUILDDIR] [-r RUNS] [-n NP] [-m [MIN:]MAX] [-i N] [-d DIR] IMBDIR [BENCHMARK...]

  IMBDIR      the directory of the upstream IMB-EXT and IMB-IO, built with the
              MPI of BUILDDIR (make CC=mpicc CXX=mpicxx IMB-EXT IMB-IO)
  BENCHMARK   IMB-EXT or IMB-IO names (default: Unidir_Put Bidir_Get
              Accumulate S_Write_indv P_Read_expl C_Write_shared)
  -b BUILDDIR a configured and built mpiprof tree (default .), whose Makefile
              names the MPIRUN to use
  -r RUNS     runs of each program (default 5)
  -n NP       processes (default 2)
  -m LOGS     -msglog of both: lengths 0 and 2^MIN..2^MAX (default 0:16)
  -i N        MSGSPERSAMPLE of both (mpiprof: -iter N; upstream: -iter
              N,VOL,NONAGGR with the guide's OVERALL_VOL and MSGS_NONAGGR of
              the suite, 40 MiB and 100 for EXT, 16 MiB and 10 for IO, so
              that both run the same repetitions; default: the guide's
              MSGSPERSAMPLE, 1000 for EXT, 50 for IO)
  -d DIR      where the IO files go (default: a new directory under TMPDIR);
              on a disk the syncs' flush latency swamps the write times, a
              tmpfs (/dev/shm) compares what the programs do

Exit 0 when every median ratio is within 0.9-1.1, 1 otherwise, 2 on usage
errors or a failed run. Rows whose repetitions differ are marked and left
out of the medians.
EOF
}

me="imb-compare.sh"
die() { echo "$me: $*" >&2; exit 2; }
build=. runs=5 np=2 msglog=0:16 iter="" dir=""
while getopts b:r:n:m:i:d:h o; do
    case $o in
    b) build=$OPTARG ;;
    r) runs=$OPTARG ;;
    n) np=$OPTARG ;;
    m) msglog=$OPTARG ;;
    i) iter=$OPTARG ;;
    d) dir=$OPTARG ;;
    h) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { usage >&2; exit 2; }
imb=$1
shift
[ -x "$imb/IMB-EXT" ] && [ -x "$imb/IMB-IO" ] ||
    die "no upstream IMB-EXT and IMB-IO in '$imb' (build them: make CC=mpicc CXX=mpicxx IMB-EXT IMB-IO)"
for v in "$runs" "$np" "${iter:-1}"; do
    case $v in '' | *[!0-9]* | 0) die "'$v' is not a positive integer" ;; esac
done
case $msglog in *[!0-9:]* | '' | *:*:*) die "-m '$msglog' is not [MIN:]MAX" ;; esac
build=$(cd "$build" 2> /dev/null && pwd) || die "no build tree '$build'"
imb=$(cd "$imb" && pwd)
ext=$build/bench/mpiprof-ext
io=$build/bench/mpiprof-io
[ -x "$ext" ] && [ -x "$io" ] || die "build $ext and $io first (make in $build)"
. "$(dirname "$0")/compare-lib.sh"
mpirun=$(build_mpirun "$build") || exit 2
[ $# -gt 0 ] || set -- Unidir_Put Bidir_Get Accumulate S_Write_indv P_Read_expl C_Write_shared

tmp=$(mktemp -d "${TMPDIR:-/tmp}/imb-compare.XXXXXX") || die "cannot create a temporary directory"
trap 'rm -rf "$tmp"' EXIT
[ -n "$dir" ] || dir=$tmp/files
mkdir -p "$dir" || die "cannot create '$dir'"
dir=$(cd "$dir" && pwd)

# The benchmarks of each suite, by the names IMB-EXT knows.
exts="" ios=""
for b in "$@"; do
    case $(echo "$b" | tr '[:upper:]' '[:lower:]') in
    unidir_put | unidir_get | bidir_put | bidir_get | accumulate | window) exts="$exts $b" ;;
    s_* | p_* | c_* | open_close) ios="$ios $b" ;;
    *) die "'$b' is neither an IMB-EXT nor an IMB-IO benchmark" ;;
    esac
done

# tables RUN: the rows of a program's output on stdin, "run benchmark@Q
# mode bytes repetitions time" (Q processes; t[usec], or t_avg[usec] when
# there are several; upstream's reads say AGGREGATE, the guide no mode).
tables() {
    awk -v run="$1" '
        /^# Benchmarking / { name = tolower($3); mode = "-"; col = 0; next }
        /^# #processes = / { b = name "@" $4; next }
        /^# *MODE:/ { if (name !~ /read/) mode = $3; next }
        $1 == "#bytes" { col = 0; for (i = 1; i <= NF; i++) if ($i == "t[usec]" || $i == "t_avg[usec]") col = i; next }
        b != "" && col && $1 ~ /^[0-9]+$/ && NF >= col { print run, b, mode, $1, $2, $col }'
}

# suite NAME PROG UPSTREAM ITER VOL NONAGGR EXTRA BENCHMARKS...: RUNS
# interleaved runs of both, their rows in $tmp/NAME.a and $tmp/NAME.b.
suite() {
    name=$1 prog=$2 up=$3 n=$4 vol=$5 nonaggr=$6 extra=$7
    shift 7
    [ "$nonaggr" -gt "$n" ] && nonaggr=$n
    echo "# $name: $mpirun -np $np $prog $* -msglog $msglog -npmin $np -iter $n$extra"
    echo "#   against: $up $* -msglog $msglog -npmin $np -iter $n,$vol,$nonaggr"
    i=1
    while [ "$i" -le "$runs" ]; do
        # shellcheck disable=SC2086
        (cd "$dir" && "$mpirun" -np "$np" "$prog" "$@" -msglog "$msglog" -npmin "$np" -iter "$n" $extra) > "$tmp/out" 2> "$tmp/err" ||
            { cat "$tmp/err" >&2; die "$prog failed (run $i)"; }
        tables "$i" < "$tmp/out" >> "$tmp/$name.a"
        (cd "$dir" && "$mpirun" -np "$np" "$up" "$@" -msglog "$msglog" -npmin "$np" -iter "$n,$vol,$nonaggr") > "$tmp/out" 2> "$tmp/err" ||
            { cat "$tmp/err" >&2; die "$up failed (run $i)"; }
        tables "$i" < "$tmp/out" >> "$tmp/$name.b"
        i=$((i + 1))
    done
}

: > "$tmp/none"
# shellcheck disable=SC2086
[ -z "$exts" ] || suite ext "$ext" "$imb/IMB-EXT" "${iter:-1000}" 40 100 "" $exts
# shellcheck disable=SC2086
[ -z "$ios" ] || suite io "$io" "$imb/IMB-IO" "${iter:-50}" 16 10 " -dir $dir" $ios

# Per benchmark, mode and length: the medians of both, their ratio; per
# benchmark and mode the median ratio.
cat "$tmp"/*.a > "$tmp/a" 2> /dev/null
cat "$tmp"/*.b > "$tmp/b" 2> /dev/null
[ -s "$tmp/a" ] && [ -s "$tmp/b" ] || die "no tables in the outputs"
echo "# benchmark mode bytes reps(mpiprof) reps(imb) mpiprof_us imb_us ratio"
awk '{ print $2, $3 }' "$tmp/a" | awk '!seen[$0]++' > "$tmp/keys"
bad=0
while read -r b mode; do
    : > "$tmp/ratios"
    for x in $(awk -v b="$b" -v m="$mode" '$2 == b && $3 == m { print $4 }' "$tmp/a" | sort -n | uniq); do
        ra=$(awk -v b="$b" -v m="$mode" -v x="$x" '$2 == b && $3 == m && $4 == x { print $5; exit }' "$tmp/a")
        rb=$(awk -v b="$b" -v m="$mode" -v x="$x" '$2 == b && $3 == m && $4 == x { print $5; exit }' "$tmp/b")
        [ -n "$rb" ] || continue
        ta=$(awk -v b="$b" -v m="$mode" -v x="$x" '$2 == b && $3 == m && $4 == x { print $6 }' "$tmp/a" | median)
        tb=$(awk -v b="$b" -v m="$mode" -v x="$x" '$2 == b && $3 == m && $4 == x { print $6 }' "$tmp/b" | median)
        awk -v b="$b" -v m="$mode" -v x="$x" -v ra="$ra" -v rb="$rb" -v ta="$ta" -v tb="$tb" 'BEGIN {
            r = tb > 0 ? sprintf("%.3f", ta / tb) : "-"
            printf "%s %s %s %s %s %.2f %.2f %s%s\n", b, m, x, ra, rb, ta, tb, r, ra == rb ? "" : " (repetitions differ)"
        }'
        [ "$ra" = "$rb" ] && [ "$x" -gt 0 ] && awk -v ta="$ta" -v tb="$tb" 'BEGIN { if (tb > 0) print ta / tb }' >> "$tmp/ratios"
    done
    m=$(median < "$tmp/ratios")
    if [ -z "$m" ]; then
        echo "# $b $mode: no length above 0 bytes with equal repetitions in both"
        bad=1
        continue
    fi
    awk -v b="$b" -v mode="$mode" -v m="$m" -v n="$(wc -l < "$tmp/ratios")" 'BEGIN {
        printf "# median ratio %s %s: %.3f over %d lengths (%s 0.9-1.1)\n", b, mode, m, n,
            (m >= 0.9 && m <= 1.1) ? "within" : "NOT within"
    }'
    awk -v m="$m" 'BEGIN { exit !(m >= 0.9 && m <= 1.1) }' || bad=1
done < "$tmp/keys"
exit "$bad"
