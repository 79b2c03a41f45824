/* eager.h: which standard-mode sends the MPI completes only once their
 * receive is posted (a rendezvous), as the MPI says (eager.c; cold but
 * for prof_eager_waits, which a send of wait states' tokens calls).
 *
 * An MPI sends a message of up to its eager limit at once, and a larger
 * one by rendezvous, which waits for the receive; the limit is the
 * transport's: shared memory within a node, the network across nodes.
 * Where the MPI names its limits as control variables (MPI_T), they are
 * read once at an analysis' start; where it does not, PROF_EAGER_FIXED
 * stands in. */
#ifndef PROF_EAGER_H
#define PROF_EAGER_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#define PROF_EAGER_FIXED 65536

/* prof_eager_start: read the limits (collective over nothing; once, at
 * the start of an analysis that asks). */
void prof_eager_start(void);

/* prof_eager_waits: whether a standard-mode send of bytes to rank peer of
 * comm goes by rendezvous: more than the limit of the transport between
 * this process and peer (the shared memory's when both are on one node,
 * nodes.h). Thread safe. */
int prof_eager_waits(MPI_Comm comm, int peer, uint64_t bytes);

/* prof_eager_line: the limits used, as a report's comment line
 * ("# eager: node=4096 node_from=btl_vader_eager_limit network=... network_from=...\n",
 * "fixed" where the MPI did not say). */
void prof_eager_line(char *buf, size_t size);

#endif
