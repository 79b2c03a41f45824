/* shadow.c: the handle -> shadow map (see shadow.h): a struct prof_hmap
 * (hmap.h) under one mutex, and the shadow module that follows the
 * handles' life (events.h) when an analysis needs shadows. Cold: only
 * the analyses that need shadows use it. */
#include <stdio.h>
#include <stdlib.h>
#include "hmap.h"
#include "log.h"
#include "lock.h"
#include "module.h"
#include "prof.h"
#include "report.h"
#include "run.h"
#include "shadow.h"
#include "tokens.h"

static struct {
    pthread_mutex_t lock;
    struct prof_hmap m;            /* key -> struct prof_shadow */
} map = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* What the analyses want (prof_shadow_want) and attach to windows (set at
 * MPI_Init, read-only after). */
static unsigned wanted;
static struct {
    void *(*make)(MPI_Comm comm);
    void (*drop)(void *state);
} states[PROF_SHADOW_STATES];
static int nstates;

void prof_shadow_want(unsigned what)
{
    wanted |= what;
}

int prof_shadow_attach(void *(*make)(MPI_Comm comm), void (*drop)(void *state))
{
    if (nstates == PROF_SHADOW_STATES)
        return -1;
    states[nstates].make = make;
    states[nstates].drop = drop;
    return nstates++;
}

static void release(struct prof_shadow *s)
{
    if (!s)
        return;
    prof_tokens_queue_free(s);
    for (int i = 0; i < nstates; i++)
        if (s->state[i])
            states[i].drop(s->state[i]);
    if (s->comm != MPI_COMM_NULL)      /* none: the tokens kept it (prof_tokens_queue_free) */
        PMPI_Comm_free(&s->comm);
    if (s->reply != MPI_COMM_NULL)
        PMPI_Comm_free(&s->reply);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

/* Whether all processes of comm are in MPI_COMM_WORLD (translated in
 * slices, so every member decides the same without allocating). */
static int in_world(MPI_Comm comm)
{
    MPI_Group g, w;
    int n = 0, ok = 1, inter = 1;
    if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter)
        return 0;
    if (comm == MPI_COMM_WORLD || comm == MPI_COMM_SELF)
        return 1;
    if (PMPI_Comm_group(comm, &g) != MPI_SUCCESS)
        return 0;
    if (PMPI_Comm_group(MPI_COMM_WORLD, &w) != MPI_SUCCESS) {
        PMPI_Group_free(&g);
        return 0;
    }
    PMPI_Group_size(g, &n);
    for (int i = 0; ok && i < n; i += 256) {
        int a[256], b[256], k = n - i < 256 ? n - i : 256;
        for (int j = 0; j < k; j++)
            a[j] = i + j;
        ok = PMPI_Group_translate_ranks(g, k, a, w, b) == MPI_SUCCESS;
        for (int j = 0; ok && j < k; j++)
            ok = b[j] != MPI_UNDEFINED;
    }
    PMPI_Group_free(&g);
    PMPI_Group_free(&w);
    return ok;
}

/* A communicator's reply shadow (collective over user), errors returned;
 * MPI_COMM_NULL when some of its processes are not in MPI_COMM_WORLD (the
 * answers name their partners by world rank). */
static MPI_Comm reply_comm(MPI_Comm user)
{
    MPI_Comm c = MPI_COMM_NULL;
    if (!in_world(user) || PMPI_Comm_dup(user, &c) != MPI_SUCCESS)
        return MPI_COMM_NULL;
    PMPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    return c;
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
    s->reply = wanted & PROF_WANT_REPLY && key >> 61 == PROF_SHADOW_COMM ? reply_comm(user) : MPI_COMM_NULL;
    for (int i = 0; key >> 61 == PROF_SHADOW_WIN && i < nstates; i++)
        s->state[i] = states[i].make(s->comm);
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

/* Freeing a handle: before the call, its entry goes into c; after it, if
 * the call succeeded, the entry is dropped (unless the handle value
 * already names a newer object) and the duplicate freed. */
static void freeing(struct prof_call *c, uint64_t key)
{
    prof_lock(&map.lock);
    c->shadow = prof_hmap_get(&map.m, key);
    if (c->shadow)
        c->shadow->freeing = 1;
    prof_unlock(&map.lock);
}

static void freed(struct prof_call *c)
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

MPI_Comm prof_shadow_coll_comm(const struct prof_ev_coll *ev)
{
    struct prof_shadow *s = NULL;
    if (ev->on == PROF_COLL_COMM)
        return ev->comm;
    if (ev->on == PROF_COLL_WIN)
        s = prof_shadow_find(prof_shadow_key(PROF_SHADOW_WIN, &ev->win, sizeof ev->win));
    else
        s = prof_shadow_find(prof_shadow_key(PROF_SHADOW_FILE, &ev->fh, sizeof ev->fh));
    return s ? s->comm : MPI_COMM_NULL;
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

void prof_group_ranks(MPI_Group group, MPI_Group to, int **ranks, int *n)
{
    int size = 0, *in = NULL;
    free(*ranks);
    *ranks = NULL;
    *n = 0;
    if (PMPI_Group_size(group, &size) != MPI_SUCCESS || size <= 0)
        return;
    in = malloc((size_t)size * sizeof *in);
    *ranks = malloc((size_t)size * sizeof **ranks);
    if (in && *ranks) {
        for (int i = 0; i < size; i++)
            in[i] = i;
        if (PMPI_Group_translate_ranks(group, size, in, to, *ranks) == MPI_SUCCESS)
            *n = size;
    }
    free(in);
}

void prof_group_ranks_in_win(MPI_Group group, MPI_Win win, int **ranks, int *n)
{
    MPI_Group wg;
    if (PMPI_Win_get_group(win, &wg) != MPI_SUCCESS) {
        free(*ranks);
        *ranks = NULL;
        *n = 0;
        return;
    }
    prof_group_ranks(group, wg, ranks, n);
    PMPI_Group_free(&wg);
}

/* The MPI_COMM_WORLD ranks of g's processes (MPI_GROUP_NULL: none; freed
 * here), as prof_group_ranks. */
static void world_ranks(MPI_Group g, int **ranks, int *n)
{
    MPI_Group world = MPI_GROUP_NULL;
    free(*ranks);
    *ranks = NULL;
    *n = 0;
    if (g != MPI_GROUP_NULL && PMPI_Comm_group(MPI_COMM_WORLD, &world) == MPI_SUCCESS) {
        prof_group_ranks(g, world, ranks, n);
        PMPI_Group_free(&world);
    }
    if (g != MPI_GROUP_NULL)
        PMPI_Group_free(&g);
}

void prof_comm_world_ranks(MPI_Comm comm, int **ranks, int *n)
{
    MPI_Group g;
    world_ranks(PMPI_Comm_group(comm, &g) == MPI_SUCCESS ? g : MPI_GROUP_NULL, ranks, n);
}

int prof_win_number(MPI_Comm comm, int *lacks, unsigned *number)
{
    static unsigned made;      /* windows numbered at this process, the most of their processes' */
    unsigned mine[2] = { made + 1, *lacks != 0 }, all[2] = { 0, 1 };
    if (PMPI_Allreduce(mine, all, 2, MPI_UNSIGNED, MPI_MAX, comm) != MPI_SUCCESS)
        return -1;
    made = all[0];
    *number = all[0];
    *lacks = all[1] != 0;
    return 0;
}

/* What is off for want of the profiler's own window, and why: the
 * report's notes. */
static char off[1024];

MPI_Win prof_own_win(void *base, MPI_Aint size, int disp_unit, const char *what)
{
    MPI_Win win = MPI_WIN_NULL;
    int rc = PMPI_Win_create(base, size, disp_unit, MPI_INFO_NULL, prof_run.comm, &win);
    int ok = rc == MPI_SUCCESS, all = 0;
    if (PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, prof_run.comm) != MPI_SUCCESS)
        all = 0;
    if (all) {
        PMPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
        return win;
    }
    /* A window made on some processes only cannot be freed (collective over
     * all of them): it is left. */
    char why[MPI_MAX_ERROR_STRING] = "on another rank";
    int len = 0;
    if (!ok)
        PMPI_Error_string(rc, why, &len);
    prof_log_once("the MPI cannot make the profiler's own window (%s); %s is off", why, what);
    size_t n = strlen(off);
    snprintf(off + n, sizeof off - n,
             "# note: %s is off: the MPI could not make the profiler's own window (%s)\n", what, why);
    return MPI_WIN_NULL;
}

static void figures(struct prof_report_ctx *ctx, struct prof_rank_data *rd, uint64_t t_end)
{
    (void)rd, (void)t_end;
    size_t n = strlen(ctx->notes);
    snprintf(ctx->notes + n, sizeof ctx->notes - n, "%s", off);
}

/* --- the shadow module: communicators (the tokens), windows (collective
 * wait's, wait states' and the model's epochs) and files (collective
 * wait's barriers), as wanted ----------------------------------------------- */

static int start(void)
{
    return wanted ? 0 : -1;
}

/* A handle the call made: its shadow, duplicated from comm (collective
 * over it, as the call was). */
static void made(const struct prof_ev_handle *ev, enum prof_shadow_kind kind, size_t size, MPI_Comm comm)
{
    if (ev->c->rc == MPI_SUCCESS && comm != MPI_COMM_NULL)
        prof_shadow_add(prof_shadow_key(kind, ev->handle, size), comm);
}

static void comm_created(const struct prof_ev_handle *ev)
{
    if (wanted & PROF_WANT_COMM)
        made(ev, PROF_SHADOW_COMM, sizeof(MPI_Comm), *(MPI_Comm *)ev->handle);
}

static void win_created(const struct prof_ev_handle *ev)
{
    if (wanted & PROF_WANT_WIN)
        made(ev, PROF_SHADOW_WIN, sizeof(MPI_Win), ev->comm);
}

static void file_opened(const struct prof_ev_handle *ev)
{
    if (wanted & PROF_WANT_FILE)
        made(ev, PROF_SHADOW_FILE, sizeof(MPI_File), ev->comm);
}

static void comm_freeing(const struct prof_ev_handle *ev)
{
    freeing(ev->c, prof_shadow_key(PROF_SHADOW_COMM, ev->handle, sizeof(MPI_Comm)));
}

static void win_freeing(const struct prof_ev_handle *ev)
{
    freeing(ev->c, prof_shadow_key(PROF_SHADOW_WIN, ev->handle, sizeof(MPI_Win)));
}

static void file_closing(const struct prof_ev_handle *ev)
{
    freeing(ev->c, prof_shadow_key(PROF_SHADOW_FILE, ev->handle, sizeof(MPI_File)));
}

static void handle_freed(const struct prof_ev_handle *ev)
{
    freed(ev->c);
}

const struct prof_module prof_mod_shadow = {
    .name = "shadow",
    .start = start,
    .comm_created = comm_created,
    .comm_freeing = comm_freeing,
    .comm_freed = handle_freed,
    .win_created = win_created,
    .win_freeing = win_freeing,
    .win_freed = handle_freed,
    .file_opened = file_opened,
    .file_closing = file_closing,
    .file_closed = handle_freed,
    .figures = figures,
};
