/* test_clock.c: MPIPROF_CLOCK's choice and MPIPROF_TEST_DRIFT's rate
 * (libprof/core/clock.c): the drifted clock runs 1 + ppm/10^6 times as fast
 * as CLOCK_MONOTONIC over 50 ms, within 100 ppm; monotonic ticks are
 * CLOCK_MONOTONIC's nanoseconds. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "clock.h"

static int failures;
#define CHECK(cond) do { if (!(cond)) { printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); failures++; } } while (0)

static uint64_t clock_now(void)
{
    return prof_clock();
}

/* The clock's rate against CLOCK_MONOTONIC over 50 ms, in ticks per ns,
 * each end read as calibrations read it (prof_clock_bracket). */
static double rate(void)
{
    struct timespec ts = { 0, 50000000 };
    uint64_t m0 = 0, m1 = 0, t0 = prof_clock_bracket(clock_now, &m0);
    while (nanosleep(&ts, &ts) != 0)
        ;
    uint64_t t1 = prof_clock_bracket(clock_now, &m1);
    return (double)(t1 - t0) / (double)(m1 - m0);
}

int main(void)
{
    CHECK(prof_clock_start(PROF_CLOCK_ASK_MONOTONIC, 0) == 0);
    CHECK(prof_clock_kind == PROF_CLOCK_MONOTONIC && !prof_clock_tsc());
    CHECK(strcmp(prof_clock_name(), "monotonic") == 0);
    CHECK(prof_clock_stop() == 1e-9);
    double r = rate();
    CHECK(r > 0.9999 && r < 1.0001);

    CHECK(prof_clock_start(PROF_CLOCK_ASK_MONOTONIC, 2000) == 0);
    CHECK(prof_clock_kind == PROF_CLOCK_DRIFTED && !prof_clock_tsc());
    r = rate();
    printf("drift +2000 ppm: rate %.6f\n", r);
    CHECK(r > 1.0019 && r < 1.0021);

    CHECK(prof_clock_start(PROF_CLOCK_ASK_MONOTONIC, -300) == 0);
    r = rate();
    printf("drift -300 ppm: rate %.6f\n", r);
    CHECK(r > 0.9996 && r < 0.9998);

    /* auto: the TSC exactly where it is invariant; tsc asked without one
     * says so and reads CLOCK_MONOTONIC. */
    int ok = prof_clock_start(PROF_CLOCK_ASK_TSC, 0);
    CHECK(ok == 0 ? prof_clock_tsc() && strcmp(prof_clock_name(), "tsc") == 0 : !prof_clock_tsc());
    CHECK(prof_clock_start(PROF_CLOCK_AUTO, 0) == 0);
    CHECK(prof_clock_tsc() == (ok == 0));
    if (prof_clock_tsc()) {
        /* The TSC's ticks per ns are calibrated from the start to the stop:
         * over 50 ms, so that a process descheduled between its two clock
         * reads there (a loaded machine) errs by parts per 10^4, not by a
         * percent as over the 1 ms it would take otherwise. */
        struct timespec ts = { 0, 50000000 };
        prof_clock_start(PROF_CLOCK_AUTO, 1000);
        while (nanosleep(&ts, &ts) != 0)
            ;
        double per_tick = prof_clock_stop();   /* the undrifted TSC against CLOCK_MONOTONIC */
        r = rate() * per_tick * 1e9;
        printf("tsc, drift +1000 ppm: rate %.6f\n", r);
        CHECK(r > 0.9985 && r < 1.0035);
    }
    return failures ? 1 : 0;
}
