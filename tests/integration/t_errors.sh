#!/bin/sh
# t_errors.sh: the program's MPI errors pass through the profiler (issue 22
# item 5). errors.c makes erroneous calls (bad rank, negative count, bad
# tag, MPI_DATATYPE_NULL, MPI_OP_NULL, MPI_COMM_NULL, bad root; one-sided
# calls on a window that returns its errors) under
# MPI_ERRORS_RETURN and under error handlers of its own that count their
# calls, and valid calls of every family; each rank's lines (error code,
# class, handler calls, also after MPI_Finalize) must be the same without
# the profiler and under each option. The report counts the failed calls,
# with no bytes.
. "$top_srcdir/tests/integration/lib.sh"
set -f    # the options hold globs for the launcher

prog="$top_builddir/tests/integration/errors"
np=4
[ "$MPI_FLAVOR" = mpich ] && np=2     # MPICH busy-polls: 2 ranks on 2 cores

# MPICH's error codes carry a 4-bit sequence number (bits 26-29) that is
# different in every run, profiled or not: it is zeroed before comparing.
# The rest is compared: the class, the kind of error and the index in
# MPICH's ring of error messages, which counts the errors raised so far (an
# error the profiler raised would shift it). Open MPI's codes are classes.
normalize() {
    $AWK -v mpich="$([ "$MPI_FLAVOR" = mpich ] && echo 1)" '{
        for (i = 1; i <= NF; i++)
            if (mpich && $i ~ /^rc=[0-9]+$/) {
                v = substr($i, 4) + 0
                $i = "rc=" (v - (int(v / 67108864) % 16) * 67108864)
            }
        print }' "$@"
}

# errors_run NAME [VARIABLE=VALUE ...] [launcher options ...]: errors.c on
# $np ranks, under the launcher with the options and in the environment
# (NAME plain: without the launcher); its lines, normalized, in
# $work/NAME.txt.
errors_run() {
    local name=$1 envs="" opts="" w
    shift
    for w in "$@"; do
        case $w in
            [A-Z]*=*) envs="$envs $w" ;;
            *) opts="$opts $w" ;;
        esac
    done
    mkdir -p "$work/$name"
    if [ "$name" = plain ]; then
        run $np "$prog" "$work/$name" < /dev/null > "$work/$name.log" 2>&1
    else
        run $np env $envs "$launcher" -q -o "$work/$name.rep" $opts "$prog" "$work/$name" \
            < /dev/null > "$work/$name.log" 2>&1
    fi || { fail "$name: errors exits with status $?:"; cat "$work/$name.log"; }
    r=0
    while [ $r -lt $np ]; do
        cat "$work/$name/$r.out"
        r=$((r + 1))
    done | normalize | sort > "$work/$name.txt"
}

errors_run plain
# The program's premises, without the profiler: every erroneous call fails
# (class not MPI_SUCCESS) and calls exactly its communicator's handler,
# once, with the code it returns; valid calls call none.
check "without the profiler: $np x 144 lines" test "$(wc -l < "$work/plain.txt")" -eq $((np * 144))
check "without the profiler: each erroneous call fails, part 2 through its own handler once" $AWK '
    / part [12] / && / rc=/ { n++; if ($0 ~ / class=0( |$)/) { print "succeeded: " $0; bad = 1 } }
    / part 2 (world|mine|null|win) / { want = $5 == "mine" ? "world_handler=0 mine_handler=1" : \
                                           $5 == "win" ? "world_handler=0 mine_handler=0" : "world_handler=1 mine_handler=0"
        if (index($0, want " handler_code_same=1") == 0) { print "handlers: " $0; bad = 1 } }
    / valid calls: | after MPI_Finalize: / && !/world_handler=0 mine_handler=0$/ { print; bad = 1 }
    END { exit bad || n == 0 }' "$work/plain.txt"

# Each option of mpiprof(1) that changes what the profiler does around a
# call; --chain with a second PMPI tool after mpiprof (pmpicount.c, as in
# t_chain.sh).
# The option sets two at a time (each run is mostly mpirun's start and
# end, as t_badinput.sh's cases): each set's lines in $work/set.N, then
# printed and compared in the list's order. MPICH one at a time: its
# busy-polling ranks, 4 on 2 cores, would wait a scheduler slice a call.
at_once=2
[ "$MPI_FLAVOR" = mpich ] && at_once=1
count="$top_builddir/tests/integration/.libs/libpmpicount.so"
n=0
while read -r name opts; do
    n=$((n + 1))
    echo "$name $opts" > "$work/set.$n"
    errors_run "$name" $opts < /dev/null > "$work/set.$n.verdict" 2>&1 &
    [ $((n % at_once)) -eq 0 ] && wait
done <<EOF
default
depth5 --depth 5
nopartners MPIPROF_PARTNERS=0
slt --slt
collwait --collwait
perfect --model perfect
latbw --model lat=10,bw=1000,cpu=2
functions --functions MPI_Send,MPI_Recv,MPI_Bcast,MPI_Comm_*
noregions --no-regions
snapshot --snapshot 1 MPIPROF_PARTIAL=1
nopartial MPIPROF_PARTIAL=0
chain LD_PRELOAD=$count PMPICOUNT_OUT=$work/chain.count --chain
everything --depth 5 --slt --collwait --model perfect
EOF
wait
i=0
while [ $i -lt $n ]; do
    i=$((i + 1))
    read -r name opts < "$work/set.$i"
    cat "$work/set.$i.verdict"
    failures=$((failures + $(grep -c '^FAIL: ' "$work/set.$i.verdict")))
    if diff "$work/plain.txt" "$work/$name.txt" > "$work/$name.diff"; then
        ok "$name ($opts): error codes, classes and handler calls as without the profiler"
    else
        fail "$name ($opts): lines differ (< without, > with the profiler):"
        head -40 "$work/$name.diff"
    fi
done
check "chain: the second tool saw the calls (rank 0's counts)" test -s "$work/chain.count.0"

# Failed calls are counted, with no bytes: MPI_Send's 11 erroneous calls per
# part and rank, plus rank 0's 3 valid sends of 8 bytes.
check "functions.txt: MPI_Send counts the failed calls, bytes only for the valid ones" $AWK -v np=$np '
    !/^#/ && $2 == "MPI_Send" { n++; calls = 22 + ($1 == 0) + 2 * ($1 == np - 1); bytes = 8 * ($1 == 0) + 16 * ($1 == np - 1)
        if ($3 != calls || $7 != bytes) { print "rank " $1 ": " $3 " calls, " $7 " bytes"; bad = 1 } }
    END { exit bad || n != np }' "$work/default.rep/functions.txt"
finish
