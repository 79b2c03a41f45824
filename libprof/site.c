/* site.c: call stacks above the MPI call (hot when MPIPROF_STACK_DEPTH > 1). */
#include <string.h>
#include <libunwind.h>
#include "config.h"
#include "site.h"

/* Frames between here and the user's call: this function, the hook, the
 * MPI_ entry point, and spare for hooks that are not inlined. */
#define PROF_SITE_SLACK 8

uint32_t prof_site_frames(void *site, void **frames, uint32_t depth)
{
    frames[0] = site;
    if (depth <= 1)
        return 1;
    void *bt[PROF_MAX_DEPTH + PROF_SITE_SLACK];
    int n = unw_backtrace(bt, (int)(depth + PROF_SITE_SLACK));
    for (int i = 0; i < n; i++) {
        if (bt[i] != site)
            continue;
        uint32_t k = (uint32_t)(n - i) < depth ? (uint32_t)(n - i) : depth;
        memcpy(frames, bt + i, k * sizeof *frames);
        return k;
    }
    return 1;
}
