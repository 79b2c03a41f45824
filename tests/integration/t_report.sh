#!/bin/sh
# t_report.sh: mpiprof-report show, compare and plot (issue 20).
# Two reports of the known mix reportmix (2 ranks): A as it is, B with rank
# 0 sleeping DELAY ms before each of its 10 MPI_Barrier calls, so rank 1
# waits about 10 x DELAY ms more there, at that one call site; C as A with
# the analyses on. Checks:
#   show: B's first function is MPI_Barrier, with the time and calls of
#         functions.txt summed over the ranks; a column added to a file
#         changes nothing (columns are read by name), nor functions.txt
#         and branches.txt without their region column; the regions of
#         regions.c (t_regions.sh) with their exact ranks, entries and
#         calls, summed over the ranks and of one rank, in the file's order;
#   compare A B: MPI_Barrier's site and function took at least 90 % of the
#         injected time in B and grew by at least that less NOISE s; no
#         other site moved by more than NOISE s (A and B are run again, 5
#         times at most, while another program's load breaks this);
#   compare A A: every ratio 1, every difference 0, no depth note;
#   compare at depths 2 and 5 (branches.c, whose MPI_Recv has two stacks at
#         depth 5 and one at 2): one note line naming both depths, every
#         site in both reports, MPI_Recv's calls exact, B's two summed;
#   plot -o onto a file, /dev/null, a path under a file, a name too long,
#         a directory whose ranks.svg is a directory, (not as root) a
#         directory without write permission: status 2, one line naming
#         the path and the problem, the file unchanged, no SVG file written;
#   plot: valid SVG (parsed as XML), one bar per rank in ranks.svg,
#         waits.svg and model.svg, ranks x ranks cells in comm-matrix.svg;
#         a synthetic report of 1,024 ranks plots in under 10 s, each file
#         under 2 MB;
#   a report without its optional files: show, compare and plot work and
#         say in one line what they skipped; a directory that is not a
#         report, and reports of different rank counts: one line, status 2.
# Skipped (77) without mpirun, or without Python 3 with pandas and
# matplotlib (./quickstart installs them).
. "$top_srcdir/tests/integration/lib.sh"

[ -n "${PYTHON:-}" ] && [ "$PYTHON" != : ] && "$PYTHON" -c 'import pandas, matplotlib' 2> /dev/null ||
    { echo "SKIP: no Python 3 with pandas and matplotlib (python3-pandas, python3-matplotlib)"; exit 77; }
PYTHONDONTWRITEBYTECODE=1                # no __pycache__ in the source tree
export PYTHONDONTWRITEBYTECODE           # (the build tree's mpiprof-report finds the source tree's module)
report=$top_builddir/tools/mpiprof-report
prog=$top_builddir/tests/integration/reportmix
np=2
DELAY=100                                # ms, before each of 10 barriers
INJECTED=1.0                             # s: 10 x DELAY, on rank 1
NOISE=0.3                                # s: most any other site may move
# Open MPI's ranks yield while they wait: less noise on a loaded machine.
OMPI_MCA_mpi_yield_when_idle=1
export OMPI_MCA_mpi_yield_when_idle

# tsv KIND FUNCTION FILE: the records of compare --format tsv of that kind
# (and function): function site time_a_s time_b_s diff_s ratio in.
tsv() {
    awk -F '\t' -v kind="$1" -v fn="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["kind"] == kind && (fn == "" || $c["function"] == fn) {
            print $c["function"], $c["site"], $c["time_a_s"], $c["time_b_s"], $c["diff_s"], $c["ratio"], $c["in"] }' "$3"
}
# noisy_sites: the sites other than MPI_Barrier's that moved by more than
# NOISE s or are in one report only, and MPI_Barrier's site if it grew by
# less than INJECTED - NOISE s (none: A and B are a fair pair).
noisy_sites() {
    tsv site "" "$work/cmp.tsv" | awk -v noise="$NOISE" -v inj="$INJECTED" '{ d = $5 < 0 ? -$5 : $5 }
        $1 != "MPI_Barrier" && (d > noise || $7 != "both") || $1 == "MPI_Barrier" && $5 < inj - noise'
}

# A and B again (5 tries at most) while another program's load made them
# differ by more than NOISE elsewhere than the injected delay.
for try in 1 2 3 4 5; do
    rm -rf "$work/a" "$work/b"
    run_timed $np "$launcher" -q -o "$work/a" "$prog" || fail "reportmix runs (A)"
    run_timed $np "$launcher" -q -o "$work/b" "$prog" $DELAY || fail "reportmix $DELAY runs (B)"
    with_lock -s "$report" compare --format tsv "$work/a" "$work/b" > "$work/cmp.tsv" ||
        fail "compare --format tsv A B exits 0"
    [ -z "$(noisy_sites)" ] && break
    echo "try $try: sites moved by more than $NOISE s (another program's load?):"
    noisy_sites
done
# The rest is mostly Python (pandas; a 1,024-rank plot keeps a core busy for
# seconds): the run lock held shared to the end, so that none of it
# overlaps another test's timed run (lib.sh). Shared runs still proceed.
if command -v flock > /dev/null 2>&1; then
    exec 9> "$lock"
    flock -s 9
fi
run $np "$launcher" -q --slt --collwait --model perfect -o "$work/c" "$prog" || fail "reportmix runs with the analyses (C)"

# col FILE NAME: the values of the column NAME of a report file, whole run.
col() {
    awk -v name="$2" '/^#/ { if (!rows) for (i = 2; i <= NF; i++) { if ($i == name) c = i - 1; if ($i == "region") g = i - 1 }
                             next }
                      { rows = 1 } !g || $g == "whole" { print $c }' "$1"
}

# The reports and files the commands below read: the runs first, then
# every mpiprof-report command but the timed 1,024-rank plot in one
# Python (report_batch, lib.sh), then the checks of their results.
# A new column in every file of B: changes nothing, columns are found by name.
mkdir "$work/b2"
for f in "$work"/b/*; do
    awk '/^#/ { if (!rows) last = NR; lines[NR] = $0; next }
         { rows = 1; lines[NR] = $0 }
         END { for (i = 1; i <= NR; i++) { s = lines[i]
                   if (i == last && s ~ /^# rank /) { sub(/^# rank /, "# rank new_col ", s); on = 1 }
                   else if (on && s !~ /^#/) sub(/ /, " 7 ", s)
                   print s } }' "$f" > "$work/b2/${f##*/}"
done
# functions.txt and branches.txt as an earlier mpiprof wrote them, with a
# region column and each region's rows after the whole run's (here every
# row again as region "r"): the same again, the region rows left out.
mkdir "$work/b3"
cp "$work"/b/* "$work/b3/"
for f in functions.txt branches.txt; do
    awk '/^#/ && !rows { if ($2 == "rank") $0 = $0 " region"; print; next }
         { rows = 1; print $0 " whole"; again = again $0 " r\n" } END { printf "%s", again }' "$work/b/$f" > "$work/b3/$f"
done
# regions.c (t_regions.sh): per rank, whole 1 entry and 114 calls, init 1
# and 5, step 10 and 100, step/halo 10 and 60 (a region's calls include
# its nested regions'). show sums them over the ranks, or shows one rank's.
run $np "$launcher" -q -o "$work/reg" "$top_builddir/tests/integration/regions" > /dev/null || fail "regions runs"
# The barrier's site renamed in a copy of A: in one report only, on each side.
site=$(awk '!/^#/ && $3 == "MPI_Barrier" { print $15; exit }' "$work/a/branches.txt")
mkdir "$work/moved"
cp "$work"/a/* "$work/moved/"
awk -v site="$site" '!/^#/ && $15 == site { $15 = "moved@elsewhere.c:1" } { print }' "$work/a/branches.txt" > "$work/moved/branches.txt"
# branches.c at depths 2 and 5: its MPI_Recv (in a recursion from two
# lines of main) is one stack at depth 2, two at depth 5; 4 calls a rank.
bprog=$top_builddir/tests/integration/branches
run $np "$launcher" -q --depth 2 -o "$work/d2" "$bprog" > /dev/null || fail "branches runs at --depth 2"
run $np "$launcher" -q --depth 5 -o "$work/d5" "$bprog" > /dev/null || fail "branches runs at --depth 5"
# Synthetic reports (lib.sh): 12 functions and sites a rank, a ring.
synthetic "$work/four" 4
synthetic "$work/big" 1024
# A report without its optional files.
mkdir "$work/min"
cp "$work/a/summary.txt" "$work/a/functions.txt" "$work/min/"
# plot -o where the plots cannot go. A file and /dev/null are never overwritten.
printf 'keep\n' > "$work/file.svg"
long=$work/$(printf '%0300d' 0)
mkdir -p "$work/taken/ranks.svg"
if [ "$(id -u)" != 0 ]; then       # root may write anywhere
    mkdir "$work/readonly"
    chmod 555 "$work/readonly"
fi

report_queue show show "$work/b"
report_queue showbranch show --rank 1 --by branch --top 3 "$work/b"
report_queue showc show "$work/c"
report_queue show2 show "$work/b2"
report_queue show3 show "$work/b3"
report_queue showreg show "$work/reg"
report_queue showreg1 show --rank 1 "$work/reg"
report_queue cmp compare "$work/a" "$work/b"
report_queue moved compare --format tsv "$work/a" "$work/moved"
report_queue self compare --format tsv "$work/a" "$work/a"
report_queue selftext compare "$work/a" "$work/a"
report_queue depth compare "$work/d2" "$work/d5"
report_queue depthtsv compare --format tsv "$work/d2" "$work/d5"
report_queue plot plot "$work/c" -o "$work/plots"
report_queue fourplot plot "$work/four" -o "$work/fourplots"
report_queue minshow show "$work/min"
report_queue mincompare compare "$work/min" "$work/a"
report_queue minplot plot "$work/min" -o "$work/minplots"
report_queue notreport show "$work/plots"
report_queue notdir plot "$work/nothing"
report_queue ranks compare "$work/a" "$work/big"
report_queue ontofile plot "$work/a" -o "$work/file.svg"
report_queue devnull plot "$work/a" -o /dev/null
report_queue underfile plot "$work/a" -o "$work/file.svg/plots"
report_queue long plot "$work/a" -o "$long"
report_queue taken plot "$work/a" -o "$work/taken"
[ -d "$work/readonly" ] && report_queue readonly plot "$work/a" -o "$work/readonly/plots"
report_queue totals compare --per-rank=off --format tsv "$work/a" "$work/big"
report_batch

# --- show -------------------------------------------------------------------
[ "$(batch_status show)" = 0 ] || fail "show B exits 0"
cat "$work/show.out"
# The first row under the function table's heading line.
first=$(awk '/^Top .* MPI functions/ { getline; getline; print; exit }' "$work/show.out")
want=$(awk '/^#/ { next } $2 == "MPI_Barrier" { t += $4; n += $3 } END { printf "%.9f %d", t, n }' \
    "$work/b/functions.txt")
check "show B: MPI_Barrier first, with functions.txt's time and calls ($want): $first" \
    awk -v row="$first" -v want="$want" 'BEGIN { split(row, r, " +"); split(want, w, " ")
        d = r[2] - w[1]; exit !(r[1] == "MPI_Barrier" && d < 1e-6 && d > -1e-6 && r[4] == w[2]) }'
check "show B: header with command, ranks and elapsed" \
    grep -q "^ranks *$np " "$work/show.out"
check "show B --rank 1 --by branch --top 3: MPI_Barrier's site first" \
    awk '/^Top 3 call sites/ { getline; getline; exit !/  MPI_Barrier / }' "$work/showbranch.out"
[ "$(batch_status showc)" = 0 ] || fail "show C exits 0"
check "show C: late sender, collective wait and the model's speed-up" \
    sh -c 'grep -q "^late sender " "$1" && grep -q "^collective wait " "$1" && grep -q "predicted speed-up" "$1"' - "$work/showc.out"

sed 1d "$work/show2.out" > "$work/show2.rest"
check "show with a new column in every file prints the same" sh -c 'sed 1d "$1" | cmp -s - "$2"' - "$work/show.out" "$work/show2.rest"
sed 1d "$work/show3.out" > "$work/show3.rest"
check "show of functions.txt and branches.txt with an earlier mpiprof's region column prints the same" \
    sh -c 'grep -q " region$" "$3/functions.txt" && sed 1d "$1" | cmp -s - "$2"' - "$work/show.out" "$work/show3.rest" "$work/b3"
check "show without regions.txt: no regions section" sh -c '! grep -q "^MPI_Pcontrol regions" "$1"' - "$work/show.out"

[ "$(batch_status showreg)" = 0 ] || fail "show of regions exits 0"
[ "$(batch_status showreg1)" = 0 ] || fail "show --rank 1 of regions exits 0"
sed -n '/^MPI_Pcontrol regions/,/^$/p' "$work/showreg.out" "$work/showreg1.out"
# regions_shown FILE: the rows of the regions section of show's output FILE.
regions_shown() {
    awk '/^MPI_Pcontrol regions / { on = 1; getline; next } on && !NF { exit } on' "$1"
}
# regions_counts FILE: its region names and counts (the fields without a '.').
regions_counts() {
    regions_shown "$1" | awk '{ line = $1; for (i = 2; i <= NF; i++) if ($i !~ /\./) line = line " " $i; print line }'
}
# regions_times RANK FILE: per region (in order) its open and MPI time in
# show's output FILE, then regions.txt's sums over the ranks (RANK "all")
# or RANK's; exit 1 unless the four regions' differ by at most 1 us (the
# rounding to 6 decimals; the sums printed with 9, as awk's print gives 6
# significant digits: 5 us off once a sum passes 1 s, as MPICH's did in CI).
regions_times() {
    regions_shown "$2" | awk '{ print $1, $(NF - 3), $(NF - 2) }' > "$work/shown"
    awk -v only="$1" '/^#/ { next } only == "all" || $1 == only { if (!($2 in t)) order[++n] = $2; t[$2] += $4; m[$2] += $5 }
        END { for (i = 1; i <= n; i++) printf "%s %.9f %.9f\n", order[i], t[order[i]], m[order[i]] }' "$work/reg/regions.txt" |
        paste -d ' ' "$work/shown" - | awk '{ n++; d = $2 - $5; e = $3 - $6 }
            $1 != $4 || d > 1e-6 || d < -1e-6 || e > 1e-6 || e < -1e-6 { bad = 1 } END { exit bad || n != 4 }'
}
regions_counts "$work/showreg.out" > "$work/actual"
awk -v k=$np 'BEGIN { print "whole", k, k, 114 * k; print "init", k, k, 5 * k
    print "step", k, 10 * k, 100 * k; print "step/halo", k, 10 * k, 60 * k }' > "$work/expected"
same_rows "show: regions.c's regions in the file's order, ranks, entries and calls summed over the ranks"
regions_counts "$work/showreg1.out" > "$work/actual"
printf 'whole 1 114\ninit 1 5\nstep 10 100\nstep/halo 10 60\n' > "$work/expected"
same_rows "show --rank 1: rank 1's regions, entries and calls"
check "show: each region's open and MPI time are regions.txt's sums over the ranks, to 1 us" \
    regions_times all "$work/showreg.out"
check "show --rank 1: each region's open and MPI time are rank 1's, to 1 us" regions_times 1 "$work/showreg1.out"
check "show: the whole run's region row has the MPI line's sums over the ranks" \
    awk '/^MPI  / { m = $2; t = $5 } /^whole / { exit !($(NF - 3) == t && $(NF - 2) == m) }' "$work/showreg.out"

# --- compare ----------------------------------------------------------------
[ "$(batch_status cmp)" = 0 ] || fail "compare A B exits 0"
cat "$work/cmp.out"
# grew KIND: 1 if MPI_Barrier's record took at least 90 % of the injected
# time in B and grew by at least INJECTED - NOISE, its ratio accordingly.
grew() {
    tsv "$1" MPI_Barrier "$work/cmp.tsv" | awk -v inj="$INJECTED" -v noise="$NOISE" '
        $4 >= 0.9 * inj && $5 >= inj - noise && $6 >= ($3 + inj - noise) / $3 && $7 == "both" { n++ }
        END { print n + 0 }'
}
check "compare A B: MPI_Barrier's site took >= 90 % of $INJECTED s in B, grew by >= $INJECTED - $NOISE s, ratio >= (A + that) / A" \
    test "$(grew site)" = 1
check "compare A B: function MPI_Barrier likewise" test "$(grew function)" = 1
check "compare A B: $(tsv site "" "$work/cmp.tsv" | awk '$1 != "MPI_Barrier"' | wc -l) other sites moved by at most $NOISE s, each in both reports" \
    test -z "$(noisy_sites | awk '$1 != "MPI_Barrier"')"
[ "$(batch_status moved)" = 0 ] || fail "compare A moved exits 0"
check "compare: MPI_Barrier at $site, renamed, is listed as in A only and in B only" \
    test "$(tsv site MPI_Barrier "$work/moved.out" | awk '{ print $2, $7 }' | sort | tr '\n' ' ')" = \
    "$site A moved@elsewhere.c:1 B "
[ "$(batch_status self)" = 0 ] || fail "compare A A exits 0"
check "compare A A: every ratio 1 and every difference 0 ($(($(wc -l < "$work/self.out") - 1)) records)" \
    awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["ratio"] != "1.000000" || $c["diff_s"] + 0 != 0 || $c["max_rank_diff_s"] + 0 != 0 || $c["in"] != "both" { print; bad = 1 }
        END { exit bad || NR < 10 }' "$work/self.out"
[ "$(batch_status selftext)" = 0 ] || fail "compare A A (text) exits 0"
check "compare A A (text): no difference but +0.000000 (below the lines naming A and B)" \
    sh -c '! sed 1,2d "$1" | grep -E " [+-]0*[1-9]| [+-]0\.0*[1-9]"' - "$work/selftext.out"
check "compare A A (text): no depth note (one depth)" sh -c '! grep -q "^note: " "$1"' - "$work/selftext.out"
[ "$(batch_status depth)" = 0 ] || fail "compare of depths 2 and 5 exits 0"
sed -n '/^note: /,$p' "$work/depth.out"
note="note: A was profiled at --depth 2 and B at --depth 5: call sites are matched by their innermost 2 frames (the site and 1 caller), B's deeper callers summed; rerun both at one depth to compare whole call stacks"
check "compare of depths 2 and 5: the note, once, right above the call sites" \
    sh -c 'test "$(grep -c "^note: " "$1")" = 1 && grep -A1 "^note: " "$1" | sed -n 2p | grep -q "^Call sites " &&
        grep -qxF "$2" "$1"' - "$work/depth.out" "$note"
[ "$(batch_status depthtsv)" = 0 ] || fail "compare --format tsv of depths 2 and 5 exits 0"
check "compare --format tsv of depths 2 and 5: the note, once, on stderr" \
    test "$(cat "$work/depthtsv.err")" = "mpiprof-report: $note"
check "compare of depths 2 and 5: B's MPI_Recv has 2 stacks a rank (so 2 are summed)" \
    test "$(col "$work/d5/branches.txt" function | grep -c '^MPI_Recv$')" = $((2 * np))
check "compare of depths 2 and 5: each of A's $(col "$work/d2/branches.txt" brid | sort -u | wc -l) sites in both, MPI_Recv's with $((4 * np)) calls in each" \
    awk -F '\t' -v sites="$(col "$work/d2/branches.txt" brid | sort -u | wc -l)" -v calls=$((4 * np)) '
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["kind"] != "site" { next }
        { n++; if ($c["in"] != "both") bad = 1 }
        $c["function"] == "MPI_Recv" { r++; if ($c["calls_a"] != calls || $c["calls_b"] != calls) bad = 1 }
        END { exit bad || n != sites || r != 1 }' "$work/depthtsv.out"

# --- plot -------------------------------------------------------------------
# svg FILE PATTERN: parse FILE as XML; print how many distinct first groups
# of PATTERN the id attributes match.
svg() {
    "$PYTHON" -c '
import re, sys, xml.etree.ElementTree as ET
ids = {m.group(1) for e in ET.parse(sys.argv[1]).iter() for m in [re.fullmatch(sys.argv[2], e.get("id", ""))] if m}
print(len(ids))' "$@"
}
[ "$(batch_status plot)" = 0 ] || fail "plot C exits 0"
cat "$work/plot.out" "$work/plot.err"
for f in ranks sites comm-matrix waits model; do
    check "plot: $f.svg is XML with a title" sh -c '"$1" -c "import sys, xml.etree.ElementTree as ET; ET.parse(sys.argv[1])" "$2" && grep -q "<text" "$2"' \
        - "$PYTHON" "$work/plots/$f.svg"
done
for f in ranks waits model; do
    n=$(svg "$work/plots/$f.svg" 'bar-r(\d+)-.*')
    check "plot: $f.svg has one bar (or bar pair) per rank: $n" test "$n" = $np
done
n=$(svg "$work/plots/comm-matrix.svg" 'cell-(\d+-\d+)')
check "plot: comm-matrix.svg has $np x $np cells: $n" test "$n" = $((np * np))
nsites=$(col "$work/c/sites.txt" brid | wc -l)
[ "$nsites" -gt 15 ] && nsites=15
check "plot: sites.svg has a bar per call site ($nsites)" test "$(svg "$work/plots/sites.svg" 'site-(\d+)')" = "$nsites"
if command -v rsvg-convert > /dev/null; then
    check "plot: rsvg-convert renders ranks.svg as PNG" \
        sh -c 'rsvg-convert -o "$1.png" "$1" && head -c 8 "$1.png" | od -c | grep -q "P   N   G"' - "$work/plots/ranks.svg"
fi

[ "$(batch_status fourplot)" = 0 ] || fail "plot of a synthetic 4-rank report exits 0"
for f in ranks waits model; do
    check "plot of 4 ranks: $f.svg has one bar (or bar pair) per rank" \
        test "$(svg "$work/fourplots/$f.svg" 'bar-r(\d+)-.*')" = 4
done
check "plot of 4 ranks: comm-matrix.svg has 4 x 4 cells" test "$(svg "$work/fourplots/comm-matrix.svg" 'cell-(\d+-\d+)')" = 16
start=$(date +%s.%N)
"$report" plot "$work/big" -o "$work/bigplots" > "$work/big.out" 2>&1 || { fail "plot of 1,024 ranks exits 0"; cat "$work/big.out"; }
secs=$(echo "$start $(date +%s.%N)" | awk '{ printf "%.1f", $2 - $1 }')
check "plot of 1,024 ranks in $secs s (< 10 s)" awk -v s="$secs" 'BEGIN { exit !(s < 10) }'
for f in ranks sites comm-matrix waits model; do
    size=$(wc -c < "$work/bigplots/$f.svg" 2> /dev/null || echo 0)
    check "plot of 1,024 ranks: $f.svg is $size bytes (< 2 MB), XML" \
        sh -c 'test "$1" -gt 0 && test "$1" -lt 2000000 && "$2" -c "import sys, xml.etree.ElementTree as ET; ET.parse(sys.argv[1])" "$3"' \
        - "$size" "$PYTHON" "$work/bigplots/$f.svg"
done
check "plot of 1,024 ranks: ranks.svg says it draws areas, not bars" \
    sh -c 'grep -q "stacked areas" "$1" && test "$(grep -c "id=\"bar-r" "$1")" = 0' - "$work/bigplots/ranks.svg"

# --- what is missing ----------------------------------------------------------
# one_skip NAME: exited 0, wrote on stdout, and one stderr line "mpiprof-report: skipped ...".
one_skip() {
    [ "$(batch_status "$1")" -eq 0 ] && [ -s "$work/$1.out" ] && [ "$(wc -l < "$work/$1.err")" -eq 1 ] &&
        grep -q '^mpiprof-report: skipped ' "$work/$1.err" && cat "$work/$1.err"
}
check "show without branches, sites, partners, analyses" one_skip minshow
check "compare without branches" one_skip mincompare
check "plot without branches, sites, partners, analyses" one_skip minplot
check "plot without them: ranks.svg only" test "$(ls "$work/minplots")" = ranks.svg

refused_by notreport "is not an mpiprof report"
refused_by notdir "is not a directory"
refused_by ranks "has $np ranks and .* has 1024"
# plot -o where the plots cannot go: one line naming the path and why,
# status 2, nothing written.
refused_by ontofile "cannot write the plots in '$work/file.svg': it exists and is not a directory"
check "plot -o onto a file: the file unchanged" test "$(cat "$work/file.svg")" = keep
refused_by devnull "cannot write the plots in '/dev/null': it exists and is not a directory"
check "plot -o /dev/null: still a character device" test -c /dev/null
refused_by underfile "cannot write the plots in '$work/file.svg/plots': '$work/file.svg' is not a directory"
refused_by long "cannot write the plots in '$long': File name too long"
refused_by taken "cannot write the plots in '$work/taken': Is a directory ('$work/taken/ranks.svg')"
check "plot -o refused: no SVG file written in A or next to it" \
    sh -c 'test -z "$(find "$1" "$1/.." -maxdepth 1 -name "*.svg" ! -name file.svg)"' - "$work/a"
if [ -d "$work/readonly" ]; then
    refused_by readonly "cannot write the plots in '$work/readonly/plots': no permission to write in '$work/readonly'"
    chmod 755 "$work/readonly"
fi
check "compare --per-rank=off of $np and 1,024 ranks: job totals" grep -q "^job	elapsed	" "$work/totals.out"

finish
