/* collwait.c: the sync hooks of blocking collectives: collective wait, and
 * the model's agreement of clocks (cold: only with MPIPROF_EVAL_COLLECTIVE_WAIT
 * or MPIPROF_MODEL; a barrier costs far more than the shadow lookup of
 * windows and files). */
#include "collwait.h"
#include "prof.h"
#include "shadow.h"

int prof_collwait_on;
int prof_sync_on;

static void barrier(struct prof_call *c, MPI_Comm comm)
{
    if (comm == MPI_COMM_NULL)
        return;
    uint64_t t = prof_clock();
    if (PMPI_Barrier(comm) != MPI_SUCCESS)
        return;
    uint64_t dt = prof_clock() - t;
    struct prof_record *r = prof_call_record(c);
    r->s.sync_calls++;
    r->s.sync_ticks += dt;
}

/* The communicator of a shadow, or MPI_COMM_NULL. */
static MPI_Comm shadow_comm(uint64_t key)
{
    struct prof_shadow *s = prof_shadow_find(key);
    return s ? s->comm : MPI_COMM_NULL;
}

void prof_sync_comm(struct prof_call *c, MPI_Comm comm)
{
    if (prof_model_on)
        prof_model_sync(c, comm);
    if (prof_collwait_on)
        barrier(c, comm);
}

/* MPI_Win_fence: on the window's shadow. */
void prof_sync_win(struct prof_call *c, MPI_Win win)
{
    prof_sync_comm(c, shadow_comm(prof_shadow_key(PROF_SHADOW_WIN, &win, sizeof win)));
}

/* Collective file calls: the model keeps MPI-IO's real time. */
void prof_sync_file(struct prof_call *c, MPI_File fh)
{
    if (prof_model_on)
        prof_model_sync(c, MPI_COMM_NULL);
    if (prof_collwait_on)
        barrier(c, shadow_comm(prof_shadow_key(PROF_SHADOW_FILE, &fh, sizeof fh)));
}
