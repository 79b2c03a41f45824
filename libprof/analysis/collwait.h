/* collwait.h: collective wait (MPIPROF_EVAL_COLLECTIVE_WAIT), a module
 * (module.h): a PMPI_Barrier on a blocking collective's communicator right
 * before it (the coll_enter event); the barrier's time is the
 * synchronization wait, what follows is the collective with synchronized
 * arrivals (MPInside's "Collective Wait Time"). Windows and files
 * synchronize on their shadows (shadow.h), so that MPI_Win_fence and the
 * collective file calls have a communicator to wait on. On when every rank
 * asked for it and profiles the same blocking collectives. */
#ifndef PROF_COLLWAIT_H
#define PROF_COLLWAIT_H

/* 1 when collective wait started, on every rank (set once at MPI_Init). */
extern int prof_collwait_on;

/* prof_collwait_same_colls: collective over the tool's communicator, at
 * MPI_Init: 0 when every rank profiles the same blocking collectives, and
 * with nonblocking the same nonblocking ones too (a module that
 * synchronizes in them needs it), else -1 after saying, once, that what
 * (the module's name) is off. */
int prof_collwait_same_colls(const char *what, int nonblocking);

/* collwait.txt (collwait_report.c). */
struct prof_writer;
extern const struct prof_writer prof_report_collwait;

#endif
