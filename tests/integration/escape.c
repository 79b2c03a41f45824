/* escape.c: an MPI error handler that longjmps (issue 24 item 9), for
 * t_escape.sh (2 ranks). A communicator's handler calls MPI_Error_string
 * (the MPI library calling itself: not counted) and longjmps out of 5
 * MPI_Send calls to an invalid rank; then 7 MPI_Barrier and 3
 * MPI_Allreduce calls on that communicator must all be counted. */
#include <setjmp.h>
#include <stdio.h>
#include <mpi.h>

static jmp_buf env;

static void escape(MPI_Comm *comm, int *code, ...)
{
    char text[MPI_MAX_ERROR_STRING];
    int len;
    (void)comm;
    MPI_Error_string(*code, text, &len);
    longjmp(env, 1);
}

int main(int argc, char **argv)
{
    int rank, size, v = 1, sum = 0;
    volatile int escaped = 0;
    MPI_Comm comm;
    MPI_Errhandler eh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_create_errhandler(escape, &eh);
    MPI_Comm_set_errhandler(comm, eh);
    for (int i = 0; i < 5; i++)
        if (setjmp(env) == 0)
            MPI_Send(&v, 1, MPI_INT, size + 7, 0, comm);
        else
            escaped++;
    for (int i = 0; i < 7; i++)
        MPI_Barrier(comm);
    for (int i = 0; i < 3; i++)
        MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, comm);
    printf("rank %d escaped %d sum %d\n", rank, escaped, sum);
    MPI_Errhandler_free(&eh);
    MPI_Comm_free(&comm);
    MPI_Finalize();
    return 0;
}
