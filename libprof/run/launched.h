/* launched.h: the launcher's mark (launched.c, mpiprof(1) MPIPROF_LAUNCHED). */
#ifndef PROF_LAUNCHED_H
#define PROF_LAUNCHED_H

/* prof_launched_init: in MPI_Init, once the options are read: the program
 * called MPI_Init (its mark removed). */
void prof_launched_init(void);

/* prof_launched_exit: at the exit of a process that never started
 * profiling: the one line when it is the launcher's and nothing called
 * MPI_Init. */
void prof_launched_exit(void);

#endif
