/* ranges.c: the sorted address ranges of ranges.h. */
#include <stdlib.h>
#include "ranges.h"

static int by_lo(const void *a, const void *b)
{
    const struct prof_range *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

void prof_ranges_sort(struct prof_range *v, int n)
{
    if (n > 1)
        qsort(v, (size_t)n, sizeof *v, by_lo);
}

const struct prof_range *prof_range_find(const struct prof_range *v, int n, uintptr_t a)
{
    int lo = 0, hi = n;      /* the last range starting at or below a */
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (v[mid].lo <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo > 0 && a < v[lo - 1].hi ? &v[lo - 1] : NULL;
}
