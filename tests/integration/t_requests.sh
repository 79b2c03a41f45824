#!/bin/sh
# t_requests.sh: the request map (issue 24 items 1, 3, 4) with
# issue_24_requests.c on 2 ranks: exact partner counts of the completion
# calls, and no "# note:" about untracked or foreign requests.
. "$top_srcdir/tests/integration/lib.sh"

prog="$top_builddir/tests/integration/issue_24_requests"

# prof NAME MODE N [FUNCTIONS]: run MODE under the profiler into $work/NAME.
prof() {
    name=$1 mode=$2 n=$3
    if [ -n "${4:-}" ]; then MPIPROF_FUNCTIONS=$4; export MPIPROF_FUNCTIONS; fi
    run 2 "$launcher" -q -o "$work/$name" "$prog" "$mode" "$n" > "$work/$name.out" 2>&1
    status=$?
    unset MPIPROF_FUNCTIONS
    return $status
}

# partners NAME FUNCTION COUNT BYTES: on each rank the FUNCTION rows of
# partners.txt (over its branches) name the other rank COUNT times, BYTES.
partners() {
    awk -v fn="$2" -v want="$3 $4" '
        /^#/ { next }
        $3 == fn { if ($4 != 1 - $1) bad = 1; n[$1] += $6; b[$1] += $7 }
        END { for (r = 0; r < 2; r++) if (n[r] " " b[r] != want) { print "rank " r ": " n[r] " " b[r] ", want " want; bad = 1 }
              exit bad }' "$work/$1/partners.txt"
}

no_note() {
    ! grep -h "^# note: .*$2" "$work/$1"/*.txt
}

# Item 1: completion runs whether profiled or not. 20,000 exchanges polled
# with an unprofiled MPI_Testall (more than the map's 16,384 slots), then
# 10 completed by a profiled MPI_Waitall.
iters=20000
prof poll poll $iters MPI_Isend,MPI_Irecv,MPI_Waitall || fail "poll runs under the profiler"
check "poll: no untracked requests" no_note poll "not tracked"
check "poll: MPI_Isend partners exact" partners poll MPI_Isend $((iters + 10)) $((4 * (iters + 10)))
check "poll: MPI_Irecv partners exact" partners poll MPI_Irecv $((iters + 10)) $((4 * (iters + 10)))
check "poll: MPI_Waitall completed 20 requests" partners poll MPI_Waitall 20 80

# Item 3: sends that complete at once (Open MPI may return one shared
# request for them) each count once.
prof shared shared 50 || fail "shared runs under the profiler"
check "shared: MPI_Waitall completed 150 requests" partners shared MPI_Waitall 150 600

# Item 3: a handle of a persistent request freed by an unprofiled
# MPI_Request_free, given out again to MPI_Isend/MPI_Irecv, is a new request
# (1 int, not the persistent request's 2).
prof freed freed 30 MPI_Isend,MPI_Irecv,MPI_Waitall,MPI_Send_init,MPI_Recv_init,MPI_Startall ||
    fail "freed runs under the profiler"
check "freed: MPI_Waitall rows exact (persistent 60 x 8 bytes, then 60 x 4)" awk '
    /^#/ { next }
    $3 == "MPI_Waitall" { rows[$1]++; seen[$1, $6 ":" $7]++ }
    END { for (r = 0; r < 2; r++) if (rows[r] != 2 || seen[r, "60:480"] != 1 || seen[r, "60:240"] != 1) { print "rank " r; bad = 1 }
          exit bad }' "$work/freed/partners.txt"

# Item 4: of 8 persistent requests one send and one receive are started per
# iteration; MPI_Waitall over all 8 completes those 2.
prof persist persist 40 || fail "persist runs under the profiler"
check "persist: MPI_Waitall completed 80 requests" partners persist MPI_Waitall 80 320

# Item 1: partial success. MPI_Waitall returns MPI_ERR_IN_STATUS (one
# truncated receive); the requests whose status says MPI_SUCCESS count, the
# MPI_ERR_PENDING ones stay tracked for the second MPI_Waitall: 3 requests
# (4 + 8 + 4 bytes) per iteration, the truncated one none.
prof truncate truncate 20 || fail "truncate runs under the profiler"
check "truncate: the MPI returned MPI_ERR_IN_STATUS as expected" test "$(grep -c '^[01] truncate: ok$' "$work/truncate.out")" -eq 2
check "truncate: MPI_Waitall completed 60 requests" partners truncate MPI_Waitall 60 320

# Item 3: MPI_THREAD_MULTIPLE, two threads per rank posting and completing
# at once: no request is taken for another thread's.
[ "$MPI_FLAVOR" = mpich ] && titers=100 || titers=2000
prof threads threads $titers
status=$?
if [ "$status" -ne 77 ] && ! grep -q "exit code 77\|exit status 77" "$work/threads.out"; then
    [ "$status" -eq 0 ] || fail "threads runs under the profiler"
    check "threads: no request completed on another thread" no_note threads "another thread"
    check "threads: MPI_Waitall completed $((4 * titers)) requests" partners threads MPI_Waitall $((4 * titers)) $((16 * titers))
fi
finish
