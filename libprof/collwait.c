/* collwait.c: collective wait (cold: only with MPIPROF_EVAL_COLLECTIVE_WAIT;
 * a barrier costs far more than the shadow lookup of windows and files). */
#include "collwait.h"
#include "prof.h"
#include "shadow.h"

int prof_collwait_on;

void prof_collwait_comm(struct prof_call *c, MPI_Comm comm)
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

static void synced_on(struct prof_call *c, uint64_t key)
{
    struct prof_shadow *s = prof_shadow_find(key);
    if (s)
        prof_collwait_comm(c, s->comm);
}

void prof_collwait_win(struct prof_call *c, MPI_Win win)
{
    synced_on(c, prof_shadow_key(PROF_SHADOW_WIN, &win, sizeof win));
}

void prof_collwait_file(struct prof_call *c, MPI_File fh)
{
    synced_on(c, prof_shadow_key(PROF_SHADOW_FILE, &fh, sizeof fh));
}

/* Windows and files get a shadow only for collective wait. */
void prof_win_created(struct prof_call *c, MPI_Comm comm, MPI_Win *win)
{
    if (prof_collwait_on && c->rc == MPI_SUCCESS)
        prof_shadow_add(prof_shadow_key(PROF_SHADOW_WIN, win, sizeof *win), comm);
}

void prof_file_opened(struct prof_call *c, MPI_Comm comm, MPI_File *fh)
{
    if (prof_collwait_on && c->rc == MPI_SUCCESS)
        prof_shadow_add(prof_shadow_key(PROF_SHADOW_FILE, fh, sizeof *fh), comm);
}
