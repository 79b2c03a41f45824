/* request.c: the pending-request map (hot for nonblocking calls and their
 * completion). Open addressing with linear probing and atomic keys, and no
 * tombstones: each slot also counts the live entries stored beyond it whose
 * probe started at or before it ("over"). A lookup stops at the first slot
 * that neither holds its key nor is passed over, so a removed entry leaves
 * nothing behind and a miss costs what the live entries around its home
 * slot cost, however many requests were once pending.
 *
 * Lock-free: a slot is claimed by CAS (EMPTY -> BUSY), its probe path
 * counted, filled, then published with its key (release). An entry is taken
 * by CAS (key -> BUSY, so that one thread wins), its path uncounted, then
 * the slot is made EMPTY. A thread looks a request up only after the put
 * that published it (the handle travels with the application's own
 * synchronization), so its path counts are visible; a concurrent put or
 * take of another key changes counts only by its own entry's share.
 * Insertions probe at most MAX_PROBE slots; beyond that the request is
 * counted untracked, which bounds every lookup. */
#include "handles.h"
#include "request.h"

#define EMPTY 0u
#define BUSY  1u
#define MAX_PROBE 256u
#define MASK (PROF_REQUEST_SLOTS - 1)

struct slot {
    uint64_t key;          /* EMPTY, BUSY or handle key + 2; atomic */
    uint32_t over;         /* live entries probed past this slot; atomic */
    struct prof_request info;
};

static struct {
    struct slot slots[PROF_REQUEST_SLOTS];
    uint64_t untracked;
    int used;              /* an entry was ever put; atomic */
} map;

static inline uint64_t key_of(MPI_Request req)
{
    return PROF_HKEY(req) + 2;
}

static inline uint32_t home(uint64_t key)
{
    return (uint32_t)((key * 0x9e3779b97f4a7c15ULL) >> 40) & MASK;
}

/* Count (+1) or uncount (-1) an entry at slot p on the slots its probe
 * passed, from its home slot up to p. */
static void pass_over(uint64_t key, uint32_t p, int delta)
{
    for (uint32_t i = home(key); i != p; i = (i + 1) & MASK)
        __atomic_add_fetch(&map.slots[i].over, (uint32_t)delta, __ATOMIC_RELEASE);
}

static struct slot *find(uint64_t key)
{
    uint32_t i = home(key);
    for (uint32_t n = 0; n < MAX_PROBE; n++, i = (i + 1) & MASK) {
        struct slot *s = &map.slots[i];
        if (__atomic_load_n(&s->key, __ATOMIC_ACQUIRE) == key)
            return s;
        if (__atomic_load_n(&s->over, __ATOMIC_ACQUIRE) == 0)
            return 0;
    }
    return 0;
}

/* Remove the entry at s (key k): 1, or 0 when another thread took it first. */
static int take_slot(struct slot *s, uint64_t key, struct prof_request *info)
{
    uint64_t k = key;
    if (!__atomic_compare_exchange_n(&s->key, &k, BUSY, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
        return 0;
    if (info)
        *info = s->info;
    pass_over(key, (uint32_t)(s - map.slots), -1);
    __atomic_store_n(&s->key, EMPTY, __ATOMIC_RELEASE);
    return 1;
}

int prof_request_put(MPI_Request req, const struct prof_request *info)
{
    uint64_t key = key_of(req);
    /* A handle that is given out again is a new request: its older entry
     * (say of a persistent request freed by a call not seen) goes. The one
     * exception: Open MPI returns one shared, already complete request for
     * sends that finish at once, so non-persistent entries of one handle
     * stack, and each completion of that handle takes one of them. */
    struct slot *old;
    while ((old = find(key)) && (info->persistent || old->info.persistent))
        take_slot(old, key, NULL);
    uint32_t i = home(key);
    for (uint32_t n = 0; n < MAX_PROBE; n++, i = (i + 1) & MASK) {
        struct slot *s = &map.slots[i];
        uint64_t k = EMPTY;
        if (__atomic_load_n(&s->key, __ATOMIC_RELAXED) != EMPTY ||
            !__atomic_compare_exchange_n(&s->key, &k, BUSY, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
            continue;
        pass_over(key, i, 1);
        s->info = *info;
        if (__builtin_expect(!__atomic_load_n(&map.used, __ATOMIC_RELAXED), 0))
            __atomic_store_n(&map.used, 1, __ATOMIC_RELAXED);
        __atomic_store_n(&s->key, key, __ATOMIC_RELEASE);
        return 1;
    }
    __atomic_add_fetch(&map.untracked, 1, __ATOMIC_RELAXED);
    return 0;
}

int prof_request_get(MPI_Request req, struct prof_request *info)
{
    struct slot *s = find(key_of(req));
    if (!s)
        return 0;
    *info = s->info;
    return 1;
}

int prof_request_take(MPI_Request req, struct prof_request *info, int all)
{
    uint64_t key = key_of(req);
    struct slot *s;
    while ((s = find(key))) {
        if (s->info.persistent && !all) {
            *info = s->info;
            return 1;
        }
        if (take_slot(s, key, info))
            return 2;
    }
    return 0;
}

void prof_request_activate(MPI_Request req, int on)
{
    struct slot *s = find(key_of(req));
    if (!s)
        return;
    if (on)
        s->info.arr_rec = NULL;
    __atomic_store_n(&s->info.active, on, __ATOMIC_RELAXED);
}

void prof_request_started(MPI_Request req, uint64_t owner, struct prof_record *rec, uint64_t ticks)
{
    struct slot *s = find(key_of(req));
    if (s) {
        s->info.arr_owner = owner;
        s->info.arr_rec = rec;
        s->info.arr_ticks = ticks;
    }
}

int prof_request_any(void)
{
    return __atomic_load_n(&map.used, __ATOMIC_RELAXED);
}

uint64_t prof_request_untracked(void)
{
    return __atomic_load_n(&map.untracked, __ATOMIC_RELAXED);
}
