/* clock.h: the profiler's clock, read twice per wrapped call (hot).
 * MPIPROF_CLOCK: the invariant TSC where the CPU has one (rdtsc), otherwise
 * CLOCK_MONOTONIC, or the one asked for. Ticks are converted to seconds
 * once, at finalize, with the ratio measured over the whole run (clock.c).
 * MPIPROF_TEST_DRIFT (tests only) makes the clock run fast or slow by a
 * given ppm, as another node's clock does; it costs a call per read. */
#ifndef PROF_CLOCK_H
#define PROF_CLOCK_H

#include <stdint.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

/* What prof_clock reads: the TSC, CLOCK_MONOTONIC, or either drifted
 * (prof_clock_drifted). */
enum prof_clock_kind { PROF_CLOCK_TSC, PROF_CLOCK_MONOTONIC, PROF_CLOCK_DRIFTED };
extern int prof_clock_kind;

/* MPIPROF_CLOCK's values. */
enum { PROF_CLOCK_AUTO, PROF_CLOCK_ASK_TSC, PROF_CLOCK_ASK_MONOTONIC };

static inline uint64_t prof_clock_mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* prof_clock_drifted: the clock with MPIPROF_TEST_DRIFT's drift. */
uint64_t prof_clock_drifted(void);

/* prof_clock: current time in ticks (TSC cycles or nanoseconds). */
static inline uint64_t prof_clock(void)
{
#if defined(__x86_64__) || defined(__i386__)
    if (prof_clock_kind == PROF_CLOCK_TSC)
        return __rdtsc();
#endif
    if (prof_clock_kind == PROF_CLOCK_MONOTONIC)
        return prof_clock_mono_ns();
    return prof_clock_drifted();
}

/* prof_ticks_before: the part of a wait from t0 to t1 before x (when the
 * partner it waited for came); 0 when t0 is not before t1 (a start taken
 * from another node's clock may fall after the call's end). */
static inline uint64_t prof_ticks_before(uint64_t x, uint64_t t0, uint64_t t1)
{
    return x > t0 && t1 > t0 ? (x < t1 ? x : t1) - t0 : 0;
}

/* prof_clock_start: choose the clock (ask: PROF_CLOCK_AUTO, _ASK_TSC or
 * _ASK_MONOTONIC; drift_ppm: MPIPROF_TEST_DRIFT, 0 for none) and remember
 * the start of the run. Returns -1 when the TSC was asked for and this CPU
 * has no invariant one (CLOCK_MONOTONIC is used), else 0. */
int prof_clock_start(int ask, double drift_ppm);
/* prof_clock_stop: end of the run; returns seconds per tick (>= 1 ms of
 * run is ensured so the ratio is accurate). */
double prof_clock_stop(void);
/* prof_clock_bracket: one read of READ, and *mono CLOCK_MONOTONIC's
 * nanoseconds at that moment: the middle of the narrowest of 5 brackets of
 * two monotonic reads around it, so that a process descheduled between two
 * reads (a loaded node) does not put the time it waited into a
 * calibration. */
uint64_t prof_clock_bracket(uint64_t (*read)(void), uint64_t *mono);

/* prof_clock_mono_apart: CLOCK_MONOTONIC's nanoseconds once at least 1 ms
 * after mono0 (spinning the rest): the second reading of a ratio of ticks
 * to seconds (a pair of readings is off by 0.1 us at most: 1e-4). */
uint64_t prof_clock_mono_apart(uint64_t mono0);
/* prof_clock_ns: ticks t as nanoseconds of this node's CLOCK_MONOTONIC (the
 * drifted one under MPIPROF_TEST_DRIFT): the same for every process of the
 * node, so that nodes' clocks can be set side by side (link/nodes.c).
 * TSC ticks are converted with their ratio to CLOCK_MONOTONIC, measured
 * afresh each time the run has doubled since the last (to microseconds of
 * error after 2 ms, less as the run goes on). prof_clock_ticks: the
 * inverse. Thread safe; cold (a token's send and arrival). */
int64_t prof_clock_ns(uint64_t t);
uint64_t prof_clock_ticks(int64_t ns);
/* prof_clock_span: ns nanoseconds as ticks. */
uint64_t prof_clock_span(uint64_t ns);
/* prof_clock_tsc: 1 when the ticks are the TSC's (drifted or not). */
int prof_clock_tsc(void);
/* prof_clock_name: "tsc" or "monotonic", for the report header. */
const char *prof_clock_name(void);

#endif
