/* collwait.h: collective wait (MPIPROF_EVAL_COLLECTIVE_WAIT), a module
 * (module.h): a PMPI_Barrier on a blocking collective's communicator right
 * before it (the coll_enter event); the barrier's time is the
 * synchronization wait, what follows is the collective with synchronized
 * arrivals (MPInside's "Collective Wait Time"). Windows and files
 * synchronize on their shadows (shadow.h), so that MPI_Win_fence and the
 * collective file calls have a communicator to wait on. On when every rank
 * asked for it and profiles the same blocking collectives (colls.h); those
 * wait states claim, it leaves to them. */
#ifndef PROF_COLLWAIT_H
#define PROF_COLLWAIT_H

/* collwait.txt (collwait_report.c). */
struct prof_writer;
extern const struct prof_writer prof_report_collwait;

#endif
