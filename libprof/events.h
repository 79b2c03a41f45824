/* events.h: what the core tells the analysis modules (module.h), and how
 * (hot). The point-to-point hooks (p2p.c) emit, for every message a
 * profiled call counts:
 *
 *   msg_sent      a send (blocking, nonblocking, persistent start, the send
 *                 half of a send-receive), when it is posted;
 *   msg_received  a receive, when it completes (blocking: at its return;
 *                 nonblocking: in the Wait/Test call that completes it),
 *                 with the bytes its status says arrived.
 *
 * Each event is an array of the enabled modules' handlers, filled once at
 * MPI_Init (modules.c) and read without a lock; with no handler the emit
 * is one load and one predictable branch. A handler runs on the calling
 * thread, inside the MPI call's wrapper: it must not block or call MPI
 * but for queries (PMPI_Comm_get_name, ...). */
#ifndef PROF_EVENTS_H
#define PROF_EVENTS_H

#include <stdint.h>
#include <mpi.h>
#include "handles.h"

#define PROF_MODULES_MAX 16

struct prof_ev_msg {
    MPI_Comm comm;      /* the message's communicator; MPI_COMM_NULL when the call does not name it (MPI_Mrecv) */
    uint64_t comm_serial;   /* which communicator: never reused (handles.h); a receive completed after
                               its communicator was freed has a comm that prof_comm_info_of no longer finds */
    int peer;           /* the partner's MPI_COMM_WORLD rank; -1 when it cannot be told (partners off) */
    int tag;            /* the message's tag (a wildcard receive's as given) */
    uint64_t bytes;     /* a send: the bytes sent; a receive: what arrived */
};

typedef void (*prof_ev_msg_fn)(const struct prof_ev_msg *ev);

/* The handlers of each event, NULL-terminated. */
struct prof_events {
    prof_ev_msg_fn msg_sent[PROF_MODULES_MAX + 1];
    prof_ev_msg_fn msg_received[PROF_MODULES_MAX + 1];
};

extern struct prof_events prof_events;

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
    for (; *h; h++)
        (*h)(&ev);
}

/* prof_events_want_comm: whether a request must keep its communicator's
 * serial until it completes or starts (a module takes messages). */
static inline int prof_events_want_comm(void)
{
    return prof_events.msg_sent[0] != NULL || prof_events.msg_received[0] != NULL;
}

#endif
