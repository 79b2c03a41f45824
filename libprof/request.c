/* request.c: the pending-request map (hot for nonblocking calls and their
 * completion). Open addressing with atomic keys; a slot is claimed by CAS
 * (EMPTY or TOMB -> BUSY), filled, then published with its key; a completed
 * or freed slot becomes a tombstone that later insertions reuse. A handle
 * may have several entries (see prof_request_put). */
#include "handles.h"
#include "request.h"

#define EMPTY 0u
#define TOMB  1u
#define BUSY  2u

struct slot {
    uint64_t key;          /* handle key + 3 (EMPTY/TOMB/BUSY stay free); atomic */
    struct prof_request info;
};

static struct {
    struct slot slots[PROF_REQUEST_SLOTS];
    uint64_t untracked;
} map;

static inline uint64_t key_of(MPI_Request req)
{
    return PROF_HKEY(req) + 3;
}

static inline uint32_t first(uint64_t key)
{
    return (uint32_t)((key * 0x9e3779b97f4a7c15ULL) >> 40) & (PROF_REQUEST_SLOTS - 1);
}

static struct slot *find(MPI_Request req)
{
    uint64_t key = key_of(req);
    uint32_t i = first(key);
    for (uint32_t n = 0; n < PROF_REQUEST_SLOTS; n++, i = (i + 1) & (PROF_REQUEST_SLOTS - 1)) {
        uint64_t k = __atomic_load_n(&map.slots[i].key, __ATOMIC_ACQUIRE);
        if (k == key)
            return &map.slots[i];
        if (k == EMPTY)
            return 0;
    }
    return 0;
}

void prof_request_put(MPI_Request req, const struct prof_request *info)
{
    /* The same handle may be pending twice: Open MPI returns one shared,
     * already complete request for sends that finish at once. Each entry is
     * then taken by one completion of that handle. */
    uint64_t key = key_of(req);
    uint32_t i = first(key);
    for (uint32_t n = 0; n < PROF_REQUEST_SLOTS; n++, i = (i + 1) & (PROF_REQUEST_SLOTS - 1)) {
        struct slot *s = &map.slots[i];
        uint64_t k = __atomic_load_n(&s->key, __ATOMIC_ACQUIRE);
        if (k != EMPTY && k != TOMB)
            continue;
        if (__atomic_compare_exchange_n(&s->key, &k, BUSY, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
            s->info = *info;
            __atomic_store_n(&s->key, key, __ATOMIC_RELEASE);
            return;
        }
    }
    __atomic_add_fetch(&map.untracked, 1, __ATOMIC_RELAXED);
}

int prof_request_get(MPI_Request req, struct prof_request *info)
{
    struct slot *s = find(req);
    if (!s)
        return 0;
    *info = s->info;
    return 1;
}

int prof_request_complete(MPI_Request req, struct prof_request *info)
{
    struct slot *s = find(req);
    if (!s)
        return 0;
    *info = s->info;
    if (!info->persistent) {
        /* Two threads completing the same handle: only one takes the entry. */
        uint64_t key = key_of(req);
        if (!__atomic_compare_exchange_n(&s->key, &key, TOMB, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
            return 0;
    }
    return 1;
}

void prof_request_forget(MPI_Request req)
{
    struct slot *s = find(req);
    if (s)
        __atomic_store_n(&s->key, TOMB, __ATOMIC_RELEASE);
}

uint64_t prof_request_untracked(void)
{
    return __atomic_load_n(&map.untracked, __ATOMIC_RELAXED);
}
