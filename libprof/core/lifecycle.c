/* lifecycle.c: the life of communicators, windows and files as events
 * (events.h): the after= hooks of the calls that create them and the
 * before= and after= hooks of the calls that free them (families.def), on
 * every call, profiled or not (cold: setup calls). */
#include "prof.h"

static void emit(const prof_ev_handle_fn *h, struct prof_call *c, MPI_Comm comm, const char *name, void *handle)
{
    struct prof_ev_handle ev = { c, comm, name, handle };
    prof_emit(h, &ev);
}

void prof_comm_created(struct prof_call *c, MPI_Comm *newcomm)
{
    emit(prof_events.comm_created, c, MPI_COMM_NULL, NULL, newcomm);
}

void prof_comm_freeing(struct prof_call *c, MPI_Comm *comm)
{
    c->shadow = NULL;
    emit(prof_events.comm_freeing, c, MPI_COMM_NULL, NULL, comm);
}

void prof_comm_freed(struct prof_call *c, MPI_Comm *comm)
{
    emit(prof_events.comm_freed, c, MPI_COMM_NULL, NULL, comm);
}

void prof_win_created(struct prof_call *c, MPI_Comm comm, MPI_Win *win)
{
    emit(prof_events.win_created, c, comm, NULL, win);
}

void prof_win_freeing(struct prof_call *c, MPI_Win *win)
{
    c->entry = NULL;
    c->shadow = NULL;
    emit(prof_events.win_freeing, c, MPI_COMM_NULL, NULL, win);
}

void prof_win_freed(struct prof_call *c, MPI_Win *win)
{
    emit(prof_events.win_freed, c, MPI_COMM_NULL, NULL, win);
}

void prof_file_opened(struct prof_call *c, MPI_Comm comm, const char *name, MPI_File *fh)
{
    emit(prof_events.file_opened, c, comm, name, fh);
}

void prof_file_closing(struct prof_call *c, MPI_File *fh)
{
    c->entry = NULL;
    c->shadow = NULL;
    emit(prof_events.file_closing, c, MPI_COMM_NULL, NULL, fh);
}

void prof_file_closed(struct prof_call *c, MPI_File *fh)
{
    emit(prof_events.file_closed, c, MPI_COMM_NULL, NULL, fh);
}
