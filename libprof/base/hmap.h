/* hmap.h: a map from 64-bit keys to pointers (open addressing, linear
 * probing, deletion by backward shift: no tombstones, so a map that sees
 * many insertions and deletions of few live keys stays small and fast).
 * Grows to keep at most half its slots used. Not thread safe: its owner
 * locks. A zeroed struct is an empty map. */
#ifndef PROF_HMAP_H
#define PROF_HMAP_H

#include <stdint.h>

struct prof_hmap {
    uint64_t *keys;
    void **vals;           /* NULL: a free slot */
    uint32_t cap, n;       /* cap: 0 or a power of two */
};

/* prof_hmap_get: the value of key, or NULL. */
void *prof_hmap_get(const struct prof_hmap *m, uint64_t key);
/* prof_hmap_put: key -> val (not NULL), replacing an older value; -1 when
 * out of memory (the map is unchanged). */
int prof_hmap_put(struct prof_hmap *m, uint64_t key, void *val);
/* prof_hmap_del: remove key; its value, or NULL. */
void *prof_hmap_del(struct prof_hmap *m, uint64_t key);
void prof_hmap_free(struct prof_hmap *m);

#endif
