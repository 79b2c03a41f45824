/* pcontrol.c: rank 0 stops collecting (MPI_Pcontrol(0)) and the others do
 * not, then every rank makes blocking and nonblocking collectives, a
 * communicator, a window and a fence epoch. Under --model and --collwait
 * the analyses' own collective calls must still match (t_regions.sh):
 * prints each rank's results, the same with and without the profiler. */
#include <stdio.h>
#include <mpi.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0)
        MPI_Pcontrol(0);
    double x = rank + 1, y = 0, sum = 0, z = 0, in = 0;
    for (int i = 0; i < 3; i++) {
        MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        sum += y;
    }
    MPI_Request req;
    MPI_Iallreduce(&x, &z, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Bcast(&x, 1, MPI_DOUBLE, size - 1, dup);
    MPI_Win win;
    MPI_Win_create(&in, sizeof in, sizeof in, MPI_INFO_NULL, dup, &win);
    MPI_Win_fence(0, win);
    MPI_Put(&x, 1, MPI_DOUBLE, (rank + 1) % size, 0, 1, MPI_DOUBLE, win);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Comm_free(&dup);
    if (rank == 0)
        MPI_Pcontrol(1);
    printf("rank %d: sum %g max %g bcast %g put %g\n", rank, sum, z, x, in);
    MPI_Finalize();
    return 0;
}
