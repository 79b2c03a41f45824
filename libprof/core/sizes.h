/* sizes.h: message-size histograms (sizes.txt): per thread and function,
 * calls, bytes and time per power-of-two size bin. Bin 0 holds 0 bytes,
 * bin k (1..64) holds [2^(k-1), 2^k). A call's size is the larger of what
 * it read from its send buffers and wrote to its receive buffers (a
 * point-to-point message: its bytes; a receive: what arrived); its bytes
 * are the two added. A function's histogram is allocated on its first
 * sized call in the thread (once; without memory the call is not binned). */
#ifndef PROF_SIZES_H
#define PROF_SIZES_H

#include <stdint.h>
#include <stdlib.h>

#define PROF_SIZE_BINS 65

/* Calls, their bytes and their time: one size bin; one kind of one-sided
 * or I/O access (rma.h, io.h). */
struct prof_tally {
    uint64_t calls, bytes, ticks;
};

static inline void prof_tally_add(struct prof_tally *t, uint64_t bytes, uint64_t ticks)
{
    t->calls++;
    t->bytes += bytes;
    t->ticks += ticks;
}

struct prof_sizes {
    struct prof_tally bin[PROF_SIZE_BINS];
};

static inline unsigned prof_size_bin(uint64_t size)
{
    return size ? 64u - (unsigned)__builtin_clzll(size) : 0u;
}

/* prof_sizes_add: one call of size bytes moving bytes in ticks, into the
 * histogram *h (hot: a bit scan and three adds). */
static inline void prof_sizes_add(struct prof_sizes **h, uint64_t size, uint64_t bytes, uint64_t ticks)
{
    if (__builtin_expect(!*h, 0) && !(*h = calloc(1, sizeof **h)))
        return;
    prof_tally_add(&(*h)->bin[prof_size_bin(size)], bytes, ticks);
}

/* prof_sizes_merge: *into += from (cold; allocates *into when needed).
 * Returns 0, or -1 without memory. */
static inline int prof_sizes_merge(struct prof_sizes **into, const struct prof_sizes *from)
{
    if (!from)
        return 0;
    if (!*into && !(*into = calloc(1, sizeof **into)))
        return -1;
    for (int k = 0; k < PROF_SIZE_BINS; k++) {
        (*into)->bin[k].calls += from->bin[k].calls;
        (*into)->bin[k].bytes += from->bin[k].bytes;
        (*into)->bin[k].ticks += from->bin[k].ticks;
    }
    return 0;
}

#endif
