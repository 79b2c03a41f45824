/* handles.c: datatype-size cache and the communicator map (hot on a hit, PMPI
 * queries on a miss; removals at MPI_Comm_free). Only PMPI_ calls: never
 * profiled.
 *
 * The communicator map is open addressing with linear probing, at most half
 * full, keys (handle + 1; 0 = empty) and info pointers in the slots. Writers
 * hold comms.lock and make the sequence count odd while they change slots;
 * removal shifts later entries back, so no tombstones pile up. A reader
 * probes with relaxed loads between two reads of the count and retries when
 * it changed, so it never follows a pointer it read mid-change. An info is
 * freed when its communicator is (a program may not use a communicator while
 * freeing it); an outgrown slot array is kept, as readers may still be
 * probing it: all of them together are smaller than the current one. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "config.h"
#include "handles.h"
#include "thread.h"

/* --- datatypes ----------------------------------------------------------- */

static unsigned dtype_gen[PROF_CACHE_SLOTS];

void prof_type_forget(const MPI_Datatype *h)
{
    __atomic_add_fetch(&dtype_gen[prof_cache_slot(PROF_HKEY(*h))], 1, __ATOMIC_RELEASE);
}

uint64_t prof_dtype_size(struct prof_thread *th, MPI_Datatype t)
{
    uint64_t key = PROF_HKEY(t);
    uint32_t i = prof_cache_slot(key);
    struct prof_dtype_cache *c = &th->dtypes;
    unsigned stamp = __atomic_load_n(&dtype_gen[i], __ATOMIC_ACQUIRE) + 1;
    if (c->stamp[i] != stamp || c->key[i] != key) {
        MPI_Count size = 0;
        if (PMPI_Type_size_x(t, &size) != MPI_SUCCESS || size < 0)
            size = 0;
        c->key[i] = key;
        c->size[i] = (uint64_t)size;
        c->stamp[i] = stamp;
    }
    return c->size[i];
}

/* --- communicators ------------------------------------------------------- */

struct comm_slot {
    uint64_t key;                   /* atomic */
    struct prof_comm_info *info;    /* atomic */
};

struct comm_table {
    uint32_t mask;
    struct comm_table *outgrown;    /* the array this one replaced */
    struct comm_slot s[];
};

static struct {
    pthread_mutex_t lock;
    unsigned seq;                   /* odd while slots change; atomic */
    struct comm_table *table;       /* atomic */
    uint32_t used;
    uint64_t serial;
} comms = { PTHREAD_MUTEX_INITIALIZER, 0, NULL, 0, 0 };

static inline uint64_t comm_key(MPI_Comm comm)
{
    return PROF_HKEY(comm) + 1;
}

static inline uint32_t home(uint64_t key, uint32_t mask)
{
    return (uint32_t)((key * 0x9e3779b97f4a7c15ULL) >> 32) & mask;
}

/* The info of key, or NULL when unknown (lock-free). */
static const struct prof_comm_info *lookup(uint64_t key)
{
    for (;;) {
        unsigned s0 = __atomic_load_n(&comms.seq, __ATOMIC_ACQUIRE);
        const struct comm_table *t = __atomic_load_n(&comms.table, __ATOMIC_ACQUIRE);
        const struct prof_comm_info *found = NULL;
        if (t && !(s0 & 1)) {
            uint32_t i = home(key, t->mask);
            for (uint32_t n = 0; n <= t->mask; n++, i = (i + 1) & t->mask) {
                uint64_t k = __atomic_load_n(&t->s[i].key, __ATOMIC_RELAXED);
                if (k == key) {
                    found = __atomic_load_n(&t->s[i].info, __ATOMIC_RELAXED);
                    break;
                }
                if (k == 0)
                    break;
            }
        }
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        if (!(s0 & 1) && __atomic_load_n(&comms.seq, __ATOMIC_RELAXED) == s0)
            return found;
    }
}

/* Writers (comms.lock held) bracket slot changes with these. */
static void change_begin(void)
{
    __atomic_store_n(&comms.seq, comms.seq + 1, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_RELEASE);
}

static void change_end(void)
{
    __atomic_store_n(&comms.seq, comms.seq + 1, __ATOMIC_RELEASE);
}

static void place(struct comm_table *t, uint64_t key, struct prof_comm_info *info)
{
    uint32_t i = home(key, t->mask);
    while (__atomic_load_n(&t->s[i].key, __ATOMIC_RELAXED) != 0)
        i = (i + 1) & t->mask;
    __atomic_store_n(&t->s[i].info, info, __ATOMIC_RELAXED);
    __atomic_store_n(&t->s[i].key, key, __ATOMIC_RELAXED);
}

/* Room for one more entry (lock held); -1 without memory. */
static int room(void)
{
    struct comm_table *t = comms.table;
    uint32_t cap = t ? t->mask + 1 : 0;
    if (2 * (comms.used + 1) <= cap)
        return 0;
    uint32_t ncap = cap ? 2 * cap : 64;
    struct comm_table *nt = calloc(1, sizeof *nt + ncap * sizeof nt->s[0]);
    if (!nt)
        return -1;
    nt->mask = ncap - 1;
    nt->outgrown = t;
    for (uint32_t i = 0; i < cap; i++)
        if (t->s[i].key)
            place(nt, t->s[i].key, t->s[i].info);
    __atomic_store_n(&comms.table, nt, __ATOMIC_RELEASE);
    return 0;
}

/* Publish info for key unless another thread did first; the info to use. */
static const struct prof_comm_info *insert(uint64_t key, struct prof_comm_info *info)
{
    pthread_mutex_lock(&comms.lock);
    const struct prof_comm_info *have = lookup(key);
    if (!have && room() == 0) {
        info->serial = ++comms.serial;
        change_begin();
        place(comms.table, key, info);
        comms.used++;
        change_end();
        have = info;
        info = NULL;
    }
    pthread_mutex_unlock(&comms.lock);
    if (info) {
        free(info->world);
        free(info);
    }
    return have;
}

/* Remove key and shift later entries of its run back (lock held). */
static struct prof_comm_info *remove_key(uint64_t key)
{
    struct comm_table *t = comms.table;
    if (!t)
        return NULL;
    uint32_t i = home(key, t->mask);
    while (t->s[i].key != key) {
        if (t->s[i].key == 0)
            return NULL;
        i = (i + 1) & t->mask;
    }
    struct prof_comm_info *gone = t->s[i].info;
    change_begin();
    for (uint32_t j = (i + 1) & t->mask; t->s[j].key; j = (j + 1) & t->mask) {
        uint32_t h = home(t->s[j].key, t->mask);
        int stays = i <= j ? (i < h && h <= j) : (i < h || h <= j);
        if (stays)
            continue;
        __atomic_store_n(&t->s[i].info, t->s[j].info, __ATOMIC_RELAXED);
        __atomic_store_n(&t->s[i].key, t->s[j].key, __ATOMIC_RELAXED);
        i = j;
    }
    __atomic_store_n(&t->s[i].key, 0, __ATOMIC_RELAXED);
    comms.used--;
    change_end();
    return gone;
}

void prof_comm_forget(const MPI_Comm *h)
{
    pthread_mutex_lock(&comms.lock);
    struct prof_comm_info *gone = remove_key(comm_key(*h));
    pthread_mutex_unlock(&comms.lock);
    if (gone) {
        free(gone->world);
        free(gone);
    }
}

static void degrees(MPI_Comm comm, struct prof_comm_info *ci)
{
    int topo = MPI_UNDEFINED, nd = 0, weighted = 0;
    if (ci->inter || PMPI_Topo_test(comm, &topo) != MPI_SUCCESS)
        return;
    if (topo == MPI_CART && PMPI_Cartdim_get(comm, &nd) == MPI_SUCCESS) {
        ci->indegree = ci->outdegree = 2 * nd;
    } else if (topo == MPI_GRAPH && PMPI_Graph_neighbors_count(comm, ci->rank, &nd) == MPI_SUCCESS) {
        ci->indegree = ci->outdegree = nd;
    } else if (topo == MPI_DIST_GRAPH) {
        PMPI_Dist_graph_neighbors_count(comm, &ci->indegree, &ci->outdegree, &weighted);
    }
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

static void query(MPI_Comm comm, struct prof_comm_info *ci)
{
    memset(ci, 0, sizeof *ci);
    PMPI_Comm_size(comm, &ci->size);
    PMPI_Comm_rank(comm, &ci->rank);
    PMPI_Comm_test_inter(comm, &ci->inter);
    if (ci->inter)
        PMPI_Comm_remote_size(comm, &ci->remote_size);
    degrees(comm, ci);
}

/* Cold: a communicator not seen since its creation. Without memory for the
 * map's entry, the answers of this call come from a per-thread scratch copy. */
static __attribute__((noinline)) const struct prof_comm_info *learn(MPI_Comm comm, uint64_t key)
{
    static __thread struct prof_comm_info scratch;
    struct prof_comm_info *ci = malloc(sizeof *ci);
    if (!ci) {
        query(comm, &scratch);
        return &scratch;
    }
    query(comm, ci);
    if (prof_config.partners && comm != MPI_COMM_WORLD)
        ci->world = world_map(comm, ci);
    const struct prof_comm_info *have = insert(key, ci);
    if (have)
        return have;
    query(comm, &scratch);
    return &scratch;
}

const struct prof_comm_info *prof_comm_info(MPI_Comm comm)
{
    uint64_t key = comm_key(comm);
    const struct prof_comm_info *ci = lookup(key);
    return ci ? ci : learn(comm, key);
}

static inline int world_rank(const struct prof_comm_info *ci, int peer)
{
    int n = ci->inter ? ci->remote_size : ci->size;
    return ci->world && peer < n ? ci->world[peer] : -1;
}

int prof_comm_world_rank(MPI_Comm comm, int peer)
{
    if (peer < 0 || !prof_config.partners)
        return -1;
    if (comm == MPI_COMM_WORLD)
        return peer;
    return world_rank(prof_comm_info(comm), peer);
}

const struct prof_comm_info *prof_comm_info_of(MPI_Comm comm, uint64_t serial)
{
    const struct prof_comm_info *ci = serial ? lookup(comm_key(comm)) : NULL;
    return ci && ci->serial == serial ? ci : NULL;
}

int prof_comm_world_rank_of(MPI_Comm comm, uint64_t serial, int peer)
{
    const struct prof_comm_info *ci = peer < 0 || !prof_config.partners ? NULL : prof_comm_info_of(comm, serial);
    if (!ci)
        return -1;
    return comm == MPI_COMM_WORLD ? peer : world_rank(ci, peer);
}

/* --- matched messages ---------------------------------------------------- */

/* message handle -> its sender's world rank + 1 (a value is never NULL). */
static struct {
    pthread_mutex_t lock;
    struct prof_hmap map;
} messages = { .lock = PTHREAD_MUTEX_INITIALIZER };

void prof_message_put(MPI_Message m, int world)
{
    if (world < 0)
        return;
    pthread_mutex_lock(&messages.lock);
    prof_hmap_put(&messages.map, PROF_HKEY(m), (void *)((uintptr_t)world + 1));
    pthread_mutex_unlock(&messages.lock);
}

int prof_message_take(MPI_Message m)
{
    pthread_mutex_lock(&messages.lock);
    uintptr_t v = messages.map.n ? (uintptr_t)prof_hmap_del(&messages.map, PROF_HKEY(m)) : 0;
    pthread_mutex_unlock(&messages.lock);
    return (int)v - 1;
}
