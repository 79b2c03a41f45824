/* site.h: call-site capture (hot). Depth 1 is the return address the
 * wrapper already has; deeper stacks come from libunwind's unw_backtrace
 * (no signal-mask system calls, unlike unw_step). */
#ifndef PROF_SITE_H
#define PROF_SITE_H

#include <stdint.h>

/* prof_site_frames: fill frames[0..depth-1] with the call site and its
 * callers, innermost first; returns how many were found (>= 1). */
uint32_t prof_site_frames(void *site, void **frames, uint32_t depth);

#endif
