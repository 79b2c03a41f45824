# fuzz-figures.awk: the profiler's late-sender figures against the
# fuzzer's truth (t_fuzz.sh, bench/fuzz.sh).
#   awk -v pct=20 -v floor=0.005 -f fuzz-figures.awk OUT REPORT/branches.txt REPORT/slt.txt
# OUT holds fuzz's "truth rank=R site=FUNC late_s=X n=N" lines. Per rank and
# FUNC: the sum of slt.txt's send_late_s over the branches whose site
# (branches.txt column 15, joined on rank and branch id) is FUNC@..., within
# max(pct % of the truth, floor seconds) of it; and, for the calls that
# post or wait for a receive (not the Iprobe, Improbe, Mrecv and Imrecv ones,
# whose time is 0 by definition), its receives (evaluated + not_evaluated)
# exactly the truth's n. Where some of a site's receives were not
# evaluated (their send-late time is not known, slt.h), its send_late_s
# is that of the others: at most the truth plus the tolerance. A site in
# only one of the two counts as 0 in the other. One line per comparison; exit 1 if one is off, 2 if OUT has no
# truth or the report no slt.txt rows.
FILENAME == ARGV[1] {
    if ($1 == "truth" && $3 ~ /^site=/) {
        for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
        k = f["rank"] " " f["site"]
        want[k] += f["late_s"]; calls[k] += f["n"]; seen[k] = 1; ntruth++
    }
    next
}
FILENAME == ARGV[2] {
    if (!/^#/ && !(($1 " " $2) in site)) { s = $15; sub(/@.*/, "", s); site[$1 " " $2] = s }
    next
}
!/^#/ {
    k = $1 " " site[$1 " " $2]
    got[k] += $7; gotn[k] += $4 + $5; skipped[k] += $5; seen[k] = 1; nslt++
}
END {
    if (!ntruth || !nslt) {
        print "no " (ntruth ? "slt.txt rows" : "truth lines") " to compare"
        exit 2
    }
    for (k in seen) {
        split(k, rf, " ")
        tol = want[k] * pct / 100; if (tol < floor) tol = floor
        d = got[k] - want[k]; if (d < 0 && !skipped[k]) d = -d
        counted = rf[2] !~ /^op_(iprobe|improbe|mrecv|imrecv)$/
        off = d > tol || (counted && gotn[k] != calls[k])
        printf "rank %s %s: send_late_s %.4f, truth %.4f %s %.4f; receives %s, truth %d%s%s\n", rf[1], rf[2], got[k],
            want[k], skipped[k] ? "+" : "+-", tol, counted ? gotn[k] + 0 : "-", calls[k],
            skipped[k] ? " (" skipped[k] " not evaluated: at most)" : "", off ? " OFF" : ""
        bad += off
    }
    exit bad > 0
}
