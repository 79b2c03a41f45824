/* reqmap.c: mpiprof-reqmap, the cost of the profiler's pending-request map
 * (issue 24), on one rank, messages to itself. Prints per-iteration time,
 * the median over 10 blocks of the iterations, of:
 *   (a) MPI_Irecv + MPI_Isend + MPI_Waitall(2), -n N iterations; run it with
 *       MPIPROF_FUNCTIONS=MPI_Isend,MPI_Irecv to see the cost of completions
 *       the profiler does not time;
 *   (b) MPI_Iallreduce + MPI_Test until done, -n N iterations, after -p P
 *       receives were pending at once (posted, then matched and waited);
 *       requests the map never held, looked up by every MPI_Test. */
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>
#include "intopts.h"

#define BLOCKS 10

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int s = 1, r;

/* The per-iteration time of step in microseconds: the median over BLOCKS
 * blocks of n / BLOCKS iterations. */
static double timed(long n, void (*step)(void))
{
    double t[BLOCKS];
    for (int k = 0; k < BLOCKS; k++) {
        double t0 = MPI_Wtime();
        for (long i = 0; i < n / BLOCKS; i++)
            step();
        t[k] = (MPI_Wtime() - t0) / (double)(n / BLOCKS) * 1e6;
    }
    qsort(t, BLOCKS, sizeof t[0], by_value);
    return (t[BLOCKS / 2 - 1] + t[BLOCKS / 2]) / 2;
}

static void exchange(void)
{
    MPI_Request q[2];
    MPI_Irecv(&r, 1, MPI_INT, 0, 0, MPI_COMM_SELF, &q[0]);
    MPI_Isend(&s, 1, MPI_INT, 0, 0, MPI_COMM_SELF, &q[1]);
    MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
}

static int burst(long p)
{
    int *buf = malloc((size_t)p * sizeof *buf);
    MPI_Request *q = malloc(2 * (size_t)p * sizeof *q);
    if (!buf || !q) {
        free(buf);
        free(q);
        return -1;
    }
    for (long i = 0; i < p; i++)
        MPI_Irecv(&buf[i], 1, MPI_INT, 0, 1, MPI_COMM_SELF, &q[i]);
    for (long i = 0; i < p; i++)
        MPI_Isend(&buf[i], 1, MPI_INT, 0, 1, MPI_COMM_SELF, &q[p + i]);
    MPI_Waitall((int)(2 * p), q, MPI_STATUSES_IGNORE);
    free(buf);
    free(q);
    return 0;
}

static void untracked(void)
{
    MPI_Request q;
    int flag = 0;
    MPI_Iallreduce(&s, &r, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF, &q);
    while (!flag)
        MPI_Test(&q, &flag, MPI_STATUS_IGNORE);
}

int main(int argc, char **argv)
{
    long n = 100000, p = 20000;
    int rank;
    char err[256];
    const struct bench_intopt opts[] = { { 'n', BLOCKS, 100000000, &n }, { 'p', 1, 10000000, &p } };
    MPI_Init(&argc, &argv);
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int rc = bench_intopts_parse("mpiprof-reqmap", argc, argv, opts, 2, err, sizeof err);
    if (rc != 0) {
        if (rank == 0)
            fprintf(rc == 1 ? stdout : stderr, "%s\n",
                    rc == 1 ? "Usage: mpiprof-reqmap [-n ITERATIONS] [-p PENDING]: per-iteration time of "
                              "(a) MPI_Irecv+MPI_Isend+MPI_Waitall and (b) MPI_Iallreduce+MPI_Test after "
                              "PENDING requests were pending at once (defaults 100000, 20000)" : err);
        MPI_Finalize();
        return rc == 1 ? 0 : 2;
    }
    double a = timed(n, exchange);
    if (burst(p) != 0) {
        fprintf(stderr, "mpiprof-reqmap: out of memory for %ld requests\n", p);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    double b = timed(n, untracked);
    if (rank == 0)
        printf("isend_irecv_waitall_us %.3f\niallreduce_test_us %.3f\n", a, b);
    MPI_Finalize();
    return 0;
}
