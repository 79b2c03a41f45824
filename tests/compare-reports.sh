#!/bin/sh
# tests/compare-reports.sh: whether two mpiprof report directories say the
# same, times aside. Used to check that a change which must not change
# behaviour (issue 32's move of libprof) does not: profile the same
# deterministic workload with the build before and after, then compare.
#
# Every file must be in both. In each, the first line (version, command,
# start time, options) is left out; every number written with a decimal
# point (seconds, percentages, modelled times, anywhere in a line) and the
# min_rank and max_rank columns of sites.txt (the ranks with the least and the
# most time) become "~";
# then lines are compared as sorted sets, since rows sorted by time may
# come in another order (branches.human: blocks, split at blank lines;
# the matrix files, whose columns are in time order: field by field; the
# partners of a block of branches.human, in time order: sorted).
# Counts, bytes, partners, sites and branch ids must be equal. With
# -i WORD, records naming WORD (a function whose count depends on timing,
# such as a polling MPI_Testsome) are left out too.

usage() {
    echo "Usage: tests/compare-reports.sh [-i WORD]... DIR1 DIR2"
    echo "Exit 0 when the report files of DIR1 and DIR2 are the same but for times (and the"
    echo "records naming a WORD of -i); 1, naming each file that differs and its differing"
    echo "lines, when not; 2 on bad arguments."
}

ignore=''
while [ $# -gt 0 ]; do
    case $1 in
        -h | --help) usage; exit 0 ;;
        -i) [ $# -ge 2 ] && [ -n "$2" ] || { usage >&2; exit 2; }
            ignore="$ignore $2"; shift 2 ;;
        *) break ;;
    esac
done
[ $# -eq 2 ] || { usage >&2; exit 2; }
for d in "$1" "$2"; do
    [ -d "$d" ] || { echo "compare-reports.sh: '$d' is not a directory" >&2; exit 2; }
done
[ -n "$(ls -A "$1")" ] || { echo "compare-reports.sh: '$1' is empty" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/compare-reports.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

# masked FILE: FILE's records without times, sorted. The columns of the
# matrix files are ordered by time: their rows become one "rank column
# value" record per field. Runs of blanks (branches.human aligns its
# columns to the widths of the figures) count as one.
masked() {
    awk -v ignore="$ignore" -v human="$(case $1 in *.human) echo 1 ;; esac)" -v matrix="$(case $1 in */matrix.*) echo 1 ;; esac)" '
        function sorted(s,    n, w, i, j, t, out) {     # the words of s in order (partners in time order)
            n = split(s, w, " ")
            for (i = 2; i <= n; i++)
                for (j = i; j > 1 && w[j - 1] > w[j]; j--) { t = w[j]; w[j] = w[j - 1]; w[j - 1] = t }
            for (i = 1; i <= n; i++) out = out (i > 1 ? " " : "") w[i]
            return out
        }
        BEGIN { nign = split(ignore, ign, " ") }
        function ignored(s,    i, n, w, j) {
            n = split(s, w, /[ |;]/)
            for (i = 1; i <= nign; i++)
                for (j = 1; j <= n; j++)
                    if (w[j] == ign[i]) return 1
            return 0
        }
        NR == 1 { next }
        /^# / && !human { ncol = split(substr($0, 3), col, " ") }   # the last "#" line names the columns
        {
            line = $0
            gsub(/-?[0-9]+\.[0-9]+(e[-+]?[0-9]+)?/, "~", line)
            gsub(/[ \t]+/, " ", line)
            if (line !~ /^#/ && ncol) {
                n = split(line, f, " ")
                if (matrix) {
                    for (i = 2; i <= n; i++)
                        if (!ignored(col[i])) print f[1], col[i], f[i]
                    next
                }
                line = ""
                for (i = 1; i <= n; i++)
                    line = line (i > 1 ? " " : "") (col[i] ~ /^m(ax|in)_rank$/ ? "~" : f[i])
            }
            if (matrix && line ~ /^#/) next
            if (human && line ~ /^Partners: /) line = "Partners: " sorted(substr(line, 11))
            if (!human) { if (!ignored(line)) print line; next }
            if (line == "" || line == " ") { if (block != "" && !ignored(block)) print block; block = ""; next }
            block = block (block == "" ? "" : " | ") line
        }
        END { if (human && block != "" && !ignored(block)) print block }' "$1" | LC_ALL=C sort
}

rc=0
(cd "$1" && ls -A) > "$tmp/1"
(cd "$2" && ls -A) > "$tmp/2"
if ! cmp -s "$tmp/1" "$tmp/2"; then
    echo "files in one directory only (< $1, > $2):"
    diff "$tmp/1" "$tmp/2" | grep '^[<>]'
    rc=1
fi
for f in $(comm -12 "$tmp/1" "$tmp/2"); do
    masked "$1/$f" > "$tmp/a"
    masked "$2/$f" > "$tmp/b"
    if ! cmp -s "$tmp/a" "$tmp/b"; then
        echo "$f differs (< $1, > $2; times as ~, sorted):"
        diff "$tmp/a" "$tmp/b" | grep '^[<>]' | head -20
        rc=1
    fi
done
exit $rc
