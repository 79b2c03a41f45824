/* request.h: what the profiler knows about a pending request: the call
 * site that posted it, its partner and traffic, so that the Wait/Test call
 * completing it can attribute partners (MPI_ANY_SOURCE resolved from the
 * status) and receive-wait time. Persistent requests stay until
 * MPI_Request_free; each MPI_Start counts their traffic again.
 *
 * Process-wide and lock-free (a request may complete on another thread
 * than the one that posted it), bounded at PROF_REQUEST_SLOTS live requests
 * (fewer when many handles hash close together); requests beyond that are
 * counted (prof_request_untracked) and reported. */
#ifndef PROF_REQUEST_H
#define PROF_REQUEST_H

#include <stdint.h>
#include <mpi.h>
#include "record.h"

#define PROF_REQUEST_SLOTS 16384u   /* power of two */

struct prof_thread;

struct prof_request {
    uint64_t owner;                /* serial of the thread whose table holds rec (thread.h) */
    struct prof_record *rec;       /* the call site that posted the request */
    MPI_Comm comm;                 /* to translate an MPI_ANY_SOURCE status */
    uint64_t comm_serial;          /* comm's serial when posted (handles.h), kept for MPI_ANY_SOURCE with
                                      partners on and for the modules' msg_received (events.h); else 0 */
    int peer;                      /* world rank, MPI_ANY_SOURCE, or MPI_PROC_NULL */
    int local, tag;                /* the peer and tag as given (the tokens, tokens.c) */
    int active;                    /* persistent: started and not yet completed; atomic */
    struct prof_traffic tr;        /* per start; bytes_recv is the posted size */
    /* Where a receive's arrival goes (bytes, message, partner): the posting
     * call's record, or for a persistent request the record of the MPI_Start
     * that started it (NULL until a profiled start); its time share there. */
    uint64_t arr_owner;            /* serial of the thread whose table holds arr_rec */
    struct prof_record *arr_rec;
    uint64_t arr_ticks;
    /* A persistent collective: its init's function (enum prof_fn; -1: not
     * one) and root as given; comm is its communicator. */
    int coll_fn, coll_root;
    /* Flags, last and a byte each: the map's slots (request.c) stay as small
     * as before the persistent collectives' two fields, and so the copies in
     * and out of them on every nonblocking call. no_status: a receive whose
     * completion status says nothing of it (MPI_Isendrecv: MPICH 4.0.2
     * leaves that status unset): its posted size, peer and tag count
     * instead. */
    unsigned char is_recv, persistent, no_status;
};

/* prof_request_put: remember req (thread safe; hot for nonblocking calls);
 * 0 when it does not fit (counted untracked), else 1.
 * An older entry of the same handle is replaced, except that non-persistent
 * entries of one handle stack (a shared, already complete request). */
int prof_request_put(MPI_Request req, const struct prof_request *info);
/* prof_request_get: copy what is known of req into info; 0 when unknown. */
int prof_request_get(MPI_Request req, struct prof_request *info);
/* prof_request_take: copy what is known of req into info and remove it from
 * the map, except a persistent entry when !all (it stays, and 1 is
 * returned); 2 when removed, 0 when unknown. Thread safe: of two threads
 * taking one entry, one gets it. */
int prof_request_take(MPI_Request req, struct prof_request *info, int all);
/* prof_request_activate: a persistent req was started (on 1: its arrival
 * record is forgotten until prof_request_started) or completed. */
void prof_request_activate(MPI_Request req, int on);
/* prof_request_started: the profiled MPI_Start(all) of req on thread owner
 * holds its arrival in rec, with ticks of its time. Called by the starting
 * thread, which owns the request until the application hands it on. */
void prof_request_started(MPI_Request req, uint64_t owner, struct prof_record *rec, uint64_t ticks);
/* prof_request_any: 0 when no request was ever put in the map (a cheap
 * early out for programs without tracked requests). */
int prof_request_any(void);
/* prof_request_untracked: requests that did not fit. */
uint64_t prof_request_untracked(void);

#endif
