/* site.c: call stacks above the MPI call (hot when MPIPROF_STACK_DEPTH > 1,
 * for a call through a library that passes MPI calls through, or for a
 * call from Python). */
#include <libunwind.h>
#include "prof.h"
#include "python.h"

__thread void *prof_f08_site __attribute__((tls_model("initial-exec")));

/* Through a library (via.h): the first frame past site (buf[i]) outside
 * the libraries, with site just before it and its callers after, into
 * *frames; or, when that frame runs Python code, site followed by the
 * Python frames; how many (site, then up to depth), or 0 when every frame
 * walked is in a library. */
static uint32_t past_libraries(void **buf, int i, int n, uint32_t depth, void ***frames)
{
    int u = i + 1;
    while (u < n && prof_via_kind(buf[u]) == PROF_VIA_LIB)
        u++;
    if (u >= n)
        return 0;
    uint32_t py = 0;
    void *site = buf[i];
    if (prof_via_kind(buf[u]) == PROF_VIA_PYTHON && (py = prof_python_capture(buf + 1, depth)) != 0) {
        buf[0] = site;
        *frames = buf;
        return py + 1;
    }
    buf[u - 1] = site;
    *frames = buf + u - 1;
    return (uint32_t)(n - u) < depth ? (uint32_t)(n - u) + 1 : depth + 1;
}

/* The C frames from site on (at most depth, or depth + 1 through a
 * library), 0 when site is not among the first slack + 1 of the n walked. */
static uint32_t c_frames(void *site, void **buf, int n, int slack, uint32_t depth, void ***frames, uint32_t *via)
{
    uint32_t got = 0;
    for (int i = 0; i < n && i <= slack; i++) {
        if (buf[i] != site)
            continue;
        if (*via && (got = past_libraries(buf, i, n, depth, frames)) == 0)
            *via = 0;
        if (!got) {
            *frames = buf + i;
            got = (uint32_t)(n - i) < depth ? (uint32_t)(n - i) : depth;
        }
        break;
    }
    return got;
}

uint32_t prof_site_frames(struct prof_call *c, int n)
{
    void **buf = c->stack;
    uint32_t depth = c->th->table.depth;
    int slack = prof_site_walk(c->site, 0, 0);
    uint32_t got = 0;
    if (c->via == PROF_VIA_PYTHON) {
        c->via = PROF_VIA_NONE;
        got = prof_python_capture(buf, depth);
        c->frames = buf;
        if (!got)
            n = unw_backtrace(buf, (int)depth + ++slack);   /* from here: this frame too */
    }
    if (!got)
        got = c_frames(c->site, buf, n, slack, depth, &c->frames, &c->via);
    if (!got) {
        c->via = 0;
        buf[0] = c->site;
        c->frames = buf;
        got = 1;
    }
    c->t0 = prof_profiler_add(c->th, c->t0);   /* the walk is the profiler's time (profiler_s) */
    return got;
}
