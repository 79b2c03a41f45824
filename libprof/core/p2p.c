/* p2p.c: point-to-point hooks (hot): traffic, partners and receive wait.
 *
 * A blocking call records its partner (the peer as a MPI_COMM_WORLD rank;
 * MPI_ANY_SOURCE resolved from the status) with the call's time; a receive
 * counts the bytes its status says arrived. A nonblocking or persistent
 * call leaves a note in the request map (request.c); the Wait/Test call
 * that completes the request then records the partner on its own site,
 * splitting its time between the requests it completed, and gives a
 * receive's share back to the posting site as receive wait. A receive's
 * message, arrived bytes and partner go to the posting call's record (for
 * a persistent request, the MPI_Start's) when it completes, on every
 * completion call, profiled or not: a cancelled receive counts nothing.
 * With a module around these calls (around.h), a received message's
 * partner is also named by its sending site, and the waits go to the
 * module (msg_waited, reqs_waited). */
#include "config.h"
#include "prof.h"
#include "request.h"

/* A message to or from peer: none for MPI_PROC_NULL or a failed call. */
static inline uint64_t p2p_msgs(const struct prof_call *c, int peer)
{
    return c->rc == MPI_SUCCESS && peer != MPI_PROC_NULL;
}

static inline uint64_t p2p_volume(struct prof_call *c, MPI_Count count, MPI_Datatype type, int peer)
{
    return peer == MPI_PROC_NULL ? 0 : prof_volume(c, count, type);
}

/* The size bin of a call that sent or received messages (sizes.h) of th's
 * function fn: by the larger side, its bytes both sides. */
static inline void sized(struct prof_thread *th, uint32_t fn, const struct prof_traffic *tr, uint64_t dt)
{
    if (tr->msgs_sent || tr->msgs_recv)
        prof_sizes_add(&th->table.sizes[fn], tr->bytes_sent > tr->bytes_recv ? tr->bytes_sent : tr->bytes_recv,
                       tr->bytes_sent + tr->bytes_recv, dt);
}

/* One message with the partner of world rank world, sent by the site key
 * (0: not known). */
static inline void partner(struct prof_record *r, int world, uint64_t key, uint64_t bytes, uint64_t ticks)
{
    if (prof_config.partners && world >= 0)
        prof_partners_add_from(&r->partners, world, key, 1, bytes, ticks);
}

/* The sending site of the message a call received (around.h). */
static inline uint64_t sender_key(const struct prof_sender *s)
{
    return PROF_UNLIKELY(prof_around_on) ? s->key : 0;
}

/* msg_waited: call c, whose record is r, waited ticks for a message of
 * bytes from world (< 0: not known). */
static inline void waited(struct prof_call *c, struct prof_record *r, int world, uint64_t ticks, uint64_t bytes)
{
    if (PROF_UNLIKELY(prof_events.msg_waited[0] != NULL)) {
        struct prof_ev_wait ev = { c, r, world, ticks, bytes };
        prof_emit(prof_events.msg_waited, &ev);
    }
}

/* The events of a point-to-point call that ended: p2p_end with the bytes
 * its sends posted, and msg_arrived when it received a message (from: the
 * sender's modelled clock, < 0: not known; src: its world rank, -1: not
 * known). */
static inline int p2p_wanted(void)
{
    return prof_events.p2p_end[0] != NULL || prof_events.msg_arrived[0] != NULL;
}

static inline void p2p_events(struct prof_call *c, uint64_t sent, int received, double from, uint64_t bytes,
                              int src)
{
    prof_emit_p2p(c, sent, MPI_REQUEST_NULL);
    if (received)
        prof_emit_arrival(c, from, bytes, src);
}

/* A received message's tag: its status's, when the call has one. */
static inline int msg_tag(int tag, const MPI_Status *st)
{
    return st && st != MPI_STATUS_IGNORE ? st->MPI_TAG : tag;
}

/* The world rank of a point-to-point peer; MPI_ANY_SOURCE is resolved from
 * the status of a completed receive. */
static int world_peer(MPI_Comm comm, int peer, const MPI_Status *st)
{
    if (peer == MPI_ANY_SOURCE && st && st != MPI_STATUS_IGNORE)
        peer = st->MPI_SOURCE;
    return prof_comm_world_rank(comm, peer);
}

/* The world rank of peer on comm; on MPI_COMM_NULL, peer is one already
 * (MPI_Imrecv: its probe's, prof_message_take). */
static inline int world_of(MPI_Comm comm, int peer)
{
    return comm == MPI_COMM_NULL ? peer : prof_comm_world_rank(comm, peer);
}

/* Remember a request posted (or described, persistent) by the call c whose
 * record is r and time dt; tr is its traffic with the posted receive size;
 * no_status: its completion status says nothing of the receive (request.h).
 * 0 when the map is full. */
static struct prof_request tracked(struct prof_call *c, struct prof_record *r, uint64_t dt, MPI_Comm comm, int peer,
                                   int tag, int is_recv, int persistent, int no_status, const struct prof_traffic *tr)
{
    int keep = comm != MPI_COMM_NULL &&
               ((peer == MPI_ANY_SOURCE && prof_config.partners) || ((is_recv || persistent) && prof_events_want_comm()));
    struct prof_request info = { .owner = c->th->serial, .rec = r, .comm = comm,
                                 .comm_serial = keep ? prof_comm_info(comm)->serial : 0, .peer = peer,
                                 .local = peer, .tag = tag, .tr = *tr, .arr_owner = c->th->serial,
                                 .arr_rec = persistent ? NULL : r, .arr_ticks = dt, .coll_fn = -1,
                                 .coll_root = PROF_COLL_NOROOT, .is_recv = (unsigned char)is_recv,
                                 .persistent = (unsigned char)persistent, .no_status = (unsigned char)no_status };
    if (peer >= 0)
        info.peer = world_of(comm, peer);
    return info;
}

static int track(struct prof_call *c, MPI_Request req, struct prof_record *r, uint64_t dt, MPI_Comm comm,
                 int peer, int tag, int is_recv, int persistent, int no_status, const struct prof_traffic *tr)
{
    struct prof_request info = tracked(c, r, dt, comm, peer, tag, is_recv, persistent, no_status, tr);
    return prof_request_put(req, &info);
}

/* A blocking receive of bytes from world after the call's dt ticks,
 * ticks of them this partner's share: its partner and its wait. */
static inline void received(struct prof_call *c, struct prof_record *r, int world, uint64_t bytes, uint64_t ticks,
                            uint64_t dt)
{
    partner(r, world, sender_key(&c->sender), bytes, ticks);
    waited(c, r, world, dt, bytes);
}

/* Track a nonblocking receive; one the map cannot hold (its completion
 * will not be seen) counts its posted size and known partner now. */
static void track_recv(struct prof_call *c, MPI_Request req, struct prof_record *r, uint64_t dt, MPI_Comm comm,
                       int src, int tag, int no_status, const struct prof_traffic *posted)
{
    if (c->rc != MPI_SUCCESS || track(c, req, r, dt, comm, src, tag, 1, 0, no_status, posted))
        return;
    sized(c->th, c->fn, posted, dt);
    r->s.msgs_recv += posted->msgs_recv;
    r->s.bytes_recv += posted->bytes_recv;
    if (posted->msgs_recv && src >= 0)
        partner(r, world_of(comm, src), 0, posted->bytes_recv, dt);
    if (posted->msgs_recv)
        prof_emit_msg(prof_events.msg_received, comm, 0, world_of(comm, src), tag, posted->bytes_recv);
}

void prof_exit_send(struct prof_call *c, MPI_Count count, MPI_Datatype type, int dst, int tag, MPI_Comm comm,
                    MPI_Request *req)
{
    struct prof_traffic tr = { p2p_volume(c, count, type, dst), 0, p2p_msgs(c, dst), 0 };
    uint64_t dt;
    struct prof_record *r = prof_exit_record(c, &tr, &dt);
    sized(c->th, c->fn, &tr, dt);
    int world = tr.msgs_sent ? prof_comm_world_rank(comm, dst) : -1;
    if (tr.msgs_sent)
        partner(r, world, 0, tr.bytes_sent, dt);
    if (PROF_UNLIKELY(prof_events_p2p)) {
        prof_emit_p2p(c, tr.bytes_sent, req && c->rc == MPI_SUCCESS ? *req : MPI_REQUEST_NULL);
        if (tr.msgs_sent)
            prof_emit_msg(prof_events.msg_sent, comm, 0, world, tag, tr.bytes_sent);
    }
    if (req && c->rc == MPI_SUCCESS)
        track(c, *req, r, dt, comm, dst, tag, 0, 0, 0, &tr);
    prof_exit_done(c);
}

/* A receive's traffic: a blocking one (st) what arrived; a nonblocking one
 * (req) nothing yet: *posted gets what it would count, for the completion. */
static inline struct prof_traffic recv_traffic(struct prof_call *c, MPI_Count count, MPI_Datatype type, int src,
                                        const MPI_Status *st, const MPI_Request *req, struct prof_traffic *posted)
{
    struct prof_traffic tr = { 0, p2p_volume(c, count, type, src), 0, p2p_msgs(c, src) };
    *posted = tr;
    if (req)
        return (struct prof_traffic){ 0 };
    if (tr.msgs_recv)
        tr.bytes_recv = prof_status_bytes(st, tr.bytes_recv);
    return tr;
}

void prof_exit_recv(struct prof_call *c, MPI_Count count, MPI_Datatype type, int src, int tag, MPI_Comm comm,
                    MPI_Status *status, MPI_Request *req)
{
    struct prof_traffic posted, tr = recv_traffic(c, count, type, src, status, req, &posted);
    uint64_t dt;
    struct prof_record *r = prof_exit_record(c, &tr, &dt);
    sized(c->th, c->fn, &tr, dt);
    int world = -1;
    if (req) {
        track_recv(c, *req, r, dt, comm, src, tag, 0, &posted);
    } else if (tr.msgs_recv) {
        world = world_peer(comm, src, status);
        r->s.recv_wait_ticks += dt;
        partner(r, world, sender_key(&c->sender), tr.bytes_recv, dt);
    }
    if (PROF_UNLIKELY(prof_events_p2p)) {
        p2p_events(c, tr.bytes_sent, tr.msgs_recv > 0, c->sender.sent, tr.bytes_recv, world);
        if (!req && tr.msgs_recv) {
            waited(c, r, world, dt, tr.bytes_recv);
            prof_emit_msg(prof_events.msg_received, comm, 0, world, msg_tag(tag, status), tr.bytes_recv);
        }
    }
    prof_exit_done(c);
}

/* MPI_Mprobe, MPI_Improbe (every call): the sender of the message matched,
 * for its receive (the message handle names no communicator). */
void prof_message_probed(struct prof_call *c, MPI_Comm comm, MPI_Message *msg, int *flag, MPI_Status *status)
{
    if (c->rc == MPI_SUCCESS && (!flag || *flag) && status != MPI_STATUS_IGNORE && *msg != MPI_MESSAGE_NULL &&
        *msg != MPI_MESSAGE_NO_PROC)
        prof_message_put(*msg, prof_comm_world_rank(comm, status->MPI_SOURCE));
}

/* MPI_Mrecv, MPI_Imrecv (every call): its message's sender, from its probe. */
void prof_message_taken(struct prof_call *c, MPI_Message *msg)
{
    c->msg_peer = prof_message_take(*msg);
}

/* MPI_Mrecv/MPI_Imrecv: the partner is the sender its probe found (none
 * when that probe's status was not known: not profiled, and ignored); the
 * message's communicator is not known. A receive of MPI_MESSAGE_NO_PROC
 * (status source MPI_PROC_NULL) moves nothing. */
void prof_exit_recv_matched(struct prof_call *c, MPI_Count count, MPI_Datatype type, MPI_Status *status, MPI_Request *req)
{
    int src = status && status != MPI_STATUS_IGNORE && c->rc == MPI_SUCCESS ? status->MPI_SOURCE : 0;
    struct prof_traffic posted, tr = recv_traffic(c, count, type, src, status, req, &posted);
    uint64_t dt;
    struct prof_record *r = prof_exit_record(c, &tr, &dt);
    sized(c->th, c->fn, &tr, dt);
    p2p_events(c, 0, tr.msgs_recv > 0, -1, tr.bytes_recv, -1);
    if (req) {
        track_recv(c, *req, r, dt, MPI_COMM_NULL, c->msg_peer >= 0 ? c->msg_peer : MPI_PROC_NULL, 0, 0, &posted);
    } else if (tr.msgs_recv) {
        r->s.recv_wait_ticks += dt;
        partner(r, c->msg_peer, 0, tr.bytes_recv, dt);
        prof_emit_msg(prof_events.msg_received, MPI_COMM_NULL, 0, c->msg_peer, msg_tag(MPI_ANY_TAG, status),
                      tr.bytes_recv);
    }
    prof_exit_done(c);
}

/* The record of a send-receive (blocking: status; nonblocking: req): its
 * traffic (the receive's posted one in *posted) added with its time *dt. */
static struct prof_record *sendrecv_record(struct prof_call *c, MPI_Count scount, MPI_Datatype stype, int dst,
                                           MPI_Count rcount, MPI_Datatype rtype, int src, MPI_Status *status,
                                           MPI_Request *req, struct prof_traffic *tr, struct prof_traffic *posted,
                                           uint64_t *dt)
{
    *tr = recv_traffic(c, rcount, rtype, src, status, req, posted);
    tr->bytes_sent = p2p_volume(c, scount, stype, dst);
    tr->msgs_sent = p2p_msgs(c, dst);
    struct prof_record *r = prof_exit_record(c, tr, dt);
    sized(c->th, c->fn, tr, *dt);
    return r;
}

void prof_exit_sendrecv(struct prof_call *c, MPI_Count scount, MPI_Datatype stype, int dst, int tag,
                        MPI_Count rcount, MPI_Datatype rtype, int src, int rtag, MPI_Comm comm, MPI_Status *status)
{
    struct prof_traffic posted, tr;
    uint64_t dt;
    struct prof_record *r = sendrecv_record(c, scount, stype, dst, rcount, rtype, src, status, NULL, &tr, &posted, &dt);
    int from = tr.msgs_recv ? world_peer(comm, src, status) : -1;
    p2p_events(c, tr.bytes_sent, tr.msgs_recv > 0, c->sender.sent, tr.bytes_recv, from);
    /* The time is split between the two partners; the wait before the
     * message was sent, when measured, is the receive's alone. */
    uint64_t peers = tr.msgs_sent + tr.msgs_recv;
    uint64_t late =
        prof_around_on && c->sender.eval && tr.msgs_recv && c->sender.late <= dt ? c->sender.late : 0;
    uint64_t share = peers ? (dt - late) / peers : 0;
    if (tr.msgs_sent) {
        int world = prof_comm_world_rank(comm, dst);
        partner(r, world, 0, tr.bytes_sent, share);
        prof_emit_msg(prof_events.msg_sent, comm, 0, world, tag, tr.bytes_sent);
    }
    if (tr.msgs_recv) {
        r->s.recv_wait_ticks += dt;
        received(c, r, from, tr.bytes_recv, late + share, dt);
        prof_emit_msg(prof_events.msg_received, comm, 0, from, msg_tag(rtag, status), tr.bytes_recv);
    }
    prof_exit_done(c);
}

void prof_exit_sendrecv_replace(struct prof_call *c, MPI_Count count, MPI_Datatype type, int dst, int tag, int src,
                                int rtag, MPI_Comm comm, MPI_Status *status)
{
    prof_exit_sendrecv(c, count, type, dst, tag, count, type, src, rtag, comm, status);
}

/* MPI_Isendrecv, MPI_Isendrecv_replace: the send counts now, as by
 * MPI_Isend; the receive at completion, as by MPI_Irecv (the request is
 * tracked as a receive), but with its posted size, peer and tag: MPICH
 * 4.0.2 leaves the status of the request unset. */
void prof_exit_isendrecv(struct prof_call *c, MPI_Count scount, MPI_Datatype stype, int dst, int tag,
                         MPI_Count rcount, MPI_Datatype rtype, int src, int rtag, MPI_Comm comm, MPI_Request *req)
{
    struct prof_traffic posted, tr;
    uint64_t dt;
    struct prof_record *r = sendrecv_record(c, scount, stype, dst, rcount, rtype, src, NULL, req, &tr, &posted, &dt);
    prof_emit_p2p(c, tr.bytes_sent, MPI_REQUEST_NULL);
    if (tr.msgs_sent) {
        int world = prof_comm_world_rank(comm, dst);
        partner(r, world, 0, tr.bytes_sent, dt);
        prof_emit_msg(prof_events.msg_sent, comm, 0, world, tag, tr.bytes_sent);
    }
    track_recv(c, *req, r, dt, comm, src, rtag, 1, &posted);
    prof_exit_done(c);
}

/* Persistent requests: the traffic belongs to each MPI_Start, not to the
 * MPI_*_init call that describes it. */
static void persistent(struct prof_call *c, const struct prof_traffic *tr, MPI_Comm comm, int peer, int tag,
                       int is_recv, MPI_Request *req)
{
    struct prof_traffic none = { 0 };
    uint64_t dt;
    struct prof_record *r = prof_exit_record(c, &none, &dt);
    if (c->rc == MPI_SUCCESS) {
        struct prof_request info = tracked(c, r, dt, comm, peer, tag, is_recv, 1, 0, tr);
        if (prof_fn_coll[c->fn] == 4) {
            info.coll_fn = (int)c->fn;
            info.coll_root = c->pinit.root;
        }
        prof_request_put(*req, &info);
    }
    prof_emit_p2p(c, 0, MPI_REQUEST_NULL);
    prof_exit_done(c);
}

/* A persistent collective's init: each MPI_Start of it counts its volume,
 * and starts it as a nonblocking collective of its kind (icoll_started,
 * with the init's function, communicator and root). */
void prof_exit_persistent_coll(struct prof_call *c, uint64_t sent, uint64_t recv)
{
    struct prof_traffic tr = { sent, recv, 0, 0 };
    persistent(c, &tr, c->pinit.comm, MPI_PROC_NULL, 0, 0, c->pinit.req);
}

void prof_exit_send_init(struct prof_call *c, MPI_Count count, MPI_Datatype type, int dst, int tag, MPI_Comm comm,
                         MPI_Request *req)
{
    struct prof_traffic tr = { p2p_volume(c, count, type, dst), 0, p2p_msgs(c, dst), 0 };
    persistent(c, &tr, comm, dst, tag, 0, req);
}

void prof_exit_recv_init(struct prof_call *c, MPI_Count count, MPI_Datatype type, int src, int tag, MPI_Comm comm,
                         MPI_Request *req)
{
    struct prof_traffic tr = { 0, p2p_volume(c, count, type, src), 0, p2p_msgs(c, src) };
    persistent(c, &tr, comm, src, tag, 1, req);
}

/* Partitioned requests (MPI-4.0): persistent, their traffic all
 * partitions' (partitions x count), counted by each MPI_Start. */
void prof_exit_psend_init(struct prof_call *c, int parts, MPI_Count count, MPI_Datatype type, int dst, int tag,
                          MPI_Comm comm, MPI_Request *req)
{
    prof_exit_send_init(c, (MPI_Count)parts * count, type, dst, tag, comm, req);
}

void prof_exit_precv_init(struct prof_call *c, int parts, MPI_Count count, MPI_Datatype type, int src, int tag,
                          MPI_Comm comm, MPI_Request *req)
{
    prof_exit_recv_init(c, (MPI_Count)parts * count, type, src, tag, comm, req);
}

/* Whether a probe found a message (not MPI_PROC_NULL's empty one). */
static int probed(const struct prof_call *c, const int *flag, const MPI_Status *status)
{
    return c->rc == MPI_SUCCESS && (!flag || *flag) && status->MPI_SOURCE != MPI_PROC_NULL;
}

/* MPI_Mprobe, MPI_Improbe: a matched message's wait (msg_waited, its
 * sender's world rank the partner); the model: the message is there when
 * it arrived (its token popped here). */
void prof_exit_mprobe(struct prof_call *c, MPI_Comm comm, int *flag, MPI_Status *status)
{
    uint64_t dt;
    struct prof_traffic none = { 0 };
    struct prof_record *r = prof_exit_record(c, &none, &dt);
    int got = probed(c, flag, status);
    if (got)
        waited(c, r, prof_comm_world_rank(comm, status->MPI_SOURCE), dt, 0);
    if (PROF_UNLIKELY(p2p_wanted()))
        p2p_events(c, 0, got, c->sender.sent, got ? prof_status_bytes(status, 0) : 0, -1);
    prof_exit_done(c);
}

/* MPI_Probe, MPI_Iprobe with a module around them (late sender, the
 * model): MPI_Probe's wait for the message it found (msg_waited); under the
 * model the message probed is there when it arrived (its token, still
 * queued for the receive that takes it, gives the time: c->sender.sent). */
void prof_exit_probe_around(struct prof_call *c, MPI_Comm comm, int *flag, MPI_Status *status)
{
    uint64_t dt;
    struct prof_traffic none = { 0 };
    struct prof_record *r = prof_exit_record(c, &none, &dt);
    int got = probed(c, flag, status);
    if (got && !flag)
        waited(c, r, prof_comm_world_rank(comm, status->MPI_SOURCE), dt, 0);
    if (PROF_UNLIKELY(p2p_wanted()))
        p2p_events(c, 0, got, c->sender.sent, got ? prof_status_bytes(status, 0) : 0, -1);
    prof_exit_done(c);
}

/* A start counts its sends, and a persistent collective's volume both ways;
 * its receives count at completion, in this call's record
 * (prof_request_started), with their share of its time. */
void prof_exit_startall(struct prof_call *c, int n, MPI_Request *reqs)
{
    struct prof_traffic sum = { 0 };
    struct prof_request info;
    uint64_t msgs = 0;
    for (int i = 0; c->rc == MPI_SUCCESS && i < n; i++)
        if (prof_request_get(reqs[i], &info)) {
            sum.bytes_sent += info.tr.bytes_sent;
            sum.bytes_recv += info.is_recv ? 0 : info.tr.bytes_recv;
            sum.msgs_sent += info.tr.msgs_sent;
            msgs += info.tr.msgs_sent + info.tr.msgs_recv;
        }
    uint64_t dt;
    struct prof_record *r = prof_exit_record(c, &sum, &dt);
    uint64_t share = msgs ? dt / msgs : 0;
    prof_emit_p2p(c, sum.bytes_sent, MPI_REQUEST_NULL);
    for (int i = 0; PROF_UNLIKELY(prof_events.icoll_started[0] != NULL) && c->rc == MPI_SUCCESS && i < n; i++)
        if (prof_request_get(reqs[i], &info) && info.coll_fn >= 0)
            prof_icoll(c, info.coll_fn, info.comm, &reqs[i], info.coll_root);
    for (int i = 0; msgs && i < n; i++) {
        if (!prof_request_get(reqs[i], &info))
            continue;
        if (info.is_recv) {
            prof_request_started(reqs[i], c->th->serial, r, share);
        } else {
            sized(c->th, c->fn, &info.tr, share);
            if (info.peer >= 0)
                partner(r, info.peer, 0, info.tr.bytes_sent, share);
            if (info.tr.msgs_sent)
                prof_emit_msg(prof_events.msg_sent, info.comm, info.comm_serial, info.peer, info.tag,
                              info.tr.bytes_sent);
        }
    }
    prof_exit_done(c);
}

void prof_exit_start(struct prof_call *c, MPI_Request *req)
{
    prof_exit_startall(c, 1, req);
}

/* On every MPI_Start/Startall, profiled or not: the requests are active
 * until a completion call reports them (an inactive one completes nothing). */
void prof_started(struct prof_call *c, int n, MPI_Request *reqs)
{
    for (int i = 0; c->rc == MPI_SUCCESS && i < n && prof_request_any(); i++)
        prof_request_activate(reqs[i], 1);
}

void prof_started1(struct prof_call *c, MPI_Request *req)
{
    prof_started(c, 1, req);
}

/* --- completion: Wait/Test variants and MPI_Request_free --------------------
 * On every call, profiled or not. Before the PMPI call, each request's entry
 * is taken from the map onto the thread's stack (th->taken; a call made from
 * inside this one pushes above it): once the call frees a handle, another
 * thread may be given the same value at once. After it, the entries of the
 * requests that did not complete go back (MPI_ERR_IN_STATUS: those whose
 * status says MPI_ERR_PENDING), and a profiled call attributes the others. */

MPI_Status *prof_statuses(struct prof_call *c, MPI_Status *statuses, int n)
{
    struct prof_thread *th = c->th;
    if (statuses != MPI_STATUSES_IGNORE)
        return statuses;
    if (n <= 0 || prof_thread_room((void **)&th->statuses, &th->statuses_cap, n, sizeof *th->statuses) != 0)
        return MPI_STATUSES_IGNORE;
    return th->statuses;
}

/* all: MPI_Request_free, which takes persistent entries too. */
static void take(struct prof_call *c, int n, const MPI_Request *reqs, int all)
{
    c->rq_n = 0;
    c->rq_done = 0;
    if (n <= 0 || (!prof_request_any() && !prof_events.req_done[0]))    /* req_done: untracked ones too */
        return;
    struct prof_thread *th = prof_tl;
    if (PROF_UNLIKELY(!th) && !(th = prof_thread_attach()))
        return;
    int base = th->ntaken;
    if (prof_thread_room((void **)&th->taken, &th->taken_cap, base + n, sizeof *th->taken) != 0)
        return;
    for (int i = 0; i < n; i++) {
        struct prof_taken *t = &th->taken[base + i];
        t->req = reqs[i];
        t->state = reqs[i] == MPI_REQUEST_NULL ? 0 : prof_request_take(reqs[i], &t->info, all);
        t->cand = 0;
        t->done = 0;
        t->status = NULL;
        t->peer = MPI_PROC_NULL;
        t->bytes = 0;
        t->sender = PROF_SENDER_NONE;
    }
    th->ntaken = base + n;
    c->rq_base = base;
    c->rq_n = n;
}

void prof_complete_take1(struct prof_call *c, MPI_Request *req)
{
    take(c, 1, req, 0);
}

void prof_complete_take(struct prof_call *c, int n, MPI_Request *reqs)
{
    take(c, n, reqs, 0);
}

void prof_complete_take_free(struct prof_call *c, MPI_Request *req)
{
    take(c, 1, req, 1);
}

/* The call reports request i complete, with status st (or none). */
static void mark(struct prof_call *c, int i, const MPI_Status *st)
{
    if (i >= 0 && i < c->rq_n) {
        struct prof_taken *t = &prof_tl->taken[c->rq_base + i];
        t->cand = 1;
        t->status = st == MPI_STATUS_IGNORE ? NULL : st;
    }
}

/* A counted completion of t on thread th: its partner and the
 * bytes it moved (a receive: what its status says arrived; a cancelled one
 * or one from MPI_PROC_NULL nothing), and a receive's message, bytes and
 * partner on the record that holds its arrival, if this thread owns that
 * record. */
static void arrive(struct prof_thread *th, struct prof_taken *t)
{
    const struct prof_request *info = &t->info;
    const MPI_Status *st = info->no_status ? NULL : t->status;
    int cancelled = 0;
    t->peer = info->peer;
    t->bytes = info->tr.bytes_sent;
    if (!info->is_recv)
        return;
    if (st && st->MPI_SOURCE != MPI_PROC_NULL)
        PMPI_Test_cancelled(st, &cancelled);
    if (!info->tr.msgs_recv || cancelled || (st && st->MPI_SOURCE == MPI_PROC_NULL)) {
        t->peer = MPI_PROC_NULL;
        t->bytes = 0;
        return;
    }
    if (t->peer == MPI_ANY_SOURCE && st)
        t->peer = prof_comm_world_rank_of(info->comm, info->comm_serial, st->MPI_SOURCE);
    t->bytes = prof_status_bytes(st, info->tr.bytes_recv);
    struct prof_record *r = info->arr_rec;
    if (info->owner != th->serial || (r && info->arr_owner != th->serial))
        th->foreign++;
    if (!r || info->arr_owner != th->serial)
        return;
    prof_emit_msg(prof_events.msg_received, info->comm, info->comm_serial, t->peer, msg_tag(info->tag, st), t->bytes);
    r->s.msgs_recv++;
    r->s.bytes_recv += t->bytes;
    prof_sizes_add(&th->table.sizes[r->fn], t->bytes, t->bytes, info->arr_ticks);
    partner(r, t->peer, sender_key(&t->sender), t->bytes, info->arr_ticks);
}

/* After the call: which requests completed (a non-persistent one is freed,
 * so its handle is now MPI_REQUEST_NULL; a persistent one completed when the
 * call says so and its status is not MPI_ERR_PENDING), which of those count
 * (a successful call, or a status saying MPI_SUCCESS: arrive), and the
 * entries of the others go back. Pops this call's requests. */
static void settle(struct prof_call *c, const MPI_Request *now)
{
    struct prof_thread *th = prof_tl;
    int rc = c->rc;
    for (int i = 0; i < c->rq_n; i++) {
        struct prof_taken *t = &th->taken[c->rq_base + i];
        if (t->req == MPI_REQUEST_NULL)
            continue;
        int gone = now[i] == MPI_REQUEST_NULL;
        int status_ok = t->status ? t->status->MPI_ERROR == MPI_SUCCESS : rc == MPI_SUCCESS;
        int fin = t->state == 1 ? t->cand && t->info.active &&
                                      !(rc == MPI_ERR_IN_STATUS && t->status && t->status->MPI_ERROR == MPI_ERR_PENDING)
                                : gone;
        if (t->state == 1 && fin)
            prof_request_activate(t->req, 0);
        c->rq_done += fin;
        t->done = t->state != 0 && fin && (rc == MPI_SUCCESS || (rc == MPI_ERR_IN_STATUS && status_ok));
        if (t->done && (!t->info.persistent || t->info.active))   /* freed inactive: nothing */
            arrive(th, t);
        if (t->state == 2 && !gone)
            prof_request_put(t->req, &t->info);
    }
    th->ntaken = c->rq_base;
}

void prof_complete_done1(struct prof_call *c, MPI_Request *req, int *flag, MPI_Status *status)
{
    if (!c->rq_n)
        return;
    if (c->rc == MPI_SUCCESS && (!flag || *flag))
        mark(c, 0, status);
    settle(c, req);
}

void prof_complete_done(struct prof_call *c, int n, MPI_Request *reqs, int *index, int *flag, int *outcount,
                        int *indices, MPI_Status *status, MPI_Status *statuses)
{
    if (!c->rq_n)
        return;
    int ignored = statuses == MPI_STATUSES_IGNORE;
    if ((c->rc == MPI_SUCCESS || c->rc == MPI_ERR_IN_STATUS) && (!flag || *flag)) {
        if (outcount) {                       /* Waitsome, Testsome */
            for (int k = 0; *outcount != MPI_UNDEFINED && k < *outcount; k++)
                mark(c, indices[k], ignored ? NULL : &statuses[k]);
        } else if (index) {                   /* Waitany, Testany */
            if (*index != MPI_UNDEFINED)
                mark(c, *index, status);
        } else {                              /* Waitall, Testall */
            for (int i = 0; i < n; i++)
                mark(c, i, ignored ? NULL : &statuses[i]);
        }
    }
    settle(c, reqs);
}

/* The time dt of completion call c split between the requests it
 * completed, so that the parts add up to it (less the rounding): a
 * receive whose send-late time was measured has that part of the call
 * (around.h: each from the send before it to its own), and every request
 * an equal part of the rest. */
static void split(struct prof_call *c, struct prof_taken *taken, uint64_t dt)
{
    uint64_t late = 0;
    for (int i = 0; prof_around_on && i < c->rq_n; i++)     /* without the tokens, no send-late */
        if (taken[i].done && taken[i].info.is_recv && taken[i].sender.eval)
            late += taken[i].sender.late;
    int known = late <= dt;     /* else (clocks that disagree) equal parts */
    uint64_t rest = c->rq_done > 0 ? (dt - (known ? late : 0)) / (uint64_t)c->rq_done : 0;
    for (int i = 0; i < c->rq_n; i++)
        taken[i].share = rest + (known && taken[i].info.is_recv && taken[i].sender.eval ? taken[i].sender.late : 0);
}

/* A profiled completion call: its time is split between the requests it
 * completed (split); each tracked one gets its partner on this call's
 * site (with the bytes arrive found), and a receive gives its share back
 * to its posting site as receive wait. */
void prof_exit_complete(struct prof_call *c)
{
    struct prof_thread *th = c->th;
    struct prof_traffic none = { 0 };
    uint64_t dt;
    struct prof_record *r = prof_exit_record(c, &none, &dt);
    split(c, &th->taken[c->rq_base], dt);
    prof_emit_p2p(c, 0, MPI_REQUEST_NULL);
    for (int i = 0; prof_events.req_done[0] && i < c->rq_n; i++)
        if (th->taken[c->rq_base + i].cand) {
            struct prof_ev_req ev = { c, th->taken[c->rq_base + i].req };
            prof_emit(prof_events.req_done, &ev);
        }
    for (int i = 0; i < c->rq_n; i++) {
        const struct prof_taken *t = &th->taken[c->rq_base + i];
        if (!t->done)
            continue;
        partner(r, t->peer, 0, t->bytes, t->share);
        if (t->info.is_recv && t->peer != MPI_PROC_NULL)
            prof_emit_arrival(c, t->sender.sent, t->bytes, t->peer);
        if (t->info.is_recv && t->info.owner == th->serial)
            t->info.rec->s.recv_wait_ticks += t->share;
    }
    if (PROF_UNLIKELY(prof_events.reqs_waited[0] != NULL) && c->rq_done > 0) {
        struct prof_ev_wait ev = { c, r, -1, dt, 0 };
        prof_emit(prof_events.reqs_waited, &ev);
    }
    prof_exit_done(c);
}
