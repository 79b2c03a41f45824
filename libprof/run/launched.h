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

/* prof_launcher_rank: this process's rank as its mpirun set it (Open
 * MPI's, MPICH's Hydra or PMIx variables; the launcher reads the same), or
 * -1 outside mpirun. */
int prof_launcher_rank(void);

#endif
