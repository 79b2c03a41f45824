/* snapshot.h: what a rank writes alone, without communication, for a job
 * that may not reach MPI_Finalize: its tables so far, in the partial
 * report's directory DIR.partial (DIR: the report's), made by rank 0 at
 * MPI_Init, as DIR.partial/snapshots/rank.<r> (a temporary name, then
 * renamed: a snapshot is whole or absent).
 *
 * Written (1) every MPIPROF_SNAPSHOT seconds, on the first profiled call
 * that ends after the interval: a clock comparison on the hot path, no
 * timer thread, no signal handler; (2) with MPIPROF_PARTIAL (on by
 * default), in MPI_Abort before the library's, and when the program exits
 * without MPI_Finalize. A complete report written by MPI_Finalize removes
 * DIR.partial; else tools/mpiprof-merge makes its snapshots the tables. A
 * rank killed by a signal writes nothing (no handlers: the program and the
 * MPI library own them). Cold; a call past the next snapshot's time takes it (core/due.h). */
#ifndef PROF_SNAPSHOT_H
#define PROF_SNAPSHOT_H

#include <stdint.h>

/* prof_partial_start: MPI_Init, collective over the tool communicator:
 * when every rank has the same MPIPROF_SNAPSHOT and MPIPROF_PARTIAL and
 * either is on, rank 0 makes DIR.partial (prof_run.partial_dir) with its
 * snapshots/ and a file PARTIAL saying what the directory is; the first
 * snapshot is due one interval after MPI_Init. */
void prof_partial_start(void);

/* prof_partial_write: this rank's tables now, why (one line) in the
 * snapshot's header; with MPIPROF_PARTIAL only. */
void prof_partial_write(const char *why);

/* prof_partial_abort: MPI_Abort (C and Fortran) between MPI_Init and
 * MPI_Finalize: prof_partial_write, saying so. */
void prof_partial_abort(int errorcode);

/* prof_snapshot_stop: MPI_Finalize: no more snapshots.
 * prof_partial_clean: rank 0, once the complete report is written: remove
 * DIR.partial. */
void prof_snapshot_stop(void);
void prof_partial_clean(void);

#endif
