/* shadow.c: the handle -> shadow map (see shadow.h): a struct prof_hmap
 * (hmap.h) under one mutex. Cold: only the analyses that need shadows use
 * it. */
#include <stdlib.h>
#include "hmap.h"
#include "log.h"
#include "lock.h"
#include "prof.h"
#include "shadow.h"

static struct {
    pthread_mutex_t lock;
    struct prof_hmap m;            /* key -> struct prof_shadow */
} map = { .lock = PTHREAD_MUTEX_INITIALIZER };

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
    /* The dup has the program's error handler: the profiler's own calls on
     * it return their errors instead of calling it (or aborting). */
    PMPI_Comm_set_errhandler(s->comm, MPI_ERRORS_RETURN);
    s->key = key;
    pthread_mutex_init(&s->lock, NULL);
    prof_lock(&map.lock);
    old = prof_hmap_get(&map.m, key);
    if (prof_hmap_put(&map.m, key, s) == 0) {
        if (old && old->freeing)
            old = NULL;     /* being freed on another thread, which releases it */
        s = NULL;
    } else {
        old = NULL;
    }
    prof_unlock(&map.lock);
    release(old);
    release(s);      /* no memory for the table: not filed */
}

struct prof_shadow *prof_shadow_find(uint64_t key)
{
    prof_lock(&map.lock);
    struct prof_shadow *s = prof_hmap_get(&map.m, key);
    prof_unlock(&map.lock);
    return s;
}

/* Remove s if filed (lock held): its handle may name a newer shadow. */
static void unfile(struct prof_shadow *s)
{
    if (prof_hmap_get(&map.m, s->key) == s)
        prof_hmap_del(&map.m, s->key);
}

void prof_shadow_freeing(struct prof_call *c, uint64_t key)
{
    prof_lock(&map.lock);
    c->shadow = prof_hmap_get(&map.m, key);
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
    int keep = c->rc != MPI_SUCCESS && prof_hmap_get(&map.m, s->key) == s;
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
    for (uint32_t i = 0; i < map.m.cap; i++) {
        struct prof_shadow *s = map.m.vals[i];
        if (s && s->key >> 61 == (uint64_t)kind)
            fn(s);
    }
    prof_unlock(&map.lock);
}

void prof_shadow_release_all(void)
{
    prof_lock(&map.lock);
    struct prof_hmap m = map.m;
    map.m = (struct prof_hmap){ 0 };
    prof_unlock(&map.lock);
    for (uint32_t i = 0; i < m.cap; i++)
        release(m.vals[i]);
    prof_hmap_free(&m);
}

void prof_comm_freeing(struct prof_call *c, MPI_Comm *comm)
{
    prof_shadow_freeing(c, prof_shadow_key(PROF_SHADOW_COMM, comm, sizeof *comm));
}
