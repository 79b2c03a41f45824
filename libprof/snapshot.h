/* snapshot.h: MPIPROF_SNAPSHOT=<seconds>: every so often each rank writes
 * its tables so far to <report>/snapshots/rank.<r> (atomically: a
 * temporary name, then rename), without communication, on the first
 * wrapped call that ends after the interval has passed: a clock comparison
 * on the hot path, no timer thread, no signal handler. A job killed before
 * MPI_Finalize keeps its last snapshots; tools/mpiprof-merge makes them a
 * report. Cold, but for prof_snapshot_check. */
#ifndef PROF_SNAPSHOT_H
#define PROF_SNAPSHOT_H

#include <stdint.h>

/* The clock (ticks) from which the next snapshot is due; UINT64_MAX: none. */
extern uint64_t prof_snapshot_due;

void prof_snapshot_take(uint64_t now);

/* prof_snapshot_check: at the end of every profiled call, its clock now. */
static inline void prof_snapshot_check(uint64_t now)
{
    if (__builtin_expect(now >= __atomic_load_n(&prof_snapshot_due, __ATOMIC_RELAXED), 0))
        prof_snapshot_take(now);
}

/* prof_snapshot_start: MPI_Init, collective over the tool communicator:
 * when every rank asked for the same interval, rank 0 makes the report
 * directory now (prof_run.report_dir; MPI_Finalize writes the report
 * there) with its snapshots/ directory, and the first snapshot is due one
 * interval after MPI_Init. */
void prof_snapshot_start(void);

/* prof_snapshot_stop: MPI_Finalize: no more snapshots.
 * prof_snapshot_clean: rank 0, once the report is written in dir: remove
 * the snapshots, which it supersedes. */
void prof_snapshot_stop(void);
void prof_snapshot_clean(const char *dir);

#endif
