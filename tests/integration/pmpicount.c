/* pmpicount.c: a second PMPI tool for t_chain.sh, preloaded after mpiprof:
 * it counts its own MPI_Init and the calls of a few functions, and at
 * MPI_Finalize writes "function calls" lines to $PMPICOUNT_OUT.<rank>. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { INIT, SEND, RECV, ISEND, IRECV, WAITALL, BCAST, ALLREDUCE, BARRIER, N };
static const char *const names[N] = { "MPI_Init", "MPI_Send", "MPI_Recv", "MPI_Isend", "MPI_Irecv",
                                      "MPI_Waitall", "MPI_Bcast", "MPI_Allreduce", "MPI_Barrier" };
static long count[N];

int MPI_Init(int *argc, char ***argv)
{
    count[INIT]++;
    return PMPI_Init(argc, argv);
}

int MPI_Send(const void *buf, int n, MPI_Datatype t, int dst, int tag, MPI_Comm comm)
{
    count[SEND]++;
    return PMPI_Send(buf, n, t, dst, tag, comm);
}

int MPI_Recv(void *buf, int n, MPI_Datatype t, int src, int tag, MPI_Comm comm, MPI_Status *st)
{
    count[RECV]++;
    return PMPI_Recv(buf, n, t, src, tag, comm, st);
}

int MPI_Isend(const void *buf, int n, MPI_Datatype t, int dst, int tag, MPI_Comm comm, MPI_Request *r)
{
    count[ISEND]++;
    return PMPI_Isend(buf, n, t, dst, tag, comm, r);
}

int MPI_Irecv(void *buf, int n, MPI_Datatype t, int src, int tag, MPI_Comm comm, MPI_Request *r)
{
    count[IRECV]++;
    return PMPI_Irecv(buf, n, t, src, tag, comm, r);
}

int MPI_Waitall(int n, MPI_Request *r, MPI_Status *st)
{
    count[WAITALL]++;
    return PMPI_Waitall(n, r, st);
}

int MPI_Bcast(void *buf, int n, MPI_Datatype t, int root, MPI_Comm comm)
{
    count[BCAST]++;
    return PMPI_Bcast(buf, n, t, root, comm);
}

int MPI_Allreduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm)
{
    count[ALLREDUCE]++;
    return PMPI_Allreduce(s, r, n, t, op, comm);
}

int MPI_Barrier(MPI_Comm comm)
{
    count[BARRIER]++;
    return PMPI_Barrier(comm);
}

int MPI_Finalize(void)
{
    int rank = -1;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *out = getenv("PMPICOUNT_OUT");
    char path[4096];
    snprintf(path, sizeof path, "%s.%d", out ? out : "pmpicount", rank);
    FILE *f = fopen(path, "w");
    for (int i = 0; f && i < N; i++)
        fprintf(f, "%s %ld\n", names[i], count[i]);
    if (f)
        fclose(f);
    return PMPI_Finalize();
}
