/* rma.c: the rma module (always on): one-sided figures per window and
 * target (rma.h), from the window and rma_call events; rma.txt. */
#include <stdlib.h>
#include "lock.h"
#include "branch.h"
#include "log.h"
#include "module.h"
#include "prof.h"
#include "report.h"
#include "rma.h"

const char *const prof_rma_kind_name[PROF_RMA_KINDS] = {
    "put", "get", "acc", "get_acc", "fop", "cas", "fence", "pscw", "lock", "lock_all", "flush", "create", "free",
};

/* A live window: its site and its group's world ranks. */
struct win {
    struct prof_rma_site *site;
    int n;
    int world[];
};

static struct {
    pthread_mutex_t lock;
    struct prof_hmap sites;        /* record key -> struct prof_rma_site */
    struct prof_hmap wins;         /* handle -> struct win */
    struct prof_rma_site **list;   /* the sites, for the report */
    int n;
} rma = { .lock = PTHREAD_MUTEX_INITIALIZER };

static uint64_t win_key(MPI_Win win)
{
    return prof_hkey(&win, sizeof win);
}

/* The entry of the windows made at key, created on first use (locked). */
static struct prof_rma_site *site_of(uint64_t key)
{
    struct prof_rma_site *s = prof_hmap_get(&rma.sites, key);
    if (s)
        return s;
    struct prof_rma_site **list = realloc(rma.list, ((size_t)rma.n + 1) * sizeof *list);
    if (!list)
        return NULL;
    rma.list = list;
    s = calloc(1, sizeof *s);
    if (!s || prof_hmap_put(&rma.sites, key, s) != 0) {
        free(s);
        return NULL;
    }
    s->key = key;
    rma.list[rma.n++] = s;
    return s;
}

/* A new window of win's group: its ranks in MPI_COMM_WORLD (-1 unknown). */
static struct win *new_win(MPI_Win win)
{
    MPI_Group g, world;
    int n = 0;
    if (PMPI_Win_get_group(win, &g) != MPI_SUCCESS)
        return NULL;
    PMPI_Group_size(g, &n);
    struct win *w = malloc(sizeof *w + (size_t)n * sizeof w->world[0]);
    int *in = malloc(((size_t)n + 1) * sizeof *in);
    if (w && in && PMPI_Comm_group(MPI_COMM_WORLD, &world) == MPI_SUCCESS) {
        for (int i = 0; i < n; i++)
            in[i] = i;
        if (PMPI_Group_translate_ranks(g, n, in, world, w->world) != MPI_SUCCESS)
            for (int i = 0; i < n; i++)
                w->world[i] = -1;
        for (int i = 0; i < n; i++)
            if (w->world[i] == MPI_UNDEFINED)
                w->world[i] = -1;
        w->n = n;
        PMPI_Group_free(&world);
    } else {
        free(w);
        w = NULL;
    }
    free(in);
    PMPI_Group_free(&g);
    return w;
}

static void created(const struct prof_ev_handle *ev)
{
    struct prof_call *c = ev->c;
    MPI_Win *win = ev->handle;
    if (c->rc != MPI_SUCCESS)
        return;
    struct win *w = new_win(*win);
    uint64_t key = prof_call_key(c);
    prof_lock(&rma.lock);
    if (w && (w->site = site_of(key)) != NULL && prof_hmap_put(&rma.wins, win_key(*win), w) == 0)
        w = NULL;
    prof_unlock(&rma.lock);
    free(w);
}

/* The handle leaves the map before the call (no other call may use a
 * window being freed) and returns if the call fails; c->entry holds the
 * window, then its site for the post= hook. */
static void freeing(const struct prof_ev_handle *ev)
{
    struct prof_call *c = ev->c;
    MPI_Win *win = ev->handle;
    prof_lock(&rma.lock);
    c->entry = prof_hmap_del(&rma.wins, win_key(*win));
    prof_unlock(&rma.lock);
}

static void freed(const struct prof_ev_handle *ev)
{
    struct prof_call *c = ev->c;
    MPI_Win *win = ev->handle;
    struct win *w = c->entry;
    if (!w)
        return;
    c->entry = w->site;
    prof_lock(&rma.lock);
    if (c->rc == MPI_SUCCESS || prof_hmap_put(&rma.wins, win_key(*win), w) != 0)
        free(w);
    prof_unlock(&rma.lock);
}

static struct prof_rma_target *target_of(struct prof_rma_site *s, int rank)
{
    uint64_t key = (uint64_t)(int64_t)rank;
    struct prof_rma_target *t = prof_hmap_get(&s->targets, key);
    if (t)
        return t;
    t = calloc(1, sizeof *t);
    if (!t || prof_hmap_put(&s->targets, key, t) != 0) {
        free(t);
        return NULL;
    }
    t->rank = rank;
    return t;
}

static void add(struct prof_rma_site *s, enum prof_rma_kind k, int rank, uint64_t bytes, uint64_t ticks)
{
    struct prof_rma_target *t = s ? target_of(s, rank) : NULL;
    if (t)
        prof_tally_add(&t->k[k], bytes, ticks);
}

/* A one-sided call on a known window (the figures of an unknown one are
 * lost); MPI_Win_free's on the site its freeing handler kept. */
static void call(const struct prof_ev_rma *ev)
{
    prof_lock(&rma.lock);
    if (ev->kind == PROF_RMA_FREE) {
        add(ev->c->entry, ev->kind, PROF_RMA_NOTARGET, 0, ev->ticks);
    } else {
        struct win *w = prof_hmap_get(&rma.wins, win_key(ev->win));
        int t = ev->target;
        if (w)
            add(w->site, ev->kind, t >= 0 && t < w->n ? w->world[t] : PROF_RMA_NOTARGET, ev->bytes, ev->ticks);
    }
    prof_unlock(&rma.lock);
}

struct prof_rma_site *const *prof_rma_sites(int *n)
{
    *n = rma.n;
    return rma.list;
}

static int is_site(uint64_t key)
{
    return prof_hmap_get(&rma.sites, key) != NULL;
}

/* Each site's id and text, from the numbered branches. */
static void named(struct prof_branch *v, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < v[i].nrkeys; j++) {
            struct prof_rma_site *s = prof_hmap_get(&rma.sites, v[i].rkeys[j]);
            if (s) {
                s->id = v[i].id;
                s->where = v[i].site;
            }
        }
}

/* rma.txt's order: windows by branch id. */
static int by_id(const void *a, const void *b)
{
    const struct prof_rma_site *x = *(struct prof_rma_site *const *)a, *y = *(struct prof_rma_site *const *)b;
    return x->id != y->id ? (x->id > y->id) - (x->id < y->id) : (x->key > y->key) - (x->key < y->key);
}

/* rma.txt is written when some rank created a window. */
static int agree(MPI_Comm comm)
{
    int mine = rma.n > 0, any = 0;
    PMPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, comm);
    if (rma.n)
        qsort(rma.list, (size_t)rma.n, sizeof *rma.list, by_id);
    return any;
}

const struct prof_module prof_mod_rma = {
    .name = "rma",
    .win_created = created,
    .win_freeing = freeing,
    .win_freed = freed,
    .rma_call = call,
    .keeps_key = is_site,
    .named = named,
    .agree = agree,
    .writer = &prof_rma_writer,
};
