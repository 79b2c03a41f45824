/* handles.c: datatype-size and communicator caches (hot on a hit, one PMPI
 * query on a miss). Only PMPI_ calls: never profiled. */
#include <string.h>
#include "handles.h"
#include "thread.h"

volatile unsigned prof_handle_epoch;

void prof_handles_freed(void)
{
    __atomic_add_fetch(&prof_handle_epoch, 1, __ATOMIC_RELAXED);
}

static inline void check_epoch(struct prof_thread *th)
{
    unsigned e = __atomic_load_n(&prof_handle_epoch, __ATOMIC_RELAXED);
    if (th->handle_epoch != e) {
        memset(th->dtypes.valid, 0, sizeof th->dtypes.valid);
        memset(th->comms.valid, 0, sizeof th->comms.valid);
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
