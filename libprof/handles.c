/* handles.c: datatype-size and communicator caches (hot on a hit, one PMPI
 * query on a miss). Only PMPI_ calls: never profiled. */
#include <stdlib.h>
#include <string.h>
#include "handles.h"
#include "thread.h"

volatile unsigned prof_handle_epoch;

void prof_handles_freed(void)
{
    __atomic_add_fetch(&prof_handle_epoch, 1, __ATOMIC_RELAXED);
}

static void forget_comm(struct prof_comm_cache *c, uint32_t i)
{
    free(c->info[i].world);
    c->info[i].world = NULL;
    c->valid[i] = 0;
}

static inline void check_epoch(struct prof_thread *th)
{
    unsigned e = __atomic_load_n(&prof_handle_epoch, __ATOMIC_RELAXED);
    if (th->handle_epoch != e) {
        memset(th->dtypes.valid, 0, sizeof th->dtypes.valid);
        for (uint32_t i = 0; i < PROF_CACHE_SLOTS; i++)
            forget_comm(&th->comms, i);
        th->handle_epoch = e;
    }
}

uint64_t prof_dtype_size(struct prof_thread *th, MPI_Datatype t)
{
    check_epoch(th);
    uint64_t key = PROF_HKEY(t);
    uint32_t i = prof_cache_slot(key);
    struct prof_dtype_cache *c = &th->dtypes;
    if (!c->valid[i] || c->key[i] != key) {
        MPI_Count size = 0;
        if (PMPI_Type_size_x(t, &size) != MPI_SUCCESS || size < 0)
            size = 0;
        c->key[i] = key;
        c->size[i] = (uint64_t)size;
        c->valid[i] = 1;
    }
    return c->size[i];
}

static void degrees(MPI_Comm comm, struct prof_comm_info *ci)
{
    int topo = MPI_UNDEFINED, nd = 0, weighted = 0;
    ci->indegree = ci->outdegree = 0;
    PMPI_Topo_test(comm, &topo);
    if (topo == MPI_CART && PMPI_Cartdim_get(comm, &nd) == MPI_SUCCESS) {
        ci->indegree = ci->outdegree = 2 * nd;
    } else if (topo == MPI_GRAPH && PMPI_Graph_neighbors_count(comm, ci->rank, &nd) == MPI_SUCCESS) {
        ci->indegree = ci->outdegree = nd;
    } else if (topo == MPI_DIST_GRAPH) {
        PMPI_Dist_graph_neighbors_count(comm, &ci->indegree, &ci->outdegree, &weighted);
    }
}

const struct prof_comm_info *prof_comm_info(struct prof_thread *th, MPI_Comm comm, int want_degrees)
{
    check_epoch(th);
    uint64_t key = PROF_HKEY(comm);
    uint32_t i = prof_cache_slot(key);
    struct prof_comm_cache *c = &th->comms;
    struct prof_comm_info *ci = &c->info[i];
    if (!c->valid[i] || c->key[i] != key) {
        forget_comm(c, i);
        memset(ci, 0, sizeof *ci);
        PMPI_Comm_size(comm, &ci->size);
        PMPI_Comm_rank(comm, &ci->rank);
        PMPI_Comm_test_inter(comm, &ci->inter);
        if (ci->inter)
            PMPI_Comm_remote_size(comm, &ci->remote_size);
        ci->indegree = ci->outdegree = -1;
        c->key[i] = key;
        c->valid[i] = 1;
    }
    if (want_degrees && ci->indegree < 0)
        degrees(comm, ci);
    return ci;
}

/* The world ranks of comm's group (remote group for an intercommunicator). */
static int *world_map(MPI_Comm comm, const struct prof_comm_info *ci)
{
    int n = ci->inter ? ci->remote_size : ci->size;
    int *ranks = malloc((size_t)n * sizeof *ranks), *world = malloc((size_t)n * sizeof *world);
    MPI_Group g = MPI_GROUP_NULL, wg = MPI_GROUP_NULL;
    int ok = ranks && world &&
             (ci->inter ? PMPI_Comm_remote_group(comm, &g) : PMPI_Comm_group(comm, &g)) == MPI_SUCCESS &&
             PMPI_Comm_group(MPI_COMM_WORLD, &wg) == MPI_SUCCESS;
    for (int i = 0; ok && i < n; i++)
        ranks[i] = i;
    ok = ok && PMPI_Group_translate_ranks(g, n, ranks, wg, world) == MPI_SUCCESS;
    if (g != MPI_GROUP_NULL)
        PMPI_Group_free(&g);
    if (wg != MPI_GROUP_NULL)
        PMPI_Group_free(&wg);
    free(ranks);
    if (!ok) {
        free(world);
        return NULL;
    }
    return world;
}

int prof_comm_world_rank(struct prof_thread *th, MPI_Comm comm, int peer)
{
    if (peer < 0)
        return -1;
    if (comm == MPI_COMM_WORLD)
        return peer;
    struct prof_comm_info *ci = (struct prof_comm_info *)prof_comm_info(th, comm, 0);
    int n = ci->inter ? ci->remote_size : ci->size;
    if (!ci->world)
        ci->world = world_map(comm, ci);
    return ci->world && peer < n ? ci->world[peer] : -1;
}
