#!/bin/sh
# t_mpi1.sh: mpiprof-mpi1 runs all 13 benchmarks with -msglog 0:4 on 2 and
# on 4 processes; its tables have exactly the benchmarks, process counts,
# lengths and repetitions of the guide's rules (0 and 2^0..2^4, the
# reductions without 1 and 2; 1000 repetitions, or -iter), times that are
# positive and ordered, and throughputs n_msg x / 1.048576 / t_max.
. "$top_srcdir/tests/integration/lib.sh"
. "$top_srcdir/tests/integration/t_mpi1_lib.sh"

all="PingPong PingPing Sendrecv Exchange Bcast Allgather Allgatherv Alltoall Alltoallv Reduce Reduce_scatter Allreduce Barrier"
lens="0 1 2 4 8 16"

# On 4 processes (2 cores), MPICH's busy polling makes every call wait a
# time slice: few repetitions there.
iter4=20
[ "$MPI_FLAVOR" = mpich ] && iter4=2

for np in 2 4; do
    iter=0
    flags=
    [ "$np" -eq 4 ] && { iter=$iter4; flags="-iter $iter4"; }
    # shellcheck disable=SC2086
    run "$np" "$mpi1" -msglog 0:4 $flags > "$work/out$np" 2> "$work/err$np" ||
        fail "np $np: mpiprof-mpi1 -msglog 0:4 $flags runs"
    check "np $np: nothing on stderr" sh -c "! grep -v '^+ ' '$work/err$np'"
    tables "$work/out$np" > "$work/rows$np"
    # shellcheck disable=SC2086
    expected_rows "$np" "$iter" "$lens" $all > "$work/want$np"
    awk '{ print $1, $2, $3, $4, $5, $6 }' "$work/rows$np" > "$work/got$np"
    same "np $np: benchmarks, process counts, lengths and repetitions ($(wc -l < "$work/want$np") rows)" \
        "$work/want$np" "$work/got$np"

    check "np $np: times >= 0, t_min <= t_avg <= t_max, t_max > 0 for every length > 0 and Barrier" awk '
        { if ($7 < 0 || $7 > $9 + 0.01 || $9 > $8 + 0.01 || (($5 == "-" || $5 > 0) && $8 <= 0)) { print "bad times: " $0; bad = 1 } }
        END { exit bad }' "$work/rows$np"
    check "np $np: Mbytes/sec = n_msg x / 1.048576 / t_max (PingPong, PingPing 1, Sendrecv 2, Exchange 4), none for collectives" awk '
        BEGIN { f["PingPong"] = 1; f["PingPing"] = 1; f["Sendrecv"] = 2; f["Exchange"] = 4 }
        {
            if (!($1 in f)) { if ($10 != "-") { print "throughput for " $1; bad = 1 } next }
            want = f[$1] * $5 / 1.048576 / $8
            d = $10 - want; if (d < 0) d = -d
            if (d > 0.01 + 0.05 * want) { print "bad throughput (want " want "): " $0; bad = 1 }
        }
        END { exit bad }' "$work/rows$np"
    check "np $np: header names the length range and the datatypes" awk '
        /^# Minimum message length in bytes: 0$/ { a = 1 } /^# Maximum message length in bytes: 16$/ { b = 1 }
        /^# MPI_Datatype +: MPI_BYTE$/ { c = 1 } /^# MPI_Datatype for reductions +: MPI_FLOAT$/ { d = 1 }
        /^# MPI_Op +: MPI_SUM$/ { e = 1 } /^# MPI Thread Environment: MPI_THREAD_/ { f = 1 }
        END { exit !(a && b && c && d && e && f) }' "$work/out$np"
done
check "np 4: PingPong runs on 2 processes, 2 idle" grep -q '^# ( 2 additional processes idle )$' "$work/out4"
finish
