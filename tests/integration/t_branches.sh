#!/bin/sh
# t_branches.sh: call sites (branches.c on 4 ranks) at depth 1 and 5: one
# branch per send site, the recursion's ancestors in order, the same branch
# id on every rank, exact partner counts and bytes (MPI_ANY_SOURCE receives
# completed by MPI_Waitany included), file:line with -g, function names
# without debug information, module+offset for a stripped binary.
. "$top_srcdir/tests/integration/lib.sh"

np=4
prog="$top_builddir/tests/integration/branches"
run "$np" "$prog" > "$work/plain.out" || fail "branches runs without the profiler"

profile() {   # profile NAME DEPTH PROGRAM
    run "$np" "$launcher" -q --depth "$2" -o "$work/$1" "$3" > "$work/$1.out" || fail "$1: profiled run"
    check "$1: program output unchanged" cmp "$work/plain.out" "$work/$1.out"
}

# rows REPORT FUNCTION SITE-REGEX: branches.txt rows of that function and site.
rows() {
    awk -v fn="$2" -v re="$3" '!/^#/ && $3 == fn && $15 ~ re' "$work/$1/branches.txt"
}

# One branch per site per rank, with the same id on every rank.
same_ids() {   # same_ids REPORT FUNCTION SITE-REGEX CALLS
    rows "$1" "$2" "$3" | awk -v np="$np" -v calls="$4" '
        { n[$1]++; ids[$2] = 1; if ($4 != calls) { print "rank " $1 ": " $4 " calls"; bad = 1 } }
        END { for (r = 0; r < np; r++) if (n[r] != 1) { print "rank " r ": " n[r] " branches"; bad = 1 }
              k = 0; for (i in ids) k++
              if (k != 1) { print k " different ids"; bad = 1 }
              exit bad }'
}

brid() {   # brid REPORT FUNCTION SITE-REGEX: the id (rank 0)
    rows "$1" "$2" "$3" | awk '$1 == 0 { print $2 }'
}

# partners REPORT FUNCTION SITE-REGEX LEFT-COUNT LEFT-BYTES RIGHT-COUNT RIGHT-BYTES:
# on every rank, exactly these partners (left = rank-1, right = rank+1).
partners() {
    id=$(brid "$1" "$2" "$3")
    [ -n "$id" ] || { echo "no branch $2 $3"; return 1; }
    awk -v id="$id" -v np="$np" -v lc="$4" -v lb="$5" -v rc="$6" -v rb="$7" '
        /^#/ || $2 != id { next }
        { left = ($1 + np - 1) % np; right = ($1 + 1) % np
          if ($4 == left && $6 == lc && $7 == lb) { ok[$1, "l"]++; next }
          if ($4 == right && $6 == rc && $7 == rb) { ok[$1, "r"]++; next }
          print "unexpected: " $0; bad = 1 }
        END { for (r = 0; r < np; r++) {
                  if (lc > 0 && ok[r, "l"] != 1) { print "rank " r ": left partner missing"; bad = 1 }
                  if (rc > 0 && ok[r, "r"] != 1) { print "rank " r ": right partner missing"; bad = 1 } }
              exit bad }' "$work/$1/partners.txt"
}

two_recv_branches() {   # two_recv_branches REPORT
    awk -v np="$np" '!/^#/ && $3 == "MPI_Recv" { n[$4]++; id[$4, $2] = 1 }
        END { for (k in id) { split(k, f, SUBSEP); ids[f[1]]++ }
              exit !(n[3] == np && n[1] == np && ids[3] == 1 && ids[1] == 1) }' "$work/$1/branches.txt"
}

ancestors() {   # ancestors REPORT FUNCTION SITE-REGEX: the callers' names (rank 0)
    rows "$1" "$2" "$3" | awk '$1 == 0 { n = split($16, a, ";"); s = ""
        for (i = 1; i <= n; i++) { sub(/@.*/, "", a[i]); s = s (i > 1 ? " " : "") a[i] } print s }'
}

for depth in 1 5; do
    r=d$depth
    profile "$r" "$depth" "$prog"
    check "$r: send_alpha: one branch per rank, 3 calls, same id everywhere" \
        same_ids "$r" MPI_Send '^send_alpha@branches[.]c:[0-9]+$' 3
    check "$r: send_beta: one branch per rank, 1 call, same id everywhere" \
        same_ids "$r" MPI_Send '^send_beta@branches[.]c:[0-9]+$' 1
    a=$(brid "$r" MPI_Send '^send_alpha@'); b=$(brid "$r" MPI_Send '^send_beta@')
    check "$r: the two send sites are distinct branches ($a, $b)" test -n "$a" -a -n "$b" -a "$a" != "$b"
    if [ "$depth" = 1 ]; then
        check "$r: recursion: one MPI_Recv branch, 4 calls, same id everywhere" \
            same_ids "$r" MPI_Recv '^recv_down@branches[.]c:[0-9]+$' 4
    else
        # main calls recv_down from two lines: two stacks, 3 and 1 calls.
        check "$r: recursion: two MPI_Recv branches (3 and 1 calls), same ids everywhere" two_recv_branches "$r"
    fi
    check "$r: send_alpha sends 3 x 40 bytes to rank+1" partners "$r" MPI_Send '^send_alpha@' 0 0 3 120
    check "$r: send_beta sends 1 x 80 bytes to rank-1" partners "$r" MPI_Send '^send_beta@' 1 80 0 0
    if [ "$depth" = 1 ]; then
        check "$r: recv_down receives 3 x 40 from rank-1 and 80 from rank+1" partners "$r" MPI_Recv '^recv_down@' 3 120 1 80
    fi
    check "$r: MPI_ANY_SOURCE Irecv resolved at MPI_Waitany: 20 bytes from each neighbour" \
        partners "$r" MPI_Irecv '^main@' 1 20 1 20
    check "$r: Isend: 20 bytes to each neighbour" partners "$r" MPI_Isend '^main@' 1 20 1 20
    check "$r: Waitany completed 2 requests with each neighbour, 40 bytes" partners "$r" MPI_Waitany '^main@' 2 40 2 40
    check "$r: avg_send and avg_recv of the sites" sh -c "
        [ \"\$(awk '!/^#/ && \$15 ~ /^send_alpha@/ { print \$10 }' '$work/$r/branches.txt' | sort -u)\" = 40 ] &&
        [ \"\$(awk '!/^#/ && \$15 ~ /^recv_down@/ { n += \$9; b += \$9 * \$11 } END { print n, b }' '$work/$r/branches.txt')\" = '16 800' ]"
done
check "d1: no ancestors at depth 1" test "$(ancestors d1 MPI_Recv '^recv_down@')" = "-"
check "d1: ancestors column is '-'" test "$(rows d1 MPI_Recv '^recv_down@' | awk '{ print $16 }' | sort -u)" = "-"
anc=$(ancestors d5 MPI_Recv '^recv_down@' | sort -u)
case "$anc" in
    "recv_down recv_down main"*) ok "d5: recursion ancestors in order: $anc" ;;
    *) fail "d5: recursion ancestors: '$anc', expected 'recv_down recv_down main ...'" ;;
esac
check "d5: branches.human shows the ancestors" grep -q '^Ancestors: recv_down recv_down main' "$work/d5/branches.human"
check "d5: branches.human lists partners of the receive" grep -q '^Partners: [0-9]*:#-:[0-9.]*' "$work/d5/branches.human"
check "depth 1 and 5 give different ids for the recursion (different stacks)" \
    test "$(brid d1 MPI_Recv '^recv_down@')" -ge 1

# Without debug information: function names remain; stripped: module+offset.
objcopy --strip-debug "$prog" "$work/branches_nodebug"
strip --strip-all -o "$work/branches_stripped" "$prog"
profile nodebug 5 "$work/branches_nodebug"
check "no debug info: sites named by function and module+offset" \
    same_ids nodebug MPI_Send '^send_alpha@branches_nodebug[+]0x[0-9a-f]+$' 3
anc=$(ancestors nodebug MPI_Recv '^recv_down@' | sort -u)
case "$anc" in
    "recv_down recv_down main"*) ok "no debug info: ancestors still named: $anc" ;;
    *) fail "no debug info: ancestors '$anc'" ;;
esac
profile stripped 1 "$work/branches_stripped"
check "stripped: sites are module+offset, same ids on every rank" \
    same_ids stripped MPI_Waitany '^branches_stripped[+]0x[0-9a-f]+$' 4
check "stripped: two distinct MPI_Send branches" \
    test "$(awk '!/^#/ && $1 == 0 && $3 == "MPI_Send"' "$work/stripped/branches.txt" | wc -l)" -eq 2

# Many sites (bench/mpiprof-sites): 1000 branches per rank, 1000 distinct
# ids, the same set on both ranks.
run 2 "$launcher" -q -o "$work/sites" "$top_builddir/bench/mpiprof-sites" > /dev/null
check "1000 call sites: 1000 MPI_Comm_rank branches per rank with the same 1000 ids" awk '
    !/^#/ && $3 == "MPI_Comm_rank" { n[$1]++; if ($4 != 1) bad = 1; ids[$2]++ }
    END { k = 0; for (i in ids) { k++; if (ids[i] != 2) bad = 1 }
          exit bad || n[0] != 1000 || n[1] != 1000 || k != 1000 }' "$work/sites/branches.txt"

# MPIPROF_PARTNERS=0: no partner rows.
MPIPROF_PARTNERS=0 run "$np" "$launcher" -q -o "$work/nop" "$prog" > /dev/null
check "MPIPROF_PARTNERS=0: partners.txt has no rows" test "$(grep -vc '^#' "$work/nop/partners.txt")" -eq 0
finish
