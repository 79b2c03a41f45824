#!/bin/sh
# tests/check-dist.sh SRCDIR TARBALL: whether the release tarball holds
# every file git tracks in SRCDIR, but those that are not meant to ship
# (listed below). Exit 0 when it does; 1, naming the files left out, when
# not; 2 when it cannot tell (no tarball, SRCDIR not a git checkout).
# make distcheck-quick runs it (tests/Makefile.inc).
src=${1:-.}
tarball=${2:-}
[ -n "$tarball" ] && [ -f "$tarball" ] || { echo "check-dist: no tarball '$tarball'" >&2; exit 2; }
git -C "$src" rev-parse --git-dir > /dev/null 2>&1 || { echo "check-dist: $src is not a git checkout" >&2; exit 2; }

# Not shipped: git's own files (.gitkeep holds an empty folder in git; autoreconf makes m4/).
not_shipped='^(\.gitignore|\.gitattributes|.*/\.gitkeep)$'

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
tar tzf "$tarball" | sed 's|^[^/]*/||' | sort -u > "$tmp/dist" || exit 2
git -C "$src" ls-files | grep -Ev "$not_shipped" | sort -u > "$tmp/tracked"
missing=$(comm -13 "$tmp/dist" "$tmp/tracked")
if [ -n "$missing" ]; then
    echo "check-dist: $(printf '%s\n' "$missing" | wc -l) tracked files are not in $tarball (add them to EXTRA_DIST, or to not_shipped in $0):"
    printf '  %s\n' $missing
    exit 1
fi
echo "check-dist: $tarball holds all $(wc -l < "$tmp/tracked") tracked files"
