#!/bin/sh
# check-layers.sh: libprof's includes run one way. libprof/ is six folders,
# each a layer, lowest first:
#
#   base      services every file may use: log, options, maps, buffers, locks
#   core      the hot path: the call record, tables, handles, requests, hooks, events
#   report    gathering, keys, symbols, branches, the writers of the core's files
#   link      what the processes tell each other: the nodes' clocks on one
#             timeline, the tokens, the shadow communicators, the answers
#   analysis  one analysis each (late sender, collective wait, model, ...) and its file
#   run       MPI_Init, MPI_Finalize, configuration, snapshots
#
# A file may include the headers of its own layer and of the layers below
# it, never one above (libprof/README.md); and an analysis never includes
# another analysis' header (an analysis is the files of one name before
# its first "_": model.c, model_rma.c, model.h), so that the analyses meet
# only in the layers below them. The exceptions still to be removed are
# listed below as "file header"; the check fails on an include not allowed
# and not listed, and on a listed one that is gone (then delete its line),
# so the list only shrinks.
#
# Usage: check-layers.sh [srcdir]   (under make check, no argument: $top_srcdir)
set -u
srcdir=${1:-${top_srcdir:-.}}
lib=$srcdir/libprof
layers="base core report link analysis run"

known="
"

[ -d "$lib/core" ] || { echo "check-layers: no $lib/core" >&2; exit 2; }
level() {
    n=0
    for l in $layers; do
        [ "$l" = "$1" ] && { echo $n; return; }
        n=$((n + 1))
    done
    echo -1
}

# The analysis a file of analysis/ belongs to: its name before "_" or ".".
analysis_of() {
    b=${1##*/}
    b=${b%%.*}
    echo "${b%%_*}"
}

found=$(
    for dir in $layers; do
        for f in "$lib/$dir"/*.[ch]; do
            [ -f "$f" ] || continue
            sed -n 's/^[ \t]*#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$f" | while read -r h; do
                for to in $layers; do
                    [ -f "$lib/$to/$h" ] || continue
                    [ "$(level "$to")" -gt "$(level "$dir")" ] && echo "$dir/${f##*/} $h"
                    [ "$to" = analysis ] && [ "$dir" = analysis ] &&
                        [ "$(analysis_of "$h")" != "$(analysis_of "$f")" ] && echo "$dir/${f##*/} $h"
                done
            done
        done
    done | sort -u)
expected=$(printf '%s\n' "$known" | sed '/^$/d' | sort -u)

bad=0
new=$(printf '%s\n' "$found" | grep -vxF "$expected" | sed '/^$/d')
gone=$(printf '%s\n' "$expected" | grep -vxF "$found" | sed '/^$/d')
if [ -n "$new" ]; then
    printf '%s\n' "$new" | while read -r f h; do
        case $f in
        analysis/*) [ -f "$lib/analysis/$h" ] && {
            echo "check-layers: libprof/$f includes $h, another analysis' header (they meet in link/, core/ or report/)"
            continue
        } ;;
        esac
        echo "check-layers: libprof/$f includes $h, of a layer above its own (order: $layers)"
    done
    bad=1
fi
if [ -n "$gone" ]; then
    printf '%s\n' "$gone" | while read -r f h; do
        echo "check-layers: libprof/$f no longer includes $h: delete its line from the known list of $0"
    done
    bad=1
fi
[ $bad = 0 ] && echo "check-layers: $(printf '%s\n' "$found" | sed '/^$/d' | wc -l) includes up or across analyses, all known"
exit $bad
