/* regions.c: MPI_Pcontrol regions with known counts (t_regions.sh). On
 * every rank: a barrier outside any region; region "init" (3 MPI_Bcast);
 * 10 times region "step" (2 MPI_Allreduce) holding region "halo" (4
 * MPI_Sendrecv with the partner rank ^ 1, 64 bytes each way); then, with
 * collecting stopped (MPI_Pcontrol(0) ... MPI_Pcontrol(1)), 1,000 MPI_Send
 * from even to odd ranks of 8 bytes and their MPI_Recv; then a close of a
 * region that is not open and a final barrier. Needs an even number of ranks. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size;
    double x[8] = { 0 }, y[8];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size % 2) {
        if (rank == 0)
            fprintf(stderr, "regions: needs an even number of ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int partner = rank ^ 1;
    MPI_Barrier(MPI_COMM_WORLD);

    MPI_Pcontrol(2, "init");
    for (int i = 0; i < 3; i++)
        MPI_Bcast(x, 8, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Pcontrol(-2, "init");

    for (int step = 0; step < 10; step++) {
        MPI_Pcontrol(2, "step");
        MPI_Allreduce(x, y, 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        MPI_Pcontrol(2, "halo");
        for (int i = 0; i < 4; i++)
            MPI_Sendrecv(x, 8, MPI_DOUBLE, partner, 1, y, 8, MPI_DOUBLE, partner, 1, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
        MPI_Pcontrol(-2, "halo");
        MPI_Allreduce(x, y, 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        MPI_Pcontrol(-2, "step");
    }

    MPI_Pcontrol(0);
    MPI_Pcontrol(0);                  /* stopping twice is stopping */
    for (int i = 0; i < 1000; i++) {
        if (rank % 2 == 0)
            MPI_Send(x, 1, MPI_DOUBLE, partner, 2, MPI_COMM_WORLD);
        else
            MPI_Recv(y, 1, MPI_DOUBLE, partner, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Pcontrol(1);
    MPI_Pcontrol(1);

    MPI_Pcontrol(-2, "never-opened");
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("regions: done\n");
    MPI_Finalize();
    return 0;
}
