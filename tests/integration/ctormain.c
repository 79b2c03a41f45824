/* ctormain.c: MPI calls in main, with MPI initialized and finalized by
 * libctor.so's constructor and destructor (t_ctor.sh): MPI_Comm_rank, 3 MPI_Barrier and
 * 2 MPI_Allreduce of one int per rank. */
#include <stdio.h>
#include <mpi.h>

int main(void)
{
    int rank, one = 1, sum = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < 3; i++)
        MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < 2; i++)
        MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    printf("rank %d sum %d\n", rank, sum);
    return 0;
}
