/* collwait.h: collective wait (MPIPROF_EVAL_COLLECTIVE_WAIT): a PMPI_Barrier
 * on a blocking collective's communicator right before it; the barrier's
 * time is the synchronization wait, what follows is the collective with
 * synchronized arrivals (MPInside's "Collective Wait Time"). Windows and
 * files get a private duplicate of the communicator they were created on,
 * so that MPI_Win_fence and the collective file calls have one to
 * synchronize on. Only when every rank agreed at MPI_Init (init.c). */
#ifndef PROF_COLLWAIT_H
#define PROF_COLLWAIT_H

#include <mpi.h>

struct prof_call;

/* 1 when collective wait is on, on every rank (set once at MPI_Init);
 * prof_sync_on: collective wait or the model (model.h) is. */
extern int prof_collwait_on;
extern int prof_sync_on;

/* The sync hooks of a profiled blocking collective (flag sync in the
 * wrapper tables), right before it, when prof_sync_on: collective wait's
 * barrier, whose time goes to the call's record as wait (a failed barrier
 * leaves the call not evaluated), and where the model agrees clocks. */
void prof_sync_comm(struct prof_call *c, MPI_Comm comm);
void prof_sync_win(struct prof_call *c, MPI_Win win);
void prof_sync_file(struct prof_call *c, MPI_File fh);

#endif
