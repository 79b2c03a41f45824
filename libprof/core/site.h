/* site.h: call-site capture (hot). Depth 1 is the return address the
 * wrapper already has (no call here at all); deeper stacks come from
 * libunwind's unw_backtrace (no signal-mask system calls, unlike unw_step),
 * called from the MPI_ entry point itself (prof_enter is inlined into it),
 * as close to the user's frame as possible. */
#ifndef PROF_SITE_H
#define PROF_SITE_H

#include <stdint.h>
#include "via.h"

struct prof_call;

/* PROF_SITE_SLACK: frames between the walk and the user's call: the MPI_
 * entry point (the generated w_ function and prof_enter, which walks, are
 * inlined into it). Each frame walked costs ~75 instructions
 * (bench/instructions.sh). */
#define PROF_SITE_SLACK 1

/* PROF_SITE_F08_SLACK: more frames between the C entry and the user's call
 * when MPICH's use mpi_f08 reaches it through its helper (fortran.h): the
 * helper, the library's lower_f08ts_ and the profiler's; one more spare. */
#define PROF_SITE_F08_SLACK 4

/* The call site of a call made through one of MPICH's lower_f08ts_
 * procedures (fortran.h), NULL otherwise; per thread. */
extern __thread void *prof_f08_site __attribute__((tls_model("initial-exec")));

/* prof_site_walk: how many frames the entry point walks for site (at
 * most depth + PROF_SITE_SLACK + PROF_SITE_F08_SLACK + PROF_VIA_FRAMES):
 * depth past the slack, and with via (via.h) the library frames too. */
static inline int prof_site_walk(const void *site, uint32_t depth, uint32_t via)
{
    return (int)depth + PROF_SITE_SLACK + (site == prof_f08_site ? PROF_SITE_F08_SLACK : 0) + (via ? PROF_VIA_FRAMES : 0);
}

/* prof_site_frames: the call stack of call c (depth > 1 or c->via), from
 * n frames the MPI_ entry point walked into c->stack with unw_backtrace
 * (prof_enter, inlined there: the walk starts at that frame, as close to
 * the user's as can be) since c->t0, none for a call from Python. c->frames
 * then points at the call site (looked for PROF_SITE_F08_SLACK frames
 * further when it is prof_f08_site), followed by its callers, innermost
 * first; returns how many (>= 1, <= depth). With c->via (the site is in a
 * library that passes MPI calls through, via.h), the site is followed by
 * the first frame outside those libraries and its callers instead (<=
 * depth + 1 frames), or, when none was found, c->via becomes 0; and when
 * that frame runs Python code, the site followed by the Python frames
 * (python.h). With c->via PROF_VIA_PYTHON (a call from Python), the Python
 * frames (up to depth; the C frames when there are none), c->via 0. Before
 * the call's clock starts: the walk's time is the thread's profiler time
 * (thread.h), and c->t0 becomes the clock at its end, the call's start
 * (one read for both). */
uint32_t prof_site_frames(struct prof_call *c, int n);

#endif
