/* site.h: call-site capture (hot). Depth 1 is the return address the
 * wrapper already has (no call here at all); deeper stacks come from
 * libunwind's unw_backtrace (no signal-mask system calls, unlike unw_step),
 * taken in prof_enter, as close to the user's frame as possible. */
#ifndef PROF_SITE_H
#define PROF_SITE_H

#include <stdint.h>

/* PROF_SITE_SLACK: frames between the capture and the user's call: the
 * capture itself and the MPI_ entry point (the generated w_ function and
 * prof_enter are inlined into it). Each frame walked costs ~5-10 ns. */
#define PROF_SITE_SLACK 2

/* PROF_SITE_F08_SLACK: more frames between the C entry and the user's call
 * when MPICH's use mpi_f08 reaches it through its helper (fortran.h): the
 * helper, the library's lower_f08ts_ and the profiler's; one more spare. */
#define PROF_SITE_F08_SLACK 4

/* The call site of a call made through one of MPICH's lower_f08ts_
 * procedures (fortran.h), NULL otherwise; per thread. */
extern __thread void *prof_f08_site __attribute__((tls_model("initial-exec")));

/* prof_site_capture: walk the stack into buf (room for depth + 1 +
 * PROF_SITE_SLACK + PROF_SITE_F08_SLACK + PROF_VIA_FRAMES frames); *frames
 * then points at the call site (looked for PROF_SITE_F08_SLACK frames
 * further when it is prof_f08_site), followed by its callers, innermost
 * first; returns how many (>= 1, <= depth). With *via (the site is in a
 * library that passes MPI calls through, via.h), the site is followed by
 * the first frame outside those libraries and its callers instead (<=
 * depth + 1 frames), or, when none was found, *via becomes 0; and when
 * that frame runs Python code, the site followed by the Python frames
 * (python.h). With *via PROF_VIA_PYTHON (a call from Python), the Python
 * frames (up to depth; the C frames when there are none), *via 0. Called from
 * the MPI_ entry point through the inlined prof_enter, before the call's
 * clock starts: the walk's time is the thread's profiler time (thread.h),
 * and *now the clock at its end, the call's start (one read for both). */
uint32_t prof_site_capture(void *site, void **buf, uint32_t depth, void ***frames, uint32_t *via, uint64_t *now);

#endif
