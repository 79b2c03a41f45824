#!/bin/sh
# t_threads.sh: MPI_THREAD_MULTIPLE (threads.c, 2 ranks x 4 threads):
# per-thread counts in threads.txt (threads alive at MPI_Finalize, exiting
# after it) and totals in functions.txt are exact, output unchanged; threads
# that exit before MPI_Finalize are summed as thread "exited" (issue 24
# item 7); a single-threaded run has no threads.txt.
. "$top_srcdir/tests/integration/lib.sh"

prog="$top_builddir/tests/integration/threads"
run 2 "$prog" > "$work/plain.out"
status=$?
[ "$status" -eq 77 ] && { echo "SKIP: no MPI_THREAD_MULTIPLE here"; exit 77; }
[ "$status" -eq 0 ] || fail "threads runs without the profiler"
run 2 "$launcher" -q -o "$work/rep" "$prog" keep > "$work/prof.out" || fail "threads runs under the profiler"
check "program output identical with and without the profiler" cmp "$work/plain.out" "$work/prof.out"
check "threads.txt written" test -s "$work/rep/threads.txt"
check "threads.txt column line" grep -qx '# rank thread function calls time_s bytes_sent bytes_recv' "$work/rep/threads.txt"

# Per rank: four worker threads with 5t sends and receives of 4t bytes each
# (t = 1..4: 5, 10, 15, 20 calls; 20, 80, 180, 320 bytes), whatever order
# they got their thread numbers in; the main thread does the rest.
check "threads.txt: every worker thread's counts exact" awk '
    /^#/ { next }
    $3 == "MPI_Send" { send[$1, $4, $6] += 1; sendthr[$1, $2] = $4 " " $6 " " $7 }
    $3 == "MPI_Recv" { recvthr[$1, $2] = $4 " " $6 " " $7 }
    END {
        for (r = 0; r < 2; r++) for (t = 1; t <= 4; t++) {
            want = (5 * t) " " (20 * t * t)
            if (send[r, 5 * t, 20 * t * t] != 1) { print "rank " r ": no thread with MPI_Send " want; bad = 1 }
        }
        for (k in sendthr) {
            split(sendthr[k], s, " "); split(recvthr[k], v, " ")
            if (s[1] != v[1] || s[3] != 0 || v[2] != 0 || v[3] != s[2]) { print "thread " k ": send " sendthr[k] " recv " recvthr[k]; bad = 1 }
        }
        exit bad }' "$work/rep/threads.txt"
check "threads.txt: the main thread made the communicator calls" awk '
    /^#/ { next }
    { n[$1, $2, $3] = $4 }
    END { for (r = 0; r < 2; r++) if (n[r, 0, "MPI_Comm_dup"] != 4 || n[r, 0, "MPI_Comm_free"] != 4 ||
                                      n[r, 0, "MPI_Barrier"] != 1 || n[r, 0, "MPI_Comm_rank"] != 1) { print "rank " r; bad = 1 }
          exit bad }' "$work/rep/threads.txt"
check "functions.txt: totals over the threads (50 sends and receives, 600 bytes)" awk '
    /^#/ { next }
    ($2 == "MPI_Send" || $2 == "MPI_Recv") { n[$1, $2] = $3 " " $7 + $8 }
    END { for (r = 0; r < 2; r++) if (n[r, "MPI_Send"] != "50 600" || n[r, "MPI_Recv"] != "50 600") { print "rank " r ": " n[r, "MPI_Send"] " / " n[r, "MPI_Recv"]; bad = 1 }
          exit bad }' "$work/rep/functions.txt"
check "summary.txt: mpi_calls per rank = 100 + 11" awk '!/^#/ && $6 != 111 { print; bad = 1 } END { exit bad }' "$work/rep/summary.txt"

# Workers joined before MPI_Finalize: folded at their exit into "exited".
run 2 "$launcher" -q -o "$work/joined" "$prog" > "$work/joined.out" || fail "threads (joined) runs under the profiler"
check "joined threads: program output unchanged" cmp "$work/plain.out" "$work/joined.out"
check "joined threads: main thread and the exited ones, exact" awk '
    /^#/ { next }
    { n[$1, $2, $3] = $4 " " $6 " " $7; rows++ }
    END { for (r = 0; r < 2; r++)
              if (n[r, "exited", "MPI_Send"] != "50 600 0" || n[r, "exited", "MPI_Recv"] != "50 0 600" ||
                  n[r, 0, "MPI_Comm_dup"] != "4 0 0" || n[r, 0, "MPI_Barrier"] != "1 0 0") { print "rank " r; bad = 1 }
          if (rows != 2 * 7) { print rows " rows"; bad = 1 }
          exit bad }' "$work/joined/threads.txt"
check "joined threads: functions.txt totals" awk '
    /^#/ { next }
    ($2 == "MPI_Send" || $2 == "MPI_Recv") { n[$1, $2] = $3 " " $7 + $8 }
    END { for (r = 0; r < 2; r++) if (n[r, "MPI_Send"] != "50 600" || n[r, "MPI_Recv"] != "50 600") bad = 1
          exit bad }' "$work/joined/functions.txt"

# A single-threaded program gets no threads.txt.
run 2 "$launcher" -q -o "$work/single" "$top_builddir/tests/integration/mix" > /dev/null
check "single-threaded run: no threads.txt" test ! -e "$work/single/threads.txt"
finish
