/* settle.c: the profiler's last step before PMPI_Finalize, on an MPI whose
 * MPI_Finalize can hang across nodes after other traffic (cold).
 *
 * MPICH before 4.2 on its ch4:ucx device closes every connection in
 * MPI_Finalize, waits until each close completes, and then waits in a PMI
 * barrier where it no longer makes progress (MPICH removed that barrier in
 * pull request 6596, 4.2). UCX's TCP transport flushes a connection at its
 * close with a request the peer answers in its own progress (a 25-byte
 * message). When one process closes while its peer is still inside an MPI
 * call of the profiler's last steps, the peer answers, the first process
 * goes on into the PMI barrier, and the peer's own close request, sent once
 * it reaches MPI_Finalize, is never answered: one rank spins in UCX, the
 * other is blocked reading from its PMI proxy, for ever. Measured on two
 * simulated nodes over TCP, a job of MPI_Init and MPI_Finalize only, with
 * three busy processes beside it on 2 cores: 5 to 10 of 40 runs hung under
 * the profiler, none of 30 without it. A pause in which no process makes
 * progress, between the profiler's last call and the MPI's MPI_Finalize,
 * lets every process send its close request before any can answer one:
 * 2 ms left 10 of 40 hung, 5 ms 1 of 40, 20 ms none of 200 (empty jobs and
 * nodeinfo.c's). So on that MPI, on several nodes, each process pauses
 * 20 ms (mpiprof(1), BUGS). */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "nodes.h"
#include "run.h"

enum { SETTLE_MS = 20 };

/* Whether version (MPI_Get_library_version's text) is MPICH before 4.2 on
 * ch4:ucx. */
static int hangs_in_finalize(const char *version)
{
    const char *v = strstr(version, "MPICH Version:");
    int major = 0, minor = 0;
    return v && sscanf(v + strlen("MPICH Version:"), " %d.%d", &major, &minor) == 2 &&
           (major < 4 || (major == 4 && minor < 2)) && strstr(version, "ch4:ucx") != NULL;
}

void prof_settle(void)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int len = 0;
    if (prof_nodes_count() < 2 || PMPI_Get_library_version(version, &len) != MPI_SUCCESS ||
        !hangs_in_finalize(version))
        return;
    struct timespec ts = { 0, SETTLE_MS * 1000000L };
    while (nanosleep(&ts, &ts) != 0)
        ;
}
