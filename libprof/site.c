/* site.c: call stacks above the MPI call (hot when MPIPROF_STACK_DEPTH > 1). */
#include <libunwind.h>
#include "config.h"
#include "site.h"

uint32_t prof_site_capture(void *site, void **buf, uint32_t depth, void ***frames)
{
    int n = unw_backtrace(buf, (int)(depth + PROF_SITE_SLACK));
    for (int i = 0; i < n && i <= PROF_SITE_SLACK; i++) {
        if (buf[i] != site)
            continue;
        *frames = buf + i;
        return (uint32_t)(n - i) < depth ? (uint32_t)(n - i) : depth;
    }
    buf[0] = site;
    *frames = buf;
    return 1;
}
