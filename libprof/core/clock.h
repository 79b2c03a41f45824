/* clock.h: the profiler's clock, read twice per wrapped call (hot).
 * Invariant TSC where the CPU has one (rdtsc, ~40 ns on this VM), otherwise
 * CLOCK_MONOTONIC. Ticks are converted to seconds once, at finalize, with
 * the ratio measured over the whole run (clock.c). */
#ifndef PROF_CLOCK_H
#define PROF_CLOCK_H

#include <stdint.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

extern int prof_clock_use_tsc;

static inline uint64_t prof_clock_mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* prof_clock: current time in ticks (TSC cycles or nanoseconds). */
static inline uint64_t prof_clock(void)
{
#if defined(__x86_64__) || defined(__i386__)
    if (prof_clock_use_tsc)
        return __rdtsc();
#endif
    return prof_clock_mono_ns();
}

/* prof_clock_start: choose the clock and remember the start of the run. */
void prof_clock_start(void);
/* prof_clock_stop: end of the run; returns seconds per tick (>= 1 ms of
 * run is ensured so the ratio is accurate). */
double prof_clock_stop(void);
/* prof_clock_name: "tsc" or "monotonic", for the report header. */
const char *prof_clock_name(void);

#endif
