/* handles.c: mpiprof-handles, the cost per call of point-to-point calls on
 * many communicators and with datatype churn: the handle caches' worst
 * cases (issue 24 item 6). Every rank sends to itself, so each iteration is
 * one MPI_Send and one MPI_Recv of one int on a communicator duplicated
 * from MPI_COMM_WORLD (its rank map is a real translation). Cases:
 *
 *   1comm      one communicator
 *   2collide   two communicators, alternating, whose slots collide in a
 *              64-slot direct-mapped cache keyed like mpiprof 0.1's
 *   65comms    65 communicators, round robin (more than 64 slots)
 *   typefree   one communicator, and an MPI_Type_contiguous, MPI_Type_commit
 *              and MPI_Type_free of an unrelated datatype per iteration
 *
 * Per case: one untimed warm-up loop, then R loops of N iterations; rank 0
 * prints the median ns per MPI_Send/MPI_Recv call (the iteration's time / 2;
 * typefree's Type calls are in it). Run it unprofiled and profiled (e.g.
 * LD_PRELOAD of two builds) and subtract. A benchmark, not a test. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <mpi.h>
#include "intopts.h"

#define PROG "mpiprof-handles"
#define NCOMMS 65
#define OLD_SLOTS 64u

static MPI_Comm comms[NCOMMS];
static int rank;

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The slot of a handle in mpiprof 0.1's per-thread caches. */
static unsigned old_slot(MPI_Comm c)
{
    uint64_t k = 0;
    memcpy(&k, &c, sizeof c < sizeof k ? sizeof c : sizeof k);
    return (unsigned)((k * 0x9e3779b97f4a7c15ULL) >> 58) & (OLD_SLOTS - 1);
}

/* n iterations cycling over ncomm communicators of comms[]. */
static void loop(long n, int ncomm, int typefree)
{
    int v = 1;
    for (long i = 0; i < n; i++) {
        MPI_Comm c = comms[i % ncomm];
        if (typefree) {
            MPI_Datatype t;
            MPI_Type_contiguous(2, MPI_INT, &t);
            MPI_Type_commit(&t);
            MPI_Type_free(&t);
        }
        MPI_Send(&v, 1, MPI_INT, rank, 3, c);
        MPI_Recv(&v, 1, MPI_INT, rank, 3, c, MPI_STATUS_IGNORE);
    }
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void measure(const char *name, long n, long reps, int ncomm, int typefree)
{
    double *t = malloc((size_t)reps * sizeof *t);
    if (!t)
        MPI_Abort(MPI_COMM_WORLD, 1);
    loop(n, ncomm, typefree);
    for (long r = 0; r < reps; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        uint64_t t0 = now_ns();
        loop(n, ncomm, typefree);
        t[r] = (double)(now_ns() - t0) / (2.0 * (double)n);
    }
    qsort(t, (size_t)reps, sizeof *t, by_value);
    if (rank == 0)
        printf("%-10s %10.1f\n", name, t[reps / 2]);
    free(t);
}

int main(int argc, char **argv)
{
    long n = 20000, reps = 11;
    const struct bench_intopt opts[] = { { 'n', 1, 100000000L, &n }, { 'r', 1, 1001, &reps } };
    char err[256];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int rc = bench_intopts_parse(PROG, argc, argv, opts, 2, err, sizeof err);
    if (rc != 0) {
        if (rank == 0)
            fprintf(rc == 1 ? stdout : stderr, "%s\n",
                    rc == 1 ? "usage: " PROG " [-n ITERATIONS] [-r REPETITIONS]" : err);
        MPI_Finalize();
        return rc == 1 ? 0 : 2;
    }
    /* comms[0] and comms[1] collide in the old slots on rank 0: of 65
     * duplicates two do (handles may differ between ranks: rank 0 chooses
     * for all); the others are freed. */
    MPI_Comm cand[OLD_SLOTS + 1];
    int pair[2] = { 0, 1 };
    for (int j = 0; j <= (int)OLD_SLOTS; j++)
        MPI_Comm_dup(MPI_COMM_WORLD, &cand[j]);
    int found = rank != 0;
    for (int j = 1; !found && j <= (int)OLD_SLOTS; j++)
        for (int i = 0; !found && i < j; i++)
            if (old_slot(cand[i]) == old_slot(cand[j])) {
                pair[0] = i;
                pair[1] = j;
                found = 1;
            }
    MPI_Bcast(pair, 2, MPI_INT, 0, MPI_COMM_WORLD);
    comms[0] = cand[pair[0]];
    comms[1] = cand[pair[1]];
    for (int i = 0; i <= (int)OLD_SLOTS; i++)
        if (i != pair[0] && i != pair[1])
            MPI_Comm_free(&cand[i]);
    for (int i = 2; i < NCOMMS; i++)
        MPI_Comm_dup(MPI_COMM_WORLD, &comms[i]);
    if (rank == 0)
        printf("# %s: ns per MPI_Send/MPI_Recv call, median of %ld loops of %ld iterations\n", PROG, reps, n);
    measure("1comm", n, reps, 1, 0);
    measure("2collide", n, reps, 2, 0);
    measure("65comms", n, reps, NCOMMS, 0);
    measure("typefree", n, reps, 1, 1);
    for (int i = 0; i < NCOMMS; i++)
        MPI_Comm_free(&comms[i]);
    MPI_Finalize();
    return 0;
}
