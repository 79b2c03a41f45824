#!/bin/sh
# t_report_form.sh: the summary form of the report (MPIPROF_REPORT_FORM,
# issue 37). mix on NP ranks (4; MPICH 2) in both forms:
#   the summary form has summary.txt, functions.txt, nodes.txt and sites.txt only,
#   its header says form=summary, the per-rank form's form=ranks;
#   its functions.txt: per function exactly the ranks, calls and bytes
#   that the per-rank form's rows sum to, mean = time / ranks, least <=
#   mean <= most, most total time first;
#   its summary.txt: a row per figure of the per-rank summary.txt, its
#   mpi_calls total the functions' calls, its mpi_s total their time;
#   sites.txt: the same rows in both forms, times and ranks aside.
# With --model, summary.txt carries model.txt's '# model:' line.
# slowrank (rank 1 waits 0.5 s in its MPI_Sendrecv): functions.txt and
# summary.txt name rank 1 as the rank with the most MPI time, >= 0.4 s,
# and another with the least, < 0.2 s.
# MPIPROF_REPORT_FORM=N: summary from N ranks on (N = NP: summary; NP + 1:
# ranks); a bad value: one message naming it, and the default (ranks here).
# With pandas: mpiprof-report show, compare and plot read the summary form;
# show --rank and compare --per-rank=on say why they cannot.
. "$top_srcdir/tests/integration/lib.sh"

np=4
[ "$MPI_FLAVOR" = mpich ] && np=2
bin="$top_builddir/tests/integration"
# Polling calls whose count follows the timing.
polling='MPI_Testsome'

form() { sed -n '1s/.* form=\([a-z]*\) .*/\1/p' "$1/summary.txt"; }

MPIPROF_REPORT_FORM=ranks run "$np" "$launcher" -q -o "$work/ranks" "$bin/mix" > /dev/null || fail "mix runs (ranks)"
MPIPROF_REPORT_FORM=summary run "$np" "$launcher" -q -o "$work/sum" "$bin/mix" > /dev/null || fail "mix runs (summary)"
check "the summary form: summary.txt, functions.txt, nodes.txt and sites.txt only" \
    test "$(ls "$work/sum" | tr '\n' ' ')" = "functions.txt nodes.txt sites.txt summary.txt "
check "nodes.txt on one node: one row, its host, every rank, no offsets" \
    test "$(awk '!/^#/ { print $1, $2, $3, $4, $6, $7, $8, $9 }' "$work/ranks/nodes.txt")" = "0 $(hostname) $np 0-$((np - 1)) - - - -"
check "nodes.txt: the node's mpi_s is the ranks' sum in summary.txt" \
    awk '!/^#/ && FILENAME ~ /summary/ { s += $3 } !/^#/ && FILENAME ~ /nodes/ { n = $5 }
         END { d = s - n; exit !(d < 1e-6 && d > -1e-6 && n > 0) }' "$work/ranks/summary.txt" "$work/ranks/nodes.txt"
check "nodes.txt: the same in both forms, times aside" \
    test "$(awk '!/^#/ { $5 = "t"; print }' "$work/sum/nodes.txt")" = "$(awk '!/^#/ { $5 = "t"; print }' "$work/ranks/nodes.txt")"
check "the headers say form=summary and form=ranks" test "$(form "$work/sum") $(form "$work/ranks")" = "summary ranks"
check "the summary form is complete" sh -c "tail -n 1 '$work/sum/summary.txt' | grep -qx '# complete'"

# functions.txt: what the per-rank rows sum to.
awk -v skip="$polling" '/^#/ || $2 == skip { next }
    { n[$2]++; c[$2] += $3; s[$2] += $7; r[$2] += $8 }
    END { for (f in n) print f, n[f], c[f], s[f], r[f] }' "$work/ranks/functions.txt" | sort > "$work/expected"
awk -v skip="$polling" '/^#/ || $1 == skip { next } { print $1, $2, $3, $10, $11 }' \
    "$work/sum/functions.txt" | sort > "$work/actual"
same_rows "summary functions.txt: ranks, calls and bytes per function are the per-rank rows' sums"
check "summary functions.txt: mean = time / ranks, min <= mean <= max, ranks in range, most time first" \
    awk -v np="$np" '/^#/ { next }
        { d = $7 - $4 / $2; if (d > 1e-9 || d < -1e-9 || $5 > $7 + 1e-9 || $7 > $8 + 1e-9) bad = 1
          if ($6 < 0 || $6 >= np || $9 < 0 || $9 >= np || (n++ && $4 > last)) bad = 1; last = $4 }
        END { exit bad || n < 10 }' "$work/sum/functions.txt"
sed -n '/^# rank/{ s/^# rank //; s/ /\n/g; p; q }' "$work/ranks/summary.txt" > "$work/expected"
awk '!/^#/ { print $1 }' "$work/sum/summary.txt" > "$work/actual"
same_rows "summary summary.txt: a row per figure of the per-rank summary.txt, in its order"
check "summary summary.txt: mpi_calls and mpi_s totals are the functions' calls and time" \
    awk 'FNR == NR { if (!/^#/) { c += $3; t += $4 }; next }
         $1 == "mpi_calls" { okc = $3 == c && $2 == np }
         $1 == "mpi_s" { d = $3 - t; okt = d < 1e-6 && d > -1e-6 }
         END { exit !(okc && okt) }' np="$np" "$work/sum/functions.txt" "$work/sum/summary.txt"
for d in ranks sum; do
    awk -v skip="$polling" '/^#/ || $2 == skip { next } { print $1, $2, $3, $4, $11, $12, $13, $14 }' \
        "$work/$d/sites.txt" | sort > "$work/$d.sites"
done
cp "$work/ranks.sites" "$work/expected"
cp "$work/sum.sites" "$work/actual"
same_rows "sites.txt: the same in both forms, times aside"

# The slow rank: rank 1 waits 0.5 s for rank 0 in MPI_Sendrecv.
MPIPROF_REPORT_FORM=summary run "$np" "$launcher" -q -o "$work/slow" "$bin/slowrank" > /dev/null ||
    fail "slowrank runs"
check "slowrank: MPI_Sendrecv's most is rank 1's (>= 0.4 s), its least another rank's (< 0.2 s)" \
    awk -v np="$np" '$1 == "MPI_Sendrecv" { ok = $2 == np && $3 == np && $9 == 1 && $8 >= 0.4 && $6 != 1 && $5 < 0.2 }
        END { exit !ok }' "$work/slow/functions.txt"
check "slowrank: summary.txt's mpi_s has its most on rank 1 (>= 0.4 s)" \
    awk '$1 == "mpi_s" { ok = $8 == 1 && $7 >= 0.4 && $5 != 1 } END { exit !ok }' "$work/slow/summary.txt"

# A model: its line in summary.txt, with the slowest real and modelled
# elapsed times of the figures' rows.
MPIPROF_REPORT_FORM=summary run "$np" "$launcher" -q --model perfect -o "$work/model" "$bin/mix" > /dev/null ||
    fail "mix runs (summary, --model perfect)"
check "--model: summary.txt's '# model:' line has the most elapsed_s and model_elapsed_s of the rows" \
    awk '/^# model: perfect,cpu=1 / { for (i = 4; i <= NF; i++) { split($i, kv, "="); m[kv[1]] = kv[2] } }
         $1 == "elapsed_s" { e = $7 } $1 == "model_elapsed_s" { me = $7 }
         END { exit !(e != "" && m["real_elapsed_s"] == e && m["model_elapsed_s"] == me) }' "$work/model/summary.txt"

# A number of ranks, and a bad value.
MPIPROF_REPORT_FORM=$np run "$np" "$launcher" -q -o "$work/n" "$bin/mix" > /dev/null || fail "mix runs (N = NP)"
MPIPROF_REPORT_FORM=$((np + 1)) run "$np" "$launcher" -q -o "$work/n1" "$bin/mix" > /dev/null ||
    fail "mix runs (N = NP + 1)"
check "MPIPROF_REPORT_FORM=$np: summary at $np ranks; $((np + 1)): ranks" \
    test "$(form "$work/n") $(form "$work/n1")" = "summary ranks"
MPIPROF_REPORT_FORM=bogus run "$np" "$launcher" -q -o "$work/bad" "$bin/mix" > /dev/null 2> "$work/bad.err" ||
    fail "mix runs (bad value)"
check "a bad MPIPROF_REPORT_FORM: one message naming it" \
    test "$(grep -c "MPIPROF_REPORT_FORM.*'bogus'" "$work/bad.err")" -eq 1
check "a bad MPIPROF_REPORT_FORM: the default, ranks at $np ranks" test "$(form "$work/bad")" = ranks

# mpiprof-report reads it.
if [ -n "${PYTHON:-}" ] && [ "$PYTHON" != : ] && "$PYTHON" -c 'import pandas, matplotlib' 2> /dev/null; then
    PYTHONDONTWRITEBYTECODE=1
    export PYTHONDONTWRITEBYTECODE
    # Its six commands in one Python (report_batch, lib.sh), then their checks.
    report_queue show show --top 100 "$work/sum"
    report_queue rank show --rank 0 "$work/sum"
    report_queue cmp compare --format tsv "$work/ranks" "$work/sum"
    report_queue showmodel show "$work/model"
    report_queue perrank compare --per-rank on "$work/ranks" "$work/sum"
    report_queue plot plot -o "$work/plots" "$work/sum"
    report_batch
    cat "$work/show.err" >> "$work/show.out"
    [ "$(batch_status show)" = 0 ] || fail "show runs on the summary form"
    calls=$(awk '$1 == "MPI_Recv" { print $3 }' "$work/sum/functions.txt")
    check "show: the form, and MPI_Recv's calls and the rank of its most" \
        awk -v c="$calls" -v r="$(awk '$1 == "MPI_Recv" { print $9 }' "$work/sum/functions.txt")" '
            /^form +summary/ { f = 1 } $1 == "MPI_Recv" && $4 == c && $NF == r { n++ }
            END { exit !(f && n == 1) }' "$work/show.out"
    check "show --rank: refused, naming the summary form" \
        sh -c "[ $(batch_status rank) -ne 0 ] && grep -q 'has the summary form' '$work/rank.err'"
    [ "$(batch_status cmp)" = 0 ] || fail "compare runs (ranks against summary)"
    check "compare: says totals are compared" grep -q 'summary form: totals compared' "$work/cmp.err"
    speedup=$(sed -n 's/^# model: .* predicted_speedup=\([0-9.]*\)$/\1/p' "$work/model/summary.txt")
    check "show: the model's predicted speed-up ($speedup)" \
        grep -q "^model  *perfect,cpu=1: predicted speed-up $speedup " "$work/showmodel.out"
    check "compare: every function and call site in both, equal calls" \
        awk -F '\t' -v skip="$polling" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
            $c["kind"] != "job" && $c["function"] != skip { n++
                if ($c["in"] != "both" || $c["calls_a"] != $c["calls_b"]) { print; bad = 1 } }
            END { exit bad || n < 20 }' "$work/cmp.out"
    check "compare --per-rank=on: refused" test "$(batch_status perrank)" -ne 0
    [ "$(batch_status plot)" = 0 ] || fail "plot runs on the summary form"
    check "plot: sites.svg, and ranks.svg skipped for the summary form" \
        sh -c "test -s '$work/plots/sites.svg' && ! test -e '$work/plots/ranks.svg' &&
               grep -q 'ranks.svg (the summary form' '$work/plot.err'"
else
    ok "mpiprof-report not checked: no Python 3 with pandas and matplotlib"
fi
finish
