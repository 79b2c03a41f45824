/* p2p.c: point-to-point hooks (hot): traffic, partners and receive wait.
 *
 * A blocking call records its partner (the peer as a MPI_COMM_WORLD rank;
 * MPI_ANY_SOURCE resolved from the status) with the call's time. A
 * nonblocking or persistent call leaves a note in the request map
 * (request.c); the Wait/Test call that completes the request then records
 * the partner on its own site, splitting its time between the requests it
 * completed, and gives a receive's share back to the posting site as
 * receive wait (and its partner, if the posting site had MPI_ANY_SOURCE). */
#include "config.h"
#include "prof.h"
#include "request.h"

/* A message to or from peer: none for MPI_PROC_NULL or a failed call. */
static inline uint64_t p2p_msgs(const struct prof_call *c, int peer)
{
    return c->rc == MPI_SUCCESS && peer != MPI_PROC_NULL;
}

static inline uint64_t p2p_volume(struct prof_call *c, int count, MPI_Datatype type, int peer)
{
    return peer == MPI_PROC_NULL ? 0 : prof_volume(c, count, type);
}

static inline void partner(struct prof_record *r, int world, uint64_t bytes, uint64_t ticks)
{
    if (prof_config.partners && world >= 0)
        prof_partners_add(&r->partners, world, 1, bytes, ticks);
}

/* The world rank of a point-to-point peer; MPI_ANY_SOURCE is resolved from
 * the status of a completed receive. */
static int world_peer(MPI_Comm comm, int peer, const MPI_Status *st)
{
    if (peer == MPI_ANY_SOURCE && st && st != MPI_STATUS_IGNORE)
        peer = st->MPI_SOURCE;
    return prof_comm_world_rank(comm, peer);
}

static void track(struct prof_call *c, MPI_Request req, struct prof_record *r, MPI_Comm comm, int peer,
                  int is_recv, int persistent, const struct prof_traffic *tr)
{
    struct prof_request info = { c->th->serial, r, comm, peer == MPI_ANY_SOURCE ? prof_comm_serial(comm) : 0, peer, is_recv, persistent, *tr };
    if (peer >= 0)
        info.peer = prof_comm_world_rank(comm, peer);
    prof_request_put(req, &info);
}

void prof_exit_send(struct prof_call *c, int count, MPI_Datatype type, int dst, MPI_Comm comm, MPI_Request *req)
{
    struct prof_traffic tr = { p2p_volume(c, count, type, dst), 0, p2p_msgs(c, dst), 0 };
    uint64_t dt;
    struct prof_record *r = prof_exit_record(c, &tr, &dt);
    if (tr.msgs_sent)
        partner(r, prof_comm_world_rank(comm, dst), tr.bytes_sent, dt);
    if (req && c->rc == MPI_SUCCESS)
        track(c, *req, r, comm, dst, 0, 0, &tr);
    prof_exit_done(c);
}

void prof_exit_recv(struct prof_call *c, int count, MPI_Datatype type, int src, MPI_Comm comm,
                    MPI_Status *status, MPI_Request *req)
{
    struct prof_traffic tr = { 0, p2p_volume(c, count, type, src), 0, p2p_msgs(c, src) };
    uint64_t dt;
    struct prof_record *r = prof_exit_record(c, &tr, &dt);
    if (req) {
        if (c->rc == MPI_SUCCESS)
            track(c, *req, r, comm, src, 1, 0, &tr);
        if (tr.msgs_recv && src != MPI_ANY_SOURCE)   /* else known at completion */
            partner(r, prof_comm_world_rank(comm, src), tr.bytes_recv, dt);
    } else if (tr.msgs_recv) {
        r->s.recv_wait_ticks += dt;
        partner(r, world_peer(comm, src, status), tr.bytes_recv, dt);
    }
    prof_exit_done(c);
}

/* MPI_Mrecv/MPI_Imrecv: the message handle does not name its communicator,
 * so the partner is not recorded; traffic and receive wait are. A blocking
 * receive of MPI_MESSAGE_NO_PROC (status source MPI_PROC_NULL) moves nothing. */
void prof_exit_recv_matched(struct prof_call *c, int count, MPI_Datatype type, MPI_Status *status, MPI_Request *req)
{
    int src = status && status != MPI_STATUS_IGNORE && c->rc == MPI_SUCCESS ? status->MPI_SOURCE : 0;
    struct prof_traffic tr = { 0, p2p_volume(c, count, type, src), 0, p2p_msgs(c, src) };
    uint64_t dt;
    struct prof_record *r = prof_exit_record(c, &tr, &dt);
    if (req) {
        if (c->rc == MPI_SUCCESS)
            track(c, *req, r, MPI_COMM_NULL, MPI_PROC_NULL, 1, 0, &tr);
    } else if (tr.msgs_recv) {
        r->s.recv_wait_ticks += dt;
    }
    prof_exit_done(c);
}

void prof_exit_sendrecv(struct prof_call *c, int scount, MPI_Datatype stype, int dst,
                        int rcount, MPI_Datatype rtype, int src, MPI_Comm comm, MPI_Status *status)
{
    struct prof_traffic tr = { p2p_volume(c, scount, stype, dst), p2p_volume(c, rcount, rtype, src),
                               p2p_msgs(c, dst), p2p_msgs(c, src) };
    uint64_t dt;
    struct prof_record *r = prof_exit_record(c, &tr, &dt);
    uint64_t peers = tr.msgs_sent + tr.msgs_recv;
    if (tr.msgs_sent)
        partner(r, prof_comm_world_rank(comm, dst), tr.bytes_sent, dt / peers);
    if (tr.msgs_recv) {
        r->s.recv_wait_ticks += dt;
        partner(r, world_peer(comm, src, status), tr.bytes_recv, dt / peers);
    }
    prof_exit_done(c);
}

void prof_exit_sendrecv_replace(struct prof_call *c, int count, MPI_Datatype type, int dst, int src,
                                MPI_Comm comm, MPI_Status *status)
{
    prof_exit_sendrecv(c, count, type, dst, count, type, src, comm, status);
}

/* Persistent requests: the traffic belongs to each MPI_Start, not to the
 * MPI_*_init call that describes it. */
static void persistent(struct prof_call *c, const struct prof_traffic *tr, MPI_Comm comm, int peer, int is_recv,
                       MPI_Request *req)
{
    struct prof_traffic none = { 0 };
    uint64_t dt;
    struct prof_record *r = prof_exit_record(c, &none, &dt);
    if (c->rc == MPI_SUCCESS)
        track(c, *req, r, comm, peer, is_recv, 1, tr);
    prof_exit_done(c);
}

void prof_exit_send_init(struct prof_call *c, int count, MPI_Datatype type, int dst, MPI_Comm comm, MPI_Request *req)
{
    struct prof_traffic tr = { p2p_volume(c, count, type, dst), 0, p2p_msgs(c, dst), 0 };
    persistent(c, &tr, comm, dst, 0, req);
}

void prof_exit_recv_init(struct prof_call *c, int count, MPI_Datatype type, int src, MPI_Comm comm, MPI_Request *req)
{
    struct prof_traffic tr = { 0, p2p_volume(c, count, type, src), 0, p2p_msgs(c, src) };
    persistent(c, &tr, comm, src, 1, req);
}

void prof_exit_startall(struct prof_call *c, int n, MPI_Request *reqs)
{
    struct prof_traffic sum = { 0 };
    struct prof_request info;
    for (int i = 0; c->rc == MPI_SUCCESS && i < n; i++)
        if (prof_request_get(reqs[i], &info)) {
            sum.bytes_sent += info.tr.bytes_sent;
            sum.bytes_recv += info.tr.bytes_recv;
            sum.msgs_sent += info.tr.msgs_sent;
            sum.msgs_recv += info.tr.msgs_recv;
        }
    uint64_t dt;
    struct prof_record *r = prof_exit_record(c, &sum, &dt);
    uint64_t msgs = sum.msgs_sent + sum.msgs_recv;
    for (int i = 0; msgs && i < n; i++)
        if (prof_request_get(reqs[i], &info) && info.peer >= 0)
            partner(r, info.peer, info.tr.bytes_sent + info.tr.bytes_recv, dt / msgs);
    prof_exit_done(c);
}

void prof_exit_start(struct prof_call *c, MPI_Request *req)
{
    prof_exit_startall(c, 1, req);
}

void prof_enter_request_free(struct prof_call *c, MPI_Request *req)
{
    (void)c;
    prof_request_forget(*req);
}

/* --- completion: Wait/Test variants ---------------------------------------- */

MPI_Status *prof_statuses(struct prof_call *c, MPI_Status *statuses, int n)
{
    struct prof_thread *th = c->th;
    if (statuses != MPI_STATUSES_IGNORE)
        return statuses;
    if (n <= 0 || prof_thread_room((void **)&th->statuses, &th->statuses_cap, n, sizeof *th->statuses) != 0)
        return MPI_STATUSES_IGNORE;
    return th->statuses;
}

/* Keep the handles: completion sets them to MPI_REQUEST_NULL. */
void prof_enter_waitn(struct prof_call *c, int n, MPI_Request *reqs)
{
    struct prof_thread *th = c->th;
    th->nsaved = 0;
    if (n > 0 && prof_thread_room((void **)&th->saved, &th->saved_cap, n, sizeof *th->saved) == 0) {
        for (int i = 0; i < n; i++)
            th->saved[i] = reqs[i];
        th->nsaved = n;
    }
}

void prof_enter_wait(struct prof_call *c, MPI_Request *req)
{
    prof_enter_waitn(c, 1, req);
}

/* The requests at indices idx[0..n-1] (statuses st[k], or none) completed. */
static void completed(struct prof_call *c, int n, const int *idx, const MPI_Status *st, int st_by_k)
{
    struct prof_thread *th = c->th;
    struct prof_traffic none = { 0 };
    uint64_t dt;
    struct prof_record *r = prof_exit_record(c, &none, &dt);
    uint64_t share = n > 0 ? dt / (uint64_t)n : 0;
    for (int k = 0; c->rc == MPI_SUCCESS && k < n; k++) {
        struct prof_request info;
        int i = idx ? idx[k] : k;
        if (i < 0 || i >= th->nsaved || th->saved[i] == MPI_REQUEST_NULL ||
            !prof_request_complete(th->saved[i], &info))
            continue;
        const MPI_Status *s = st == MPI_STATUSES_IGNORE ? NULL : &st[st_by_k ? k : i];
        int peer = info.peer;
        if (peer == MPI_ANY_SOURCE && s)
            peer = prof_comm_world_rank_of(info.comm, info.comm_serial, s->MPI_SOURCE);
        partner(r, peer, info.tr.bytes_sent + info.tr.bytes_recv, share);
        if (info.owner != th->serial) {
            th->foreign++;
            continue;
        }
        if (info.is_recv)
            info.rec->s.recv_wait_ticks += share;
        if (info.peer == MPI_ANY_SOURCE)
            partner(info.rec, peer, info.tr.bytes_recv, 0);
    }
    prof_exit_done(c);
}

static const int first_only[1] = { 0 };

void prof_exit_wait(struct prof_call *c, MPI_Status *status)
{
    completed(c, 1, first_only, status, 1);
}

void prof_exit_test(struct prof_call *c, int *flag, MPI_Status *status)
{
    completed(c, c->rc == MPI_SUCCESS && *flag ? 1 : 0, first_only, status, 1);
}

void prof_exit_waitall(struct prof_call *c, int n, MPI_Status *statuses)
{
    completed(c, n, NULL, statuses, 0);
}

void prof_exit_testall(struct prof_call *c, int n, int *flag, MPI_Status *statuses)
{
    completed(c, c->rc == MPI_SUCCESS && *flag ? n : 0, NULL, statuses, 0);
}

void prof_exit_waitany(struct prof_call *c, int *index, MPI_Status *status)
{
    int done = c->rc == MPI_SUCCESS && *index != MPI_UNDEFINED;
    completed(c, done, index, status, 1);
}

void prof_exit_testany(struct prof_call *c, int *index, int *flag, MPI_Status *status)
{
    int done = c->rc == MPI_SUCCESS && *flag && *index != MPI_UNDEFINED;
    completed(c, done, index, status, 1);
}

void prof_exit_waitsome(struct prof_call *c, int *outcount, int *indices, MPI_Status *statuses)
{
    int done = c->rc == MPI_SUCCESS && *outcount != MPI_UNDEFINED ? *outcount : 0;
    completed(c, done, indices, statuses, 1);
}
