/* clock.c: choose the clock at MPI_Init and calibrate ticks against
 * CLOCK_MONOTONIC over the whole run at MPI_Finalize (cold). */
#include "clock.h"
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

int prof_clock_use_tsc;

static struct {
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

void prof_clock_start(void)
{
    prof_clock_use_tsc = has_invariant_tsc();
    clk.mono0 = prof_clock_mono_ns();
    clk.tick0 = prof_clock();
}

double prof_clock_stop(void)
{
    if (!prof_clock_use_tsc)
        return 1e-9;
    uint64_t mono1 = prof_clock_mono_ns();
    while (mono1 - clk.mono0 < 1000000u)
        mono1 = prof_clock_mono_ns();
    uint64_t tick1 = prof_clock();
    return (double)(mono1 - clk.mono0) * 1e-9 / (double)(tick1 - clk.tick0);
}

const char *prof_clock_name(void)
{
    return prof_clock_use_tsc ? "tsc" : "monotonic";
}
