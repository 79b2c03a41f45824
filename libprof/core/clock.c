/* clock.c: choose the clock at MPI_Init (MPIPROF_CLOCK) and calibrate ticks
 * against CLOCK_MONOTONIC over the whole run at MPI_Finalize (cold); the
 * drifted clock of MPIPROF_TEST_DRIFT (hot, tests only). */
#include "clock.h"
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

int prof_clock_kind = PROF_CLOCK_MONOTONIC;

static struct {
    int tsc;              /* the ticks are the TSC's */
    double drift;         /* MPIPROF_TEST_DRIFT, as a fraction */
    uint64_t tick0, mono0;
} clk;

static int has_invariant_tsc(void)
{
#if defined(__x86_64__) || defined(__i386__)
    unsigned a, b, c, d;
    if (__get_cpuid_max(0x80000000u, 0) < 0x80000007u)
        return 0;
    __cpuid(0x80000007u, a, b, c, d);
    return (d >> 8) & 1;
#else
    return 0;
#endif
}

static uint64_t undrifted(void)
{
#if defined(__x86_64__) || defined(__i386__)
    if (clk.tsc)
        return __rdtsc();
#endif
    return prof_clock_mono_ns();
}

/* Ticks since the start run 1 + drift times as fast. */
uint64_t prof_clock_drifted(void)
{
    uint64_t t = undrifted();
    int64_t since = (int64_t)(t - clk.tick0);
    return t + (uint64_t)(int64_t)((double)since * clk.drift);
}

int prof_clock_start(int ask, double drift_ppm)
{
    int tsc = has_invariant_tsc();
    int rc = ask == PROF_CLOCK_ASK_TSC && !tsc ? -1 : 0;
    clk.tsc = tsc && ask != PROF_CLOCK_ASK_MONOTONIC;
    clk.drift = drift_ppm * 1e-6;
    clk.mono0 = prof_clock_mono_ns();
    clk.tick0 = undrifted();
    prof_clock_kind = drift_ppm != 0 ? PROF_CLOCK_DRIFTED : clk.tsc ? PROF_CLOCK_TSC : PROF_CLOCK_MONOTONIC;
    return rc;
}

double prof_clock_stop(void)
{
    if (!clk.tsc)
        return 1e-9;
    uint64_t mono1 = prof_clock_mono_ns();
    while (mono1 - clk.mono0 < 1000000u)
        mono1 = prof_clock_mono_ns();
    uint64_t tick1 = undrifted();
    return (double)(mono1 - clk.mono0) * 1e-9 / (double)(tick1 - clk.tick0);
}

int prof_clock_tsc(void)
{
    return clk.tsc;
}

const char *prof_clock_name(void)
{
    return clk.tsc ? "tsc" : "monotonic";
}
