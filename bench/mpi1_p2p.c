/* mpi1_p2p.c: the point-to-point kernels of mpiprof-mpi1 (guide 3.3.2 and
 * 3.3.3): PingPong and PingPing (2 processes), Sendrecv and Exchange (a
 * periodic chain). MPI_BYTE messages of x bytes. The loops are timed by
 * mpi1.c: nothing but the pattern runs in them without -check. */
#include "mpi1.h"

/* PingPong: rank 0 sends x bytes to rank 1 and receives them back; the
 * reported time is half the round trip (mpi1.c divides by 2). */
long mpi1_pingpong(struct mpi1_ctx *c, long x, long n)
{
    const int check = c->check, peer = 1 - c->rank;
    long bad = 0;
    for (long i = 0; i < n; i++) {
        mpi1_clear(c, c->rbuf, (size_t)x);
        if (c->rank == 0) {
            MPI_Send(c->sbuf, (int)x, MPI_BYTE, peer, MPI1_TAG, c->comm);
            MPI_Recv(c->rbuf, (int)x, MPI_BYTE, peer, MPI1_TAG, c->comm, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(c->rbuf, (int)x, MPI_BYTE, peer, MPI1_TAG, c->comm, MPI_STATUS_IGNORE);
            MPI_Send(c->sbuf, (int)x, MPI_BYTE, peer, MPI1_TAG, c->comm);
        }
        if (check)
            bad += bench_buf_check(c->run, c->rbuf, (size_t)x, peer, 0);
    }
    return bad;
}

/* PingPing: both processes send to each other at once (MPI_Isend), receive
 * the oncoming message, then complete the send. */
long mpi1_pingping(struct mpi1_ctx *c, long x, long n)
{
    const int check = c->check, peer = 1 - c->rank;
    long bad = 0;
    for (long i = 0; i < n; i++) {
        MPI_Request req;
        mpi1_clear(c, c->rbuf, (size_t)x);
        MPI_Isend(c->sbuf, (int)x, MPI_BYTE, peer, MPI1_TAG, c->comm, &req);
        MPI_Recv(c->rbuf, (int)x, MPI_BYTE, peer, MPI1_TAG, c->comm, MPI_STATUS_IGNORE);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        if (check)
            bad += bench_buf_check(c->run, c->rbuf, (size_t)x, peer, 0);
    }
    return bad;
}

/* Sendrecv: each process sends to its right neighbour and receives from
 * its left one in the periodic chain, by one MPI_Sendrecv. */
long mpi1_sendrecv(struct mpi1_ctx *c, long x, long n)
{
    const int check = c->check;
    const int right = (c->rank + 1) % c->size, left = (c->rank + c->size - 1) % c->size;
    long bad = 0;
    for (long i = 0; i < n; i++) {
        mpi1_clear(c, c->rbuf, (size_t)x);
        MPI_Sendrecv(c->sbuf, (int)x, MPI_BYTE, right, MPI1_TAG, c->rbuf, (int)x, MPI_BYTE, left, MPI1_TAG,
                     c->comm, MPI_STATUS_IGNORE);
        if (check)
            bad += bench_buf_check(c->run, c->rbuf, (size_t)x, left, 0);
    }
    return bad;
}

/* Exchange: each process sends x bytes to both neighbours (MPI_Isend),
 * receives from the left into the first half of its receive buffer and
 * from the right into the second half, then completes both sends. */
long mpi1_exchange(struct mpi1_ctx *c, long x, long n)
{
    const int check = c->check;
    const int right = (c->rank + 1) % c->size, left = (c->rank + c->size - 1) % c->size;
    long bad = 0;
    for (long i = 0; i < n; i++) {
        MPI_Request req[2];
        MPI_Status st[2];   /* not MPI_STATUSES_IGNORE: gcc 12 misreads MPICH's */
        mpi1_clear(c, c->rbuf, 2 * (size_t)x);
        MPI_Isend(c->sbuf, (int)x, MPI_BYTE, left, MPI1_TAG, c->comm, &req[0]);
        MPI_Isend(c->sbuf, (int)x, MPI_BYTE, right, MPI1_TAG, c->comm, &req[1]);
        MPI_Recv(c->rbuf, (int)x, MPI_BYTE, left, MPI1_TAG, c->comm, MPI_STATUS_IGNORE);
        MPI_Recv(c->rbuf + x, (int)x, MPI_BYTE, right, MPI1_TAG, c->comm, MPI_STATUS_IGNORE);
        MPI_Waitall(2, req, st);
        if (check)
            bad += bench_buf_check(c->run, c->rbuf, (size_t)x, left, 0) +
                   bench_buf_check(c->run, c->rbuf + x, (size_t)x, right, 0);
    }
    return bad;
}
