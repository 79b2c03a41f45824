#!/bin/sh
# check-docs.sh: do the man pages and the README name what the code defines?
#
#   check-docs.sh SRCDIR
#   (no argument, as under make check: $top_srcdir)
#
# Reads the sources, not a build. Fails (exit 1), naming every missing item:
#   (a) an MPIPROF_* variable of PROF_OPTIONS (libprof/base/config.h), or a
#       module's switch (.option = "NAME" in libprof/*/*.c: MPIPROF_NAME),
#       that man/mpiprof.1 does not name;
#   (b) a long flag of the launcher's usage text (tools/mpiprof.in: the lines
#       of its first here-document that start with spaces and '-') that
#       man/mpiprof.1 does not name;
#   (c) a column of a PROF_*_COLUMNS list of libprof/report/report.h or of a
#       module's file in libprof/ (at least PROF_SUMMARY_COLUMNS and
#       PROF_FUNCTIONS_COLUMNS) that man/mpiprof-report.5 does not name;
#   (d) a report file of the writers in libprof/*/*.c (the .file of each
#       struct prof_writer initialiser, and each MATRIX(name, ...) use)
#       that man/mpiprof-report.5 does not name, or that the FILES section
#       of man/mpiprof.1 does not;
#   (e) README.md without "./quickstart demo" or "./quickstart test";
#   (f) a man page or the README with a control character other than tab
#       (a roff escape written through a string that took \f for a form
#       feed, as three once did).
# A name counts as found when it appears in the page's text (roff comments
# left out, font and hyphen escapes undone) as a whole word. Exit 0 with a
# one-line summary; exit 2 on usage errors or missing sources.

me=check-docs.sh
usage() {
    echo "usage: $me SRCDIR" >&2
    exit 2
}
case $# in
    1) srcdir=$1 ;;
    0) srcdir=${top_srcdir:-} ;;
    *) usage ;;
esac
[ -n "$srcdir" ] || usage
for f in libprof/base/config.h libprof/report/report.h libprof/report/report.c tools/mpiprof.in; do
    [ -f "$srcdir/$f" ] || { echo "$me: no $srcdir/$f" >&2; exit 2; }
done

man1=$srcdir/man/mpiprof.1
man5=$srcdir/man/mpiprof-report.5
readme=$srcdir/README.md
failures=0

fail() {
    echo "$me: FAIL: $*" >&2
    failures=$((failures + 1))
}

# roff text as a reader sees it: no comments, \- as -, no font changes.
plain() {
    sed -e '/^\.\\"/d' -e 's/\\".*//' -e 's/\\-/-/g' -e 's/\\(hy/-/g' \
        -e 's/\\f[BIRP1-4]//g' -e 's/\\f([A-Z][A-Z]//g' -e 's/\\f\[[^]]*\]//g' \
        -e 's/\\&//g' -e 's/\\e/\\/g' "$1"
}

# missing FILE BEFORE AFTER WORDS: the words of WORDS (separated by blanks or
# newlines) that the text of FILE (from plain) lacks as a whole word: not
# preceded by a character of BEFORE nor followed by one of AFTER.
missing() {
    plain "$1" | awk -v words="$4" -v before="$2" -v after="$3" '
        function found(word,    s, p, b, a) {
            s = text
            while ((p = index(s, word)) > 0) {
                b = p > 1 ? substr(s, p - 1, 1) : ""
                a = substr(s, p + length(word), 1)
                if ((b == "" || index(before, b) == 0) && (a == "" || index(after, a) == 0))
                    return 1
                s = substr(s, p + 1)
            }
            return 0
        }
        { text = text "\n" $0 }
        END {
            n = split(words, w, " ")
            for (i = 1; i <= n; i++)
                if (!found(w[i]))
                    print w[i]
        }'
}

alnum=ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789
ident=${alnum}_

# check WHAT PAGE SOURCE BEFORE AFTER NAMES: report the NAMES missing from PAGE.
check() {
    what=$1 page=$2 source=$3 before=$4 after=$5 names=$6
    if [ ! -f "$page" ]; then
        fail "${page#"$srcdir"/} is missing (it must name every $what of $source)"
        return
    fi
    for name in $(missing "$page" "$before" "$after" "$names"); do
        fail "${page#"$srcdir"/} does not name the $what $name ($source)"
    done
}

# (a) MPIPROF_* variables: X(NAME, ...) rows of the PROF_OPTIONS macro.
vars=$(awk '
    /^#define[ \t]+PROF_OPTIONS\(/ { on = 1 }
    on {
        s = $0
        while (match(s, /X\([ \t]*[A-Z][A-Z0-9_]*[ \t]*,/)) {
            name = substr(s, RSTART + 2, RLENGTH - 3)
            gsub(/[ \t]/, "", name)
            print "MPIPROF_" name
            s = substr(s, RSTART + RLENGTH)
        }
        if ($0 !~ /\\[ \t]*$/) on = 0
    }' "$srcdir/libprof/base/config.h")
vars="$vars
$(sed -n 's/^[ \t]*\.option[ \t]*=[ \t]*"\([A-Z][A-Z0-9_]*\)".*/MPIPROF_\1/p' "$srcdir"/libprof/*/*.c)"
[ -n "$vars" ] || fail "found no variables in PROF_OPTIONS of libprof/base/config.h (parser out of date?)"
check "variable" "$man1" "PROF_OPTIONS in libprof/base/config.h, .option in libprof/*/*.c" "$ident" "$ident" "$vars"

# (b) Long flags: option lines of the launcher's usage here-document.
flags=$(awk '
    !on && match($0, /<<-?[ \t]*["'\'']?[A-Za-z_][A-Za-z0-9_]*/) {
        end = substr($0, RSTART + 2, RLENGTH - 2)
        gsub(/[-"'\'' \t]/, "", end)
        on = 1
        next
    }
    on && $0 == end { exit }
    on && /^[ \t]+-/ {
        s = $0
        while (match(s, /--[A-Za-z0-9][A-Za-z0-9-]*/)) {
            print substr(s, RSTART, RLENGTH)
            s = substr(s, RSTART + RLENGTH)
        }
    }' "$srcdir/tools/mpiprof.in" | sort -u)
[ -n "$flags" ] || fail "found no long flags in the usage text of tools/mpiprof.in (parser out of date?)"
check "launcher flag" "$man1" "usage text of tools/mpiprof.in" "$alnum-" "$alnum-" "$flags"

# (c) Report columns: X(name) items of every PROF_*_COLUMNS macro.
columns=$(awk '
    /^#define[ \t]+PROF_[A-Z0-9_]*_COLUMNS\(/ {
        on = 1
        list = $2
        sub(/\(.*/, "", list)
        print "list " list
    }
    on {
        s = $0
        sub(/^#define[ \t]+PROF_[A-Z0-9_]*_COLUMNS\(X\)/, "", s)
        while (match(s, /X\([ \t]*[a-z][a-z0-9_]*[ \t]*\)/)) {
            name = substr(s, RSTART + 2, RLENGTH - 3)
            gsub(/[ \t]/, "", name)
            print name
            s = substr(s, RSTART + RLENGTH)
        }
        if ($0 !~ /\\[ \t]*$/) on = 0
    }' "$srcdir/libprof/report/report.h" "$srcdir"/libprof/*/*.c)
lists=$(printf '%s\n' "$columns" | sed -n 's/^list //p')
columns=$(printf '%s\n' "$columns" | sed '/^list /d' | sort -u)
for l in PROF_SUMMARY_COLUMNS PROF_FUNCTIONS_COLUMNS; do
    printf '%s\n' "$lists" | grep -qx "$l" ||
        fail "found no $l in libprof/report/report.h (parser out of date?)"
done
check "column" "$man5" "PROF_*_COLUMNS in libprof/report/report.h and libprof/*/*.c" "$ident" "$ident" "$columns"

# (d) Report files: the .file = "name" of each struct prof_writer, and
# MATRIX(name, ...) uses (the file is the macro's string prefix + name).
files=$(for f in "$srcdir"/libprof/*/*.c; do
    [ -f "$f" ] || continue
    awk '
        { text = text " " $0 }
        /^[ \t]*#[ \t]*define[ \t]+MATRIX\(/ { def = 1 }
        def {
            if (match($0, /"[^"]*"[ \t]*#[ \t]*name/)) {
                prefix = substr($0, RSTART + 1, RLENGTH)
                sub(/".*/, "", prefix)
            }
            if ($0 !~ /\\[ \t]*$/) def = 0
            next
        }
        /^[ \t]*MATRIX\([ \t]*[A-Za-z_][A-Za-z0-9_]*/ {
            s = $0
            sub(/^[ \t]*MATRIX\([ \t]*/, "", s)
            sub(/[^A-Za-z0-9_].*/, "", s)
            uses[++n] = s
        }
        END {
            s = text
            while (match(s, /\.file[ \t]*=[ \t]*"[^"]*"/)) {
                name = substr(s, RSTART, RLENGTH)
                sub(/^[^"]*"/, "", name)
                sub(/"$/, "", name)
                if (name !~ /[.]$/)     # "matrix." #name: the MATRIX prefix
                    print name
                s = substr(s, RSTART + RLENGTH)
            }
            if (prefix == "")
                prefix = "matrix."
            for (i = 1; i <= n; i++)
                print prefix uses[i]
        }' "$f"
done | sort -u)
[ -n "$files" ] || fail "found no report files in libprof/*/*.c (parser out of date?)"
check "report file" "$man5" "writers in libprof/*/*.c" "${ident}." "$ident" "$files"
files1=$(mktemp) || exit 2
trap 'rm -f "$files1"' EXIT
sed -n '/^\.SH FILES/,/^\.SH /p' "$man1" > "$files1"
for name in $(missing "$files1" "${ident}." "$ident" "$files"); do
    fail "man/mpiprof.1 FILES does not name the report file $name (writers in libprof/*/*.c)"
done

# (e) The README's quick start.
if [ ! -f "$readme" ]; then
    fail "README.md is missing"
else
    for cmd in "./quickstart demo" "./quickstart test"; do
        grep -qF "$cmd" "$readme" || fail "README.md lacks '$cmd'"
    done
fi

# (f) No control characters but tabs in the pages.
for page in "$srcdir"/man/*.[15] "$readme"; do
    [ -f "$page" ] || continue
    bad=$(LC_ALL=C grep -n "$(printf '[\001-\010\013-\037\177]')" "$page" | cut -d: -f1 | tr '\n' ' ')
    [ -z "$bad" ] || fail "${page#"$srcdir"/} has control characters on lines $bad"
done

count() { printf '%s\n' "$1" | grep -c .; }
if [ "$failures" -gt 0 ]; then
    echo "$me: $failures failure(s)" >&2
    exit 1
fi
echo "$me: ok: $(count "$vars") variables and $(count "$flags") flags in mpiprof(1)," \
     "$(count "$columns") columns and $(count "$files") files in mpiprof-report(5), quickstart in README.md"
exit 0
