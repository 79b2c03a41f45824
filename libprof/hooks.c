/* hooks.c: the end of every wrapped call (hot): the record update, and the
 * volume rules of the one-sided and I/O families. A call's bytes_sent is
 * what it reads from its send buffer, bytes_recv what it writes to its
 * receive buffer (count x type size; for a completed receive or a blocking
 * read, what its status says arrived), for successful calls only.
 * Point-to-point hooks are in p2p.c, collective volumes in coll.c. */
#include "config.h"
#include "prof.h"

unsigned char prof_fn_on[PROF_FN_COUNT];

void prof_exit_volume(struct prof_call *c, uint64_t sent, uint64_t recv)
{
    struct prof_traffic tr = { sent, recv, 0, 0 };
    uint64_t dt;
    prof_exit_record(c, &tr, &dt);
    if (c->rc == MPI_SUCCESS)
        prof_sizes_add(&c->th->table.sizes[c->fn], sent > recv ? sent : recv, sent + recv, dt);
    if (PROF_UNLIKELY(prof_model_on))
        prof_model_volume(c, sent > recv ? sent : recv);
    prof_exit_done(c);
}

struct prof_record *prof_exit_record(struct prof_call *c, const struct prof_traffic *tr, uint64_t *dt)
{
    uint64_t t1 = prof_clock();
    struct prof_record *r = prof_call_record(c);
    *dt = t1 - c->t0;
    prof_stats_add(&r->s, *dt, tr);
    if (PROF_UNLIKELY(prof_model_on))
        prof_model_begin(c, t1);
    return r;
}

void prof_exit_rma_put(struct prof_call *c, int count, MPI_Datatype type)
{
    prof_exit_volume(c, prof_volume(c, count, type), 0);
}

void prof_exit_rma_get(struct prof_call *c, int count, MPI_Datatype type)
{
    prof_exit_volume(c, 0, prof_volume(c, count, type));
}

void prof_exit_rma_get_accumulate(struct prof_call *c, int scount, MPI_Datatype stype,
                                  int rcount, MPI_Datatype rtype)
{
    prof_exit_volume(c, prof_volume(c, scount, stype), prof_volume(c, rcount, rtype));
}

void prof_exit_rma_fetch_and_op(struct prof_call *c, MPI_Datatype type)
{
    prof_exit_volume(c, prof_volume(c, 1, type), prof_volume(c, 1, type));
}

/* Compare_and_swap reads the origin and the compare buffers. */
void prof_exit_rma_compare_and_swap(struct prof_call *c, MPI_Datatype type)
{
    prof_exit_volume(c, prof_volume(c, 2, type), prof_volume(c, 1, type));
}

void prof_exit_io_write(struct prof_call *c, int count, MPI_Datatype type)
{
    prof_exit_volume(c, prof_volume(c, count, type), 0);
}

uint64_t prof_status_bytes(const MPI_Status *st, uint64_t posted)
{
    int n;
    MPI_Count x;
    if (!st)
        return posted;
    if (PMPI_Get_count(st, MPI_BYTE, &n) == MPI_SUCCESS && n != MPI_UNDEFINED && n >= 0)
        return (uint64_t)n;
    if (PMPI_Get_elements_x(st, MPI_BYTE, &x) == MPI_SUCCESS && x != MPI_UNDEFINED && x >= 0)
        return (uint64_t)x;
    return posted;
}

/* A blocking read counts what its status says was read (less than count
 * at end of file); a nonblocking one (no status here: its request is
 * completed by MPI_Wait without the profiler following it) or the _begin
 * half of a split collective counts count x type size. */
void prof_exit_io_read(struct prof_call *c, int count, MPI_Datatype type, MPI_Status *status)
{
    uint64_t posted = prof_volume(c, count, type);
    prof_exit_volume(c, 0, posted ? prof_status_bytes(status, posted) : 0);
}
