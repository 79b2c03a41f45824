/* site.c: call stacks above the MPI call (hot when MPIPROF_STACK_DEPTH > 1). */
#include <libunwind.h>
#include "config.h"
#include "site.h"
#include "thread.h"

__thread void *prof_f08_site __attribute__((tls_model("initial-exec")));

uint32_t prof_site_capture(void *site, void **buf, uint32_t depth, void ***frames)
{
    int slack = PROF_SITE_SLACK + (site == prof_f08_site ? PROF_SITE_F08_SLACK : 0);
    uint64_t t = prof_clock();
    int n = unw_backtrace(buf, (int)depth + slack);
    prof_profiler_add(prof_tl, t);      /* the walk is the profiler's time (profiler_s) */
    for (int i = 0; i < n && i <= slack; i++) {
        if (buf[i] != site)
            continue;
        *frames = buf + i;
        return (uint32_t)(n - i) < depth ? (uint32_t)(n - i) : depth;
    }
    buf[0] = site;
    *frames = buf;
    return 1;
}
