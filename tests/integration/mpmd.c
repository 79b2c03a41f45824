/* mpmd.c: one side of the MPMD job of t_mpmd.sh, built twice (SIDE=a and
 * SIDE=b): two binaries with the same code, so the same offsets, but their
 * own function names. Each rank calls MPI_Bcast twice through site_SIDE and
 * once from main. Run as `mpirun -np 1 a/mpmd : -np 1 b/mpmd` (the same
 * base name): each side's site must keep its own name. */
#include <stdio.h>
#include <mpi.h>

#define CAT(x, y) x##y
#define NAME(x, y) CAT(x, y)

static void __attribute__((noinline)) NAME(site_, SIDE)(int *v)
{
    MPI_Bcast(v, 1, MPI_INT, 0, MPI_COMM_WORLD);   /* the site line */
    __asm__ volatile("");      /* not a tail call */
}

int main(int argc, char **argv)
{
    int rank, size, v = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 0; i < 2; i++)
        NAME(site_, SIDE)(&v);
    MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);   /* the main line */
    if (rank == 0)
        printf("%d ranks\n", size);
    MPI_Finalize();
    return 0;
}
