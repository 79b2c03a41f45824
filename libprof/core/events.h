/* events.h: what the core tells the analysis modules (module.h), and how
 * (hot for messages). The hooks emit:
 *
 *   msg_sent        a point-to-point send (blocking, nonblocking,
 *                   persistent start, the send half of a send-receive),
 *                   when it is posted (p2p.c);
 *   msg_received    a receive, when it completes (blocking: at its return;
 *                   nonblocking: in the Wait/Test call that completes it),
 *                   with the bytes its status says arrived (p2p.c);
 *   comm_created, comm_freeing, comm_freed, win_created, win_freeing,
 *   win_freed, file_opened, file_closing, file_closed
 *                   a communicator's, window's or file's life: after its
 *                   creating call, before and after its freeing call, on
 *                   every call, profiled or not (lifecycle.c);
 *   rma_call        a profiled one-sided call ended: its kind, target,
 *                   origin bytes and time (hooks.c);
 *   file_access, file_end, file_op
 *                   a profiled MPI-IO read or write, the _end half of a
 *                   split collective, an open, close, sync, seek or view
 *                   ended (hooks.c);
 *   coll_enter      a profiled blocking collective (flag sync in the
 *                   wrapper tables), right before it: on a communicator,
 *                   a window (MPI_Win_fence) or a file (the collective
 *                   MPI-IO calls). Its handlers may call collectives on
 *                   a duplicate of that communicator (shadow.h): every
 *                   member makes the same call;
 *   coll_leave      then, right after it returns and before its clock is
 *                   read (so that what its handlers do is the call's
 *                   time): the larger of its sent and received bytes, for
 *                   a blocking collective on a communicator or a window
 *                   (not the collective MPI-IO calls); its handlers may
 *                   call collectives as coll_enter's may (coll.c, hooks.c);
 *   recv_posted     a nonblocking receive posted (MPI_Irecv; MPI_Isendrecv
 *                   and _replace, whose completion status may say nothing
 *                   of the receive: PROF_POST_NOSTATUS), on every call;
 *   p2p_init        a persistent send or receive described (its starts
 *                   send or post it), on every call;
 *   icoll_started   a profiled nonblocking collective on a communicator
 *                   (prof_fn_coll 3) ended, its request made; or a
 *                   profiled MPI_Start or MPI_Startall started a
 *                   persistent one (once per request);
 *   epoch           MPI_Win_post, start, complete, wait or test ended, on
 *                   every call (c->th NULL when not profiled): its
 *                   handlers may exchange messages on the window's shadow
 *                   with the partners of the epoch, who make the matching
 *                   call;
 *   call_end        a profiled call's clock was read at its end and its
 *                   record counted it (every call, hooks.c);
 *   call_volume     then, for a collective, one-sided or I/O call: the
 *                   larger of its sent and received bytes (hooks.c);
 *   p2p_end         then, for a point-to-point call (send, receive,
 *                   send-receive, probe, persistent init, start,
 *                   completion): the bytes its sends posted (p2p.c;
 *                   MPI_Probe and MPI_Iprobe only with late sender on,
 *                   whose hook they take);
 *   req_done        then, for a completion call, each request it reported
 *                   complete, tracked or not (p2p.c);
 *   msg_arrived     then each message the call waited for and found there
 *                   (a blocking receive or send-receive, a probe that
 *                   found one, a receive request completed), with its
 *                   sender's modelled clock when late sender carried it
 *                   (p2p.c);
 *   msg_waited      then, for a blocking receive or send-receive that got
 *                   a message and a blocking probe or MPI_Mprobe or
 *                   MPI_Improbe that found one: the call's wait for it
 *                   (p2p.c; its sender in c->sender, around.h);
 *   reqs_waited     then, for a completion call that completed requests:
 *                   its time, split among them (each one's part in its
 *                   th->taken entry's share, its sender there too; the
 *                   parts add up to the call, p2p.c);
 *   call_done       the profiled call is over (prof_exit_done): the last
 *                   event of every profiled call.
 *
 * Each event is an array of the enabled modules' handlers, filled once at
 * MPI_Init (modules.c) and read without a lock; with no handler the emit
 * is one load and one predictable branch. A handler runs on the calling
 * thread, inside the MPI call's wrapper: it must not block or call MPI
 * but for queries (PMPI_Comm_get_name, ...) and, in the handle events,
 * the collective duplicates every member makes at the same call. */
#ifndef PROF_EVENTS_H
#define PROF_EVENTS_H

#include <stdint.h>
#include <mpi.h>
#include "handles.h"

#define PROF_MODULES_MAX 16

struct prof_call;

/* The kinds of one-sided call (rma.txt's order: rma.c names them). */
enum prof_rma_kind {
    PROF_RMA_PUT, PROF_RMA_GET, PROF_RMA_ACC, PROF_RMA_GET_ACC, PROF_RMA_FOP, PROF_RMA_CAS,
    PROF_RMA_FENCE, PROF_RMA_PSCW, PROF_RMA_LOCK, PROF_RMA_LOCK_ALL, PROF_RMA_FLUSH,
    PROF_RMA_CREATE, PROF_RMA_FREE, PROF_RMA_KINDS
};
#define PROF_RMA_NOTARGET (-1)     /* the target of a call that names none */

/* The MPI-IO calls (io.txt's order: io.c names them): the operations, the
 * directions, and how a data access is made: individual file pointer,
 * explicit offset, shared file pointer, collective (_all), ordered,
 * nonblocking, split collective (the _begin half; the _end half adds its
 * time only). */
enum prof_io_op { PROF_IO_OPEN, PROF_IO_CLOSE, PROF_IO_SYNC, PROF_IO_SEEK, PROF_IO_VIEW, PROF_IO_OTHER, PROF_IO_OPS };
enum prof_io_dir { PROF_IO_READ, PROF_IO_WRITE };
enum prof_io_access {
    PROF_IO_INDIV, PROF_IO_AT, PROF_IO_SHARED, PROF_IO_COLL, PROF_IO_ORDERED, PROF_IO_NB, PROF_IO_SPLIT,
    PROF_IO_ACCESSES
};

struct prof_ev_msg {
    MPI_Comm comm;      /* the message's communicator; MPI_COMM_NULL when the call does not name it (MPI_Mrecv) */
    uint64_t comm_serial;   /* which communicator: never reused (handles.h); a receive completed after
                               its communicator was freed has a comm that prof_comm_info_of no longer finds */
    int peer;           /* the partner's MPI_COMM_WORLD rank; -1 when it cannot be told (partners off) */
    int tag;            /* the message's tag (a wildcard receive's as given) */
    uint64_t bytes;     /* a send: the bytes sent; a receive: what arrived */
};

typedef void (*prof_ev_msg_fn)(const struct prof_ev_msg *ev);

struct prof_ev_handle {
    struct prof_call *c;   /* the call: c->rc its result (created, freed); c->th NULL when not profiled;
                              c->entry is the freeing call's, for the module that follows the handle */
    MPI_Comm comm;         /* win_created, file_opened: the communicator it was made on; else MPI_COMM_NULL */
    const char *name;      /* file_opened: the file's name; else NULL */
    void *handle;          /* MPI_Comm *, MPI_Win * or MPI_File * */
};

typedef void (*prof_ev_handle_fn)(const struct prof_ev_handle *ev);

struct prof_ev_rma {
    struct prof_call *c;   /* the call, ended */
    MPI_Win win;           /* MPI_WIN_NULL for MPI_Win_free (c->entry: what its freeing handler kept) */
    enum prof_rma_kind kind;
    int target;            /* a rank of the window's group, or PROF_RMA_NOTARGET */
    uint64_t bytes;        /* the origin's */
    uint64_t ticks;        /* the call's time */
    int lock;              /* MPI_Win_lock's lock type; else 0 */
};

typedef void (*prof_ev_rma_fn)(const struct prof_ev_rma *ev);

struct prof_ev_io {
    struct prof_call *c;   /* the call, ended */
    MPI_File fh;           /* MPI_FILE_NULL for MPI_File_close (c->entry: what its closing handler kept) */
    enum prof_io_op op;    /* file_op */
    enum prof_io_dir dir;  /* file_access, file_end */
    enum prof_io_access access;   /* file_access */
    uint64_t bytes;        /* file_access */
    uint64_t ticks;        /* the call's time */
};

typedef void (*prof_ev_io_fn)(const struct prof_ev_io *ev);

/* Where a blocking collective runs. */
enum prof_coll_on { PROF_COLL_COMM, PROF_COLL_WIN, PROF_COLL_FILE };

struct prof_ev_coll {
    struct prof_call *c;   /* the call, entered */
    enum prof_coll_on on;  /* which of the handles below it names */
    MPI_Comm comm;
    MPI_Win win;
    MPI_File fh;
    int root;              /* a rooted collective's root as given; else PROF_COLL_NOROOT */
};

#define PROF_COLL_NOROOT (-32768)

typedef void (*prof_ev_coll_fn)(const struct prof_ev_coll *ev);

/* recv_posted, p2p_init: the call (c->rc its result; c->th NULL when not
 * profiled) and its arguments; *req the request made. */
enum { PROF_POST_STATUS = 0, PROF_POST_NOSTATUS = 1 };

struct prof_ev_post {
    struct prof_call *c;
    MPI_Count count;
    MPI_Datatype type;
    int peer, tag;
    MPI_Comm comm;
    MPI_Request *req;
    int recv;          /* p2p_init: 1 for a receive, 0 for a send */
    int nostatus;      /* recv_posted: PROF_POST_NOSTATUS or PROF_POST_STATUS */
};

typedef void (*prof_ev_post_fn)(const struct prof_ev_post *ev);

/* A nonblocking collective's start by the call c: the collective fn (c's
 * own function; for an MPI_Start of a persistent collective, the
 * function of its init), on comm, *req (both valid only when c->rc is
 * MPI_SUCCESS), with its root as given (else PROF_COLL_NOROOT). */
struct prof_ev_icoll {
    struct prof_call *c;
    int fn;                /* enum prof_fn */
    MPI_Comm comm;
    MPI_Request *req;
    int root;
};

typedef void (*prof_ev_icoll_fn)(const struct prof_ev_icoll *ev);

/* The active-target synchronization calls (MPI_Win_test is a wait whose
 * flag says whether the epoch is over), and a passive-target epoch's
 * MPI_Win_lock and MPI_Win_unlock (MPI_Win_lock_all and MPI_Win_unlock_all:
 * a shared lock on every target, target PROF_EPOCH_ALL). */
#define PROF_EPOCH_ALL (-1)
/* The targets [*lo, *hi) an epoch call on target touches in a window of n
 * ranks: all of them for PROF_EPOCH_ALL, else target alone (none when it
 * is out of range), so that a single target's lock costs O(1), not O(n). */
static inline void prof_epoch_targets(int target, int n, int *lo, int *hi)
{
    int all = target == PROF_EPOCH_ALL, in = target >= 0 && target < n;
    *lo = all ? 0 : in ? target : 0;
    *hi = all ? n : in ? target + 1 : 0;
}
enum prof_epoch_call {
    PROF_EPOCH_POST, PROF_EPOCH_START, PROF_EPOCH_COMPLETE, PROF_EPOCH_WAIT, PROF_EPOCH_LOCK, PROF_EPOCH_UNLOCK
};

struct prof_ev_epoch {
    struct prof_call *c;          /* ended: c->rc its result; c->th NULL when not profiled */
    enum prof_epoch_call call;
    MPI_Group group;              /* post, start: the group given; else MPI_GROUP_NULL */
    MPI_Win win;
    const int *flag;              /* MPI_Win_test's flag; else NULL */
    int target;                   /* lock, unlock: the target's rank in the window's group, or
                                     PROF_EPOCH_ALL */
    int lock;                     /* lock: its lock type */
};

typedef void (*prof_ev_epoch_fn)(const struct prof_ev_epoch *ev);

/* call_end (t1: its end on the profiler's clock; r: the record it was
 * counted on), call_volume and coll_leave (bytes), call_done (none). */
struct prof_record;
struct prof_ev_call {
    struct prof_call *c;
    uint64_t t1;
    uint64_t bytes;
    struct prof_record *r;
};

typedef void (*prof_ev_call_fn)(const struct prof_ev_call *ev);

/* p2p_end: sent is the bytes the call's sends posted (0 without one); req
 * the request a nonblocking send made (else MPI_REQUEST_NULL). */
struct prof_ev_p2p {
    struct prof_call *c;
    uint64_t sent;
    MPI_Request req;
};

typedef void (*prof_ev_p2p_fn)(const struct prof_ev_p2p *ev);

/* req_done: the request as the completion call got it (its handle may be
 * MPI_REQUEST_NULL by now in the program's array). */
struct prof_ev_req {
    struct prof_call *c;
    MPI_Request req;
};

typedef void (*prof_ev_req_fn)(const struct prof_ev_req *ev);

/* msg_arrived: sent is the sender's modelled clock at the send (< 0: not
 * known), bytes what arrived, src the sender's MPI_COMM_WORLD rank (-1:
 * not known: a probe's, a matched receive's). */
struct prof_ev_arrival {
    struct prof_call *c;
    double sent;
    uint64_t bytes;
    int src;
};

typedef void (*prof_ev_arrival_fn)(const struct prof_ev_arrival *ev);

/* msg_waited, reqs_waited. Only with a module around the
 * point-to-point calls (around.h), which set the senders. */
struct prof_record;
struct prof_ev_wait {
    struct prof_call *c;
    struct prof_record *r;        /* the call's record */
    int peer;                     /* the partner's MPI_COMM_WORLD rank (< 0: not known) */
    uint64_t ticks;               /* msg_waited: the wait; reqs_waited: the call's time */
    uint64_t bytes;               /* msg_waited: the bytes that arrived (a probe: 0) */
};

typedef void (*prof_ev_wait_fn)(const struct prof_ev_wait *ev);

/* Every event: its handler type and name, for struct prof_events, struct
 * prof_module and modules.c. */
#define PROF_EVENTS(X)                                                                                 \
    X(prof_ev_msg_fn, msg_sent) X(prof_ev_msg_fn, msg_received)                                       \
    X(prof_ev_handle_fn, comm_created) X(prof_ev_handle_fn, comm_freeing)                             \
    X(prof_ev_handle_fn, comm_freed) X(prof_ev_handle_fn, win_created) X(prof_ev_handle_fn, win_freeing) \
    X(prof_ev_handle_fn, win_freed) \
    X(prof_ev_handle_fn, file_opened) X(prof_ev_handle_fn, file_closing)                              \
    X(prof_ev_handle_fn, file_closed) X(prof_ev_rma_fn, rma_call) X(prof_ev_io_fn, file_access)       \
    X(prof_ev_io_fn, file_end) X(prof_ev_io_fn, file_op) X(prof_ev_coll_fn, coll_enter)                 \
    X(prof_ev_call_fn, coll_leave)                                                                   \
    X(prof_ev_post_fn, recv_posted) X(prof_ev_post_fn, p2p_init)                                     \
    X(prof_ev_icoll_fn, icoll_started) X(prof_ev_epoch_fn, epoch) X(prof_ev_call_fn, call_end)         \
    X(prof_ev_call_fn, call_volume) X(prof_ev_p2p_fn, p2p_end) X(prof_ev_req_fn, req_done)             \
    X(prof_ev_arrival_fn, msg_arrived) X(prof_ev_wait_fn, msg_waited) X(prof_ev_wait_fn, reqs_waited) \
    X(prof_ev_call_fn, call_done)

/* The handlers of each event, NULL-terminated. */
#define PROF_EVENT_ARRAY(type, name) type name[PROF_MODULES_MAX + 1];
struct prof_events {
    PROF_EVENTS(PROF_EVENT_ARRAY)
};
#undef PROF_EVENT_ARRAY

extern struct prof_events prof_events;

/* prof_events_p2p: some module takes msg_sent, msg_received, p2p_end,
 * msg_arrived or msg_waited (set with prof_events at MPI_Init): the
 * blocking send and receive hooks test it once before those events. */
extern int prof_events_p2p;

/* prof_emit: ev (a pointer) to the handlers h, an array of prof_events. */
#define prof_emit(h, ev)                    \
    do {                                    \
        for (__typeof__(&(h)[0]) h_ = (h); *h_; h_++) \
            (*h_)(ev);                      \
    } while (0)

/* prof_emit_msg: a message counted by a profiled call (any thread), to
 * the handlers h (prof_events.msg_sent or .msg_received). serial: the
 * communicator's, or 0 to have it looked up (comm still valid). */
static inline void prof_emit_msg(const prof_ev_msg_fn *h, MPI_Comm comm, uint64_t serial, int peer, int tag,
                                 uint64_t bytes)
{
    if (__builtin_expect(h[0] == NULL, 1))
        return;
    struct prof_ev_msg ev = { comm, serial, peer, tag, bytes };
    if (!serial && comm != MPI_COMM_NULL)
        ev.comm_serial = prof_comm_info(comm)->serial;
    prof_emit(h, &ev);
}

/* prof_emit_coll, from prof_coll_comm, prof_coll_rooted, prof_coll_win
 * and prof_coll_file: coll_enter, from the wrapper of a blocking
 * collective on comm (with its root, if any), win or fh. */
static inline void prof_emit_coll(struct prof_call *c, enum prof_coll_on on, MPI_Comm comm, MPI_Win win, MPI_File fh,
                                  int root)
{
    struct prof_ev_coll ev = { c, on, comm, win, fh, root };
    prof_emit(prof_events.coll_enter, &ev);
}

static inline void prof_coll_comm(struct prof_call *c, MPI_Comm comm)
{
    if (__builtin_expect(prof_events.coll_enter[0] != NULL, 0))
        prof_emit_coll(c, PROF_COLL_COMM, comm, MPI_WIN_NULL, MPI_FILE_NULL, PROF_COLL_NOROOT);
}

static inline void prof_coll_rooted(struct prof_call *c, MPI_Comm comm, int root)
{
    if (__builtin_expect(prof_events.coll_enter[0] != NULL, 0))
        prof_emit_coll(c, PROF_COLL_COMM, comm, MPI_WIN_NULL, MPI_FILE_NULL, root);
}

static inline void prof_coll_win(struct prof_call *c, MPI_Win win)
{
    if (__builtin_expect(prof_events.coll_enter[0] != NULL, 0))
        prof_emit_coll(c, PROF_COLL_WIN, MPI_COMM_NULL, win, MPI_FILE_NULL, PROF_COLL_NOROOT);
}

static inline void prof_coll_file(struct prof_call *c, MPI_File fh)
{
    if (__builtin_expect(prof_events.coll_enter[0] != NULL, 0))
        prof_emit_coll(c, PROF_COLL_FILE, MPI_COMM_NULL, MPI_WIN_NULL, fh, PROF_COLL_NOROOT);
}

/* prof_recv_posted: recv_posted, from the after= hook of a receive (req
 * NULL: a blocking one, no event); prof_send_init, prof_recv_init:
 * p2p_init, from those of the persistent inits. */
static inline void prof_emit_post(const prof_ev_post_fn *h, struct prof_call *c, MPI_Count count, MPI_Datatype type,
                                  int peer, int tag, MPI_Comm comm, MPI_Request *req, int recv, int nostatus)
{
    if (__builtin_expect(h[0] != NULL, 0)) {
        struct prof_ev_post ev = { c, count, type, peer, tag, comm, req, recv, nostatus };
        prof_emit(h, &ev);
    }
}

static inline void prof_recv_posted(struct prof_call *c, MPI_Count count, MPI_Datatype type, int src, int tag,
                                    MPI_Comm comm, MPI_Request *req, int nostatus)
{
    if (req)
        prof_emit_post(prof_events.recv_posted, c, count, type, src, tag, comm, req, 1, nostatus);
}

static inline void prof_send_init(struct prof_call *c, MPI_Count count, MPI_Datatype type, int dst, int tag,
                                  MPI_Comm comm, MPI_Request *req)
{
    prof_emit_post(prof_events.p2p_init, c, count, type, dst, tag, comm, req, 0, PROF_POST_STATUS);
}

static inline void prof_recv_init(struct prof_call *c, MPI_Count count, MPI_Datatype type, int src, int tag,
                                  MPI_Comm comm, MPI_Request *req)
{
    prof_emit_post(prof_events.p2p_init, c, count, type, src, tag, comm, req, 1, PROF_POST_STATUS);
}

/* prof_icoll: icoll_started, from the wrapper of a nonblocking collective
 * (fn: its own) or from an MPI_Start of a persistent one (fn: its init's,
 * p2p.c). */
static inline void prof_icoll(struct prof_call *c, int fn, MPI_Comm comm, MPI_Request *req, int root)
{
    struct prof_ev_icoll ev = { c, fn, comm, req, root };
    prof_emit(prof_events.icoll_started, &ev);
}

/* prof_epoch_post, _start, _complete, _wait, _lock, _unlock: epoch, from
 * the after= hooks of MPI_Win_post, start, complete, wait and test (flag),
 * lock and unlock. */
static inline void prof_emit_epoch(struct prof_call *c, enum prof_epoch_call call, MPI_Group group, MPI_Win win,
                                   const int *flag, int target, int lock)
{
    struct prof_ev_epoch ev = { c, call, group, win, flag, target, lock };
    prof_emit(prof_events.epoch, &ev);
}

static inline void prof_epoch_post(struct prof_call *c, MPI_Group group, MPI_Win win)
{
    prof_emit_epoch(c, PROF_EPOCH_POST, group, win, NULL, 0, 0);
}

static inline void prof_epoch_start(struct prof_call *c, MPI_Group group, MPI_Win win)
{
    prof_emit_epoch(c, PROF_EPOCH_START, group, win, NULL, 0, 0);
}

static inline void prof_epoch_complete(struct prof_call *c, MPI_Win win)
{
    prof_emit_epoch(c, PROF_EPOCH_COMPLETE, MPI_GROUP_NULL, win, NULL, 0, 0);
}

static inline void prof_epoch_wait(struct prof_call *c, MPI_Win win, int *flag)
{
    prof_emit_epoch(c, PROF_EPOCH_WAIT, MPI_GROUP_NULL, win, flag, 0, 0);
}

static inline void prof_epoch_lock(struct prof_call *c, int lock, int target, MPI_Win win)
{
    prof_emit_epoch(c, PROF_EPOCH_LOCK, MPI_GROUP_NULL, win, NULL, target, lock);
}

static inline void prof_epoch_unlock(struct prof_call *c, int target, MPI_Win win)
{
    prof_emit_epoch(c, PROF_EPOCH_UNLOCK, MPI_GROUP_NULL, win, NULL, target, 0);
}

/* prof_emit_call: call_end, call_volume or call_done (h) of c. */
static inline void prof_emit_call(const prof_ev_call_fn *h, struct prof_call *c, uint64_t t1, uint64_t bytes)
{
    if (__builtin_expect(h[0] != NULL, 0)) {
        struct prof_ev_call ev = { c, t1, bytes, NULL };
        prof_emit(h, &ev);
    }
}

/* prof_emit_p2p: p2p_end of c. */
static inline void prof_emit_p2p(struct prof_call *c, uint64_t sent, MPI_Request req)
{
    if (__builtin_expect(prof_events.p2p_end[0] != NULL, 0)) {
        struct prof_ev_p2p ev = { c, sent, req };
        prof_emit(prof_events.p2p_end, &ev);
    }
}

/* prof_emit_arrival: msg_arrived of c. */
static inline void prof_emit_arrival(struct prof_call *c, double sent, uint64_t bytes, int src)
{
    if (__builtin_expect(prof_events.msg_arrived[0] != NULL, 0)) {
        struct prof_ev_arrival ev = { c, sent, bytes, src };
        prof_emit(prof_events.msg_arrived, &ev);
    }
}

/* prof_events_want_comm: whether a request must keep its communicator's
 * serial until it completes or starts (a module takes messages). */
static inline int prof_events_want_comm(void)
{
    return prof_events.msg_sent[0] != NULL || prof_events.msg_received[0] != NULL;
}

#endif
