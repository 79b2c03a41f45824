/* pingpong-ref.c: a minimal hand-written ping-pong, the reference that
 * bench/latency-compare.sh sets against mpiprof-mpi1's PingPong: 2 ranks,
 * 2 warm-up round trips, a barrier, then n round trips of x bytes
 * (arguments: x, default 1; n, default 1000). Rank 0 prints the one-way
 * time, half the round trip, in microseconds: "t[usec] <value>". */
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int x = argc > 1 ? atoi(argv[1]) : 1;
    long n = argc > 2 ? atol(argv[2]) : 1000;
    char *buf = calloc(x > 0 ? (size_t)x : 1, 1);
    if (size != 2 || x < 0 || n < 1 || !buf) {
        if (rank == 0)
            fprintf(stderr, "pingpong-ref: run on 2 ranks: pingpong-ref [bytes [round-trips]]\n");
        MPI_Finalize();
        return 2;
    }
    int peer = 1 - rank;
    double t0 = 0;
    for (long i = -2; i < n; i++) {
        if (i == 0) {
            MPI_Barrier(MPI_COMM_WORLD);
            t0 = MPI_Wtime();
        }
        if (rank == 0) {
            MPI_Send(buf, x, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
            MPI_Recv(buf, x, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, x, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, x, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
        }
    }
    double t_us = (MPI_Wtime() - t0) / (double)n / 2 * 1e6;
    if (rank == 0)
        printf("t[usec] %.3f\n", t_us);
    free(buf);
    MPI_Finalize();
    return 0;
}
