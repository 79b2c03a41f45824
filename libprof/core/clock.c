/* clock.c: choose the clock at MPI_Init (MPIPROF_CLOCK) and calibrate ticks
 * against CLOCK_MONOTONIC over the whole run at MPI_Finalize (cold); the
 * drifted clock of MPIPROF_TEST_DRIFT (hot, tests only). */
#include <pthread.h>
#include <stdatomic.h>
#include "clock.h"
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

int prof_clock_kind = PROF_CLOCK_MONOTONIC;

static struct {
    int tsc;              /* the ticks are the TSC's */
    double drift;         /* MPIPROF_TEST_DRIFT, as a fraction */
    uint64_t tick0, mono0;
    pthread_mutex_t lock;          /* guards span */
    _Atomic uint64_t span;         /* TSC ticks from tick0 over which ns_per_tick was measured */
    _Atomic double ns_per_tick;
} clk = { .lock = PTHREAD_MUTEX_INITIALIZER };

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

uint64_t prof_clock_bracket(uint64_t (*read)(void), uint64_t *mono)
{
    uint64_t best = UINT64_MAX, tick = 0;
    for (int i = 0; i < 5; i++) {
        uint64_t a = prof_clock_mono_ns(), t = read(), b = prof_clock_mono_ns();
        if (b - a < best) {
            best = b - a;
            *mono = a + (b - a) / 2;
            tick = t;
        }
    }
    return tick;
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
    clk.tick0 = prof_clock_bracket(undrifted, &clk.mono0);
    clk.span = 0;
    atomic_store(&clk.ns_per_tick, 1.0);
    prof_clock_kind = drift_ppm != 0 ? PROF_CLOCK_DRIFTED : clk.tsc ? PROF_CLOCK_TSC : PROF_CLOCK_MONOTONIC;
    return rc;
}

uint64_t prof_clock_mono_apart(uint64_t mono0)
{
    uint64_t mono1 = prof_clock_mono_ns();
    while (mono1 - mono0 < 1000000u)
        mono1 = prof_clock_mono_ns();
    return mono1;
}

double prof_clock_stop(void)
{
    if (!clk.tsc)
        return 1e-9;
    uint64_t mono1 = 0;
    prof_clock_mono_apart(clk.mono0);
    uint64_t tick1 = prof_clock_bracket(undrifted, &mono1);
    return (double)(mono1 - clk.mono0) * 1e-9 / (double)(tick1 - clk.tick0);
}

/* The TSC's nanoseconds per tick, measured again from the start when the
 * run has doubled since it last was (at least 1 ms apart). */
static double ns_per_tick(uint64_t t)
{
    if (t - clk.tick0 >= 2 * clk.span) {
        pthread_mutex_lock(&clk.lock);
        uint64_t m = 0, tt = prof_clock_bracket(undrifted, &m);
        if (m - clk.mono0 >= 1000000u && tt - clk.tick0 >= 2 * clk.span) {
            atomic_store(&clk.ns_per_tick, (double)(m - clk.mono0) / (double)(tt - clk.tick0));
            clk.span = tt - clk.tick0;
        }
        pthread_mutex_unlock(&clk.lock);
    }
    return atomic_load(&clk.ns_per_tick);
}

int64_t prof_clock_ns(uint64_t t)
{
    if (!clk.tsc)
        return (int64_t)t;
    return (int64_t)clk.mono0 + (int64_t)((double)(int64_t)(t - clk.tick0) * ns_per_tick(t));
}

uint64_t prof_clock_ticks(int64_t ns)
{
    if (!clk.tsc)
        return (uint64_t)ns;
    double per = ns_per_tick(undrifted());
    return clk.tick0 + (uint64_t)(int64_t)((double)(ns - (int64_t)clk.mono0) / per);
}

uint64_t prof_clock_span(uint64_t ns)
{
    return clk.tsc ? (uint64_t)((double)ns / ns_per_tick(undrifted())) : ns;
}

int prof_clock_tsc(void)
{
    return clk.tsc;
}

const char *prof_clock_name(void)
{
    return clk.tsc ? "tsc" : "monotonic";
}
