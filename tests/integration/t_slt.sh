#!/bin/sh
# t_slt.sh: late sender (--slt). The known answers of mpiprof-known
# late-sender, late-receiver, late-exchange (a receive and a send in one
# MPI_Waitall: the receive's whole wait), late-senders (both receive modes) and
# late-waitall (one call's time counted once) within 20 % (floor 5 ms); the partner's branch named; exact evaluated counts;
# all four also with the token sent at the sender's next send
# (MPIPROF_TEST_TOKEN=next: every receive evaluated when its token comes,
# after it completed) and in batches (batch); p2psem also with the token
# after its message, at the next send and in batches;
# every point-to-point construct of p2psem.c with the same output under
# --slt, --collwait and both; a communicator freed before its tokens came
# (freedcomm.c) freed at once, its receives evaluated; mpiprof-mpi1 -check clean under both; and
# ranks that disagree run with it off.
. "$top_srcdir/tests/integration/lib.sh"

known="$top_builddir/bench/mpiprof-known"
np=4
[ "$MPI_FLAVOR" = mpich ] && np=2     # MPICH busy-polls: 2 ranks on 2 cores

# The known answers of late sender with the token where it goes ($1:
# before its message, the default, at the sender's next send,
# MPIPROF_TEST_TOKEN=next: each receive is then evaluated when its token
# comes, after it completed, or in batches), the reports in $work/$1.*.
known_answers() {
    local at=$1 w mode
    MPIPROF_TEST_TOKEN=$at
    export MPIPROF_TEST_TOKEN
    for w in late-sender late-receiver late-exchange; do
        timed_within "$w (token $at): send_late_s per rank within 20 % (floor 5 ms) of the answer" \
            20 0.005 $np "$work/$at.$w.out" "$work/$at.$w" "$launcher" -q --slt -o "$work/$at.$w" "$known" $w -k 10 -d 20
    done
    # Rank 1's receives: 10 MPI_Recv, all evaluated (after: the last one's
    # token taken in at MPI_Finalize), one partner: rank 0's MPI_Send
    # branch, named by its id.
    check "late-sender (token $at): 10 evaluated MPI_Recv on rank 1" awk '
        !/^#/ && $1 == 1 && $3 == "MPI_Recv" { n++; ok = $4 == 10 && $5 == 0 } END { exit !(n == 1 && ok) }' \
        "$work/$at.late-sender/slt.txt"
    send_id=$(awk '!/^#/ && $1 == 0 && $3 == "MPI_Send" { print $2 }' "$work/$at.late-sender/branches.txt")
    check "late-sender (token $at): rank 1's partner is rank 0's MPI_Send branch (#$send_id)" awk -v id="$send_id" '
        !/^#/ && $1 == 1 && $3 == "MPI_Recv" { n++; ok = $4 == 0 && $5 == id && $6 == 10 && $12 > 90 }
        END { exit !(n == 1 && ok && id != "") }' "$work/$at.late-sender/partners.txt"
    check "late-sender (token $at): the transfer is small (under 20 % of the wait)" awk '
        !/^#/ && $1 == 1 && $3 == "MPI_Recv" { n++; ok = $8 < 0.2 * $6 && $6 > 0 } END { exit !(n == 1 && ok) }' \
        "$work/$at.late-sender/slt.txt"

    # Partners from MPI_ANY_SOURCE, each later by its own delay: rank 0's
    # send_late_s per partner (summed over its branches) within 20 %; its
    # 15 receives evaluated.
    for mode in waitany recv; do
        run_timed $np "$launcher" -q --slt -o "$work/$at.any-$mode" "$known" late-senders \
            -k 5 -d 20 -m $mode > "$work/$at.any-$mode.out" || fail "late-senders -m $mode under --slt (token $at)"
        check "late-senders -m $mode (token $at): send-late per partner within 20 % (floor 5 ms)" awk '
            FNR == NR { for (i = 1; i <= NF; i++) if ($i ~ /^partners=/) n = split(substr($i, 10), p, ",")
                        for (k = 1; k <= n; k++) { split(p[k], rv, ":"); want[rv[1]] = rv[2] }
                        next }
            /^#/ { next }
            $1 == 0 && $4 in want { got[$4] += $10 }
            END { for (r in want) { tol = want[r] * 0.2 < 0.005 ? 0.005 : want[r] * 0.2
                                    d = got[r] - want[r]; if (d < 0) d = -d
                                    printf "partner %s: send_late_s %.4f, expected %.4f +- %.4f\n", r, got[r], want[r], tol
                                    if (d > tol) bad = 1; k++ }
                  exit bad || !k }' "$work/$at.any-$mode.out" "$work/$at.any-$mode/partners.txt"
        [ $np -eq 4 ] && check "late-senders -m $mode (token $at): rank 0's 15 receives evaluated" awk '
            !/^#/ && $1 == 0 { e += $4; s += $5 } END { exit !(e == 15 && s == 0) }' "$work/$at.any-$mode/slt.txt"
    done
    unset MPIPROF_TEST_TOKEN
}
known_answers before
known_answers next
known_answers batch

# One MPI_Waitall completes two receives whose messages were sent D and
# 4 x D ms into it: its time counted once. Rank 0's send-late is 4 x D a
# round (within 20 %), never more than its MPI time; slt.txt's receive
# wait of each MPI_Irecv branch is branches.txt's (the call split between
# the requests one way, p2p.c), and those two add up to the Waitall's
# time_s; partners.txt's wait and send-late of each are slt.txt's; the
# two branches' send-late add up to the rank's, the second's (3 x D a
# round) larger than the first's (with the token at the next send or in
# batches too: the two are evaluated together once both tokens came, and
# the call's parts made anew from their send-late times); under
# --waits the late-sender rows add up to the rank's send-late, within its
# MPI time.
# column NAME FILE: the column of NAME in FILE's "# rank ..." header.
column() {
    awk -v name="$1" '/^# rank / { for (i = 2; i <= NF; i++) if ($i == name) { print i - 1; exit } }' "$2"
}
waitall_answers() {
    local at=$1
    MPIPROF_TEST_TOKEN=$at
    export MPIPROF_TEST_TOKEN
    timed_within "late-waitall (token $at): send_late_s per rank within 20 % (floor 5 ms) of the answer" 20 0.005 \
        2 "$work/$at.waitall.out" "$work/$at.waitall" "$launcher" -q --slt -o "$work/$at.waitall" "$known" late-waitall -k 3 -d 10
    check "late-waitall (token $at): rank 0's 6 receives evaluated" awk '
        !/^#/ && $1 == 0 && $3 == "MPI_Irecv" { e += $4; s += $5 } END { exit !(e == 6 && s == 0) }' \
        "$work/$at.waitall/slt.txt"
    sl=$(column send_late_s "$work/$at.waitall/summary.txt")
    ms=$(column mpi_s "$work/$at.waitall/summary.txt")
    check "late-waitall (token $at): send_late_s <= mpi_s on every rank" awk -v sl="$sl" -v ms="$ms" '
        !/^#/ { n++; printf "rank %s: send_late_s %s, mpi_s %s\n", $1, $sl, $ms; if ($sl > $ms) bad = 1 }
        END { exit bad || n != 2 || !sl || !ms }' "$work/$at.waitall/summary.txt"
    rw=$(column recv_wait_s "$work/$at.waitall/branches.txt")
    srw=$(column recv_wait_s "$work/$at.waitall/slt.txt")
    check "late-waitall (token $at): slt.txt's recv_wait_s of each MPI_Irecv branch is branches.txt's" awk -v rw="$rw" -v srw="$srw" '
        FNR == NR { if (!/^#/ && $3 == "MPI_Irecv") want[$1 " " $2] = $rw; next }
        !/^#/ && $3 == "MPI_Irecv" { n++; printf "branch %s: %s, branches.txt %s\n", $2, $srw, want[$1 " " $2]
                                     if ($srw != want[$1 " " $2]) bad = 1 }
        END { exit bad || n != 2 || !rw || !srw }' "$work/$at.waitall/branches.txt" "$work/$at.waitall/slt.txt"
    sl=$(column send_late_s "$work/$at.waitall/summary.txt")
    check "late-waitall (token $at): the two receives' send-late add up to rank 0's, the second's (3 x D a round) the larger" \
        awk -v sl="$sl" '
        FILENAME ~ /summary/ { if (!/^#/ && $1 == 0) all = $sl; next }
        FILENAME ~ /branches/ { if (!/^#/ && $3 == "MPI_Irecv") { split($(NF - 1), f, ":"); line[$2] = f[2] }; next }
        !/^#/ && $3 == "MPI_Irecv" { n++; late[$2] = $7; sum += $7 }
        END { for (b in late) if (first == "" || line[b] < line[first]) first = b
              for (b in late) if (b != first) second = b
              d = sum - all; if (d < 0) d = -d
              printf "send-late %.6f (first receive) and %.6f s, rank 0 %.6f s\n", late[first], late[second], all
              exit !(n == 2 && d < 2e-6 && late[second] > late[first] && late[first] > 0) }' \
        "$work/$at.waitall/summary.txt" "$work/$at.waitall/branches.txt" "$work/$at.waitall/slt.txt"
    ti=$(column time_s "$work/$at.waitall/branches.txt")
    check "late-waitall (token $at): the MPI_Waitall's time_s is its two receives' recv_wait_s (the call split once)" awk -v ti="$ti" -v rw="$rw" '
        !/^#/ && $1 == 0 && $3 == "MPI_Waitall" { w += $ti; nw++ }
        !/^#/ && $1 == 0 && $3 == "MPI_Irecv" { r += $rw; nr++ }
        END { d = w - r; if (d < 0) d = -d
              printf "MPI_Waitall time_s %.9f, the receives recv_wait_s %.9f\n", w, r
              exit !(nw == 1 && nr == 2 && w > 0 && d < 2e-6) }' "$work/$at.waitall/branches.txt"
    prw=$(column recv_wait_s "$work/$at.waitall/partners.txt")
    psl=$(column send_late_s "$work/$at.waitall/partners.txt")
    ssl=$(column send_late_s "$work/$at.waitall/slt.txt")
    check "late-waitall (token $at): partners.txt's recv_wait_s and send_late_s of each MPI_Irecv branch are slt.txt's" awk \
        -v prw="$prw" -v psl="$psl" -v srw="$srw" -v ssl="$ssl" '
        FNR == NR { if (!/^#/ && $3 == "MPI_Irecv") { w[$1 " " $2] += $prw; l[$1 " " $2] += $psl }; next }
        !/^#/ && $3 == "MPI_Irecv" { k = $1 " " $2; n++
                                     printf "branch %s: partners.txt %.9f %.9f, slt.txt %s %s\n", $2, w[k], l[k], $srw, $ssl
                                     dw = w[k] - $srw; dl = l[k] - $ssl
                                     if (dw * dw > 1e-18 || dl * dl > 1e-18) bad = 1 }
        END { exit bad || n != 2 || !prw || !psl || !ssl }' "$work/$at.waitall/partners.txt" "$work/$at.waitall/slt.txt"
    unset MPIPROF_TEST_TOKEN
}
waitall_answers before
waitall_answers next
waitall_answers batch
run 2 "$launcher" -q --waits -o "$work/waitall-w" "$known" late-waitall -k 3 -d 10 > /dev/null ||
    fail "late-waitall under --waits"
ms=$(column mpi_s "$work/waitall-w/summary.txt")
sl=$(column send_late_s "$work/waitall-w/summary.txt")
check "late-waitall --waits: waits.txt's late_sender rows add up to rank 0's send_late_s, within its mpi_s" awk \
    -v ms="$ms" -v sl="$sl" '
    FNR == NR { if (!/^#/ && $1 == 0) { mpi = $ms; late = $sl }; next }
    !/^#/ && $1 == "late_sender" { sum += $2; n++ }
    END { d = sum - late; if (d < 0) d = -d
          printf "late_sender %.6f s in %d rows, rank 0 send_late_s %.6f, mpi_s %.4f\n", sum, n, late, mpi
          exit !(n >= 1 && sum > 0 && d < 1e-6 * (n + 1) && sum <= mpi) }' \
    "$work/waitall-w/summary.txt" "$work/waitall-w/waits.txt"

# Every construct: the same output without the profiler, with --slt,
# --collwait and both. At 4 ranks on Open MPI (3 on MPICH: a few dozen calls).
sem="$top_builddir/tests/integration/p2psem"
snp=4
[ "$MPI_FLAVOR" = mpich ] && snp=3
run $snp "$sem" | sort > "$work/sem.plain" || fail "p2psem runs"
check "p2psem prints every construct" test "$(wc -l < "$work/sem.plain")" -eq 18
for opts in "--slt" "--collwait" "--slt --collwait"; do
    tag=$(echo "$opts" | tr -d ' -')
    run $snp "$launcher" -q $opts -o "$work/sem-$tag" "$sem" | sort > "$work/sem.$tag" || fail "p2psem under $opts"
    check "p2psem: same output under $opts" cmp "$work/sem.plain" "$work/sem.$tag"
done
# The token after its message, at the sender's next send and in batches
# (MPIPROF_TEST_TOKEN): the same output, and the report's invariants
# (mpiprof-report check: partners add up to their sites) with the receives
# evaluated when their tokens came.
for at in after next batch; do
    MPIPROF_TEST_TOKEN=$at
    export MPIPROF_TEST_TOKEN
    run $snp "$launcher" -q --slt -o "$work/sem-$at" "$sem" | sort > "$work/sem.$at" || fail "p2psem under --slt, token $at"
    unset MPIPROF_TEST_TOKEN
    check "p2psem: same output under --slt, token $at" cmp "$work/sem.plain" "$work/sem.$at"
    if [ -n "${PYTHON:-}" ] && [ "$PYTHON" != : ] && "$PYTHON" -c 'import pandas' 2> /dev/null; then
        check "p2psem --slt, token $at: every invariant of mpiprof-report check holds" \
            env PYTHONDONTWRITEBYTECODE=1 "$top_builddir/tools/mpiprof-report" check "$work/sem-$at"
    fi
done
check "p2psem --slt, token next: receives evaluated when their tokens came" awk '
    !/^#/ { e += $4 } END { exit !(e > 0) }' "$work/sem-next/slt.txt"

# A communicator freed by rank 1 while rank 0, which sent it 3 messages a
# round, computes 20 ms before freeing it (10 rounds): with the tokens
# before their messages and in batches (sent at rank 0's freeing), rank 1's
# MPI_Comm_free takes no time to speak of (under 50 ms in all, where
# waiting for the tokens would take 10 x 20 ms), and its 30 receives are
# evaluated (their tokens taken in after the freeing).
freed="$top_builddir/tests/integration/freedcomm"
for at in before batch; do
    MPIPROF_TEST_TOKEN=$at
    export MPIPROF_TEST_TOKEN
    run 2 "$launcher" -q --slt -o "$work/freed-$at" "$freed" 10 20 > "$work/freed-$at.out" ||
        fail "freedcomm under --slt, token $at"
    unset MPIPROF_TEST_TOKEN
    check "freedcomm (token $at): rank 1's MPI_Comm_free under 0.05 s in all" awk '
        { print; for (i = 1; i <= NF; i++) if ($i ~ /^comm_free_s=/) t = substr($i, 13) }
        END { exit !(NR == 1 && t != "" && t < 0.05 && !/WRONG/) }' "$work/freed-$at.out"
    check "freedcomm (token $at): rank 1's 30 receives evaluated" awk '
        !/^#/ && $1 == 1 { e += $4; s += $5 } END { exit !(e == 30 && s == 0) }' "$work/freed-$at/slt.txt"
done

check "p2psem --slt: receives evaluated, and the Test-completed ones not" awk '
    !/^#/ { e += $4; n += $5 } END { exit !(e > 0 && n > 0) }' "$work/sem-slt/slt.txt"
check "p2psem --slt: rank 0's slt_eval_pct between 0 and 100 (the Test-completed receives left out)" awk '
    /^# rank/ { for (i = 1; i <= NF; i++) if ($i == "slt_eval_pct") c = i - 1; next }
    !/^#/ && $1 == 0 { n++; ok = $c > 0 && $c < 100 } END { exit !(n == 1 && ok && c) }' "$work/sem-slt/summary.txt"
check "p2psem --slt: a note counts the receives not evaluated" grep -q \
    '^# note: [1-9][0-9]* receives were not evaluated for late sender' "$work/sem-slt/summary.txt"

# IMB's check mode under both analyses: every buffer right.
run 2 "$launcher" -q --slt --collwait -o "$work/imb" "$top_builddir/bench/mpiprof-mpi1" -check -iter 5 -msglog 0:12 \
    > "$work/imb.out" || fail "mpiprof-mpi1 -check under --slt --collwait"
check "mpiprof-mpi1 -check: no defects under --slt --collwait" awk '
    /defects/ { on = 1; next } /^#/ { on = 0 } on && NF > 3 { n++; if ($NF != 0) bad = 1 } END { exit bad || !n }' \
    "$work/imb.out"

# Ranks that disagree: one message, off everywhere, the program unchanged.
run 1 "$launcher" -o "$work/mix" --slt "$known" late-sender -k 3 -d 1 : \
    -np 1 "$launcher" -q "$known" late-sender -k 3 -d 1 > "$work/mix.out" 2> "$work/mix.err" ||
    fail "a job with --slt on one rank only"
check "disagreement: one message" test "$(grep -c 'MPIPROF_EVAL_SLT is not the same on every rank; late-sender analysis is off' \
    "$work/mix.err")" -eq 1
check "disagreement: no slt.txt" test ! -e "$work/mix/slt.txt"
finish
