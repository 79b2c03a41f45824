/* table.c: the per-thread call-site table (hot: prof_table_stats). */
#include <stdlib.h>
#include <string.h>
#include "table.h"

int prof_table_init(struct prof_table *t, uint32_t depth, uint32_t extra, uint32_t max_sites)
{
    memset(t, 0, sizeof *t);
    t->depth = depth;
    t->stride = depth + extra;
    t->max_sites = max_sites ? max_sites : 1;
    size_t nslots = 4;
    while (nslots / 4 * 3 < t->max_sites)
        nslots *= 2;
    t->mask = (uint32_t)nslots - 1;
    t->slots = calloc(nslots, sizeof *t->slots);
    t->frames = calloc(nslots * t->stride, sizeof *t->frames);
    t->order = calloc(t->max_sites, sizeof *t->order);
    if (!t->slots || !t->frames || !t->order) {
        prof_table_free(t);
        return -1;
    }
    return 0;
}

void prof_table_free(struct prof_table *t)
{
    for (int f = 0; f < PROF_FN_COUNT; f++) {
        free(t->sizes[f]);
        t->sizes[f] = NULL;
    }
    free(t->slots);
    free(t->frames);
    free(t->order);
    t->slots = NULL;
    t->frames = NULL;
    t->order = NULL;
}

struct prof_record *prof_table_insert(struct prof_table *t, uint32_t i, uint64_t key, uint32_t fn, uint32_t region,
                                      void *const *frames, uint32_t n, uint32_t via)
{
    if (t->used >= t->max_sites) {
        t->overflow_calls++;
        t->overflow[fn].fn = fn;
        return &t->overflow[fn];
    }
    struct prof_record *r = &t->slots[i];
    r->key = key;
    r->fn = fn;
    r->region = region;
    r->depth = n;
    r->via = via;
    memcpy(t->frames + (size_t)i * t->stride, frames, n * sizeof *frames);
    t->order[t->used++] = i;
    return r;
}

static void merge(struct prof_record *into, const struct prof_record *from)
{
    prof_stats_merge(&into->s, &from->s);
    prof_partners_merge(&into->partners, &from->partners);
}

void prof_table_fold(struct prof_table *into, const struct prof_table *from)
{
    for (uint32_t k = 0; k < from->used; k++) {
        const struct prof_record *r = &from->slots[from->order[k]];
        struct prof_record *to =
            prof_table_record(into, r->fn, r->region, prof_table_frames(from, r), r->depth, r->via);
        if (to == &into->overflow[r->fn])   /* counted one call: all of r's found it full */
            into->overflow_calls += r->s.calls - 1;
        merge(to, r);
    }
    for (uint32_t f = 0; f < PROF_FN_COUNT; f++)
        if (from->overflow[f].s.calls) {
            into->overflow[f].fn = f;
            merge(&into->overflow[f], &from->overflow[f]);
        }
    into->overflow_calls += from->overflow_calls;
    for (int f = 0; f < PROF_FN_COUNT; f++)
        prof_sizes_merge(&into->sizes[f], from->sizes[f]);
}
