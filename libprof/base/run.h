/* run.h: the facts of this run that init.c records and finalize.c reports. */
#ifndef PROF_RUN_H
#define PROF_RUN_H

#include <stdint.h>
#include <time.h>
#include <mpi.h>

struct prof_run {
    int started, finished;
    int rank, size;
    int thread_level;          /* provided by MPI_Init_thread */
    MPI_Comm comm;             /* the tool's own communicator (dup of MPI_COMM_WORLD) */
    uint64_t t_init;           /* clock ticks at the end of MPI_Init */
    time_t start;              /* wall-clock start, for report headers */
    char command[4096];        /* the program and its arguments */
    char app[256];             /* basename of the program, for the default directory */
    int unwritable;            /* rank 0: the report directory could not be made at MPI_Init (said) */
    char partial_dir[4096];    /* the partial report's directory, made at MPI_Init (snapshot.h), or empty */
    int oversubscribed;        /* this node runs more ranks than it has processors online (nodes.c) */
};

extern struct prof_run prof_run;

/* prof_whichmpi_check: before MPI_Init or MPI_Init_thread calls into the
 * MPI (C or Fortran entry), whether the program runs the MPI this library
 * was built for; if it runs the other one, say so (rank 0, or a process
 * outside mpirun) and end the process with status 2 (whichmpi.c). */
void prof_whichmpi_check(void);

/* prof_before_init: what every MPI_Init and MPI_Init_thread entry (C or
 * Fortran) does before calling the MPI's: prof_whichmpi_check, then the
 * next tool's entry points resolved (chain.h; init.c). */
void prof_before_init(void);

/* prof_start: start profiling after a successful MPI_Init or
 * MPI_Init_thread (C or Fortran entry; init.c). */
void prof_start(int thread_level);

/* prof_finish: stop profiling and write the report (collective over the
 * tool communicator); called by MPI_Finalize before PMPI_Finalize. */
void prof_finish(void);

/* prof_settle: prof_finish's last step: on MPICH before 4.2 on ch4:ucx
 * and several nodes, a 20 ms pause (that MPI's MPI_Finalize hangs now and
 * then when the profiler's last messages have not settled; settle.c). */
void prof_settle(void);

#endif
