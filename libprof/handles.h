/* handles.h: per-thread caches of datatype sizes and communicator shapes
 * (hot: one lookup per data-moving call). Direct-mapped, so bounded; a miss
 * asks PMPI once. MPI_Type_free, MPI_Comm_free and MPI_Comm_disconnect bump
 * prof_handle_epoch, which empties every thread's caches at its next call,
 * so a freed-and-reused handle is never answered from stale data. */
#ifndef PROF_HANDLES_H
#define PROF_HANDLES_H

#include <stdint.h>
#include <string.h>
#include <mpi.h>

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

struct prof_dtype_cache {
    uint64_t key[PROF_CACHE_SLOTS];
    uint64_t size[PROF_CACHE_SLOTS];
    unsigned char valid[PROF_CACHE_SLOTS];
};

struct prof_comm_info {
    int size;          /* local group */
    int rank;
    int remote_size;   /* intercommunicators; 0 otherwise */
    int inter;
    int indegree;      /* neighbourhood collectives; -1 until asked */
    int outdegree;
    int *world;        /* peer rank -> MPI_COMM_WORLD rank (remote group for an
                          intercommunicator); NULL until asked or if unavailable */
};

struct prof_comm_cache {
    uint64_t key[PROF_CACHE_SLOTS];
    struct prof_comm_info info[PROF_CACHE_SLOTS];
    unsigned char valid[PROF_CACHE_SLOTS];
};

extern volatile unsigned prof_handle_epoch;

struct prof_thread;

/* prof_dtype_size: size in bytes of one element of t (PMPI_Type_size_x). */
uint64_t prof_dtype_size(struct prof_thread *th, MPI_Datatype t);

/* prof_comm_info: size, rank and shape of comm; degrees filled when
 * want_degrees. */
const struct prof_comm_info *prof_comm_info(struct prof_thread *th, MPI_Comm comm, int want_degrees);

/* prof_comm_world_rank: the MPI_COMM_WORLD rank of peer in comm (peer as
 * given to a point-to-point call on comm); -1 if it cannot be told. The map
 * is built on a communicator's first use (cold), then one load. */
int prof_comm_world_rank(struct prof_thread *th, MPI_Comm comm, int peer);

/* prof_handles_freed: a datatype or communicator is being freed (any
 * thread; called by the wrappers of the freeing functions even when they are
 * not profiled, so caches never outlive a handle). */
void prof_handles_freed(void);

#endif
