/* endings.c: programs that end badly, for t_endings.sh. Every rank makes
 * 5 MPI_Allreduce and 1 MPI_Barrier, then, by the argument:
 *   abort  rank 1 calls MPI_Abort(MPI_COMM_WORLD, 3); the others wait in
 *          MPI_Barrier;
 *   exit   every rank exits with status 3 without MPI_Finalize, rank 0
 *          first and the others 300 ms later (a launcher that ends the
 *          job when one rank exits with an error, as MPICH's does, may
 *          kill the others before they reach their exit: rank 0 must);
 *   segv   rank 1 dies of SIGSEGV; the others wait in MPI_Barrier;
 *   hang   every rank waits for ever (MPI_Barrier, then MPI_Recv from
 *          nobody), until mpirun's timeout ends the job. */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, x = 1, y;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < 5; i++)
        MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    const char *how = argc > 1 ? argv[1] : "";
    if (rank == 0) {
        printf("endings: %s\n", how);
        fflush(stdout);
    }
    if (strcmp(how, "abort") == 0 && rank == 1)
        MPI_Abort(MPI_COMM_WORLD, 3);
    if (strcmp(how, "exit") == 0) {
        if (rank != 0)
            usleep(300000);
        exit(3);
    }
    if (strcmp(how, "segv") == 0 && rank == 1)
        raise(SIGSEGV);
    MPI_Barrier(MPI_COMM_WORLD);
    if (strcmp(how, "hang") == 0)
        MPI_Recv(&y, 1, MPI_INT, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
