/* due.h: a deadline on the profiler's clock, checked at the end of every
 * profiled call (hot: one relaxed load and compare). The run sets it
 * (snapshot.c: MPIPROF_SNAPSHOT's interval) and the function that a call
 * ending past it runs, on the calling thread; the core does not know what
 * that does. */
#ifndef PROF_DUE_H
#define PROF_DUE_H

#include <stdint.h>

/* The clock (ticks) from which prof_due_fn is due; UINT64_MAX: never.
 * prof_due_fn is set at MPI_Init, before prof_due is, and not changed. */
extern uint64_t prof_due;
extern void (*prof_due_fn)(uint64_t now);

/* prof_due_check: at the end of every profiled call, its clock now. */
static inline void prof_due_check(uint64_t now)
{
    if (__builtin_expect(now >= __atomic_load_n(&prof_due, __ATOMIC_RELAXED), 0))
        prof_due_fn(now);
}

#endif
