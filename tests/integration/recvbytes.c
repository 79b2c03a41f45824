/* recvbytes.c: receives posted larger than what arrives (issue 14 item 1),
 * for t_recvbytes.sh, 2 ranks. Rank 1 sends rank 0 messages of 10, 11, ...
 * ints; rank 0 posts every receive for BIG ints: a blocking MPI_Recv,
 * MPI_Irecv completed by MPI_Wait, MPI_Waitany and MPI_Testsome, a wildcard
 * source, MPI_Mrecv (its MPI_Mprobe's status ignored, on a communicator
 * whose ranks are the reverse of MPI_COMM_WORLD's: rank 1 is its 0),
 * MPI_Imrecv, a persistent receive started twice; then a
 * cancelled receive and receives from MPI_PROC_NULL. Both ranks call
 * MPI_Sendrecv (rank 0 sends 5 ints, rank 1 sends 17) and read 100 ints at
 * offset 0 from a file of 40 they wrote (argv[1].RANK). Prints what
 * arrived, so that the run can be compared with and without the profiler.
 * With a second argument "many": rank 0 posts MANY receives of 2 ints at
 * once (more than the profiler tracks), rank 1 sends 1 int to each. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define BIG 1000
#define MANY 17000

static int buf[BIG], big[BIG];
static MPI_Comm rev;    /* MPI_COMM_WORLD's 2 ranks in reverse order */

static int count_of(const MPI_Status *st)
{
    int n;
    MPI_Get_count(st, MPI_INT, &n);
    return n;
}

static void receiver(void)
{
    MPI_Status st, sts[2];
    MPI_Request r[2];
    MPI_Message m;
    int idx, out, ids[2], flag, done = 0, got = 0;

    MPI_Recv(buf, BIG, MPI_INT, 1, 1, MPI_COMM_WORLD, &st);
    got += count_of(&st);
    MPI_Irecv(buf, BIG, MPI_INT, 1, 2, MPI_COMM_WORLD, &r[0]);
    MPI_Wait(&r[0], &st);
    got += count_of(&st);

    MPI_Irecv(buf, BIG, MPI_INT, 1, 3, MPI_COMM_WORLD, &r[0]);
    MPI_Irecv(big, BIG, MPI_INT, 1, 4, MPI_COMM_WORLD, &r[1]);
    for (int k = 0; k < 2; k++) {
        MPI_Waitany(2, r, &idx, &st);
        got += count_of(&st);
    }

    MPI_Irecv(buf, BIG, MPI_INT, 1, 5, MPI_COMM_WORLD, &r[0]);
    MPI_Irecv(big, BIG, MPI_INT, 1, 6, MPI_COMM_WORLD, &r[1]);
    while (done < 2) {
        MPI_Testsome(2, r, &out, ids, sts);
        for (int k = 0; out != MPI_UNDEFINED && k < out; k++)
            got += count_of(&sts[k]);
        done += out == MPI_UNDEFINED ? 0 : out;
    }

    MPI_Irecv(buf, BIG, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &r[0]);
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);

    MPI_Sendrecv(big, 5, MPI_INT, 1, 8, buf, BIG, MPI_INT, 1, 8, MPI_COMM_WORLD, &st);
    got += count_of(&st);

    MPI_Mprobe(0, 9, rev, &m, MPI_STATUS_IGNORE);
    MPI_Mrecv(buf, BIG, MPI_INT, &m, MPI_STATUS_IGNORE);
    MPI_Mprobe(1, 10, MPI_COMM_WORLD, &m, &st);
    MPI_Imrecv(buf, BIG, MPI_INT, &m, &r[0]);
    MPI_Wait(&r[0], &st);
    got += count_of(&st);

    MPI_Recv_init(buf, BIG, MPI_INT, 1, 11, MPI_COMM_WORLD, &r[0]);
    for (int k = 0; k < 2; k++) {
        MPI_Start(&r[0]);
        MPI_Wait(&r[0], &st);
        got += count_of(&st);
    }
    MPI_Request_free(&r[0]);

    MPI_Irecv(buf, BIG, MPI_INT, 1, 99, MPI_COMM_WORLD, &r[0]);
    MPI_Cancel(&r[0]);
    MPI_Wait(&r[0], &st);
    MPI_Test_cancelled(&st, &flag);

    MPI_Recv(buf, BIG, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &st);
    MPI_Irecv(buf, BIG, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &r[0]);
    MPI_Wait(&r[0], &st);
    printf("rank 0: %d ints arrived (status-counted), cancelled %d\n", got, flag);
}

static void sender(void)
{
    static const int sizes[] = { 10, 11, 12, 13, 14, 15, 16 };
    MPI_Status st;
    for (int k = 0; k < 7; k++)
        MPI_Send(big, sizes[k], MPI_INT, 0, k + 1, MPI_COMM_WORLD);
    MPI_Sendrecv(big, 17, MPI_INT, 0, 8, buf, BIG, MPI_INT, 0, 8, MPI_COMM_WORLD, &st);
    MPI_Send(big, 18, MPI_INT, 1, 9, rev);
    MPI_Send(big, 19, MPI_INT, 0, 10, MPI_COMM_WORLD);
    MPI_Send(big, 20, MPI_INT, 0, 11, MPI_COMM_WORLD);
    MPI_Send(big, 21, MPI_INT, 0, 11, MPI_COMM_WORLD);
    printf("rank 1: %d ints arrived\n", count_of(&st));
}

static void many(int rank)
{
    static MPI_Request r[MANY];
    static int in[MANY][2];
    if (rank == 1)
        for (int k = 0; k < MANY; k++)
            MPI_Send(&k, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    if (rank != 0)
        return;
    for (int k = 0; k < MANY; k++)
        MPI_Irecv(in[k], 2, MPI_INT, 1, 0, MPI_COMM_WORLD, &r[k]);
    MPI_Waitall(MANY, r, MPI_STATUSES_IGNORE);
    printf("rank 0: last %d\n", in[MANY - 1][0]);
}

int main(int argc, char **argv)
{
    int rank, n;
    char path[4096];
    MPI_File fh;
    MPI_Status st;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc < 2) {
        fprintf(stderr, "usage: recvbytes FILE-PREFIX\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (argc > 2) {
        many(rank);
        MPI_Finalize();
        return 0;
    }
    MPI_Comm_split(MPI_COMM_WORLD, 0, 1 - rank, &rev);
    for (int i = 0; i < BIG; i++)
        big[i] = i;
    if (rank == 0)
        receiver();
    else if (rank == 1)
        sender();

    snprintf(path, sizeof path, "%s.%d", argv[1], rank);
    MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    MPI_File_write_at(fh, 0, big, 40, MPI_INT, MPI_STATUS_IGNORE);
    MPI_File_read_at(fh, 0, buf, 100, MPI_INT, &st);
    MPI_Get_count(&st, MPI_INT, &n);
    MPI_File_close(&fh);
    printf("rank %d: read %d ints\n", rank, n);
    MPI_Comm_free(&rev);
    MPI_Finalize();
    return 0;
}
