/* hooks.c: the end of every wrapped call (hot): the record update, and the
 * volume rules of the one-sided and I/O families, which the rma_call and
 * file events (events.h) carry to the modules. A call's bytes_sent is
 * what it reads from its send buffer, bytes_recv what it writes to its
 * receive buffer (count x type size; for a completed receive or a blocking
 * read, what its status says arrived), for successful calls only.
 * Point-to-point hooks are in p2p.c, collective volumes in coll.c. */
#include "config.h"
#include "due.h"
#include "prof.h"

uint64_t prof_due = UINT64_MAX;
void (*prof_due_fn)(uint64_t now);

unsigned char prof_fn_on[PROF_FN_COUNT];

struct prof_around prof_around;
int prof_around_on;

/* The end of a call that moved bytes, but for prof_exit_done: its time. */
static uint64_t exit_volume(struct prof_call *c, uint64_t sent, uint64_t recv)
{
    struct prof_traffic tr = { sent, recv, 0, 0 };
    uint64_t dt;
    prof_exit_record(c, &tr, &dt);
    if (c->rc == MPI_SUCCESS)
        prof_sizes_add(&c->th->table.sizes[c->fn], sent > recv ? sent : recv, sent + recv, dt);
    prof_emit_call(prof_events.call_volume, c, 0, sent > recv ? sent : recv);
    return dt;
}

void prof_exit_volume(struct prof_call *c, uint64_t sent, uint64_t recv)
{
    exit_volume(c, sent, recv);
    prof_exit_done(c);
}

/* The end of a call that names no data, and its time. */
static uint64_t exit_time(struct prof_call *c)
{
    struct prof_traffic none = { 0 };
    uint64_t dt;
    prof_exit_record(c, &none, &dt);
    return dt;
}

struct prof_record *prof_exit_record(struct prof_call *c, const struct prof_traffic *tr, uint64_t *dt)
{
    uint64_t t1 = prof_clock();
    struct prof_record *r = prof_call_record(c);
    *dt = t1 - c->t0;
    prof_stats_add(&r->s, *dt, tr);
    if (__builtin_expect(prof_events.call_end[0] != NULL, 0)) {
        struct prof_ev_call ev = { c, t1, 0, r };
        prof_emit(prof_events.call_end, &ev);
    }
    prof_due_check(t1);
    return r;
}

/* The end of a one-sided call: its event to the modules, then done. */
static void rma_end(struct prof_call *c, enum prof_rma_kind k, MPI_Win win, int target, uint64_t bytes,
                    uint64_t ticks, int lock)
{
    struct prof_ev_rma ev = { c, win, k, target, bytes, ticks, lock };
    prof_emit(prof_events.rma_call, &ev);
    prof_exit_done(c);
}

/* One-sided data movement: the event carries the origin's bytes. */
static void rma_exit(struct prof_call *c, enum prof_rma_kind k, MPI_Win win, int target, uint64_t sent,
                     uint64_t recv, uint64_t origin)
{
    rma_end(c, k, win, target, origin, exit_volume(c, sent, recv), 0);
}

void prof_exit_rma_put(struct prof_call *c, MPI_Count count, MPI_Datatype type, int dst, MPI_Win win,
                       enum prof_rma_kind k)
{
    uint64_t bytes = prof_volume(c, count, type);
    rma_exit(c, k, win, dst, bytes, 0, bytes);
}

void prof_exit_rma_get(struct prof_call *c, MPI_Count count, MPI_Datatype type, int src, MPI_Win win)
{
    uint64_t bytes = prof_volume(c, count, type);
    rma_exit(c, PROF_RMA_GET, win, src, 0, bytes, bytes);
}

void prof_exit_rma_get_accumulate(struct prof_call *c, MPI_Count scount, MPI_Datatype stype,
                                  MPI_Count rcount, MPI_Datatype rtype, int dst, MPI_Win win)
{
    uint64_t sent = prof_volume(c, scount, stype);
    rma_exit(c, PROF_RMA_GET_ACC, win, dst, sent, prof_volume(c, rcount, rtype), sent);
}

void prof_exit_rma_fetch_and_op(struct prof_call *c, MPI_Datatype type, int dst, MPI_Win win)
{
    uint64_t one = prof_volume(c, 1, type);
    rma_exit(c, PROF_RMA_FOP, win, dst, one, one, one);
}

/* Compare_and_swap reads the origin and the compare buffers. */
void prof_exit_rma_compare_and_swap(struct prof_call *c, MPI_Datatype type, int dst, MPI_Win win)
{
    uint64_t one = prof_volume(c, 1, type);
    rma_exit(c, PROF_RMA_CAS, win, dst, 2 * one, one, one);
}

void prof_exit_rma_epoch(struct prof_call *c, MPI_Win win, int target, enum prof_rma_kind k)
{
    if (k == PROF_RMA_FENCE)     /* a blocking collective on the window */
        prof_emit_call(prof_events.coll_leave, c, 0, 0);
    rma_end(c, k, win, target, 0, exit_time(c), 0);
}

void prof_exit_rma_lock(struct prof_call *c, int lock, int target, MPI_Win win)
{
    rma_end(c, PROF_RMA_LOCK, win, target, 0, exit_time(c), lock);
}

void prof_exit_rma_create(struct prof_call *c, MPI_Win *win)
{
    rma_end(c, PROF_RMA_CREATE, *win, PROF_RMA_NOTARGET, 0, exit_time(c), 0);
}

void prof_exit_rma_free(struct prof_call *c)
{
    rma_end(c, PROF_RMA_FREE, MPI_WIN_NULL, PROF_RMA_NOTARGET, 0, exit_time(c), 0);
}

/* The end of an MPI-IO call: its event to the modules (h: file_access,
 * file_end or file_op), then done. */
static void io_end(struct prof_call *c, const prof_ev_io_fn *h, struct prof_ev_io ev)
{
    ev.c = c;
    prof_emit(h, &ev);
    prof_exit_done(c);
}

void prof_exit_io_write(struct prof_call *c, MPI_Count count, MPI_Datatype type, MPI_File fh, enum prof_io_access a)
{
    uint64_t bytes = prof_volume(c, count, type);
    io_end(c, prof_events.file_access,
            (struct prof_ev_io){ .fh = fh, .dir = PROF_IO_WRITE, .access = a, .bytes = bytes,
                                 .ticks = exit_volume(c, bytes, 0) });
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
void prof_exit_io_read(struct prof_call *c, MPI_Count count, MPI_Datatype type, MPI_Status *status, MPI_File fh,
                       enum prof_io_access a)
{
    uint64_t posted = prof_volume(c, count, type), bytes = posted ? prof_status_bytes(status, posted) : 0;
    io_end(c, prof_events.file_access,
            (struct prof_ev_io){ .fh = fh, .dir = PROF_IO_READ, .access = a, .bytes = bytes,
                                 .ticks = exit_volume(c, 0, bytes) });
}

void prof_exit_io_end(struct prof_call *c, MPI_File fh, enum prof_io_dir d)
{
    io_end(c, prof_events.file_end, (struct prof_ev_io){ .fh = fh, .dir = d, .ticks = exit_time(c) });
}

void prof_exit_io_op(struct prof_call *c, MPI_File fh, enum prof_io_op op)
{
    io_end(c, prof_events.file_op, (struct prof_ev_io){ .fh = fh, .op = op, .ticks = exit_time(c) });
}

void prof_exit_io_open(struct prof_call *c, MPI_File *fh)
{
    prof_exit_io_op(c, *fh, PROF_IO_OPEN);
}

void prof_exit_io_close(struct prof_call *c)
{
    prof_exit_io_op(c, MPI_FILE_NULL, PROF_IO_CLOSE);
}
