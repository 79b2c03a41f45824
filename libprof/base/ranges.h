/* ranges.h: address ranges [lo, hi), each with a tag, sorted by lo, and
 * the one holding an address (binary search): the loaded modules'
 * segments, for core/via.c (tag: what the module is) and
 * report/symbolize.c (tag: the module's index). Not thread safe: a
 * table is only read once sorted. */
#ifndef PROF_RANGES_H
#define PROF_RANGES_H

#include <stdint.h>

struct prof_range {
    uintptr_t lo, hi;
    int tag;
};

void prof_ranges_sort(struct prof_range *v, int n);

/* prof_range_find: the range of the sorted v[0, n) holding a, or NULL. */
const struct prof_range *prof_range_find(const struct prof_range *v, int n, uintptr_t a);

#endif
