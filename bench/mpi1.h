/* mpi1.h: the IMB-MPI1 benchmarks of mpiprof-mpi1 (guide section 3.3):
 * what a kernel runs on and the kernels, defined in mpi1_p2p.c (single and
 * parallel transfer) and mpi1_coll.c (collectives), listed in mpi1.c. */
#ifndef BENCH_MPI1_H
#define BENCH_MPI1_H

#include <string.h>
#include "harness.h"

#define MPI1_TAG 1000

/* What a kernel runs on: MY_COMM and this process's rank in it, the buffers
 * (sized for the largest length run, the send buffer holding this rank's
 * pattern), and count/displacement arrays of size entries for the v-variants. */
struct mpi1_ctx {
    const struct bench_run *run;
    MPI_Comm comm;
    int rank, size;
    char *sbuf, *rbuf;
    int *counts, *displs;
    int check;              /* -check: clear, then verify every received buffer */
    long i0;                /* the index of the first execution (rotating roots; -percentiles) */
};

/* A kernel: n executions of the pattern with messages of x bytes. Returns
 * the defects found (always 0 without -check). Called by the active
 * processes of one group together. */
typedef long mpi1_kernel(struct mpi1_ctx *c, long x, long n);

mpi1_kernel mpi1_pingpong, mpi1_pingping, mpi1_sendrecv, mpi1_exchange;
mpi1_kernel mpi1_bcast, mpi1_allgather, mpi1_allgatherv, mpi1_alltoall, mpi1_alltoallv,
    mpi1_reduce, mpi1_reduce_scatter, mpi1_allreduce, mpi1_barrier;

/* mpi1_clear: with -check, the receive area is zeroed before each receive
 * so that a message that never arrives shows as defects. */
static inline void mpi1_clear(const struct mpi1_ctx *c, void *buf, size_t n)
{
    if (c->check)
        memset(buf, 0, n);
}

#endif
