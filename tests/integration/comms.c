/* comms.c: point-to-point traffic on five communicators with known counts,
 * for t_comms.sh (comms.txt). On an even number of ranks n, rank r:
 *   MPI_COMM_WORLD   3 MPI_Sendrecv around the ring (8 bytes each way), and
 *                    an MPI_Send to MPI_PROC_NULL (no message);
 *   "halo"           a dup of MPI_COMM_WORLD, named: 2 MPI_Isend and 2
 *                    MPI_Irecv of 400 bytes with r ^ 1, one MPI_Waitall;
 *   comm1            MPI_Comm_split by r % 2 (n / 2 ranks, unnamed): a
 *                    persistent send and receive of 16 bytes around its
 *                    ring, started twice;
 *   comm2            another dup, unnamed: an MPI_Isend of 4 bytes to r ^ 1,
 *                    received with MPI_Mprobe and MPI_Mrecv (no
 *                    communicator named: the "-" line).
 * The communicators are created first and used in this order. Prints
 * "comms: ok" on rank 0 when every message carried what it should. */
#include <stdio.h>
#include <string.h>
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, ok = 1, all_ok;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size % 2) {
        if (rank == 0)
            fprintf(stderr, "comms: needs an even number of ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Comm halo, split, other;
    MPI_Comm_dup(MPI_COMM_WORLD, &halo);
    MPI_Comm_set_name(halo, "halo");
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &split);
    MPI_Comm_dup(MPI_COMM_WORLD, &other);

    /* MPI_COMM_WORLD */
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    for (int i = 0; i < 3; i++) {
        double out = rank + i, in = -1;
        MPI_Sendrecv(&out, 1, MPI_DOUBLE, next, 1, &in, 1, MPI_DOUBLE, prev, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        ok &= in == prev + i;
    }
    MPI_Send(&ok, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD);

    /* halo */
    int sbuf[2][100], rbuf[2][100];
    MPI_Request reqs[4];
    for (int k = 0; k < 2; k++) {
        for (int j = 0; j < 100; j++)
            sbuf[k][j] = rank * 1000 + k * 100 + j;
        MPI_Irecv(rbuf[k], 100, MPI_INT, rank ^ 1, k, halo, &reqs[k]);
        MPI_Isend(sbuf[k], 100, MPI_INT, rank ^ 1, k, halo, &reqs[2 + k]);
    }
    MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE);
    for (int k = 0; k < 2; k++)
        ok &= rbuf[k][99] == (rank ^ 1) * 1000 + k * 100 + 99;

    /* comm1: the split */
    int srank, ssize;
    MPI_Comm_rank(split, &srank);
    MPI_Comm_size(split, &ssize);
    long long ps[2] = { 0, 0 }, pr[2] = { -1, -1 };
    MPI_Request pers[2];
    MPI_Send_init(ps, 2, MPI_LONG_LONG, (srank + 1) % ssize, 2, split, &pers[0]);
    MPI_Recv_init(pr, 2, MPI_LONG_LONG, (srank + ssize - 1) % ssize, 2, split, &pers[1]);
    for (int i = 0; i < 2; i++) {
        ps[0] = srank;
        ps[1] = i;
        MPI_Startall(2, pers);
        MPI_Waitall(2, pers, MPI_STATUSES_IGNORE);
        ok &= pr[0] == (srank + ssize - 1) % ssize && pr[1] == i;
    }
    MPI_Request_free(&pers[0]);
    MPI_Request_free(&pers[1]);

    /* comm2: a matched receive */
    int one = rank, got = -1;
    MPI_Request sreq;
    MPI_Message msg;
    MPI_Isend(&one, 1, MPI_INT, rank ^ 1, 3, other, &sreq);
    MPI_Mprobe(rank ^ 1, 3, other, &msg, MPI_STATUS_IGNORE);
    MPI_Mrecv(&got, 1, MPI_INT, &msg, MPI_STATUS_IGNORE);
    MPI_Wait(&sreq, MPI_STATUS_IGNORE);
    ok &= got == (rank ^ 1);

    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (rank == 0)
        printf("comms: %s\n", all_ok ? "ok" : "WRONG");
    MPI_Comm_free(&other);
    MPI_Comm_free(&split);
    MPI_Comm_free(&halo);
    MPI_Finalize();
    return all_ok ? 0 : 1;
}
