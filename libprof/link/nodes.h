/* nodes.h: which node each process runs on, and the nodes' clocks set on
 * one timeline (the nodes module, nodes.c; cold but for prof_sync_out and
 * prof_sync_in, which a token's send and arrival call).
 *
 * Processes of one node (one host name and clock kind) read one clock.
 * Across nodes the clocks are apart by hours (CLOCK_MONOTONIC and the TSC
 * count from each node's boot) and drift by ppm, so a time one process
 * sends another is comparable only once both are on a common timeline:
 * when an analysis asked for it (prof_sync_want, in its start) and the job
 * runs on several nodes, MPI_Init measures each node's offset to the first
 * node's clock, by the minimum round trip of ping-pongs between node
 * leaders in a binomial tree (ceil(log2(nodes)) rounds), and MPI_Finalize
 * measures it again (the drift, in nodes.txt). Between the two the
 * offsets drift (ppm: a millisecond in seconds to minutes), so every time
 * that comes from another node and is known to precede a time of this
 * process (a token taken, a reduction ended) keeps the clock condition:
 * when the timeline puts it later, the node's timeline moves on by the
 * difference (never back), for all its processes at once. A time on the
 * timeline is the node's CLOCK_MONOTONIC nanoseconds (clock.h,
 * prof_clock_ns) plus its offset at MPI_Init plus how far it moved. */
#ifndef PROF_NODES_H
#define PROF_NODES_H

#include <mpi.h>
#include <stdint.h>

/* prof_sync_want: an analysis that compares times of different processes
 * asks for the nodes' clocks on one timeline (in its start; MPI_Init). */
void prof_sync_want(void);

/* prof_sync_node: the clock a time this process sends is on: its node's
 * (a hash of its host name and clock kind, never 0 or PROF_SYNC_COMMON)
 * or, once the nodes are synchronized, PROF_SYNC_COMMON, the timeline. */
#define PROF_SYNC_COMMON 1
uint64_t prof_sync_node(void);

/* prof_sync_out: this process's time t (prof_clock ticks) as it travels
 * to another process, on prof_sync_node's clock. prof_sync_in: a time at
 * that another process sent, on clock node, as this process's ticks in *t:
 * 1 when the two can be compared (one node, or both on the timeline),
 * else 0 (*t untouched); from: the sender's node as prof_sync_from named
 * it there (0: not known): its times are moved on by the drift its
 * messages showed here (prof_sync_token); by: this process's time (ticks)
 * that at is known to precede (the clock condition above; and *t is not
 * moved past it), 0 where none is. Thread safe. */
uint64_t prof_sync_out(uint64_t t);
int prof_sync_in(uint64_t at, uint64_t node, int32_t from, uint64_t by, uint64_t *t);
/* prof_sync_from: this process's node as its messages name it (1 and up;
 * 0 while the nodes are not on one timeline). prof_sync_token: as
 * prof_sync_in for the send time at of a message from node from that
 * arrived here at arrived (ticks); when it was sent after since (this
 * process's ticks: the start of the call that waited for it; 0: none),
 * its one-way delay tells the drift of that node's times against this
 * process's (nodes.c). */
int32_t prof_sync_from(void);
int prof_sync_token(uint64_t at, uint64_t node, int32_t from, uint64_t arrived, uint64_t since, uint64_t *t);
/* prof_sync_arrive: this process came to a point of comm at t (its
 * ticks): in one MPI_Allreduce (a barrier's synchronization), when the last
 * of comm's processes came, as this process's ticks in *latest: 1 when
 * their clocks compare (one node, or the timeline), 0 when not, -1 when
 * the reduction failed. Collective over comm. */
int prof_sync_arrive(MPI_Comm comm, uint64_t t, uint64_t *latest);
/* prof_sync_span: a span between two times on prof_sync_node's clock as
 * this process's ticks. */
uint64_t prof_sync_span(uint64_t d);

/* prof_nodes_index: this process's node, 0 .. nodes - 1 in the order of
 * their lowest ranks; -1 when the nodes could not be told apart (after
 * the nodes' start: a module's begin step or later). */
int prof_nodes_index(void);
/* prof_nodes_count: how many nodes the job runs on; 0 when they could not
 * be told apart (after the nodes' start). */
int prof_nodes_count(void);

/* prof_nodes_local: whether rank peer of comm runs on this process's node
 * (1 too when the job is on one node, or its nodes are not known). Thread
 * safe; a few PMPI group calls on several nodes (cold callers, or sends
 * large enough that they do not show). */
int prof_nodes_local(MPI_Comm comm, int peer);

/* prof_nodes_waits_on, prof_nodes_waited: on rank 0, in the wait states'
 * agree step (after the nodes' figures), that wait states ran, and s
 * seconds that rank waiter waited for rank cause's region: nodes.txt's
 * waited_s of the waiter's node and caused_s of the cause's. */
void prof_nodes_waits_on(void);
void prof_nodes_waited(int waiter, int cause, double s);

#endif
