/* mpi1_coll.c: the collective kernels of mpiprof-mpi1 (guide 3.3.4): data
 * movement on MPI_BYTE (Bcast, Allgather(v), Alltoall(v)), reductions of
 * x / sizeof(float) floats with MPI_SUM (Reduce, Reduce_scatter, Allreduce),
 * and Barrier. Roots rotate: execution i of a loop has root i mod size.
 * The loops are timed by mpi1.c: nothing but the pattern runs in them
 * without -check. */
#include "mpi1.h"

/* byte_counts: counts[j] = x, displs[j] = j x (the v-variants). */
static void byte_counts(struct mpi1_ctx *c, long x)
{
    for (int j = 0; j < c->size; j++) {
        c->counts[j] = (int)x;
        c->displs[j] = (int)(j * x);
    }
}

/* check_segments: the size segments of x bytes of the receive buffer, from
 * rank j each, at byte offset (src_off ? c->rank x : 0) of j's pattern. */
static long check_segments(struct mpi1_ctx *c, long x, int src_off)
{
    long bad = 0;
    for (int j = 0; j < c->size; j++)
        bad += bench_buf_check(c->run, c->rbuf + (size_t)j * x, (size_t)x, j,
                               src_off ? (size_t)c->rank * x : 0);
    return bad;
}

long mpi1_bcast(struct mpi1_ctx *c, long x, long n)
{
    const int check = c->check;
    long bad = 0;
    for (long i = 0; i < n; i++) {
        int root = (int)((c->i0 + i) % c->size);
        if (c->rank == root) {
            MPI_Bcast(c->sbuf, (int)x, MPI_BYTE, root, c->comm);
            continue;
        }
        mpi1_clear(c, c->rbuf, (size_t)x);
        MPI_Bcast(c->rbuf, (int)x, MPI_BYTE, root, c->comm);
        if (check)
            bad += bench_buf_check(c->run, c->rbuf, (size_t)x, root, 0);
    }
    return bad;
}

long mpi1_allgather(struct mpi1_ctx *c, long x, long n)
{
    const int check = c->check;
    long bad = 0;
    for (long i = 0; i < n; i++) {
        mpi1_clear(c, c->rbuf, (size_t)x * c->size);
        MPI_Allgather(c->sbuf, (int)x, MPI_BYTE, c->rbuf, (int)x, MPI_BYTE, c->comm);
        if (check)
            bad += check_segments(c, x, 0);
    }
    return bad;
}

long mpi1_allgatherv(struct mpi1_ctx *c, long x, long n)
{
    const int check = c->check;
    long bad = 0;
    byte_counts(c, x);
    for (long i = 0; i < n; i++) {
        mpi1_clear(c, c->rbuf, (size_t)x * c->size);
        MPI_Allgatherv(c->sbuf, (int)x, MPI_BYTE, c->rbuf, c->counts, c->displs, MPI_BYTE, c->comm);
        if (check)
            bad += check_segments(c, x, 0);
    }
    return bad;
}

long mpi1_alltoall(struct mpi1_ctx *c, long x, long n)
{
    const int check = c->check;
    long bad = 0;
    for (long i = 0; i < n; i++) {
        mpi1_clear(c, c->rbuf, (size_t)x * c->size);
        MPI_Alltoall(c->sbuf, (int)x, MPI_BYTE, c->rbuf, (int)x, MPI_BYTE, c->comm);
        if (check)
            bad += check_segments(c, x, 1);
    }
    return bad;
}

long mpi1_alltoallv(struct mpi1_ctx *c, long x, long n)
{
    const int check = c->check;
    long bad = 0;
    byte_counts(c, x);
    for (long i = 0; i < n; i++) {
        mpi1_clear(c, c->rbuf, (size_t)x * c->size);
        MPI_Alltoallv(c->sbuf, c->counts, c->displs, MPI_BYTE, c->rbuf, c->counts, c->displs, MPI_BYTE,
                      c->comm);
        if (check)
            bad += check_segments(c, x, 1);
    }
    return bad;
}

/* The reductions: L = x / sizeof(float) floats (x is at least 4 or 0). */
long mpi1_reduce(struct mpi1_ctx *c, long x, long n)
{
    const int check = c->check, len = (int)(x / (long)sizeof(float));
    long bad = 0;
    for (long i = 0; i < n; i++) {
        int root = (int)((c->i0 + i) % c->size);
        if (c->rank == root)
            mpi1_clear(c, c->rbuf, (size_t)x);
        MPI_Reduce(c->sbuf, c->rbuf, len, MPI_FLOAT, MPI_SUM, root, c->comm);
        if (check && c->rank == root)
            bad += bench_sum_check(c->run, (float *)c->rbuf, len, c->size, 0);
    }
    return bad;
}

/* Reduce_scatter: with L = r size + s, ranks below s get r + 1 floats, the
 * others r (3.3.4.2). */
long mpi1_reduce_scatter(struct mpi1_ctx *c, long x, long n)
{
    const int check = c->check;
    const long len = x / (long)sizeof(float), r = len / c->size, s = len % c->size;
    long bad = 0;
    for (int j = 0; j < c->size; j++) {
        c->counts[j] = (int)(r + (j < s));
        c->displs[j] = (int)(j * r + (j < s ? j : s));
    }
    for (long i = 0; i < n; i++) {
        mpi1_clear(c, c->rbuf, c->counts[c->rank] * sizeof(float));
        MPI_Reduce_scatter(c->sbuf, c->rbuf, c->counts, MPI_FLOAT, MPI_SUM, c->comm);
        if (check)
            bad += bench_sum_check(c->run, (float *)c->rbuf, c->counts[c->rank], c->size,
                                   c->displs[c->rank]);
    }
    return bad;
}

long mpi1_allreduce(struct mpi1_ctx *c, long x, long n)
{
    const int check = c->check, len = (int)(x / (long)sizeof(float));
    long bad = 0;
    for (long i = 0; i < n; i++) {
        mpi1_clear(c, c->rbuf, (size_t)x);
        MPI_Allreduce(c->sbuf, c->rbuf, len, MPI_FLOAT, MPI_SUM, c->comm);
        if (check)
            bad += bench_sum_check(c->run, (float *)c->rbuf, len, c->size, 0);
    }
    return bad;
}

long mpi1_barrier(struct mpi1_ctx *c, long x, long n)
{
    (void)x;
    for (long i = 0; i < n; i++)
        MPI_Barrier(c->comm);
    return 0;
}
