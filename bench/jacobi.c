/* jacobi.c: mpiprof-jacobi, a known-answer workload for the demo and the
 * integration tests: 1-D Jacobi relaxation of a rod of n points (-n, default
 * 1500000) held at 1 beyond its left end and 0 beyond its right end,
 * starting at 0, for i iterations (-i, default 1000: about 1 s on 4 ranks of
 * Open MPI on 2 cores), split in contiguous blocks over P ranks (rank r
 * holds n/P points, one more for r < n%P). Each iteration exchanges one
 * double with each neighbour, then sets u[j] = (u[j-1] + u[j+1]) / 2.
 *
 * Exact MPI calls per rank r (i iterations, P ranks; an end rank's missing
 * neighbour is MPI_PROC_NULL, still passed to MPI_Sendrecv):
 *
 *   nb = real neighbours = (r > 0) + (r < P-1)   (2 inside, 1 at the ends, 0 if P = 1)
 *
 *   MPI_Sendrecv   2i calls, 1 double each way, from two call sites in halo_exchange():
 *                  "rightward" (send to r+1, receive from r-1): i calls,
 *                      bytes_sent 8i if r < P-1 else 0, bytes_recv 8i if r > 0 else 0
 *                  "leftward"  (send to r-1, receive from r+1): i calls,
 *                      bytes_sent 8i if r > 0 else 0,   bytes_recv 8i if r < P-1 else 0
 *                  total: bytes_sent = bytes_recv = 8 * nb * i
 *                  (mpiprof counts 0 bytes for an MPI_PROC_NULL partner)
 *   MPI_Allreduce  floor(i/10) calls (iterations 10, 20, ...), 1 double, MPI_SUM, from
 *                  global_residual(): bytes_sent = bytes_recv = 8 * floor(i/10)
 *   MPI_Reduce     1 call, 1 double, MPI_SUM to rank 0, from main():
 *                  bytes_sent 8 on every rank, bytes_recv 8 on rank 0 and 0 elsewhere
 *   MPI_Comm_rank  1 call, MPI_Comm_size 1 call (and MPI_Init, MPI_Finalize)
 *
 * and no other MPI call. Job totals: 2iP MPI_Sendrecv calls moving 16i(P-1)
 * bytes. With the defaults on 4 ranks, per rank: 2000 MPI_Sendrecv, 100
 * MPI_Allreduce, 1 MPI_Reduce; MPI_Sendrecv bytes sent = received = 16000
 * on ranks 1 and 2, 8000 on ranks 0 and 3.
 *
 * Output (rank 0, stdout): a '#' line naming the run, then "iterations i",
 * "residual R" (the last reduced residual, of iteration 10*floor(i/10);
 * "none" when i < 10) and "checksum C". The residual is the sum over points
 * of |u_new - u_old| and the checksum the sum of u, each term rounded to a
 * multiple of 2^-26 first, so every partial sum is an exact multiple of
 * 2^-26 in a double: the printed numbers do not depend on the number of
 * ranks, the reduction order or the MPI library (each point's update is the
 * same arithmetic whatever the split, so u itself is identical too).
 *
 * The known answer: after k sweeps, u[j] is the probability that a simple
 * random walk from j reaches the left end within k steps, so while n >= i
 * the checksum is E[M_i], M_i the maximum over i steps of a simple random
 * walk from 0 (by reflection, E[M_i] = sum over m >= 1 of P(S_i >= m) +
 * P(S_i > m)), and the residual is E[M_k] - E[M_k-1] for k = 10*floor(i/10)
 * (u only grows), both up to the rounding to 2^-26 of the at most i nonzero
 * points. E.g. -i 10: residual 0.123046875, checksum 2.083984375 (exact);
 * -i 200: E[M] = 10.7978700414, printed "residual 2.81742364e-02",
 * "checksum 10.79787003"; -i 1000 (the default): E[M] = 24.7376306874,
 * printed "residual 1.26125067e-02", "checksum 24.73763068". */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <mpi.h>
#include "intopts.h"

#define PROG "mpiprof-jacobi"
#define DEFAULT_POINTS 1500000L
#define DEFAULT_ITERS 1000L
#define MAX_POINTS 50000000L       /* x 2^26 < 2^53: sums stay exact */
#define MAX_ITERS 1000000L
#define RESIDUAL_EVERY 10
#define QUANTUM 67108864.0         /* 2^26 */
#define TAG_RIGHTWARD 1
#define TAG_LEFTWARD 2

struct opts {
    long points;   /* -n */
    long iters;    /* -i */
};

struct rod {
    long n;        /* points on this rank */
    double *u;     /* u[0] and u[n+1] are the halos, u[1..n] this rank's points */
    double *unew;
    int left, right;
};

/* quantize: x >= 0 as a whole number of 2^-26 units (exact in a double). */
static inline double quantize(double x)
{
    return (double)(int64_t)(x * QUANTUM + 0.5);
}

/* Not inlined, here and below, so that call sites and their ancestors are
 * named halo_exchange, global_residual and relax in the report. */
static __attribute__((noinline)) void halo_exchange(struct rod *r)
{
    MPI_Sendrecv(&r->u[r->n], 1, MPI_DOUBLE, r->right, TAG_RIGHTWARD,
                 &r->u[0], 1, MPI_DOUBLE, r->left, TAG_RIGHTWARD, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&r->u[1], 1, MPI_DOUBLE, r->left, TAG_LEFTWARD,
                 &r->u[r->n + 1], 1, MPI_DOUBLE, r->right, TAG_LEFTWARD, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* global_residual: sum over all points of |unew - u|, in units of 2^-26. */
static __attribute__((noinline)) double global_residual(const struct rod *r)
{
    double local = 0, global = 0;
    for (long j = 1; j <= r->n; j++) {
        double d = r->unew[j] - r->u[j];
        local += quantize(d < 0 ? -d : d);
    }
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return global;
}

/* relax: iters Jacobi sweeps; returns the last reduced residual, or -1. */
static __attribute__((noinline)) double relax(struct rod *r, long iters)
{
    double residual = -1;
    for (long k = 1; k <= iters; k++) {
        halo_exchange(r);
        const double *u = r->u;
        double *unew = r->unew;
        for (long j = 1; j <= r->n; j++)
            unew[j] = 0.5 * (u[j - 1] + u[j + 1]);
        if (k % RESIDUAL_EVERY == 0)
            residual = global_residual(r);
        double *t = r->u;
        r->u = r->unew;
        r->unew = t;
    }
    return residual;
}

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: mpirun -np P " PROG " [-n POINTS] [-i ITERATIONS]\n"
            "1-D Jacobi relaxation of a rod split over the ranks: per iteration two\n"
            "MPI_Sendrecv halo exchanges, every %d iterations an MPI_Allreduce of the\n"
            "residual, at the end an MPI_Reduce of the checksum. Prints the iterations,\n"
            "the last residual and the checksum, the same for any number of ranks.\n"
            "  -n POINTS      points of the rod, P..%ld (default %ld)\n"
            "  -i ITERATIONS  iterations, 1..%ld (default %ld)\n"
            "  -h             show this help and exit\n",
            RESIDUAL_EVERY, MAX_POINTS, DEFAULT_POINTS, MAX_ITERS, DEFAULT_ITERS);
}

/* parse: 0 to run, 1 for -h, 2 on a bad command line (message in err). */
static int parse(int argc, char **argv, int nranks, struct opts *o, char *err, size_t errlen)
{
    o->points = DEFAULT_POINTS;
    o->iters = DEFAULT_ITERS;
    const struct bench_intopt opts[] = {
        { 'n', nranks, MAX_POINTS, &o->points },
        { 'i', 1, MAX_ITERS, &o->iters },
    };
    int rc = bench_intopts_parse(PROG, argc, argv, opts, 2, err, errlen);
    if (rc == 0 && o->points < nranks) {
        snprintf(err, errlen, PROG ": -n: %ld points cannot be split over %d ranks", o->points, nranks);
        return 2;
    }
    return rc;
}

int main(int argc, char **argv)
{
    struct opts o;
    char err[256] = "";
    int rank, size;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int rc = parse(argc, argv, size, &o, err, sizeof err);
    if (rc != 0) {
        if (rc == 1 && rank == 0)
            usage(stdout);
        if (rc == 2 && rank == 0)
            fprintf(stderr, "%s\n", err);
        MPI_Finalize();
        return rc == 1 ? 0 : 2;
    }

    struct rod r;
    r.n = o.points / size + (rank < o.points % size);
    r.left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    r.right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    r.u = calloc((size_t)r.n + 2, sizeof *r.u);
    r.unew = calloc((size_t)r.n + 2, sizeof *r.unew);
    if (!r.u || !r.unew) {
        fprintf(stderr, PROG ": rank %d: out of memory for %ld points\n", rank, r.n);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (rank == 0)                  /* the fixed ends: 1 on the left, 0 on the right */
        r.u[0] = r.unew[0] = 1.0;

    double residual = relax(&r, o.iters);

    double local = 0, checksum = 0;
    for (long j = 1; j <= r.n; j++)
        local += quantize(r.u[j]);
    MPI_Reduce(&local, &checksum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);

    if (rank == 0) {
        printf("# " PROG ": %ld points, %ld iterations, %d ranks\n", o.points, o.iters, size);
        printf("iterations %ld\n", o.iters);
        if (residual < 0)
            printf("residual none\n");
        else
            printf("residual %.8e\n", residual / QUANTUM);
        printf("checksum %.8f\n", checksum / QUANTUM);
        fflush(stdout);
    }
    free(r.u);
    free(r.unew);
    MPI_Finalize();
    return 0;
}
