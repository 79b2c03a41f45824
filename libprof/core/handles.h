/* handles.h: what the hooks need to know about datatypes and communicators
 * (hot: one lookup per data-moving call).
 *
 * Datatype sizes: a per-thread direct-mapped cache (bounded; a miss asks
 * PMPI_Type_size_x once). MPI_Type_free bumps the generation of the freed
 * handle's slot only, so other cached sizes survive.
 *
 * Communicators: one process-wide map, handle -> struct prof_comm_info
 * (size, rank, shape, and the peer -> MPI_COMM_WORLD rank map when partners
 * are on), built on a communicator's first use (cold, PMPI queries) and kept
 * until MPI_Comm_free/MPI_Comm_disconnect of that handle. Readers take no
 * lock (a sequence count tells them when an insertion or removal raced with
 * them); insertions and removals take a mutex. */
#ifndef PROF_HANDLES_H
#define PROF_HANDLES_H

#include <stdint.h>
#include <string.h>
#include <mpi.h>

#include "hmap.h"

#define PROF_CACHE_SLOTS 64u   /* power of two */

/* A handle (pointer in Open MPI, int in MPICH) as a 64-bit key. */
#define PROF_HKEY(h) prof_hkey(&(h), sizeof(h))
static inline uint64_t prof_hkey(const void *h, size_t n)
{
    uint64_t k = 0;
    memcpy(&k, h, n < sizeof k ? n : sizeof k);
    return k;
}

static inline uint32_t prof_cache_slot(uint64_t key)
{
    return (uint32_t)((key * 0x9e3779b97f4a7c15ULL) >> 58) & (PROF_CACHE_SLOTS - 1);
}

/* A slot holds a size while stamp[i] == the slot's process-wide generation + 1. */
struct prof_dtype_cache {
    uint64_t key[PROF_CACHE_SLOTS];
    uint64_t size[PROF_CACHE_SLOTS];
    unsigned stamp[PROF_CACHE_SLOTS];
};

/* Immutable once published. */
struct prof_comm_info {
    int size;          /* local group */
    int rank;
    int remote_size;   /* intercommunicators; 0 otherwise */
    int inter;
    int indegree;      /* neighbourhood collectives: blocks per neighbour; 0 without topology */
    int outdegree;
    uint64_t serial;   /* this communicator among all that had the handle: never reused */
    int *world;        /* peer rank -> MPI_COMM_WORLD rank (remote group for an
                          intercommunicator); NULL when partners are off or unknown */
};

struct prof_thread;

/* prof_dtype_size: size in bytes of one element of t (PMPI_Type_size_x).
 * th: the calling thread's state (its cache). */
uint64_t prof_dtype_size(struct prof_thread *th, MPI_Datatype t);

/* prof_comm_info: size, rank and shape of comm (never NULL). Any thread; no
 * lock once comm is known. */
const struct prof_comm_info *prof_comm_info(MPI_Comm comm);

/* prof_comm_world_rank: the MPI_COMM_WORLD rank of peer in comm (peer as
 * given to a point-to-point call on comm); -1 if it cannot be told or
 * partners are off (then no map is ever built). */
int prof_comm_world_rank(MPI_Comm comm, int peer);

/* prof_comm_world_rank_of: prof_comm_world_rank for a handle that may have
 * been freed (and reused) since prof_comm_info gave serial: -1 unless comm
 * still names that communicator. Never calls PMPI. */
int prof_comm_world_rank_of(MPI_Comm comm, uint64_t serial, int peer);

/* prof_comm_info_of: what is known of comm if it still names the
 * communicator of that serial, else NULL. Never calls PMPI. */
const struct prof_comm_info *prof_comm_info_of(MPI_Comm comm, uint64_t serial);

/* Matched messages (MPI_Message, whose handle names no communicator):
 * prof_message_put remembers the MPI_COMM_WORLD rank of the sender of m, a
 * message a probe matched, until prof_message_take(m) takes it out at its
 * receive: that rank, or -1 when none was put (the probe's status was not
 * known). Any thread (a mutex: probes are not hot). */
void prof_message_put(MPI_Message m, int world);
int prof_message_take(MPI_Message m);

/* prof_comm_forget, prof_type_forget: the handle *h is about to be freed
 * (any thread; called by the wrappers of the freeing functions even when
 * they are not profiled, so nothing outlives its handle). */
void prof_comm_forget(const MPI_Comm *h);
void prof_type_forget(const MPI_Datatype *h);

#endif
