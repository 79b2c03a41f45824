/* nofinalize.c: exits (status 3) after some MPI calls without calling
 * MPI_Finalize, for t_config.sh: the profiler says once that no report was
 * written and changes neither the output nor the exit status. */
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("leaving without MPI_Finalize\n");
    fflush(stdout);
    exit(3);
}
