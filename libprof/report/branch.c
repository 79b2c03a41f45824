/* branch.c: finalize-time branches: merge the threads' tables, name each
 * distinct frame of the job once (on one rank), merge the branches whose
 * stacks print the same, and number them the same way on every rank (cold).
 * Every exchange is a binomial-tree union of sorted keys (keys.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "branch.h"
#include "buf.h"
#include "clock.h"
#include "config.h"
#include "fn_table.h"
#include "hmap.h"
#include "keys.h"
#include "module.h"
#include "symbolize.h"
#include "thread.h"

#define TEXT_MAX 1024

/* --- one entry per key ------------------------------------------------------ */

static int by_key(const void *a, const void *b)
{
    const struct prof_branch *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (int)x->fn - (int)y->fn;
}

static void free_branch(struct prof_branch *br)
{
    free(br->frames);
    free(br->site);
    free(br->ancestors);
    free(br->names);
    free(br->rkeys);
    free(br->regions);
}

/* into also stands for from's records (late sender); kept as is without memory. */
static void add_rkeys(struct prof_branch *into, const struct prof_branch *from)
{
    uint64_t *v = from->nrkeys ? realloc(into->rkeys, (size_t)(into->nrkeys + from->nrkeys) * sizeof *v) : NULL;
    if (!v)
        return;
    memcpy(v + into->nrkeys, from->rkeys, (size_t)from->nrkeys * sizeof *v);
    into->rkeys = v;
    into->nrkeys += from->nrkeys;
}

/* into also holds from's figures per region (by node id); out of memory,
 * they stay in the whole branch only. */
static void add_regions(struct prof_branch *into, const struct prof_branch *from)
{
    for (int i = 0; i < from->nregions; i++) {
        int k = 0;
        while (k < into->nregions && into->regions[k].region < from->regions[i].region)
            k++;
        if (k < into->nregions && into->regions[k].region == from->regions[i].region) {
            prof_stats_merge(&into->regions[k].s, &from->regions[i].s);
            continue;
        }
        struct prof_region_stats *v = realloc(into->regions, (size_t)(into->nregions + 1) * sizeof *v);
        if (!v)
            return;
        memmove(v + k + 1, v + k, (size_t)(into->nregions - k) * sizeof *v);
        v[k] = from->regions[i];
        into->regions = v;
        into->nregions++;
    }
}

/* Entries with the same key and function: one, their figures merged. */
static void merge_equal(struct prof_branches *b)
{
    qsort(b->v, (size_t)b->n, sizeof *b->v, by_key);
    int out = 0;
    for (int i = 0; i < b->n; i++) {
        if (out > 0 && b->v[out - 1].key == b->v[i].key && b->v[out - 1].fn == b->v[i].fn) {
            prof_stats_merge(&b->v[out - 1].s, &b->v[i].s);
            prof_partners_merge(&b->v[out - 1].partners, &b->v[i].partners);
            add_rkeys(&b->v[out - 1], &b->v[i]);
            add_regions(&b->v[out - 1], &b->v[i]);
            free_branch(&b->v[i]);
        } else {
            b->v[out++] = b->v[i];
        }
    }
    b->n = out;
}

void prof_branches_free(struct prof_branches *b)
{
    for (int i = 0; i < b->n; i++)
        free_branch(&b->v[i]);
    free(b->v);
    b->v = NULL;
    b->n = 0;
}

/* --- collecting ------------------------------------------------------------ */

/* One branch from a record and its frames (none for an overflow record),
 * keyed by its addresses until prof_branches_describe names them; the
 * record's region is its only one. */
static int make(struct prof_branch *br, const struct prof_record *r, void *const *frames, uint32_t n)
{
    memset(br, 0, sizeof *br);
    br->fn = r->fn;
    br->s = r->s;
    br->partners = r->partners;
    br->depth = n;
    br->via = r->via;
    br->key = prof_fnv(prof_fnv(prof_fnv(PROF_FNV0, &r->fn, sizeof r->fn), &r->via, sizeof r->via), frames,
                       n * sizeof *frames);
    if (prof_modules_keep_key(r->key) && r->key && (br->rkeys = malloc(sizeof *br->rkeys))) {
        br->rkeys[0] = r->key;
        br->nrkeys = 1;
    }
    if (r->region) {
        if (!(br->regions = malloc(sizeof *br->regions)))
            return -1;
        br->regions[0] = (struct prof_region_stats){ r->region, r->s };
        br->nregions = 1;
    }
    if (!n)
        return 0;
    br->frames = malloc(n * sizeof *frames);
    if (!br->frames)
        return -1;
    memcpy(br->frames, frames, n * sizeof *frames);
    return 0;
}

int prof_branches_collect(struct prof_branches *b, struct prof_thread *threads)
{
    size_t nrec = 0;
    memset(b, 0, sizeof *b);
    for (struct prof_thread *th = threads; th; th = th->next)
        nrec += th->table.used + PROF_FN_COUNT;
    b->v = calloc(nrec ? nrec : 1, sizeof *b->v);
    if (!b->v)
        return -1;
    int rc = 0;
    for (struct prof_thread *th = threads; th; th = th->next) {
        const struct prof_table *t = &th->table;
        for (uint32_t k = 0; k < t->used; k++) {
            const struct prof_record *r = &t->slots[t->order[k]];
            rc |= make(&b->v[b->n++], r, prof_table_frames(t, r), r->depth);
        }
        for (int f = 0; f < PROF_FN_COUNT; f++)
            if (t->overflow[f].s.calls)
                rc |= make(&b->v[b->n++], &t->overflow[f], NULL, 0);
    }
    /* The same stack seen by several threads: one entry. */
    merge_equal(b);
    if (rc) {
        prof_branches_free(b);
        return -1;
    }
    return 0;
}

/* --- naming: each distinct frame of the job by one rank --------------------- */

/* A distinct frame of the job, named by the lowest rank that has it. */
struct frame_key {
    uint64_t module, offset;   /* struct prof_frame_id */
    int64_t owner;
};

static int cmp_frame(const void *a, const void *b)
{
    const struct frame_key *x = a, *y = b;
    if (x->module != y->module)
        return x->module < y->module ? -1 : 1;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static void lowest_owner(void *into, const void *from)
{
    struct frame_key *x = into;
    const struct frame_key *y = from;
    if (y->owner < x->owner)
        x->owner = y->owner;
}

static const struct prof_key_kind frame_kind = { sizeof(struct frame_key), cmp_frame, lowest_owner };

static int cmp_ptr(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)*(void *const *)a, y = (uintptr_t)*(void *const *)b;
    return x < y ? -1 : x > y;
}

/* This rank's distinct return addresses (sorted, into *addrs) and their
 * identities (sorted unique, returned, their count in *nkeys); NULL when
 * out of memory. */
static struct frame_key *local_frames(const struct prof_branches *b, int rank, void ***addrs, int *naddrs,
                                      int *nkeys)
{
    size_t nf = 0;
    for (int i = 0; i < b->n; i++)
        nf += b->v[i].depth;
    void **a = malloc((nf + 1) * sizeof *a);
    struct frame_key *keys = malloc((nf + 1) * sizeof *keys);
    *addrs = a;
    if (!a || !keys) {
        free(keys);
        return NULL;
    }
    int n = 0;
    for (int i = 0; i < b->n; i++)
        for (uint32_t f = 0; f < b->v[i].depth; f++)
            a[n++] = b->v[i].frames[f];
    qsort(a, (size_t)n, sizeof *a, cmp_ptr);
    int u = 0;
    for (int i = 0; i < n; i++)
        if (u == 0 || a[u - 1] != a[i])
            a[u++] = a[i];
    *naddrs = u;
    for (int i = 0; i < u; i++) {
        struct prof_frame_id id;
        prof_frame_identify(a[i], &id);
        keys[i] = (struct frame_key){ id.module, id.offset, rank };
    }
    *nkeys = prof_keys_unique(&frame_kind, (char *)keys, u);
    return keys;
}

/* Name the frames this rank owns: records "index\0text\0func\0", index
 * into the union. where[i]: the union index of addrs[i]. */
static void name_owned(void *const *addrs, const int *where, int naddrs, const struct frame_key *all, int rank,
                       char *done, struct prof_buf *out)
{
    int open = 0;
    for (int i = 0; i < naddrs; i++) {
        int w = where[i];
        if (all[w].owner != rank || done[w])
            continue;
        done[w] = 1;
        if (!open && all[w].module != PROF_MODULE_ANON && all[w].module != PROF_MODULE_PYTHON) {
            prof_symbolize_begin();
            open = 1;
        }
        struct prof_frame_info fi;
        char text[TEXT_MAX];
        prof_symbolize(addrs[i], &fi);
        prof_frame_text(&fi, text, sizeof text);
        prof_buf_printf(out, "%d%c%s%c%s%c", w, 0, text, 0, fi.func[0] ? fi.func : text, 0);
    }
    if (open)
        prof_symbolize_end();
}

/* Every rank's records to every rank; *len is the total (or -1 on every
 * rank when one failed). */
static char *share_names(MPI_Comm comm, const struct prof_buf *mine, int *len)
{
    int size;
    PMPI_Comm_size(comm, &size);
    int *lens = malloc(2 * (size_t)size * sizeof *lens);
    *len = -1;
    if (!prof_all_agree(lens && !mine->failed && mine->len < PROF_KEYS_CHUNK * 16384u, comm)) {
        free(lens);
        return NULL;
    }
    int n = (int)mine->len;
    PMPI_Allgather(&n, 1, MPI_INT, lens, 1, MPI_INT, comm);
    size_t total = 0;
    for (int r = 0; r < size; r++) {
        lens[size + r] = (int)total;
        total += (size_t)lens[r];
    }
    char *all = total < (size_t)1 << 30 ? malloc(total + 1) : NULL;
    int all_have = prof_all_agree(all != NULL, comm);
    if (all_have)
        PMPI_Allgatherv(mine->p ? mine->p : "", n, MPI_CHAR, all, lens, lens + size, MPI_CHAR, comm);
    free(lens);
    if (!all_have) {
        free(all);
        return NULL;
    }
    *len = (int)total;
    return all;
}

/* Text of frames[from..n-1], joined by sep; the function names (func) or
 * the full texts. empty when there are none. */
static char *join(char *const *text, const int *idx, uint32_t from, uint32_t n, char sep, const char *empty)
{
    size_t size = strlen(empty) + 1;
    for (uint32_t i = from; i < n; i++)
        size += strlen(text[idx[i]]) + 1;
    char *s = malloc(size), *p = s;
    if (!s)
        return NULL;
    if (from >= n)
        return strcpy(s, empty);
    for (uint32_t i = from; i < n; i++)
        p += sprintf(p, "%s%s", i > from ? (char[]){ sep, 0 } : "", text[idx[i]]);
    return s;
}

/* The site of a call through a library: the user's frame, then the
 * library's, "user(via_library)". */
static char *via_site(const char *user, const char *library)
{
    char *s = malloc(strlen(user) + strlen(library) + sizeof "(via_)");
    if (s)
        sprintf(s, "%s(via_%s)", user, library);
    return s;
}

/* A branch's key, site, ancestors and names from its frames' names. */
static int rename_branch(struct prof_branch *br, void *const *addrs, int naddrs, const int *where,
                         char *const *text, char *const *func)
{
    const char *name = prof_fn_name[br->fn];
    int idx[PROF_MAX_DEPTH + 2];
    uint32_t via = br->via && br->depth > 1;
    br->key = prof_fnv(prof_fnv(PROF_FNV0, name, strlen(name)), &via, sizeof via);
    for (uint32_t f = 0; f < br->depth; f++) {
        void *const *at = bsearch(&br->frames[f], addrs, (size_t)naddrs, sizeof *addrs, cmp_ptr);
        idx[f] = where[at - addrs];
        br->key = prof_fnv(br->key, text[idx[f]], strlen(text[idx[f]]) + 1);
    }
    if (!br->depth)
        br->site = strdup("(table-full)");
    else
        br->site = via ? via_site(text[idx[1]], text[idx[0]]) : strdup(text[idx[0]]);
    br->ancestors = join(text, idx, 1 + via, br->depth, ';', "-");
    br->names = join(func, idx, 1 + via, br->depth, ' ', "");
    return br->site && br->ancestors && br->names ? 0 : -1;
}

int prof_branches_describe(MPI_Comm comm, struct prof_branches *b, uint64_t *symbolize_ns)
{
    int rank, naddrs = 0, nkeys = 0, nall;
    void **addrs = NULL;
    PMPI_Comm_rank(comm, &rank);
    *symbolize_ns = 0;
    int ok = prof_modules_begin() == 0;
    struct frame_key *keys = ok ? local_frames(b, rank, &addrs, &naddrs, &nkeys) : NULL;
    struct frame_key *all = prof_keys_union(comm, &frame_kind, (char *)keys, keys ? nkeys : -1, &nall);
    uint64_t t0 = prof_clock_mono_ns();
    int *where = all ? malloc(((size_t)naddrs + 1) * sizeof *where) : NULL;
    char *done = all ? calloc((size_t)nall + 1, 1) : NULL;
    struct prof_buf mine = { 0 };
    mine.failed = !where || !done;
    for (int i = 0; !mine.failed && i < naddrs; i++) {
        struct prof_frame_id id;
        prof_frame_identify(addrs[i], &id);
        struct frame_key k = { id.module, id.offset, 0 };
        where[i] = (int)((struct frame_key *)bsearch(&k, all, (size_t)nall, sizeof k, cmp_frame) - all);
    }
    if (!mine.failed)
        name_owned(addrs, where, naddrs, all, rank, done, &mine);
    free(done);
    prof_modules_end();
    int rc = -1, len = -1;
    char *names = all ? share_names(comm, &mine, &len) : NULL;
    prof_buf_free(&mine);
    char **text = names ? calloc(2 * (size_t)nall + 1, sizeof *text) : NULL;
    if (text) {
        char **func = text + nall;
        for (char *p = names; p < names + len;) {
            int w = atoi(p);
            p += strlen(p) + 1;
            if (w >= 0 && w < nall)
                text[w] = p, func[w] = p + strlen(p) + 1;
            p += strlen(p) + 1;
            p += strlen(p) + 1;
        }
        rc = 0;
        for (int i = 0; i < naddrs; i++)
            rc |= text[where[i]] ? 0 : -1;
        for (int i = 0; rc == 0 && i < b->n; i++)
            rc |= rename_branch(&b->v[i], addrs, naddrs, where, text, func);
        merge_equal(b);
    }
    *symbolize_ns = prof_clock_mono_ns() - t0;
    free(text);
    free(names);
    free(where);
    free(all);
    free(addrs);
    return rc;
}

/* --- naming on one rank (snapshots) ------------------------------------------ */

/* The "text\0func\0" of each return address named before: a snapshot
 * names only the frames it has not seen (symbolizing is the slow part). */
static struct prof_hmap names_seen;

/* The names of addr, named now (opening the symbol sources once: *open)
 * unless seen before; NULL when out of memory. */
static const char *named_frame(void *addr, int *open)
{
    char *named = prof_hmap_get(&names_seen, (uint64_t)(uintptr_t)addr);
    if (named)
        return named;
    struct prof_frame_info fi;
    char text[TEXT_MAX];
    if (!*open) {
        prof_symbolize_begin();
        *open = 1;
    }
    prof_symbolize(addr, &fi);
    prof_frame_text(&fi, text, sizeof text);
    const char *func = fi.func[0] ? fi.func : text;
    named = malloc(strlen(text) + strlen(func) + 2);
    if (named) {
        memcpy(named, text, strlen(text) + 1);
        memcpy(named + strlen(text) + 1, func, strlen(func) + 1);
    }
    if (named && prof_hmap_put(&names_seen, (uint64_t)(uintptr_t)addr, named) != 0) {
        free(named);
        named = NULL;
    }
    return named;
}

int prof_branches_describe_local(struct prof_branches *b)
{
    int naddrs = 0, nkeys = 0, open = 0;
    void **addrs = NULL;
    if (prof_modules_begin() != 0)
        return -1;
    struct frame_key *keys = local_frames(b, 0, &addrs, &naddrs, &nkeys);
    int *where = malloc(((size_t)naddrs + 1) * sizeof *where);
    char **text = calloc(2 * (size_t)naddrs + 1, sizeof *text), **func = text + naddrs;
    int rc = keys && where && text ? 0 : -1;
    for (int i = 0; rc == 0 && i < naddrs; i++) {
        const char *named = named_frame(addrs[i], &open);
        if (!named) {
            rc = -1;
            break;
        }
        where[i] = i;
        text[i] = (char *)named;
        func[i] = (char *)named + strlen(named) + 1;
    }
    if (open)
        prof_symbolize_end();
    prof_modules_end();
    for (int i = 0; rc == 0 && i < b->n; i++)
        rc |= rename_branch(&b->v[i], addrs, naddrs, where, text, func);
    if (rc == 0)
        merge_equal(b);
    free(text);
    free(where);
    free(keys);
    free(addrs);
    return rc;
}

void prof_branches_number_local(struct prof_branches *b)
{
    qsort(b->v, (size_t)b->n, sizeof *b->v, by_key);
    for (int i = 0; i < b->n; i++)
        b->v[i].id = i + 1;
}

static int by_time(const void *a, const void *b)
{
    const struct prof_branch *x = a, *y = b;
    if (x->s.ticks != y->s.ticks)
        return x->s.ticks < y->s.ticks ? 1 : -1;
    return x->id - y->id;
}

void prof_branches_sort_time(struct prof_branches *b)
{
    qsort(b->v, (size_t)b->n, sizeof *b->v, by_time);
}

/* --- numbering ---------------------------------------------------------- */

static const struct prof_key_kind branch_kind = { sizeof(uint64_t), prof_u64_cmp, NULL };

int prof_branches_number(MPI_Comm comm, struct prof_branches *b, int failed)
{
    uint64_t *keys = failed ? NULL : malloc(((size_t)b->n + 1) * sizeof *keys);
    for (int i = 0; keys && i < b->n; i++)
        keys[i] = b->v[i].key;
    int n = keys ? prof_keys_unique(&branch_kind, (char *)keys, b->n) : -1, total;
    keys = prof_keys_union(comm, &branch_kind, (char *)keys, n, &total);
    if (!keys)
        return -1;
    for (int i = 0; i < b->n; i++) {
        uint64_t *at = bsearch(&b->v[i].key, keys, (size_t)total, sizeof *keys, prof_u64_cmp);
        b->v[i].id = at ? (int)(at - keys) + 1 : 0;
    }
    free(keys);
    return 0;
}
