#!/bin/sh
# t_mpi1_check.sh: mpiprof-mpi1 -check verifies every received buffer: all
# 13 benchmarks on 2, 3 and 4 processes, with lengths that are not multiples
# of 4, report 0 defects; with the test hook BENCH_CHECK_CORRUPT (one byte,
# or one float, changed in every received message before its check) the
# defects are exactly the number of non-empty messages checked.
. "$top_srcdir/tests/integration/lib.sh"
. "$top_srcdir/tests/integration/t_mpi1_lib.sh"

all="PingPong PingPing Sendrecv Exchange Bcast Allgather Allgatherv Alltoall Alltoallv Reduce Reduce_scatter Allreduce Barrier"
for np in 2 3 4; do
    iter=10 lens="0 3 8 1001 65537"
    # MPICH busy-polls: on 3 and 4 processes (2 cores) every call waits a time slice
    [ "$MPI_FLAVOR" = mpich ] && [ "$np" -gt 2 ] && iter=1 lens="0 3 1001"
    printf '# lengths for t_mpi1_check\n%s\n' $lens > "$work/lengths"
    run "$np" "$mpi1" -check -msglen "$work/lengths" -iter "$iter" > "$work/out$np" ||
        fail "np $np: -check runs"
    tables "$work/out$np" > "$work/rows$np"
    # shellcheck disable=SC2086
    expected_rows "$np" "$iter" "$lens" $all > "$work/want$np"
    awk '{ print $1, $2, $3, $4, $5, $6 }' "$work/rows$np" > "$work/got$np"
    same "np $np: every benchmark, process count and length checked ($(wc -l < "$work/want$np") rows)" \
        "$work/want$np" "$work/got$np"
    check "np $np: 0 defects in every row" awk '$11 != "0" { print "defects: " $0; bad = 1 } END { exit bad }' "$work/rows$np"
    check "np $np: labelled as not valid benchmark data" grep -q '^# !! -check: .*NOT valid benchmark data$' "$work/out$np"
done

# The hook: defects = messages checked per execution x repetitions, per row,
# on Q = 2 processes: a PingPong or PingPing execution checks 2 messages,
# Sendrecv Q, Exchange 2Q, Bcast Q-1, Allgather(v) and Alltoall(v) Q*Q,
# Reduce 1 (the root), Reduce_scatter one per process with floats
# (min(Q, x/4)), Allreduce Q; length 0 and Barrier none.
(BENCH_CHECK_CORRUPT=1 && export BENCH_CHECK_CORRUPT && run 2 "$mpi1" -check -msglog 2:3 -iter 5) > "$work/corrupt" ||
    fail "-check with BENCH_CHECK_CORRUPT runs"
tables "$work/corrupt" | awk '{ print $1, $2, $5, $6, $11 }' > "$work/corrupt.got"
# shellcheck disable=SC2086
expected_rows 2 5 "0 4 8" $all | awk '
    { name = $1; q = $2; x = $5; n = $6
      k["PingPong"] = 2; k["PingPing"] = 2; k["Sendrecv"] = q; k["Exchange"] = 2 * q; k["Bcast"] = q - 1
      k["Allgather"] = k["Allgatherv"] = k["Alltoall"] = k["Alltoallv"] = q * q
      k["Reduce"] = 1; k["Reduce_scatter"] = (x / 4 < q) ? x / 4 : q; k["Allreduce"] = q; k["Barrier"] = 0
      print name, q, x, n, (x == "-" || x == 0) ? 0 : k[name] * n }' > "$work/corrupt.want"
same "BENCH_CHECK_CORRUPT: defects = non-empty messages checked, every benchmark" "$work/corrupt.want" "$work/corrupt.got"
check "BENCH_CHECK_CORRUPT: some defects found" awk '$5 > 0 { n++ } END { exit !(n >= 24) }' "$work/corrupt.got"

run 2 "$mpi1" PingPong -msglog 0:1 > "$work/plain" || fail "a run without -check"
check "no defects column and no check label without -check" sh -c "! grep -q -e defects -e '-check' '$work/plain'"
finish
