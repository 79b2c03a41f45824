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
    /* Print before the barrier: MPICH's launcher kills the other ranks as
     * soon as one exits with a non-zero status, so rank 0's output must be
     * out before any rank can leave. */
    if (rank == 0)
        printf("leaving without MPI_Finalize\n");
    fflush(stdout);
    MPI_Barrier(MPI_COMM_WORLD);
    exit(3);
}
