/* prof.h: the only header the generated wrappers include (hot).
 *
 * A wrapper does:   if (!prof_enter(&c, FN_x, site)) return PMPI_x(...);
 *                   [pre hook]  c.rc = PMPI_x(...);  post hook or prof_exit
 * prof_enter says no before MPI_Init, after MPI_Finalize, for functions
 * MPIPROF_FUNCTIONS leaves out, and for MPI calls made from inside another
 * wrapped call (the MPI library calling itself): those are not counted. A
 * call is inside another when its frame is below that call's struct
 * prof_call on the stack, so a call left by longjmp is not "inside" forever. */
#ifndef PROF_H
#define PROF_H

#include <stdbool.h>
#include <stdint.h>
#include <libunwind.h>
#include <mpi.h>
#include "around.h"
#include "clock.h"
#include "config.h"
#include "events.h"
#include "fn_table.h"
#include "region.h"
#include "site.h"
#include "thread.h"
#include "via.h"

#define PROF_EXPORT __attribute__((visibility("default")))
/* Inlined into the MPI_ entry point, so that the call stack walked at
 * depth > 1 starts right below the user's frame (site.c). */
#define PROF_INLINE static inline __attribute__((always_inline))
#define PROF_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define PROF_LIKELY(x) __builtin_expect(!!(x), 1)
/* The call site: the return address into the caller of the MPI_ entry
 * point, or with MPICH the user's call of a use mpi_f08 procedure that
 * reached this entry through the library's helper (site.h). */
#ifdef MPICH
#define PROF_SITE() (PROF_UNLIKELY(prof_f08_site != NULL) ? prof_f08_site : __builtin_return_address(0))
#else
#define PROF_SITE() __builtin_return_address(0)
#endif

struct prof_call {
    struct prof_thread *th;
    uint64_t t0;
    void *site;
    enum prof_fn fn;
    int rc;
    uint32_t nframes;      /* the call stack, captured before the clock (depth > 1, via), else the site */
    uint32_t via;          /* PROF_VIA_LIB: the site is in a library that passes MPI calls through (via.h):
                              frames[0] is it, frames[1] the first frame outside those libraries (or the
                              Python frames, python.h), then its callers; PROF_VIA_PYTHON until the
                              capture: a call from Python, frames[] then its Python frames, via 0 */
    void **frames;         /* starts: nframes return addresses in stack[], or &site */
    void *stack[PROF_MAX_DEPTH + 1 + PROF_SITE_SLACK + PROF_SITE_F08_SLACK + PROF_VIA_FRAMES];
    MPI_Status status;     /* stands in for MPI_STATUS_IGNORE when a hook reads the status */
    int rq_base, rq_n;     /* completion calls: this call's requests in th->taken (p2p.c) */
    int rq_done;           /* completion calls: requests completed, tracked or not */
    struct prof_shadow *shadow; /* freeing a handle: its shadow, from before the call to after it (shadow.c) */
    void *entry;           /* freeing a window or closing a file: what the module that follows it keeps
                              from before the call to after it (events.h) */
    struct prof_sender sender; /* a receive or probe that found a message: its sender (around.h) */
    int msg_peer;          /* MPI_Mrecv, MPI_Imrecv: its message's sender (world rank) from its probe; -1: not known */
    double m_begin, m_end; /* the model (model.c): the call's modelled start and end, */
    double m_real;         /* its real time (s), */
    uint64_t m_bytes;      /* a nonblocking collective's volume, */
    MPI_Comm m_comm;       /* and where a collective's clocks are agreed (sync and icoll hooks), */
    MPI_Request m_ireq;    /* a nonblocking collective's request (icoll hook), */
    double m_partner;      /* the partners' clock: a blocking collective's agreed end, a one-sided
                              epoch's partners' latest (model_rma.c); < 0: none */
    struct {               /* a persistent collective's init (set by its wrapper, coll.c): */
        MPI_Request *req;  /* its request, */
        MPI_Comm comm;     /* communicator */
        int root;          /* and root as given (else PROF_COLL_NOROOT) */
    } pinit;
};

/* 1 for every function being profiled between MPI_Init and MPI_Finalize. */
extern unsigned char prof_fn_on[PROF_FN_COUNT];

PROF_INLINE bool prof_enter(struct prof_call *c, enum prof_fn fn, void *site)
{
    if (PROF_UNLIKELY(!prof_fn_on[fn]))
        return false;
    struct prof_thread *th = prof_tl;
    if (PROF_UNLIKELY(th == NULL) && (th = prof_thread_attach()) == NULL)
        return false;
    uintptr_t outer = th->inside;
    if (PROF_UNLIKELY(outer != 0)) {
        /* A call from deeper in the stack than the one in progress is the
         * MPI library calling itself. Otherwise that call never returned
         * (an error handler longjmp'd or threw): the flag is stale. */
        if ((uintptr_t)__builtin_dwarf_cfa() < outer)
            return false;
        th->escaped++;
    }
    th->inside = (uintptr_t)c;
    c->th = th;
    c->fn = fn;
    c->site = site;
    c->via = prof_via_on ? prof_via_site(th, site) : PROF_VIA_NONE;
    c->frames = &c->site;
    c->nframes = 1;
    if (th->table.depth > 1 || PROF_UNLIKELY(c->via)) {
        c->t0 = prof_clock();    /* the walk's start (site.h) */
        int n = c->via == PROF_VIA_PYTHON ? 0 : unw_backtrace(c->stack, prof_site_walk(site, th->table.depth, c->via));
        c->nframes = prof_site_frames(c, n);
    } else {
        c->t0 = prof_clock();
    }
    return true;
}

/* prof_call_record: the record of the call's site (its function and call
 * stack) in the region open now, created on first use. */
static inline struct prof_record *prof_call_record(const struct prof_call *c)
{
    struct prof_table *t = &c->th->table;
    return prof_table_record(t, c->fn, prof_region_now(), c->frames, c->nframes, c->via);
}

/* prof_call_key: the record key of a call's site, or 0 when the call is
 * not profiled (c->th NULL). */
static inline uint64_t prof_call_key(const struct prof_call *c)
{
    return c->th ? prof_call_record(c)->key : 0;
}

/* prof_exit_record: end of a call that moved tr: read the clock, add the
 * call to its site's record and return the record; *dt gets the call's
 * time. The call stays "inside" until prof_exit_done. */
struct prof_record *prof_exit_record(struct prof_call *c, const struct prof_traffic *tr, uint64_t *dt);

static inline void prof_exit_done(struct prof_call *c)
{
    prof_emit_call(prof_events.call_done, c, 0, 0);
    c->th->inside = 0;
}

/* prof_exit_traffic: end of a call that moved tr. */
static inline void prof_exit_traffic(struct prof_call *c, const struct prof_traffic *tr)
{
    uint64_t dt;
    prof_exit_record(c, tr, &dt);
    prof_exit_done(c);
}

/* prof_statuses: the caller's statuses, or scratch ones for n requests when
 * it passed MPI_STATUSES_IGNORE (MPI_STATUSES_IGNORE again if no memory). */
MPI_Status *prof_statuses(struct prof_call *c, MPI_Status *statuses, int n);

/* prof_exit_volume: end of a collective, one-sided or I/O call that read
 * sent bytes from its send buffers and wrote recv to its receive buffers:
 * its record, and its size bin when it succeeded (sizes.h). */
void prof_exit_volume(struct prof_call *c, uint64_t sent, uint64_t recv);

/* prof_exit_bytes: end of a call that moved bytes but no point-to-point
 * message, and is not binned by size. */
static inline void prof_exit_bytes(struct prof_call *c, uint64_t sent, uint64_t recv)
{
    struct prof_traffic tr = { sent, recv, 0, 0 };
    prof_exit_traffic(c, &tr);
}

static inline void prof_exit(struct prof_call *c)
{
    prof_exit_bytes(c, 0, 0);
}

/* MPI_Probe, MPI_Iprobe: timed as any call, and with a module around the
 * point-to-point calls (around.h) as one (cold). */
void prof_exit_probe_around(struct prof_call *c, MPI_Comm comm, int *flag, MPI_Status *status);

static inline void prof_exit_probe(struct prof_call *c, MPI_Comm comm, int *flag, MPI_Status *status)
{
    if (PROF_UNLIKELY(prof_around_on))
        prof_exit_probe_around(c, comm, flag, status);
    else
        prof_exit(c);
}

/* The after= hooks of the sends that have around=send (every call): the
 * module around the calls finishes what it began before the send
 * (around.h: sent); a nonblocking send-receive's also notes its receive. */
static inline void prof_sent(struct prof_call *c)
{
    if (PROF_UNLIKELY(prof_around_on))
        prof_around.sent(c);
}

static inline void prof_sendrecv_posted(struct prof_call *c, MPI_Count count, MPI_Datatype type, int src, int tag,
                                        MPI_Comm comm, MPI_Request *req, int nostatus)
{
    prof_sent(c);
    prof_recv_posted(c, count, type, src, tag, comm, req, nostatus);
}

/* prof_volume: count x size of type in bytes; 0 for a failed call, an
 * empty transfer, or an invalid count. */
static inline uint64_t prof_volume(const struct prof_call *c, int64_t count, MPI_Datatype type)
{
    if (c->rc != MPI_SUCCESS || count <= 0)
        return 0;
    return (uint64_t)count * prof_dtype_size(c->th, type);
}

/* struct prof_counts: a per-rank count array of a v or w collective, int
 * (i) or, in a large-count _c variant (MPI-4.0), MPI_Count (c); the other
 * pointer is NULL. */
struct prof_counts {
    const int *i;
    const MPI_Count *c;
};

static inline struct prof_counts prof_counts_int(const int *a)
{
    return (struct prof_counts){ a, NULL };
}

static inline struct prof_counts prof_counts_big(const MPI_Count *a)
{
    return (struct prof_counts){ NULL, a };
}

static inline int64_t prof_count_at(struct prof_counts a, int k)
{
    return a.c ? a.c[k] : a.i[k];
}

/* prof_status_bytes: the bytes a completed receive or read delivered, from
 * its status (PMPI_Get_count in MPI_BYTE, then PMPI_Get_elements_x beyond
 * INT_MAX); posted when st is NULL or the status gives no figure. */
uint64_t prof_status_bytes(const MPI_Status *st, uint64_t posted);

/* Family hooks (families.def). Volumes count only successful calls; see
 * mpiprof-report(5) for each family's rule. */
void prof_exit_send(struct prof_call *c, MPI_Count count, MPI_Datatype type, int dst, int tag, MPI_Comm comm,
                    MPI_Request *req);
void prof_exit_recv(struct prof_call *c, MPI_Count count, MPI_Datatype type, int src, int tag, MPI_Comm comm,
                    MPI_Status *status, MPI_Request *req);
void prof_exit_recv_matched(struct prof_call *c, MPI_Count count, MPI_Datatype type, MPI_Status *status, MPI_Request *req);
/* The sender of a matched message, from its probe to its receive (every
 * call: before=, after=). */
void prof_message_probed(struct prof_call *c, MPI_Comm comm, MPI_Message *msg, int *flag, MPI_Status *status);
void prof_message_taken(struct prof_call *c, MPI_Message *msg);
void prof_exit_sendrecv(struct prof_call *c, MPI_Count scount, MPI_Datatype stype, int dst, int tag,
                        MPI_Count rcount, MPI_Datatype rtype, int src, int rtag, MPI_Comm comm, MPI_Status *status);
void prof_exit_sendrecv_replace(struct prof_call *c, MPI_Count count, MPI_Datatype type, int dst, int tag, int src,
                                int rtag, MPI_Comm comm, MPI_Status *status);
void prof_exit_send_init(struct prof_call *c, MPI_Count count, MPI_Datatype type, int dst, int tag, MPI_Comm comm,
                         MPI_Request *req);
void prof_exit_recv_init(struct prof_call *c, MPI_Count count, MPI_Datatype type, int src, int tag, MPI_Comm comm,
                         MPI_Request *req);
void prof_exit_isendrecv(struct prof_call *c, MPI_Count scount, MPI_Datatype stype, int dst, int tag,
                         MPI_Count rcount, MPI_Datatype rtype, int src, int rtag, MPI_Comm comm, MPI_Request *req);
void prof_exit_psend_init(struct prof_call *c, int parts, MPI_Count count, MPI_Datatype type, int dst, int tag,
                          MPI_Comm comm, MPI_Request *req);
void prof_exit_precv_init(struct prof_call *c, int parts, MPI_Count count, MPI_Datatype type, int src, int tag,
                          MPI_Comm comm, MPI_Request *req);
/* A persistent collective's init (prof_fn_coll 4) whose one run moves sent
 * and recv: no bytes now, each MPI_Start of c->pinit.req counts them and
 * starts it as a nonblocking collective (icoll_started; p2p.c). */
void prof_exit_persistent_coll(struct prof_call *c, uint64_t sent, uint64_t recv);
void prof_exit_mprobe(struct prof_call *c, MPI_Comm comm, int *flag, MPI_Status *status);
void prof_exit_start(struct prof_call *c, MPI_Request *req);
void prof_exit_startall(struct prof_call *c, int n, MPI_Request *reqs);
void prof_started1(struct prof_call *c, MPI_Request *req);
void prof_started(struct prof_call *c, int n, MPI_Request *reqs);
/* Completion (Wait/Test variants, MPI_Request_free): the before= and after=
 * hooks run on every call, profiled or not (p2p.c). */
void prof_complete_take1(struct prof_call *c, MPI_Request *req);
void prof_complete_take(struct prof_call *c, int n, MPI_Request *reqs);
void prof_complete_take_free(struct prof_call *c, MPI_Request *req);
void prof_complete_done1(struct prof_call *c, MPI_Request *req, int *flag, MPI_Status *status);
void prof_complete_done(struct prof_call *c, int n, MPI_Request *reqs, int *index, int *flag, int *outcount,
                        int *indices, MPI_Status *status, MPI_Status *statuses);
void prof_exit_complete(struct prof_call *c);

void prof_exit_coll_barrier(struct prof_call *c);
void prof_exit_coll_bcast(struct prof_call *c, MPI_Count count, MPI_Datatype type, int root, MPI_Comm comm);
void prof_exit_coll_reduce(struct prof_call *c, MPI_Count count, MPI_Datatype type, int root, MPI_Comm comm);
void prof_exit_coll_allreduce(struct prof_call *c, MPI_Count count, MPI_Datatype type);
void prof_exit_coll_reduce_scatter(struct prof_call *c, struct prof_counts rcounts, MPI_Datatype type, MPI_Comm comm);
void prof_exit_coll_reduce_scatter_block(struct prof_call *c, MPI_Count rcount, MPI_Datatype type, MPI_Comm comm);
void prof_exit_coll_gather(struct prof_call *c, const void *sbuf, MPI_Count scount, MPI_Datatype stype,
                           MPI_Count rcount, MPI_Datatype rtype, int root, MPI_Comm comm);
void prof_exit_coll_gatherv(struct prof_call *c, const void *sbuf, MPI_Count scount, MPI_Datatype stype,
                            struct prof_counts rcounts, MPI_Datatype rtype, int root, MPI_Comm comm);
void prof_exit_coll_scatter(struct prof_call *c, MPI_Count scount, MPI_Datatype stype, const void *rbuf,
                            MPI_Count rcount, MPI_Datatype rtype, int root, MPI_Comm comm);
void prof_exit_coll_scatterv(struct prof_call *c, struct prof_counts scounts, MPI_Datatype stype, const void *rbuf,
                             MPI_Count rcount, MPI_Datatype rtype, int root, MPI_Comm comm);
void prof_exit_coll_allgather(struct prof_call *c, const void *sbuf, MPI_Count scount, MPI_Datatype stype,
                              MPI_Count rcount, MPI_Datatype rtype, MPI_Comm comm);
void prof_exit_coll_allgatherv(struct prof_call *c, const void *sbuf, MPI_Count scount, MPI_Datatype stype,
                               struct prof_counts rcounts, MPI_Datatype rtype, MPI_Comm comm);
void prof_exit_coll_alltoall(struct prof_call *c, const void *sbuf, MPI_Count scount, MPI_Datatype stype,
                             MPI_Count rcount, MPI_Datatype rtype, MPI_Comm comm);
void prof_exit_coll_alltoallv(struct prof_call *c, const void *sbuf, struct prof_counts scounts, MPI_Datatype stype,
                              struct prof_counts rcounts, MPI_Datatype rtype, MPI_Comm comm);
void prof_exit_coll_alltoallw(struct prof_call *c, const void *sbuf, struct prof_counts scounts,
                              const MPI_Datatype *stypes, struct prof_counts rcounts,
                              const MPI_Datatype *rtypes, MPI_Comm comm);
void prof_exit_coll_neighbor_allgather(struct prof_call *c, MPI_Count scount, MPI_Datatype stype,
                                       MPI_Count rcount, MPI_Datatype rtype, MPI_Comm comm);
void prof_exit_coll_neighbor_allgatherv(struct prof_call *c, MPI_Count scount, MPI_Datatype stype,
                                        struct prof_counts rcounts, MPI_Datatype rtype, MPI_Comm comm);
void prof_exit_coll_neighbor_alltoall(struct prof_call *c, MPI_Count scount, MPI_Datatype stype,
                                      MPI_Count rcount, MPI_Datatype rtype, MPI_Comm comm);
void prof_exit_coll_neighbor_alltoallv(struct prof_call *c, struct prof_counts scounts, MPI_Datatype stype,
                                       struct prof_counts rcounts, MPI_Datatype rtype, MPI_Comm comm);
void prof_exit_coll_neighbor_alltoallw(struct prof_call *c, struct prof_counts scounts, const MPI_Datatype *stypes,
                                       struct prof_counts rcounts, const MPI_Datatype *rtypes, MPI_Comm comm);

/* One-sided calls (the rma_call event): the kind k of events.h, the target
 * a rank of the window's group (dst, src) or PROF_RMA_NOTARGET. Epochs are
 * timed by the model too (model_rma.c). */
void prof_exit_rma_put(struct prof_call *c, MPI_Count count, MPI_Datatype type, int dst, MPI_Win win,
                       enum prof_rma_kind k);
void prof_exit_rma_get(struct prof_call *c, MPI_Count count, MPI_Datatype type, int src, MPI_Win win);
void prof_exit_rma_get_accumulate(struct prof_call *c, MPI_Count scount, MPI_Datatype stype,
                                  MPI_Count rcount, MPI_Datatype rtype, int dst, MPI_Win win);
void prof_exit_rma_fetch_and_op(struct prof_call *c, MPI_Datatype type, int dst, MPI_Win win);
void prof_exit_rma_compare_and_swap(struct prof_call *c, MPI_Datatype type, int dst, MPI_Win win);
void prof_exit_rma_epoch(struct prof_call *c, MPI_Win win, int target, enum prof_rma_kind k);
void prof_exit_rma_lock(struct prof_call *c, int lock, int target, MPI_Win win);
void prof_exit_rma_create(struct prof_call *c, MPI_Win *win);
void prof_exit_rma_free(struct prof_call *c);
/* MPI-IO calls (the file_access, file_end and file_op events). */
void prof_exit_io_write(struct prof_call *c, MPI_Count count, MPI_Datatype type, MPI_File fh, enum prof_io_access a);
void prof_exit_io_read(struct prof_call *c, MPI_Count count, MPI_Datatype type, MPI_Status *status, MPI_File fh,
                       enum prof_io_access a);
void prof_exit_io_end(struct prof_call *c, MPI_File fh, enum prof_io_dir d);
void prof_exit_io_op(struct prof_call *c, MPI_File fh, enum prof_io_op op);
void prof_exit_io_open(struct prof_call *c, MPI_File *fh);
void prof_exit_io_close(struct prof_call *c);

/* The life of communicators, windows and files (lifecycle.c, every call,
 * profiled or not): after= hooks of the creating calls, before= and after=
 * hooks of the freeing calls, emitted as events. */
void prof_comm_created(struct prof_call *c, MPI_Comm *newcomm);
void prof_comm_freeing(struct prof_call *c, MPI_Comm *comm);
void prof_comm_freed(struct prof_call *c, MPI_Comm *comm);
void prof_win_created(struct prof_call *c, MPI_Comm comm, MPI_Win *win);
void prof_win_freeing(struct prof_call *c, MPI_Win *win);
void prof_win_freed(struct prof_call *c, MPI_Win *win);
void prof_file_opened(struct prof_call *c, MPI_Comm comm, const char *name, MPI_File *fh);
void prof_file_closing(struct prof_call *c, MPI_File *fh);
void prof_file_closed(struct prof_call *c, MPI_File *fh);

#endif
