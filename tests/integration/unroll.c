/* unroll.c: compiler copies of one call, for t_unroll.sh (2 ranks). Built
 * with -O2 -funroll-loops (tests/Makefile.inc): the MPI_Allreduce loop is
 * unrolled 4 times (several call instructions for one source line): one
 * branch, MPI_Allreduce n times (n = 37, from argv so that the loop is
 * unrolled with a remainder, not removed); bcast_one, always inlined, puts
 * its MPI_Bcast at three places of main: a branch each, named with the
 * place (MPI_Bcast 3 times in all). Rank 0 prints
 * the sums and whether the ranks run main at different addresses (ASLR). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>

static inline __attribute__((always_inline)) void bcast_one(int *v)
{
    MPI_Bcast(v, 1, MPI_INT, 0, MPI_COMM_WORLD);   /* the MPI_Bcast line */
}

int main(int argc, char **argv)
{
    int rank, n = argc > 1 ? atoi(argv[1]) : 37, sum = 0, total = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#pragma GCC unroll 4
    for (int i = 0; i < n; i++) {
        MPI_Allreduce(&i, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);   /* the MPI_Allreduce line */
        total += sum;
    }
    int v = rank == 0 ? 5 : 0, w = 0;
    bcast_one(&v);
    w += v;
    v = rank == 0 ? 7 : 0;
    bcast_one(&v);
    w += v;
    v = rank == 0 ? 11 : 0;
    bcast_one(&v);
    w += v;
    uint64_t mine = (uintptr_t)&main, lo, hi;
    MPI_Reduce(&mine, &lo, 1, MPI_UINT64_T, MPI_MIN, 0, MPI_COMM_WORLD);
    MPI_Reduce(&mine, &hi, 1, MPI_UINT64_T, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("allreduce total %d, bcast total %d, main at different addresses: %s\n", total, w,
               lo != hi ? "yes" : "no");
    MPI_Finalize();
    return 0;
}
