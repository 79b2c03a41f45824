/* wait.h: waiting for the tool's own messages at MPI_Finalize without
 * spinning (cold). MPI libraries poll while a blocking call waits: with
 * more ranks than cores (oversubscribed), the waiting ranks then take the
 * CPU from the ranks that have work, and the report takes seconds. */
#ifndef PROF_WAIT_H
#define PROF_WAIT_H

#include <mpi.h>

/* prof_wait: complete *req (MPI_Wait semantics, status ignored), testing it
 * and sleeping between tests, from 10 us up to 1 ms, while it is not done. */
void prof_wait(MPI_Request *req);

/* prof_wait_barrier: a barrier over comm that waits with prof_wait. */
void prof_wait_barrier(MPI_Comm comm);

#endif
