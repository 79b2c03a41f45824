/* wait.c: test-and-sleep waiting for the tool's messages at MPI_Finalize
 * (cold; see wait.h). Only PMPI_ calls. */
#include <time.h>
#include "wait.h"

void prof_wait(MPI_Request *req)
{
    long ns = 10000;
    for (;;) {
        int done = 0;
        PMPI_Test(req, &done, MPI_STATUS_IGNORE);
        if (done)
            return;
        struct timespec ts = { 0, ns };
        nanosleep(&ts, NULL);
        ns = ns < 1000000 ? 2 * ns : ns;
    }
}

void prof_wait_barrier(MPI_Comm comm)
{
    MPI_Request req;
    PMPI_Ibarrier(comm, &req);
    prof_wait(&req);
}
