#!/bin/sh
# bench/report-time.sh: time mpiprof's report at MPI_Finalize for many ranks
# and many call sites, and its memory: mpiprof-sites (1000 distinct
# MPI_Comm_rank sites per rank) on NP ranks (default 64, oversubscribed), K
# runs per stack depth and way of writing the report: pull or collective
# (MPIPROF_REPORT_WRITE, the per-rank form), summary (MPIPROF_REPORT_FORM:
# rank 0 writes the figures over the ranks alone); -w "pull collective",
# the default, runs both. Prints, per NP, depth and
# way, the time the profiler reports for MPI_Finalize (rank 0's view),
# median, and the phases of the median run: merge (threads, call sites,
# branch ids), symbolize (naming call sites), the MPI-IO opens (0 for the
# pull), gather (the pull), write_at_all (MPI-IO) or reduce (summary),
# write; the report's bytes per rank (what rank 0 receives from each rank
# with the pull) and in all; the
# peak resident set (VmHWM at exit,
# /usr/bin/time %M, KiB) of rank 0 and the median of the other ranks,
# profiled (median run) and unprofiled (one run), and rank 0's over the
# others' ratio: rank 0 writes the report, so its peak shows what gathering
# costs it. With several NP (-n "8 16 32 64"), a least-squares line
# time = a + b * NP per depth and way, extrapolated to 1024 and 10000 ranks.
# A benchmark, not a test. Open MPI only (MPICH busy-polls when oversubscribed).
#   bench/report-time.sh [-b BUILDDIR] [-n "NP ..."] [-k RUNS] [-d "1 5"] [-w "pull collective summary"]
b=. nps=64 k=5 depths="1 5" ways="pull collective"
while getopts b:n:k:d:w:h o; do
    case $o in
        b) b=$OPTARG ;; n) nps=$OPTARG ;; k) k=$OPTARG ;; d) depths=$OPTARG ;; w) ways=$OPTARG ;;
        *) sed -n '2,21s/^# \{0,1\}//p' "$0"; [ "$o" = h ]; exit $? ;;
    esac
done
mpirun=$(sed -n 's/^MPIRUN = //p' "$b/Makefile")
case "$mpirun" in *openmpi*|*orterun*) ;; *) echo "report-time.sh: needs an Open MPI build (got '$mpirun')" >&2; exit 2 ;; esac
[ -x "$b/bench/mpiprof-sites" ] || { echo "report-time.sh: build $b first (no bench/mpiprof-sites)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "report-time.sh: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# sites NP OUT [mpirun options]: one run of mpiprof-sites; each rank's peak
# resident set goes to OUT as "rank KiB" lines.
sites() {
    np=$1 out=$2
    shift 2
    "$mpirun" -np "$np" "$@" sh -c 'exec /usr/bin/time -a -o "$0" -f "$OMPI_COMM_WORLD_RANK %M" "$@"' \
        "$out" "$b/bench/mpiprof-sites"
}
# peaks FILE: rank 0's KiB and the median of the other ranks'.
peaks() {
    sort -n -k2 "$1" | awk '$1 == 0 { r0 = $2; next } { v[++n] = $2 } END { print r0, v[int((n + 1) / 2)] }'
}

echo "# $mpirun -np NP -x LD_PRELOAD=$b/.libs/libmpiprof.so -x MPIPROF_STACK_DEPTH=D -x MPIPROF_REPORT_WRITE=W" \
     "(summary: -x MPIPROF_REPORT_FORM=summary) $b/bench/mpiprof-sites"
for np in $nps; do
    sites "$np" "$tmp/plain$np.mem" > /dev/null
    plain=$(peaks "$tmp/plain$np.mem")
    for d in $depths; do
      for w in $ways; do
        for i in $(seq "$k"); do
            rep="$tmp/r$np.$d.$i"
            # total merge symbolize open transfer write (open 0 for the pull)
            case $w in
                summary) how="-x MPIPROF_REPORT_FORM=summary" ;;
                *) how="-x MPIPROF_REPORT_FORM=ranks -x MPIPROF_REPORT_WRITE=$w" ;;
            esac
            # shellcheck disable=SC2086 # how: mpirun options
            times=$(sites "$np" "$tmp/mem$np.$d.$w.$i" -x LD_PRELOAD="$b/.libs/libmpiprof.so" -x MPIPROF_STACK_DEPTH="$d" \
                $how -x MPIPROF_OUTPUT="$rep" 2>&1 |
                sed -n 's/.*ranks\{0,1\}, \([0-9.]*\) s at MPI_Finalize: merge \([0-9.]*\), symbolize \([0-9.]*\), \(.*\), write \([0-9.]*\)).*/\1 \2 \3 \5 \4/p' |
                awk '{ o = 0; if ($5 == "MPI-IO") o = $7; print $1, $2, $3, o, $NF, $4 }')
            echo "$times $(peaks "$tmp/mem$np.$d.$w.$i") $(cat "$rep"/* | wc -c)"
            rm -rf "$rep"
        done | sort -n | awk -v d="$d" -v w="$w" -v np="$np" -v plain="$plain" '{ v[NR] = $0 } END {
            m = split(v[int((NR + 1) / 2)], t, " "); split(v[1], lo, " "); split(v[NR], hi, " "); split(plain, p, " ")
            printf "depth %s: %d ranks x 1000 sites, %s: report %.2f s (median of %d; min %.2f, max %.2f)", d, np, w, t[1], NR, lo[1], hi[1]
            printf "; median run: merge %.2f, symbolize %.2f, MPI-IO open %.2f, %s %.2f, write %.2f", t[2], t[3], t[4],
                   w == "pull" ? "gather" : w == "summary" ? "reduce" : "write_at_all", t[5], t[6]
            printf "; report %.0f KiB per rank, %.0f KiB", t[9] / np / 1024, t[9] / 1024
            printf "; peak KiB rank 0 %d, others %d (x%.2f); unprofiled %d, %d\n", t[7], t[8], t[7] / t[8], p[1], p[2] }'
      done
    done
done | tee "$tmp/lines"
[ "$(echo "$nps" | wc -w)" -gt 1 ] || exit 0
for d in $depths; do
  for w in $ways; do
    awk -v d="$d" -v w="$w" '$2 == d ":" && $8 == w ":" { x = $3; y = $10; n++; sx += x; sy += y; sxx += x * x; sxy += x * y }
        END {
            b = (n * sxy - sx * sy) / (n * sxx - sx * sx); a = (sy - b * sx) / n
            printf "depth %s, %s: report time = %.3f s + %.2f ms x ranks (least squares, %d points); ", d, w, a, b * 1000, n
            printf "extrapolated: 1024 ranks %.1f s, 10000 ranks %.0f s\n", a + b * 1024, a + b * 10000 }' "$tmp/lines"
  done
done
