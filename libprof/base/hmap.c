/* hmap.c: the map of hmap.h. */
#include <stdlib.h>
#include "hmap.h"

static uint32_t home(const struct prof_hmap *m, uint64_t key)
{
    return (uint32_t)((key * 0x9e3779b97f4a7c15ULL) >> 32) & (m->cap - 1);
}

static uint32_t find(const struct prof_hmap *m, uint64_t key)
{
    uint32_t i = home(m, key);
    while (m->vals[i] && m->keys[i] != key)
        i = (i + 1) & (m->cap - 1);
    return i;
}

void *prof_hmap_get(const struct prof_hmap *m, uint64_t key)
{
    return m->cap ? m->vals[find(m, key)] : NULL;
}

static int grow(struct prof_hmap *m)
{
    struct prof_hmap g = { 0 };
    g.cap = m->cap ? 2 * m->cap : 16;
    g.keys = malloc(g.cap * sizeof *g.keys);
    g.vals = calloc(g.cap, sizeof *g.vals);
    if (!g.keys || !g.vals) {
        free(g.keys);
        free(g.vals);
        return -1;
    }
    for (uint32_t i = 0; i < m->cap; i++)
        if (m->vals[i]) {
            uint32_t j = find(&g, m->keys[i]);
            g.keys[j] = m->keys[i];
            g.vals[j] = m->vals[i];
        }
    g.n = m->n;
    prof_hmap_free(m);
    *m = g;
    return 0;
}

int prof_hmap_put(struct prof_hmap *m, uint64_t key, void *val)
{
    if (2 * (m->n + 1) > m->cap && grow(m) != 0)
        return -1;
    uint32_t i = find(m, key);
    m->n += m->vals[i] == NULL;
    m->keys[i] = key;
    m->vals[i] = val;
    return 0;
}

void *prof_hmap_del(struct prof_hmap *m, uint64_t key)
{
    if (!m->cap)
        return NULL;
    uint32_t i = find(m, key), mask = m->cap - 1;
    void *val = m->vals[i];
    if (!val)
        return NULL;
    /* Move back every later entry of the run that may sit at i. */
    for (uint32_t j = (i + 1) & mask; m->vals[j]; j = (j + 1) & mask) {
        uint32_t h = home(m, m->keys[j]);
        if (((j - h) & mask) >= ((j - i) & mask)) {
            m->keys[i] = m->keys[j];
            m->vals[i] = m->vals[j];
            i = j;
        }
    }
    m->vals[i] = NULL;
    m->n--;
    return val;
}

void prof_hmap_free(struct prof_hmap *m)
{
    free(m->keys);
    free(m->vals);
    m->keys = NULL;
    m->vals = NULL;
    m->cap = m->n = 0;
}
