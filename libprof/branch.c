/* branch.c: finalize-time branches: merge the threads' tables, symbolize,
 * and number them the same way on every rank (cold). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "branch.h"
#include "fn_table.h"
#include "symbolize.h"
#include "thread.h"

#define TEXT_MAX 1024

/* --- symbolization, once per distinct address --------------------------- */

struct addr_entry {
    void *addr;
    uint64_t ident;        /* hash of module name and offset */
    char text[TEXT_MAX];
    char func[256];
};

struct addr_map {
    struct addr_entry *v;
    size_t cap;            /* power of two */
};

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ s[i]) * 0x100000001b3ULL;
    return h;
}
#define FNV0 0xcbf29ce484222325ULL

static struct addr_entry *describe(struct addr_map *m, void *addr)
{
    size_t i = ((uintptr_t)addr * 0x9e3779b97f4a7c15ULL >> 20) & (m->cap - 1);
    for (;; i = (i + 1) & (m->cap - 1)) {
        struct addr_entry *e = &m->v[i];
        if (e->addr == addr)
            return e;
        if (e->addr == NULL) {
            struct prof_frame_info fi;
            prof_symbolize(addr, &fi);
            e->addr = addr;
            e->ident = fnv(fnv(FNV0, fi.module, strlen(fi.module)), &fi.offset, sizeof fi.offset);
            prof_frame_text(&fi, e->text, sizeof e->text);
            const char *f = fi.func[0] ? fi.func : e->text;
            size_t n = strlen(f) < sizeof e->func - 1 ? strlen(f) : sizeof e->func - 1;
            memcpy(e->func, f, n);
            e->func[n] = '\0';
            return e;
        }
    }
}

/* --- collecting ------------------------------------------------------------ */

static int by_key(const void *a, const void *b)
{
    const struct prof_branch *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (int)x->fn - (int)y->fn;
}

static char *join(struct addr_map *m, void *const *frames, uint32_t from, uint32_t n, int names)
{
    size_t size = 2 + (size_t)(n > from ? n - from : 0) * (TEXT_MAX + 1);
    char *s = malloc(size), *p = s;
    if (!s)
        return NULL;
    if (from >= n)
        return strcpy(s, names ? "" : "-");
    for (uint32_t i = from; i < n; i++) {
        struct addr_entry *e = describe(m, frames[i]);
        p += sprintf(p, "%s%s", i > from ? (names ? " " : ";") : "", names ? e->func : e->text);
    }
    return s;
}

/* One branch from a record and its frames (none for an overflow record). */
static int make(struct prof_branch *br, struct addr_map *m, const struct prof_record *r,
                void *const *frames, uint32_t n)
{
    const char *name = prof_fn_name[r->fn];
    memset(br, 0, sizeof *br);
    br->fn = r->fn;
    br->s = r->s;
    br->partners = r->partners;
    br->key = fnv(FNV0, name, strlen(name));
    for (uint32_t i = 0; i < n; i++) {
        uint64_t ident = describe(m, frames[i])->ident;
        br->key = fnv(br->key, &ident, sizeof ident);
    }
    br->site = n ? strdup(describe(m, frames[0])->text) : strdup("(table-full)");
    br->ancestors = join(m, frames, 1, n, 0);
    br->names = join(m, frames, 1, n, 1);
    return br->site && br->ancestors && br->names ? 0 : -1;
}

void prof_branches_free(struct prof_branches *b)
{
    for (int i = 0; i < b->n; i++) {
        free(b->v[i].site);
        free(b->v[i].ancestors);
        free(b->v[i].names);
    }
    free(b->v);
    b->v = NULL;
    b->n = 0;
}

int prof_branches_collect(struct prof_branches *b)
{
    size_t nrec = 0, nframes = 0;
    memset(b, 0, sizeof *b);
    for (struct prof_thread *th = prof_thread_list(); th; th = th->next) {
        nrec += th->table.used + PROF_FN_COUNT;
        nframes += (size_t)th->table.used * th->table.depth;
    }
    struct addr_map m = { NULL, 64 };
    while (m.cap < 2 * nframes + 2)
        m.cap *= 2;
    m.v = calloc(m.cap, sizeof *m.v);
    b->v = calloc(nrec ? nrec : 1, sizeof *b->v);
    if (!m.v || !b->v) {
        free(m.v);
        free(b->v);
        b->v = NULL;
        return -1;
    }
    int rc = 0;
    prof_symbolize_begin();
    for (struct prof_thread *th = prof_thread_list(); th; th = th->next) {
        const struct prof_table *t = &th->table;
        for (uint32_t i = 0; i < PROF_TABLE_SLOTS; i++) {
            const struct prof_record *r = &t->slots[i];
            if (r->key)
                rc |= make(&b->v[b->n++], &m, r, prof_table_frames(t, r), r->depth);
        }
        for (int f = 0; f < PROF_FN_COUNT; f++)
            if (t->overflow[f].s.calls)
                rc |= make(&b->v[b->n++], &m, &t->overflow[f], NULL, 0);
    }
    prof_symbolize_end();
    free(m.v);

    /* The same branch seen by several threads: one entry. */
    qsort(b->v, (size_t)b->n, sizeof *b->v, by_key);
    int out = 0;
    for (int i = 0; i < b->n; i++) {
        if (out > 0 && b->v[out - 1].key == b->v[i].key && b->v[out - 1].fn == b->v[i].fn) {
            prof_stats_merge(&b->v[out - 1].s, &b->v[i].s);
            prof_partners_merge(&b->v[out - 1].partners, &b->v[i].partners);
            free(b->v[i].site);
            free(b->v[i].ancestors);
            free(b->v[i].names);
        } else {
            b->v[out++] = b->v[i];
        }
    }
    b->n = out;
    if (rc) {
        prof_branches_free(b);
        return -1;
    }
    return 0;
}

/* --- numbering ---------------------------------------------------------- */

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Union of two sorted unique arrays into out (room for na + nb). */
static int merge(const uint64_t *a, int na, const uint64_t *b, int nb, uint64_t *out)
{
    int i = 0, j = 0, n = 0;
    while (i < na || j < nb) {
        if (j == nb || (i < na && a[i] < b[j]))
            out[n++] = a[i++];
        else if (i == na || b[j] < a[i])
            out[n++] = b[j++];
        else
            out[n++] = a[i++], j++;
    }
    return n;
}

/* Keys travel in chunks, so a rank without memory can still drain them. */
#define KEY_CHUNK 8192
static uint64_t scratch[KEY_CHUNK];

static void send_keys(const uint64_t *keys, int n, int to, MPI_Comm comm)
{
    PMPI_Send(&n, 1, MPI_INT, to, 0, comm);
    for (int off = 0; off < n; off += KEY_CHUNK)
        PMPI_Send(keys + off, n - off < KEY_CHUNK ? n - off : KEY_CHUNK, MPI_UINT64_T, to, 1, comm);
}

/* Receive into a new array; NULL (after draining) when out of memory, with
 * *n = -1 when the sender itself had failed. */
static uint64_t *recv_keys(int *n, int from, MPI_Comm comm)
{
    PMPI_Recv(n, 1, MPI_INT, from, 0, comm, MPI_STATUS_IGNORE);
    if (*n < 0)
        return NULL;
    uint64_t *keys = malloc(((size_t)*n + 1) * sizeof *keys);
    for (int off = 0; off < *n; off += KEY_CHUNK)
        PMPI_Recv(keys ? keys + off : scratch, *n - off < KEY_CHUNK ? *n - off : KEY_CHUNK, MPI_UINT64_T,
                  from, 1, comm, MPI_STATUS_IGNORE);
    return keys;
}

int prof_branches_number(MPI_Comm comm, struct prof_branches *b)
{
    int rank, size, n = 0;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    uint64_t *keys = malloc(((size_t)b->n + 1) * sizeof *keys);
    int ok = keys != NULL;
    for (int i = 0; ok && i < b->n; i++)
        keys[n++] = b->v[i].key;
    if (ok)
        qsort(keys, (size_t)n, sizeof *keys, cmp_u64);
    int u = 0;
    for (int i = 0; i < n; i++)
        if (u == 0 || keys[u - 1] != keys[i])
            keys[u++] = keys[i];
    n = u;

    /* Binomial tree: each rank merges its children's unions into its own,
     * then sends that to its parent; a failed rank sends n = -1. */
    for (int mask = 1; mask < size; mask <<= 1) {
        if (rank & mask) {
            send_keys(keys, ok ? n : -1, rank - mask, comm);
            break;
        }
        if (rank + mask >= size)
            continue;
        int m;
        uint64_t *theirs = recv_keys(&m, rank + mask, comm);
        uint64_t *both = theirs && ok ? malloc(((size_t)n + m + 1) * sizeof *both) : NULL;
        if (both) {
            n = merge(keys, n, theirs, m, both);
            free(keys);
            keys = both;
        } else {
            ok = 0;
        }
        free(theirs);
    }
    int total = ok ? n : -1;
    PMPI_Bcast(&total, 1, MPI_INT, 0, comm);
    if (rank != 0) {
        free(keys);
        keys = total >= 0 ? malloc(((size_t)total + 1) * sizeof *keys) : NULL;
    }
    int have = total >= 0 && keys != NULL, all_have;
    PMPI_Allreduce(&have, &all_have, 1, MPI_INT, MPI_MIN, comm);
    if (!all_have) {
        free(keys);
        return -1;
    }
    PMPI_Bcast(keys, total, MPI_UINT64_T, 0, comm);
    for (int i = 0; i < b->n; i++) {
        uint64_t *at = bsearch(&b->v[i].key, keys, (size_t)total, sizeof *keys, cmp_u64);
        b->v[i].id = at ? (int)(at - keys) + 1 : 0;
    }
    free(keys);
    return 0;
}
