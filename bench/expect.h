/* expect.h: the answer a bench driver prints for mpiprof-validate(1).
 * With BENCH_EXPECT=1 in its environment a driver tallies, from what its
 * patterns ran (never from the profiler), the calls of the functions it
 * claims and the bytes mpiprof counts for them (functions.txt of
 * mpiprof-report(5): bytes read from send buffers, bytes written to
 * receive buffers), and each process prints one line at its end:
 *
 *   expect=PROG rank=R rows=FUNCTION:CALLS:BYTES_SENT:BYTES_RECV,...
 *
 * A claimed function is claimed whole: its row holds every call of it the
 * process made (0 calls: the report has none). Claims are the same on
 * every process and made before any call is tallied. Without BENCH_EXPECT
 * nothing is tallied or printed. No MPI calls here. */
#ifndef BENCH_EXPECT_H
#define BENCH_EXPECT_H

#define BENCH_EXPECT_ENV "BENCH_EXPECT"

/* What one execution of a pattern calls: calls of fn, and the bytes sent
 * and received in units of the pattern's message length. A list of them
 * ends with a NULL fn. */
struct bench_expect_calls {
    const char *fn;
    long calls, sent_x, recv_x;
};

/* bench_expect_claim: claim the functions of list (NULL-terminated);
 * reads BENCH_EXPECT on the first call. */
void bench_expect_claim(const char *const *fns);

/* bench_expect_add: n more calls of fn that sent and received these bytes.
 * fn must be claimed: anything else is a bug of the driver (abort). */
void bench_expect_add(const char *fn, long n, long long sent, long long recv);

/* bench_expect_run: n executions of a pattern whose calls are per (NULL:
 * none claimed) with messages of x bytes. */
void bench_expect_run(const struct bench_expect_calls *per, long x, long n);

/* bench_expect_print: the line of this process (rank in MPI_COMM_WORLD). */
void bench_expect_print(const char *prog, int rank);

#endif
