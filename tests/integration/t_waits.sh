#!/bin/sh
# t_waits.sh: wait states and their causes (--waits, waits.txt). (1) The
# known answer of mpiprof-known waits for each class (the collectives,
# persistent ones on MPICH, the fence, wrong order, late receiver): the row of the class names the late
# rank and its region (both call sites exactly) and its caused_s is within
# 20 % (floor 10 ms) of the late rank's compute times the ranks that
# waited; no other row of that class causes more than 10 ms. (2) A chain of late senders then a
# collective, all charged to the region where it began, named first by
# mpiprof-report show. (3) Program output unchanged for every collective
# (colls.c) and on intercommunicators (intercolls.c, not measured). (4)
# With --collwait too, collective wait's figures stay the known answer
# (the wait states' barrier is theirs). (5) Without the option: no
# waits.txt. (6) Ranks that disagree: off everywhere, one message. (7)
# waits.txt names the eager limits used (from MPI_T on Open MPI, fixed on
# MPICH), and on Open MPI an 8 KiB rendezvous (shared memory) is late
# receiver. Open MPI at 4 ranks (oversubscribed), MPICH at 2.
. "$top_srcdir/tests/integration/lib.sh"

known="$top_builddir/bench/mpiprof-known"
np=4
[ "$MPI_FLAVOR" = mpich ] && np=2

# causes_within PCT FLOOR FILE.out REPORT: the causes= item of the expect
# line (CLASS/RANK/FROM/TO/SECONDS) against REPORT/waits.txt.
causes_within() {
    awk -v pct="$1" -v floor="$2" '
        FNR == NR { for (i = 1; i <= NF; i++) if ($i ~ /^causes=/) {
                        split(substr($i, 8), w, "/"); cls = w[1]; rk = w[2]; from = w[3]; to = w[4]; want = w[5] }
                    next }
        /^#/ { next }
        $1 == cls && $5 == rk && $9 == from && $10 == to { got += $2; found++; next }
        $1 == cls && $2 > floor { printf "another %s row causes %s s: %s\n", cls, $2, $0; bad = 1 }
        END { tol = want * pct / 100 < floor ? floor : want * pct / 100; d = got - want; if (d < 0) d = -d
              printf "%s rank %s %s..%s: caused_s %.4f, expected %.4f +- %.4f (%d rows)\n", cls, rk, from, to,
                     got, want, tol, found
              exit bad || !cls || found != 1 || d > tol }' "$3" "$4/waits.txt"
}

# (1) each class's known answer: 5 calls of 40 ms, so that the floor is
# 2 ms a call (a barrier on 4 ranks over 2 cores took 1.7 to 2.4 ms a call
# beside a whole test suite).
# The persistent collectives (MPI-4.0: MPICH here) as their nonblocking forms.
persistent=
[ "$MPI_FLAVOR" = mpich ] && persistent="pbcast pallreduce"
for c in barrier nxn bcast reduce scan fence order ssend issend rendezvous ibcast iallreduce iscan $persistent \
    latepost earlywait latecomplete lock lockall; do
    timed causes_within "waits -c $c: the late rank's region and the wait it caused" 20 0.010 \
        $np "$work/$c.out" "$work/$c" "$launcher" -q --waits -o "$work/$c" "$known" waits -c $c -k 5 -d 40
done
# The eager limits the late receiver used, from the MPI's control variables
# (Open MPI's shared-memory and TCP transports) or fixed (MPICH's ch4:ucx
# names none), and an 8 KiB rendezvous on Open MPI's shared memory (above
# its 4 KiB limit) classified as late receiver.
if [ "$MPI_FLAVOR" = mpich ]; then
    eager='# eager: node=65536 node_from=fixed network=65536 network_from=fixed'
else
    eager='# eager: node=4096 node_from=btl_vader_eager_limit network=65536 network_from=btl_tcp_eager_limit'
    timed causes_within "waits -c rendezvous -s 8192 (Open MPI shared memory, limit 4 KiB): late receiver" 20 0.010 \
        2 "$work/rv8k.out" "$work/rv8k" "$launcher" -q --waits -o "$work/rv8k" "$known" waits -c rendezvous -k 5 -d 40 \
        -s 8192
fi
check "waits.txt: the eager limits used" grep -qx "$eager" "$work/bcast/waits.txt"
# Open MPI 4's limits without MPI_T (220 ms of MPI_Init there): from its
# environment (as mpirun --mca sets it), and through MPI_T when a parameter
# file names one.
if [ "$MPI_FLAVOR" = openmpi ]; then
    mkdir -p "$work/home/.openmpi"
    echo "btl_vader_eager_limit = 2048" > "$work/home/.openmpi/mca-params.conf"
    OMPI_MCA_btl_tcp_eager_limit=1000 run 2 "$launcher" -q --waits -o "$work/eager-env" "$known" waits -c bcast -k 1 -d 1 \
        > /dev/null || fail "waits -c bcast, OMPI_MCA_btl_tcp_eager_limit=1000"
    check "waits.txt: the TCP limit from OMPI_MCA_btl_tcp_eager_limit" grep -qx \
        '# eager: node=4096 node_from=btl_vader_eager_limit network=1000 network_from=OMPI_MCA_btl_tcp_eager_limit' \
        "$work/eager-env/waits.txt"
    HOME=$work/home run 2 "$launcher" -q --waits -o "$work/eager-file" "$known" waits -c bcast -k 1 -d 1 > /dev/null ||
        fail "waits -c bcast, a parameter file naming btl_vader_eager_limit"
    check "waits.txt: the shared-memory limit of ~/.openmpi/mca-params.conf, read through MPI_T" grep -qx \
        '# eager: node=2048 node_from=btl_vader_eager_limit network=65536 network_from=btl_tcp_eager_limit' \
        "$work/eager-file/waits.txt"
fi
check "waits.txt: the column line" grep -qx \
    '# class caused_s waits ranks rank from_brid to_brid waited_at from_site to_site' "$work/bcast/waits.txt"
# bcast: every non-root rank waited 10 times at one site, the Bcast's.
check "waits.txt: late_broadcast waits, ranks and the site waited at" awk -v np=$np '
    FILENAME ~ /sites.txt$/ { if ($2 == "MPI_Bcast" && $13 ~ /^round_of@known_waits.c:/) id = $1; next }
    $1 == "late_broadcast" && $5 == 0 { ok = $3 == 5 * (np - 1) && $4 == np - 1 && $8 == id && id }
    END { exit !ok }' "$work/bcast/sites.txt" "$work/bcast/waits.txt"
check "waits.txt: the region's ends are branch ids of MPI_Comm_rank and MPI_Reduce" awk '
    FILENAME ~ /sites.txt$/ { fn[$1] = $2; next }
    $1 == "early_reduce" && $9 ~ /^round_of/ { ok = fn[$6] == "MPI_Comm_rank" && fn[$7] == "MPI_Reduce" }
    END { exit !ok }' "$work/reduce/sites.txt" "$work/reduce/waits.txt"

# (2) a chain: rank 0 late to its send, each rank waiting for the one
# before it (late sender), then an MPI_Allreduce waiting for the last: the
# late_sender row is rank 0's region within 20 % (floor 10 ms), the
# MPI_Allreduce's waits (nxn) are charged to it too through the chain, and
# mpiprof-report show names that region first.
timed causes_within "waits -c chain: late senders down the chain, caused by rank 0's region" 20 0.010 \
    $np "$work/chain.out" "$work/chain" "$launcher" -q --waits -o "$work/chain" "$known" waits -c chain -k 10 -d 20
region=$(sed -n 's|.* causes=late_sender/0/\([^/]*\)/\([^/]*\)/.*|\1 \2|p' "$work/chain.out")
check "waits -c chain: the collective's waits are charged to rank 0's region too" awk -v r="$region" '
    $1 == "nxn" && $5 == 0 && $9 " " $10 == r && $2 > 0 { ok = 1 } END { exit !ok }' "$work/chain/waits.txt"
if [ -n "${PYTHON:-}" ] && [ "$PYTHON" != : ] && "$PYTHON" -c 'import pandas' 2> /dev/null; then
    PYTHONDONTWRITEBYTECODE=1 "$top_builddir/tools/mpiprof-report" show "$work/chain" \
        > "$work/show.out" 2>&1 || fail "mpiprof-report show of the chain's report"
    cat "$work/show.out"
    check "mpiprof-report show: the first table is the causes, rank 0's region first" awk -v r="$region" '
        /^What made other ranks wait/ { t = NR } t && NR == t + 2 { ok = $4 == 0 && $NF == substr(r, index(r, " ") + 1) &&
                                                                   $(NF - 2) == substr(r, 1, index(r, " ") - 1) }
        /^Top .* MPI functions/ && !t { early = 1 } END { exit !ok || early }' "$work/show.out"
else
    echo "no Python 3 with pandas: mpiprof-report show not checked"
fi

# (3) every collective, and intercommunicators: the program's output.
for p in colls intercolls; do
    prog="$top_builddir/tests/integration/$p"
    run 4 "$prog" | sort > "$work/plain.out" || fail "$p runs"
    run 4 "$launcher" -q --waits -o "$work/$p" "$prog" | sort > "$work/prof.out" || fail "$p under --waits"
    check "$p: same output with --waits" cmp "$work/plain.out" "$work/prof.out"
    check "$p: waits.txt written" test -s "$work/$p/waits.txt"
done

# (4) with --collwait: collective wait's known answer holds (5 calls, as
# in (1)); the last rank's floor as in t_collwait.sh (4 ms a call on MPICH).
floor=0.010
[ "$MPI_FLAVOR" = mpich ] && floor=0.020
timed_within "--waits --collwait: MPI_Allreduce's wait_s per rank within 20 % (floor $floor s)" 20 $floor \
    $np "$work/imb.out" "$work/imb" "$launcher" -q --waits --collwait -o "$work/imb" "$known" imbalance -k 5 -d 40
check "--waits --collwait: the imbalance's cause is the last rank's region" awk -v np=$np '
    $1 == "nxn" && $5 == np - 1 && $2 > 0.1 { ok = 1 } END { exit !ok }' "$work/imb/waits.txt"

# (5) without the option.
run 2 "$launcher" -q -o "$work/off" "$known" waits -c bcast -k 2 -d 0 > /dev/null || fail "waits without --waits"
check "no waits.txt without --waits" test ! -e "$work/off/waits.txt"

# (6) ranks that disagree (one with --waits, one without): one message, no
# wait states and no late sender anywhere, the job completes.
run 1 "$launcher" -o "$work/mix" --waits "$known" waits -c ibcast -k 3 -d 1 : \
    -np 1 "$launcher" -q "$known" waits -c ibcast -k 3 -d 1 > "$work/mix.out" 2> "$work/mix.err" ||
    fail "a job with --waits on one rank only"
check "disagreement: one message" test "$(grep -c 'MPIPROF_EVAL_WAITS is not the same on every rank; wait states is off' \
    "$work/mix.err")" -eq 1
check "disagreement: no waits.txt, no slt.txt" test ! -e "$work/mix/waits.txt" -a ! -e "$work/mix/slt.txt"
check "disagreement: the program's result" grep -q '^expect=waits-ibcast ranks=2 calls=3' "$work/mix.out"
finish
