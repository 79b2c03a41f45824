#!/bin/sh
# t_html.sh: mpiprof-report html (issue 53) in a real browser.
# Pages of reports of mix, regions, reportmix with every analysis (wait
# states, late sender, collective wait, the model) and with the model of a
# LogGP network (lat=, bw=), rmaio (one-sided and MPI-IO), mix in the
# summary form, a comparison of two mix runs, a partial report (no
# '# complete') and one that mpiprof-merge made of a job that did not reach
# MPI_Finalize, and synthetic reports of 64 and 256 ranks x 1,000 call
# sites. Checks:
#   each page: valid HTML (html5lib's strict parse) and well-formed XML,
#         its SVG pictures valid,
#         loaded by headless chromium (html-check.py: one browser, a tab
#         per page) with no console error, no exception and nothing
#         fetched; a screenshot of each and the page kept in tests/html/
#         of the build tree (artifacts);
#   the functions table read back from the DOM: per function, the time,
#         calls and bytes of functions.txt summed over the ranks (time to
#         1e-9 s); rank 1's view is functions.txt's rows of rank 1 as
#         written; in the summary form, functions.txt's rows as written;
#   the call sites table (64 ranks) sorted by a click on its bytes column,
#         over all its rows (the first the most, then, clicked again, the
#         least), and a site's ancestors shown once its label is clicked;
#   the comparison's functions table, read back from the DOM, has the
#         records of mpiprof-report compare --format tsv;
#   each page has its sections: the wait states, late senders, collective
#         wait and model tables; the model's predicted speed-up (perfect and
#         LogGP); the regions of regions.c; the RMA and MPI-IO tables; the
#         figures of the summary form; the comparison;
#   a partial report (no '# complete', or merged from snapshots): a page that
#         says so;
#   bad input: not a report, a partial report not yet merged, -o a
#         directory, -o under a file, -o in a
#         directory that does not exist: status 2, one line on stderr,
#         nothing on stdout, no file written (and no temporary left);
#   64 ranks x 1,000 sites: the page under 5 MB, loaded in under 2 s;
#         the figures of 256 ranks printed (mpiprof-report(1) states them),
#         on 4 nodes (nodes.txt): a bar per node; the nodes in the header.
# Skipped (77) without mpirun, Python 3 with pandas and html5lib, or chromium
# (./quickstart installs them).
. "$top_srcdir/tests/integration/lib.sh"

[ -n "${PYTHON:-}" ] && [ "$PYTHON" != : ] && "$PYTHON" -c 'import pandas, html5lib' 2> /dev/null ||
    { echo "SKIP: no Python 3 with pandas and html5lib (python3-pandas, python3-html5lib)"; exit 77; }
command -v chromium > /dev/null || { echo "SKIP: no chromium (apt-get install chromium)"; exit 77; }
PYTHONDONTWRITEBYTECODE=1                # no __pycache__ in the source tree
export PYTHONDONTWRITEBYTECODE
browse=$top_srcdir/tests/integration/html-check.py
bin=$top_builddir/tests/integration
shots=$top_builddir/tests/html          # the artifacts: each page and its screenshot
rm -rf "$shots"
mkdir -p "$shots"
np=4
[ "$MPI_FLAVOR" = mpich ] && np=2       # MPICH busy-polls: 2 ranks on 2 cores

run $np "$launcher" -q -o "$work/mix" "$bin/mix" > /dev/null || fail "mix runs"
run $np "$launcher" -q -o "$work/mix2" "$bin/mix" > /dev/null || fail "mix runs again"
run $np "$launcher" -q -o "$work/regions" "$bin/regions" > /dev/null || fail "regions runs"
run 2 "$launcher" -q --waits --slt --collwait --model perfect -o "$work/analyses" "$bin/reportmix" 20 > /dev/null ||
    fail "reportmix runs with every analysis"
run 2 "$launcher" -q --model lat=5,bw=1000 -o "$work/loggp" "$bin/reportmix" 20 > /dev/null ||
    fail "reportmix runs with the model of a LogGP network"
run 2 "$launcher" -q -o "$work/rmaio" "$bin/rmaio" "$work/rmaio.dat" > /dev/null || fail "rmaio runs"
MPIPROF_REPORT_FORM=summary run $np "$launcher" -q -o "$work/summary" "$bin/mix" > /dev/null ||
    fail "mix runs (summary form)"
mkdir "$work/partial"
cp "$work"/mix/* "$work/partial/"
sed -i '/^# complete$/d' "$work/partial/summary.txt"
# A job that ends without MPI_Finalize (status 3): nofin.partial, its
# snapshots refused, then merged by mpiprof-merge.
run 2 "$launcher" -q -o "$work/nofin" "$bin/nofinalize" > /dev/null 2>&1
cp -r "$work/nofin.partial" "$work/unmerged.partial"
"$top_builddir/tools/mpiprof-merge" "$work/nofin.partial" 2> /dev/null || fail "mpiprof-merge nofin.partial"

# The functions table, all rows, of all ranks and (per-rank form) of rank 1.
dom='(function () {
  var box = document.getElementById("t-functions");
  function rows() {
    return Array.prototype.map.call(box.querySelectorAll("tbody tr"), function (tr) {
      return Array.prototype.map.call(tr.cells, function (td) { return td.textContent; }).join(" ");
    });
  }
  var out = {all: [], rank1: [], sort: null, anc: null, cmp: []};
  if (box) {
    var more = box.querySelector("button.more"), sel = box.querySelector("select.view");
    if (more) more.click();
    out.all = rows();
    if (sel && sel.querySelector("option[value=\"1\"]")) {
      sel.value = "1";
      sel.dispatchEvent(new Event("change"));
      out.rank1 = rows();
    }
  }
  var sites = document.getElementById("t-sites"), cmp = document.getElementById("t-cmp-function");
  if (sites) {
    var heads = function () { return Array.prototype.map.call(sites.querySelectorAll("thead th"), function (th) { return th; }); };
    var c = heads().map(function (th) { return th.textContent; }).indexOf("bytes");
    var column = function () {
      return Array.prototype.map.call(sites.querySelectorAll("tbody tr"), function (tr) { return tr.cells[c].textContent; });
    };
    heads()[c].click();
    out.sort = {first: column()};
    heads()[c].click();
    out.sort.second = column();
    var d = sites.querySelector("tbody details");
    if (d) {
      var shown = function () { var e = d.querySelector("div"); return d.open && e.checkVisibility(); };
      out.anc = {label: d.querySelector("summary").textContent, before: shown()};
      d.querySelector("summary").click();
      out.anc.after = shown();
      out.anc.lines = Array.prototype.map.call(d.querySelectorAll("div"), function (e) { return e.textContent; });
    }
  }
  if (cmp) {
    var all = cmp.querySelector("button.more");
    if (all) all.click();
    out.cmp = Array.prototype.map.call(cmp.querySelectorAll("tbody tr"), function (tr) {
      return Array.prototype.map.call(tr.cells, function (td) { return td.textContent; }).join(" ");
    });
  }
  return out;
})()'

# page NAME DIRS...: the page of DIRS in $shots/NAME.html, queued
# (report_queue, lib.sh). written: the queued pages and refusals written
# in one Python (report_batch); each page whose command exited 0 and
# printed its path is added to the pages that browse loads.
queued=
page() {
    local name=$1
    shift
    report_queue "$name" html "$@" -o "$shots/$name.html"
    echo "$*" > "$work/$name.args"
    queued="$queued $name"
}
pages=
written() {
    local name
    report_batch
    for name in $queued; do
        if [ "$(batch_status "$name")" != 0 ]; then
            fail "html $(cat "$work/$name.args"): status, stderr: $(cat "$work/$name.err")"
            continue
        fi
        check "html $(cat "$work/$name.args"): prints the page's path" test "$(cat "$work/$name.out")" = "$shots/$name.html"
        pages="$pages $name"
    done
}

# browse: every page written loaded in one chromium (html-check.py: its
# start is most of a page's time), NAME's object in $work/NAME.json and
# its screenshot in $shots/NAME.png; then each page fails on an error.
browse() {
    local name k=0
    # shellcheck disable=SC2046 # one page and its screenshot per name
    with_lock -s "$PYTHON" "$browse" "$dom" $(for name in $pages; do echo "$shots/$name.html $shots/$name.png"; done) \
        > "$work/pages.json" || fail "html-check.py runs"
    for name in $pages; do
        k=$((k + 1))
        sed -n "${k}p" "$work/pages.json" > "$work/$name.json"
        "$PYTHON" -c 'import json, sys
d = json.load(open(sys.argv[1]))
print("%s: %d bytes, %d SVG, loaded in %.0f ms, %d errors" % (sys.argv[2], d["bytes"], d["svgs"], d["load_ms"], len(d["errors"])))
for e in d["errors"]:
    print("  " + e)
sys.exit(1 if d["errors"] else 0)' "$work/$name.json" "$name" > "$work/$name.said" 2>&1
        st=$?
        cat "$work/$name.said"
        check "$name: valid, loaded with no console error, nothing fetched" test $st = 0
        check "$name: screenshot $shots/$name.png" sh -c 'head -c 8 "$1" | od -c | grep -q "P   N   G"' - "$shots/$name.png"
    done
}

# dom_rows NAME KEY: the rows of the functions table read back (all, rank1).
dom_rows() {
    "$PYTHON" -c 'import json, sys
for r in json.load(open(sys.argv[1]))["value"][sys.argv[2]]:
    print(r)' "$work/$1.json" "$2"
}

# functions_match NAME DIR: the page's functions table against DIR's
# functions.txt: sums over the ranks of time (1e-9 s), calls and bytes
# sent and received, every function once; rank 1's rows as written.
functions_match() {
    dom_rows "$1" all | awk '{ print $1, $2, $4, $5, $6 }' | sort > "$work/actual"
    awk '/^#/ { next } { t[$2] += $4; c[$2] += $3; s[$2] += $7; r[$2] += $8 }
        END { for (f in t) printf "%s %.9f %d %d %d\n", f, t[f], c[f], s[f], r[f] }' "$2/functions.txt" | sort > "$work/expected"
    if [ -s "$work/expected" ] && paste -d ' ' "$work/expected" "$work/actual" | awk '{ d = $2 - $7 }
            NF != 10 || $1 != $6 || $3 != $8 || $4 != $9 || $5 != $10 || d > 1.5e-9 || d < -1.5e-9 { bad = 1 }
            END { exit bad }'; then
        ok "$1: the functions table has functions.txt's sums over the ranks ($(wc -l < "$work/expected") functions)"
    else
        fail "$1: the functions table differs from functions.txt's sums (expected, then the page):"
        cat "$work/expected" "$work/actual"
    fi
    dom_rows "$1" rank1 > "$work/actual"
    awk '/^#/ { region = $NF == "region"; next }
         $1 == 1 && (!region || $NF == "whole") { sub(/^1 /, ""); if (region) sub(/ [^ ]*$/, ""); print }' \
        "$2/functions.txt" > "$work/expected"
    same_rows "$1: rank 1's view of the functions table is functions.txt's rows of rank 1 as written"
}

# has NAME ID...: the page NAME has an element of each ID.
has() {
    local name=$1 id
    shift
    for id in "$@"; do
        check "$name: has $id" grep -q "id=\"$id\"" "$shots/$name.html"
    done
}

# The pages, then one browser for them all, then what each must hold.
page mix "$work/mix"
page regions "$work/regions"
page analyses "$work/analyses"
page loggp "$work/loggp"
page rmaio "$work/rmaio"
page summary "$work/summary"
page compare "$work/mix" "$work/mix2"
page partial "$work/partial"
page merged "$work/nofin.partial"
# 64 and 256 ranks x 1,000 sites; 256 ranks on 4 nodes of 64 (nodes.txt):
# a bar per node.
for n in 64 256; do
    synthetic "$work/big$n" $n 1000 "step@syn.c:20;main@syn.c:5"
    [ $n = 256 ] && awk 'BEGIN { print "# mpiprof 0.1.0 command=\"./synthetic\" ranks=256"
        print "# node host ranks rank_list mpi_s offset_s drift_ppm sync_error_s advanced_s waited_s caused_s"
        for (k = 0; k < 4; k++) printf "%d n%d 64 %d-%d 1.000000000 - - - - - -\n", k, k, 64 * k, 64 * k + 63 }' > "$work/big$n/nodes.txt"
    page big$n "$work/big$n"
done
# Bad input: one line, status 2, nothing written (checked below).
report_queue notreport html "$work"
report_queue unmerged html "$work/unmerged.partial"
report_queue cmptsv compare --format tsv "$work/mix" "$work/mix2"
report_queue isdir html "$work/mix" -o "$work/mix"
printf 'keep\n' > "$work/file"
report_queue underfile html "$work/mix" -o "$work/file/p.html"
report_queue nodir html "$work/mix" -o "$work/none/p.html"
if [ "$(id -u)" != 0 ]; then       # root may write anywhere
    mkdir "$work/readonly"
    chmod 555 "$work/readonly"
    report_queue readonly html "$work/mix" -o "$work/readonly/p.html"
fi
written
echo "big64, big256: 64 and 256 ranks x 1,000 sites: written in $(cat "$work/big64.secs") and $(cat "$work/big256.secs") s"
browse

functions_match mix "$work/mix"
has mix t-functions t-sites matrix sizes
functions_match regions "$work/regions"
has regions t-regions
check "regions: the regions of regions.c in the file's order" \
    sh -c 'grep -o "\[\"\(whole\|init\|step\|step/halo\)\",\"[0-9]*\"" "$1" | cut -d\" -f2 | tr "\n" " " |
        grep -qx "whole init step step/halo "' - "$shots/regions.html"
functions_match analyses "$work/analyses"
has analyses t-waits t-slt t-late-partners t-collwait t-model
# speedup NAME: the page NAME has the model and predicted speed-up of model.txt.
speedup() {
    check "$1: the model's predicted speed-up of model.txt" sh -c '
        grep -q "What if: the model ($(sed -n "s/^# model: \([^ ]*\) .*/\1/p" "$1/model.txt"))" "$2" &&
        grep -q "predicted speed-up <b>$(sed -n "s/^# model: .* predicted_speedup=\([^ ]*\).*/\1/p" "$1/model.txt")</b>" "$2"' \
        - "$work/$1" "$shots/$1.html"
}
speedup analyses
functions_match loggp "$work/loggp"
has loggp t-model
speedup loggp
functions_match rmaio "$work/rmaio"
has rmaio t-rma t-io
has summary t-figures t-functions
dom_rows summary all | sort > "$work/actual"
awk '!/^#/' "$work/summary/functions.txt" | sort > "$work/expected"
same_rows "summary: the functions table is the summary form's functions.txt as written"
has compare t-cmp-job t-cmp-function t-cmp-site
# The comparison's functions from the DOM (A, B, B-A, calls of A and B,
# the function) against compare's tsv records of kind function.
"$PYTHON" -c 'import json, sys
for r in json.load(open(sys.argv[1]))["value"]["cmp"]:
    f = r.split()
    print("%.9f %.9f %.9f %s %s %s" % (float(f[0]), float(f[1]), float(f[2]), f[4], f[5], f[8]))' "$work/compare.json" |
    sort > "$work/actual"
awk -F '\t' '$1 == "function" { printf "%.9f %.9f %.9f %s %s %s\n", $5, $6, $7, $9, $10, $2 }' "$work/cmptsv.out" |
    sort > "$work/expected"
same_rows "compare: the page's functions are compare --format tsv's records"
check "partial: the page says the report is partial" grep -q "This report is partial" "$shots/partial.html"
check "complete: the page does not" sh -c '! grep -q "This report is partial" "$1"' - "$shots/mix.html"
check "merged: the page says the report is partial, made by mpiprof-merge, and why" \
    sh -c 'grep -q "This report is partial: mpiprof-merge made it" "$1" &&
        grep -q "<th>note</th><td>why the job ended: " "$1"' \
    - "$shots/merged.html"

# --- bad input: one line, status 2, nothing written ------------------------------
refused_by notreport "'$work' is not an mpiprof report"
refused_by unmerged "'$work/unmerged.partial' is not an mpiprof report: no summary.txt (a partial report: make its tables with mpiprof-merge)"
refused_by isdir "cannot write the page '$work/mix': it is a directory"
refused_by underfile "cannot write the page '$work/file/p.html': '$work/file' is not a directory"
refused_by nodir "cannot write the page '$work/none/p.html': '$work/none' does not exist"
if [ -d "$work/readonly" ]; then
    refused_by readonly "no permission to write in '$work/readonly'"
    chmod 755 "$work/readonly"
fi
check "refused: no page and no temporary file written" \
    sh -c 'test -z "$(find "$1" -name "*.html" -o -name ".mpiprof-html.*")" && test "$(cat "$1/file")" = keep' - "$work"

# --- large reports (their pages loaded above) ----------------------------------
check "64 ranks x 1,000 sites: the page is $(wc -c < "$shots/big64.html") bytes (< 5 MB)" \
    test "$(wc -c < "$shots/big64.html")" -lt 5000000
check "64 ranks x 1,000 sites: loaded in $(sed 's/.*"load_ms": \([0-9.]*\).*/\1/' "$work/big64.json") ms (< 2 s)" \
    awk -v ms="$(sed 's/.*"load_ms": \([0-9.]*\).*/\1/' "$work/big64.json")" 'BEGIN { exit !(ms > 0 && ms < 2000) }'
functions_match big64 "$work/big64"
# The call sites sorted by bytes over all their rows, then the other way;
# the first site's ancestors hidden until its label is clicked.
"$PYTHON" -c 'import json, re, sys
v = json.load(open(sys.argv[1]))["value"]
data = json.loads(re.search(r"id=\"mpiprof-data\">(.*?)</script>", open(sys.argv[2]).read()).group(1))
col = [int(r[2]) for r in data["tables"]["t-sites"]["views"]["all"]["rows"]]
first, second = [int(x) for x in v["sort"]["first"]], [int(x) for x in v["sort"]["second"]]
print("sorted by bytes: %d of %d rows, %d..%d, then %d..%d" % (len(first), len(col), first[0], first[-1], second[0], second[-1]))
sys.exit(not (len(first) == 20 and first == sorted(col, reverse=True)[:20] and second == sorted(col)[:20]))' \
    "$work/big64.json" "$shots/big64.html" > "$work/sorted" 2>&1
st=$?
check "big64: the call sites $(cat "$work/sorted"): a click sorts all of them" test $st = 0
"$PYTHON" -c 'import json, sys
a = json.load(open(sys.argv[1]))["value"]["anc"]
print(json.dumps(a))
sys.exit(not (a and not a["before"] and a["after"] and a["lines"] == ["< step@syn.c:20", "< main@syn.c:5"]))' \
    "$work/big64.json" > "$work/anc" 2>&1
st=$?
check "big64: a site's ancestors shown on a click only ($(cat "$work/anc"))" test $st = 0
check "256 ranks on 4 nodes: the header names them, a bar per node (3 parts each), none per rank" \
    sh -c 'grep -q "<th>nodes</th><td>4: n0 ranks 0-63; n1 ranks 64-127; n2 ranks 128-191; n3 ranks 192-255</td>" "$1" &&
        test "$(grep -o "<title>node [0-3] (n[0-3], ranks [0-9-]*) (mean): [a-zA-Z]*" "$1" | sort -u | wc -l)" = 12 &&
        ! grep -q "<title>rank [0-9]*: compute" "$1"' - "$shots/big256.html"
check "mix: nodes.txt's table" grep -q "id=\"t-nodes\"" "$shots/mix.html"

finish
