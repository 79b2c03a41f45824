/* shadow.c: the handle -> shadow map (see shadow.h): an open-addressing
 * table of pointers under one mutex, deleted by backward shift. Cold: only
 * the analyses that need shadows use it. */
#include <stdlib.h>
#include "log.h"
#include "lock.h"
#include "prof.h"
#include "shadow.h"

static struct {
    pthread_mutex_t lock;
    struct prof_shadow **v;
    uint32_t mask, n;              /* capacity - 1 (0: none yet), entries */
} map = { .lock = PTHREAD_MUTEX_INITIALIZER };

static uint32_t home(uint64_t key)
{
    return (uint32_t)((key * 0x9e3779b97f4a7c15ULL) >> 32) & map.mask;
}

/* The slot of key, or of the empty slot that ends its probe (lock held). */
static uint32_t slot(uint64_t key)
{
    uint32_t i = home(key);
    while (map.v[i] && map.v[i]->key != key)
        i = (i + 1) & map.mask;
    return i;
}

/* Room for one more (lock held); -1 without memory. */
static int room(void)
{
    if (map.v && 2 * (map.n + 1) <= map.mask + 1)
        return 0;
    uint32_t old = map.v ? map.mask + 1 : 0, cap = old ? 2 * old : 64;
    struct prof_shadow **ov = map.v, **nv = calloc(cap, sizeof *nv);
    if (!nv)
        return -1;
    map.v = nv;
    map.mask = cap - 1;
    for (uint32_t i = 0; i < old; i++)
        if (ov[i])
            map.v[slot(ov[i]->key)] = ov[i];
    free(ov);
    return 0;
}

static void release(struct prof_shadow *s)
{
    if (!s)
        return;
    prof_slt_queue_free(s);
    prof_model_pscw_free(s->pscw);
    PMPI_Comm_free(&s->comm);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

void prof_shadow_add(uint64_t key, MPI_Comm user)
{
    struct prof_shadow *s = calloc(1, sizeof *s), *old = NULL;
    if (!s || PMPI_Comm_dup(user, &s->comm) != MPI_SUCCESS) {
        prof_log_local("cannot duplicate a communicator for the profiler's own messages; "
                       "collective wait and late-sender figures miss its calls");
        free(s);
        return;
    }
    s->key = key;
    pthread_mutex_init(&s->lock, NULL);
    prof_lock(&map.lock);
    if (room() == 0) {
        uint32_t i = slot(key);
        old = map.v[i];
        map.n += !old;
        if (old && old->freeing)
            old = NULL;     /* being freed on another thread, which releases it */
        map.v[i] = s;
        s = NULL;
    }
    prof_unlock(&map.lock);
    release(old);
    release(s);      /* no memory for the table: not filed */
}

struct prof_shadow *prof_shadow_find(uint64_t key)
{
    struct prof_shadow *s = NULL;
    prof_lock(&map.lock);
    if (map.v)
        s = map.v[slot(key)];
    prof_unlock(&map.lock);
    return s;
}

/* Remove s if filed (lock held): backward shift keeps every probe unbroken. */
static void unfile(struct prof_shadow *s)
{
    uint32_t i = slot(s->key);
    if (map.v[i] != s)
        return;
    map.v[i] = NULL;
    map.n--;
    for (uint32_t j = (i + 1) & map.mask; map.v[j]; j = (j + 1) & map.mask) {
        uint32_t h = home(map.v[j]->key);
        /* move j back to i unless its home lies cyclically in (i, j] */
        if ((j > i && (h <= i || h > j)) || (j < i && h <= i && h > j)) {
            map.v[i] = map.v[j];
            map.v[j] = NULL;
            i = j;
        }
    }
}

void prof_shadow_freeing(struct prof_call *c, uint64_t key)
{
    prof_lock(&map.lock);
    c->shadow = map.v ? map.v[slot(key)] : NULL;
    if (c->shadow)
        c->shadow->freeing = 1;
    prof_unlock(&map.lock);
}

void prof_shadow_freed(struct prof_call *c)
{
    struct prof_shadow *s = c->shadow;
    if (!s)
        return;
    prof_lock(&map.lock);
    int keep = c->rc != MPI_SUCCESS && map.v[slot(s->key)] == s;
    if (keep)
        s->freeing = 0;     /* the call failed: the handle lives on */
    else
        unfile(s);
    prof_unlock(&map.lock);
    if (!keep)
        release(s);
}

void prof_shadow_each(enum prof_shadow_kind kind, void (*fn)(struct prof_shadow *))
{
    prof_lock(&map.lock);
    for (uint32_t i = 0; map.v && i <= map.mask; i++)
        if (map.v[i] && map.v[i]->key >> 61 == (uint64_t)kind)
            fn(map.v[i]);
    prof_unlock(&map.lock);
}

void prof_comm_freeing(struct prof_call *c, MPI_Comm *comm)
{
    prof_shadow_freeing(c, prof_shadow_key(PROF_SHADOW_COMM, comm, sizeof *comm));
}
