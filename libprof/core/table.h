/* table.h: per-thread open-addressing table of call-site records (hot).
 * Capacity is fixed when the thread first calls MPI: MPIPROF_MAX_SITES
 * records in the smallest power of two of slots that keeps it at most 3/4
 * full; once that many sites are in, new sites go to a per-function
 * overflow record and the report says so.
 *
 *   slots[i]  : struct prof_record  (key, fn, depth, via, stats)
 *   frames[i * stride .. i * stride + stride-1] : the return addresses of slot i
 *   order[0 .. used-1] : the slots filled, in the order they were: what
 *               the merges at the end read, rather than every slot (the
 *               pages of the slots no call site touched, 2.7 MB of them at
 *               the default 3072 sites, stay untouched)
 *
 * Lookups compare the 64-bit key first and the fn and frames only on a
 * match, so counts stay exact under hash collisions. */
#ifndef PROF_TABLE_H
#define PROF_TABLE_H

#include <stdint.h>
#include "record.h"
#include "fn_table.h"
#include "sizes.h"

struct prof_table {
    struct prof_record *slots;
    void **frames;
    uint32_t depth;                     /* frames of a call stack (MPIPROF_STACK_DEPTH) */
    uint32_t stride;                    /* frames per slot: depth, and one more for the library
                                           frame of a call through one (via.h) */
    uint32_t mask;                      /* slots - 1; slots a power of two */
    uint32_t max_sites;                 /* records before the overflow */
    uint32_t used;
    uint32_t *order;                    /* the slots filled (used of them), in the order they were */
    uint64_t overflow_calls;            /* calls that found the table full */
    struct prof_record overflow[PROF_FN_COUNT];
    struct prof_sizes *sizes[PROF_FN_COUNT]; /* message sizes per function (sizes.h) */
};

/* prof_table_init: allocate for max_sites records (at least 1) of depth
 * frames, and extra more each; -1 on no memory. */
int prof_table_init(struct prof_table *t, uint32_t depth, uint32_t extra, uint32_t max_sites);
void prof_table_free(struct prof_table *t);

/* prof_table_insert: the lookup of prof_table_record found slot i empty:
 * fill it, or return the function's overflow record when the table holds
 * max_sites records (cold). */
struct prof_record *prof_table_insert(struct prof_table *t, uint32_t i, uint64_t key, uint32_t fn, uint32_t region,
                                      void *const *frames, uint32_t n, uint32_t via);

static inline uint64_t prof_table_mix(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h;
}

/* prof_table_record: the record of (fn, frames[0..n-1], via: whether
 * frames[0] is in a library that passes MPI calls through, via.h) in
 * region (region.h), created on first use; the function's overflow record
 * (depth 0, no region) when the table is full. Records never move. Not
 * thread safe: each thread owns its table. Inline (hot), so that a constant
 * n (1 at the default depth) leaves no loop; frames are few, so loops beat
 * memcmp. */
static inline struct prof_record *prof_table_record(struct prof_table *t, uint32_t fn, uint32_t region,
                                                    void *const *frames, uint32_t n, uint32_t via)
{
    uint64_t key = ((uint64_t)fn | (uint64_t)region << 32) * 0x9e3779b97f4a7c15ULL + n + ((uint64_t)via << 40);
    for (uint32_t k = 0; k < n; k++)
        key = prof_table_mix(key ^ (uintptr_t)frames[k]);
    key |= 1;                           /* 0 marks an empty slot */
    for (uint32_t i = (uint32_t)key & t->mask;; i = (i + 1) & t->mask) {
        struct prof_record *r = &t->slots[i];
        if (r->key == key) {
            if (r->fn != fn || r->region != region || r->depth != n || r->via != via)
                continue;
            void *const *own = t->frames + (size_t)i * t->stride;
            uint32_t k = 0;
            while (k < n && own[k] == frames[k])
                k++;
            if (k == n)
                return r;
        } else if (r->key == 0) {
            return prof_table_insert(t, i, key, fn, region, frames, n, via);
        }
    }
}

/* prof_table_fold: add every record of from to into's record of the same
 * call site, and from's size histograms to into's (cold: a thread's exit).
 * Not thread safe. */
void prof_table_fold(struct prof_table *into, const struct prof_table *from);

/* prof_table_frames: the frames of a slot. */
static inline void *const *prof_table_frames(const struct prof_table *t, const struct prof_record *r)
{
    return t->frames + (r - t->slots) * t->stride;
}

#endif
