/* waits.c: the wait-states module (see waits.h): each thread's previous
 * call site and what it waited there (the cause it passes on), the tokens
 * of the blocking collectives (coll_enter), and the waits charged. Only
 * with MPIPROF_EVAL_WAITS: a record lookup at every profiled call's end,
 * and per collective a barrier and a reduction (all-to-all shapes) or one
 * token per rank (rooted and scans). The charges are kept under one mutex,
 * taken once per wait measured. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "colls.h"
#include "fn_table.h"
#include "hmap.h"
#include "lock.h"
#include "log.h"
#include "module.h"
#include "nodes.h"
#include "prof.h"
#include "report.h"
#include "run.h"
#include "shadow.h"
#include "tokens.h"
#include "waits.h"

int prof_waits_on;

/* The tokens' tags on the reply shadow. */
enum { TAG_BCAST = PROF_TAGS_WAITS, TAG_REDUCE, TAG_SCAN, TAG_IBCAST, TAG_IREDUCE };

static signed char class_of[PROF_FN_COUNT];   /* enum prof_wait_class, or -1: not measured */

/* The blocking collectives each class takes, by name without "MPI_" and
 * the large-count "_c". */
static const struct {
    const char *name;
    int cls;
} classes[] = {
    { "Barrier", PROF_WAIT_barrier },
    { "Allreduce", PROF_WAIT_nxn },
    { "Allgather", PROF_WAIT_nxn },
    { "Allgatherv", PROF_WAIT_nxn },
    { "Alltoall", PROF_WAIT_nxn },
    { "Alltoallv", PROF_WAIT_nxn },
    { "Alltoallw", PROF_WAIT_nxn },
    { "Reduce_scatter", PROF_WAIT_nxn },
    { "Reduce_scatter_block", PROF_WAIT_nxn },
    { "Bcast", PROF_WAIT_late_broadcast },
    { "Scatter", PROF_WAIT_late_broadcast },
    { "Scatterv", PROF_WAIT_late_broadcast },
    { "Reduce", PROF_WAIT_early_reduce },
    { "Gather", PROF_WAIT_early_reduce },
    { "Gatherv", PROF_WAIT_early_reduce },
    { "Scan", PROF_WAIT_early_scan },
    { "Exscan", PROF_WAIT_early_scan },
    { "Win_fence", PROF_WAIT_fence },
};

/* The class of a blocking collective named fn, or of a nonblocking one
 * (MPI_Ibcast: late_broadcast). */
static int class_named(const char *fn, int nonblocking)
{
    if (strncmp(fn, "MPI_", 4) != 0 || (nonblocking && fn[4] != 'I'))
        return -1;
    fn += 4 + nonblocking;
    size_t len = strlen(fn);
    if (len > 2 && strcmp(fn + len - 2, "_c") == 0)
        len -= 2;
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++)
        if (strlen(classes[i].name) == len && strncasecmp(fn, classes[i].name, len) == 0)   /* MPI_Ibcast */
            return classes[i].cls;
    return -1;
}

/* A thread's last profiled call (its site); its last wait measured, with
 * its cause and the end of the call that waited; and the call in
 * progress: its site and end once its clock was read, and the longest
 * wait measured in it (set: one was, until its end). */
struct mine {
    uint64_t last_key;
    uint64_t last_wait, wait_end;
    struct prof_cause last_cause;
    uint64_t key, end, wait;
    struct prof_cause cause;
    int set;
};

static __thread struct mine me __attribute__((tls_model("initial-exec")));

/* The cause a call entering now at site key passes on: what held up this
 * thread's last wait when that wait was longer than the time since it
 * (calls that did not wait in between, an MPI_Comm_rank, do not break the
 * chain), else its own region, from its previous call (waits.h). */
static struct prof_cause carried(uint64_t key, uint64_t now)
{
    if (me.last_wait > 0 && me.last_cause.rank >= 0 && me.last_wait > now - me.wait_end)
        return me.last_cause;
    return (struct prof_cause){ prof_run.rank, 0, me.last_key, key };
}

struct prof_cause prof_waits_carried(uint64_t key)
{
    return carried(key, prof_clock());
}

/* A call's end: its clock and record (call_end), then its waits (the
 * point-to-point events and req_done come after call_end: me.key is the
 * completing call's site), then call_done. */
static void call_end(const struct prof_ev_call *ev)
{
    me.key = ev->r->key;
    me.end = ev->t1;
}

static void call_done(const struct prof_ev_call *ev)
{
    (void)ev;
    prof_waits_sync_poll();
    me.last_key = me.key;
    if (me.set) {
        me.last_wait = me.wait;
        me.last_cause = me.cause;
        me.wait_end = me.end;
    }
    me.set = 0;
}

/* A wait measured in the call in progress: the longest names the cause it
 * passes on. */
static void waited(uint64_t w, const struct prof_cause *cause)
{
    if (!me.set || w > me.wait) {
        me.wait = w;
        me.cause = *cause;
        me.set = 1;
    }
}

/* The charges: (class, site, cause) -> struct prof_wait_charge. */
static struct {
    pthread_mutex_t lock;
    struct prof_hmap m;
    int lost;               /* charges dropped for want of memory */
} ch = { .lock = PTHREAD_MUTEX_INITIALIZER };

static uint64_t mix(uint64_t h, uint64_t v)
{
    return (h ^ v) * 1099511628211ULL;
}

static void charge_of(int cls, int waiter, uint64_t key, const struct prof_cause *cause, uint64_t ticks)
{
    uint64_t h = mix(mix(mix(mix(mix(mix(1469598103934665603ULL, (uint64_t)cls), (uint64_t)waiter), key),
                             (uint64_t)cause->rank), cause->from), cause->to);
    h += !h;
    prof_lock(&ch.lock);
    struct prof_wait_charge *w = prof_hmap_get(&ch.m, h);
    while (w && (w->cls != cls || w->waiter != waiter || w->key != key || w->cause_rank != cause->rank ||
                 w->cause_from != cause->from || w->cause_to != cause->to)) {
        h = h + 1 ? h + 1 : 1;      /* two charges with one hash: the next key */
        w = prof_hmap_get(&ch.m, h);
    }
    if (!w && (w = calloc(1, sizeof *w)) != NULL) {
        *w = (struct prof_wait_charge){ cls, waiter, key, 0, cause->rank, cause->from, cause->to, -1, -1, 0, 0 };
        if (prof_hmap_put(&ch.m, h, w) != 0) {
            free(w);
            w = NULL;
        }
    }
    if (w) {
        w->ticks += ticks;
        w->n++;
    } else {
        ch.lost++;
    }
    prof_unlock(&ch.lock);
}

/* A wait of this process's thread: charged, and the cause it passes on. */
void prof_waits_charge(int cls, uint64_t key, const struct prof_cause *cause, uint64_t ticks)
{
    charge_of(cls, prof_run.rank, key, cause, ticks);
    waited(ticks, cause);
}

void prof_waits_charge_rank(int cls, int waiter, uint64_t key, const struct prof_cause *cause, uint64_t ticks)
{
    if (waiter >= 0 && key && cause->rank >= 0 && ticks)
        charge_of(cls, waiter, key, cause, ticks);
}

/* The latest start of an all-to-all shape, in one reduction (nonblocking
 * for a nonblocking collective): its time and clock as prof_sync_out and
 * prof_sync_node give them (0: the ranks' clocks cannot be compared), rank
 * and cause. */
struct latest {
    uint64_t at, node;
    int32_t who, pad;
    struct prof_cause cause;
};

static MPI_Datatype latest_type = MPI_DATATYPE_NULL;
static MPI_Op latest_op = MPI_OP_NULL;

static void pick_latest(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    const struct latest *a = in;
    struct latest *b = inout;
    for (int i = 0; i < *len; i++) {
        uint64_t node = a[i].node == b[i].node ? b[i].node : 0;
        if (a[i].at > b[i].at || (a[i].at == b[i].at && a[i].who < b[i].who))
            b[i] = a[i];
        b[i].node = node;
    }
}

/* The all-to-all shapes: which rank came last, when, and the cause it
 * passes on, in one reduction in place of a barrier: a rank's wait is the
 * part of it before the last one came (the reduction's own latency, tens
 * of microseconds to milliseconds between nodes, is the collective's cost,
 * not waiting); the last waited for none. Where the ranks' clocks cannot
 * be compared (nodes whose clocks were not set on one timeline), the rank
 * that spent least in it came last, and the others waited all of theirs:
 * that second reduction's time is the profiler's, not the call's. */
struct last {
    double w;
    int32_t who, pad;
    struct prof_cause cause;
};

static MPI_Datatype last_type = MPI_DATATYPE_NULL;
static MPI_Op last_op = MPI_OP_NULL;

static void pick(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    const struct last *a = in;
    struct last *b = inout;
    for (int i = 0; i < *len; i++)
        if (a[i].w < b[i].w || (a[i].w == b[i].w && a[i].who < b[i].who))
            b[i] = a[i];
}

static uint64_t all_shapes(struct prof_call *c, MPI_Comm comm, int rank, uint64_t t, const struct prof_cause *mine,
                           struct prof_record *r, struct prof_cause *got)
{
    struct latest in = { prof_sync_out(t), prof_sync_node(), rank, 0, *mine }, out;
    if (PMPI_Allreduce(&in, &out, 1, latest_type, latest_op, comm) != MPI_SUCCESS)
        return 0;
    uint64_t t1 = prof_clock(), dt = t1 - t, latest = 0;
    r->s.sync_calls++;
    if (prof_sync_in(out.at, out.node, 0, t1, &latest)) {
        uint64_t w = out.who == rank ? 0 : prof_ticks_before(latest, t, t1);
        r->s.sync_ticks += w;
        *got = out.cause;
        return w;
    }
    r->s.sync_ticks += dt;
    struct last least = { (double)dt, rank, 0, *mine }, most;
    int ok = PMPI_Allreduce(&least, &most, 1, last_type, last_op, comm) == MPI_SUCCESS;
    uint64_t t2 = prof_clock();
    c->t0 += t2 - t1;
    c->th->profiler += t2 - t1;
    if (!ok || most.who == rank)
        return 0;
    *got = most.cause;
    return dt;
}

/* A token's wait: the part of the call from t before sent. */
static uint64_t late(uint64_t sent, uint64_t t)
{
    return sent > t ? sent - t : 0;
}

static uint64_t broadcast(MPI_Comm tok, int rank, int size, int root, uint64_t t, const struct prof_cause *mine,
                          struct prof_cause *got)
{
    uint64_t sent;
    if (rank == root) {
        for (int k = 0; k < size; k++)
            if (k != root)
                prof_token_send_cause(tok, k, TAG_BCAST, mine, 0);
        return 0;
    }
    return prof_token_recv_cause(tok, root, TAG_BCAST, t, got, &sent) == 0 ? late(sent, t) : 0;
}

/* The root takes the tokens as they come: the last one sent is the wait's
 * end and names its cause. */
static uint64_t reduce(MPI_Comm tok, int rank, int size, int root, uint64_t t, const struct prof_cause *mine,
                       struct prof_cause *got)
{
    if (rank != root) {
        prof_token_send_cause(tok, root, TAG_REDUCE, mine, 0);
        return 0;
    }
    struct prof_token *v = calloc((size_t)size, sizeof *v);
    MPI_Request *rq = malloc((size_t)size * sizeof *rq);
    int *done = malloc((size_t)size * sizeof *done);
    uint64_t latest = 0;
    int n = 0;
    for (int k = 0; v && rq && done && k < size; k++)
        if (k != root && PMPI_Irecv(&v[n], (int)sizeof v[n], MPI_BYTE, k, TAG_REDUCE, tok, &rq[n]) == MPI_SUCCESS)
            n++;
    for (int left = n, got_n = 0; left > 0; left -= got_n) {
        if (PMPI_Waitsome(n, rq, &got_n, done, MPI_STATUSES_IGNORE) != MPI_SUCCESS || got_n == MPI_UNDEFINED)
            break;
        uint64_t now = prof_clock();
        for (int i = 0; i < got_n; i++) {
            uint64_t sent = prof_token_sent_at(&v[done[i]], now, t);
            if (sent >= latest) {
                latest = sent;
                *got = v[done[i]].cause;
            }
        }
    }
    free(v);
    free(rq);
    free(done);
    return late(latest, t);
}

/* Rank r waits for r - 1's token, then sends its own on: the cause of its
 * wait when it waited, else its own. */
static uint64_t scan(MPI_Comm tok, int rank, int size, uint64_t t, const struct prof_cause *mine,
                     struct prof_cause *got)
{
    uint64_t w = 0, sent;
    if (rank > 0 && prof_token_recv_cause(tok, rank - 1, TAG_SCAN, t, got, &sent) == 0)
        w = late(sent, t);
    if (rank + 1 < size)
        prof_token_send_cause(tok, rank + 1, TAG_SCAN, w ? got : mine, 0);
    return w;
}

/* Where a collective this module takes runs: a communicator (an
 * intracommunicator of 2 processes or more) or, for a fence, its window's
 * shadow; this process's rank there and the size. */
struct where {
    MPI_Comm comm;
    int rank, size;
};

static int taken(const struct prof_ev_coll *ev, struct where *at)
{
    if (!prof_waits_on || class_of[ev->c->fn] < 0)
        return 0;
    if (ev->on == PROF_COLL_WIN) {
        at->comm = prof_shadow_coll_comm(ev);
        return at->comm != MPI_COMM_NULL && PMPI_Comm_rank(at->comm, &at->rank) == MPI_SUCCESS &&
               PMPI_Comm_size(at->comm, &at->size) == MPI_SUCCESS && at->size >= 2;
    }
    const struct prof_comm_info *ci = ev->on == PROF_COLL_COMM ? prof_comm_info(ev->comm) : NULL;
    if (!ci || ci->inter || ci->size < 2)
        return 0;
    *at = (struct where){ ev->comm, ci->rank, ci->size };
    return 1;
}

/* The collectives wait states measure (colls.h: collective wait leaves
 * them). */
static int claims(const struct prof_ev_coll *ev)
{
    struct where at;
    return taken(ev, &at);
}

static void coll_enter(const struct prof_ev_coll *ev)
{
    struct where at;
    int cls = class_of[ev->c->fn];
    if (!taken(ev, &at))
        return;
    uint64_t t = prof_clock();
    struct prof_record *r = prof_call_record(ev->c);
    struct prof_cause mine = carried(r->key, t), got = { -1, 0, 0, 0 };
    uint64_t w = 0;
    if (cls == PROF_WAIT_barrier || cls == PROF_WAIT_nxn || cls == PROF_WAIT_fence) {
        w = all_shapes(ev->c, at.comm, at.rank, t, &mine, r, &got);
    } else {
        struct prof_shadow *s = prof_shadow_find(prof_shadow_key(PROF_SHADOW_COMM, &ev->comm, sizeof ev->comm));
        MPI_Comm tok = s ? s->reply : MPI_COMM_NULL;
        int root = ev->root;
        if (tok == MPI_COMM_NULL)
            return;
        if (cls == PROF_WAIT_early_scan)
            w = scan(tok, at.rank, at.size, t, &mine, &got);
        else if (root < 0 || root >= at.size)
            return;
        else if (cls == PROF_WAIT_late_broadcast)
            w = broadcast(tok, at.rank, at.size, root, t, &mine, &got);
        else
            w = reduce(tok, at.rank, at.size, root, t, &mine, &got);
    }
    if (w && got.rank >= 0) {
        prof_waits_charge(cls, r->key, &got, w);
    }
}

/* A receive's send-late time, charged to the cause its sender's token
 * carried, at the call that waited. */
static void late_sender(uint64_t key, const struct prof_sender *s, uint64_t most)
{
    uint64_t late = s->late <= most ? s->late : most;
    if (s->eval && late && s->cause.rank >= 0) {
        prof_waits_charge(s->wrong ? PROF_WAIT_wrong_order : PROF_WAIT_late_sender, key, &s->cause, late);
    }
}

static void msg_waited(const struct prof_ev_wait *ev)
{
    late_sender(ev->r->key, &ev->c->sender, ev->ticks);
}

static void reqs_waited(const struct prof_ev_wait *ev)
{
    struct prof_call *c = ev->c;
    const struct prof_taken *taken = &c->th->taken[c->rq_base];
    for (int i = 0; i < c->rq_n; i++)
        if (taken[i].done && taken[i].info.is_recv)
            late_sender(me.key, &taken[i].sender, taken[i].share);    /* within its part of the call (p2p.c) */
}

/* --- nonblocking collectives: tokens at the start (icoll_started), the
 * wait in the call that completes the request (req_done) --------------- */

/* A nonblocking collective started, not completed: its class and what
 * tells when the others came (n token receives into tok, or the
 * reduction's request rq[0] into out). */
struct pend {
    int cls, n;
    MPI_Request *rq;
    struct prof_token *tok;
    struct latest in, out;
};

static struct {
    pthread_mutex_t lock;
    struct prof_hmap m;     /* the collective's request -> struct pend */
} nb = { .lock = PTHREAD_MUTEX_INITIALIZER };

static uint64_t req_key(MPI_Request req)
{
    uint64_t k = 0;
    memcpy(&k, &req, sizeof req < sizeof k ? sizeof req : sizeof k);
    return k + !k;
}

static void pend_free(struct pend *p)
{
    if (!p)
        return;
    for (int i = 0; i < (p->n ? p->n : 1); i++)
        if (p->rq && p->rq[i] != MPI_REQUEST_NULL) {
            PMPI_Cancel(&p->rq[i]);
            PMPI_Request_free(&p->rq[i]);
        }
    free(p->rq);
    free(p->tok);
    free(p);
}

/* Post n token receives from the ranks of comm but skip (the root's, or
 * every rank's but the root's). */
static int post_tokens(struct pend *p, MPI_Comm tok, int size, int from, int skip, int tag)
{
    p->n = from >= 0 ? 1 : size - 1;
    p->rq = malloc((size_t)p->n * sizeof *p->rq);
    p->tok = calloc((size_t)p->n, sizeof *p->tok);
    if (!p->rq || !p->tok)
        return -1;
    for (int i = 0; i < p->n; i++)
        p->rq[i] = MPI_REQUEST_NULL;
    for (int k = 0, i = 0; k < size && i < p->n; k++) {
        if (from >= 0 ? k != from : k == skip)
            continue;
        if (PMPI_Irecv(&p->tok[i], (int)sizeof p->tok[i], MPI_BYTE, k, tag, tok, &p->rq[i]) != MPI_SUCCESS)
            return -1;
        i++;
    }
    return 0;
}

static void icoll_started(const struct prof_ev_icoll *ev)
{
    struct prof_call *c = ev->c;
    int cls = class_of[ev->fn];
    const struct prof_comm_info *ci;
    if (cls < 0 || c->rc != MPI_SUCCESS || *ev->req == MPI_REQUEST_NULL ||
        !(ci = prof_comm_info(ev->comm)) || ci->inter || ci->size < 2)
        return;
    struct prof_shadow *s = prof_shadow_find(prof_shadow_key(PROF_SHADOW_COMM, &ev->comm, sizeof ev->comm));
    if (!s || s->reply == MPI_COMM_NULL)
        return;
    int rooted = cls == PROF_WAIT_late_broadcast || cls == PROF_WAIT_early_reduce, root = ev->root;
    if (rooted && (root < 0 || root >= ci->size))
        return;
    struct prof_cause mine = carried(prof_call_record(c)->key, prof_clock());
    int tag = cls == PROF_WAIT_late_broadcast ? TAG_IBCAST : TAG_IREDUCE;
    /* the ranks that only send: the root of a broadcast, the others of a reduction */
    if (rooted && (ci->rank == root) == (cls == PROF_WAIT_late_broadcast)) {
        for (int k = 0; k < ci->size; k++)
            if (k != ci->rank && (cls == PROF_WAIT_late_broadcast || k == root))
                prof_token_send_cause(s->reply, k, tag, &mine, 0);
        return;
    }
    struct pend *p = calloc(1, sizeof *p);
    int rc = -1;
    if (p && cls == PROF_WAIT_late_broadcast) {
        rc = post_tokens(p, s->reply, ci->size, root, -1, tag);
    } else if (p && rooted) {
        rc = post_tokens(p, s->reply, ci->size, -1, root, tag);
    } else if (p) {
        /* the latest start of all ranks, or of this one and the lower ones
         * (a scan; an exclusive scan too: when this rank came last of
         * them it waited for none) */
        p->in = (struct latest){ prof_sync_out(prof_clock()), prof_sync_node(), ci->rank, 0, mine };
        p->rq = malloc(sizeof *p->rq);
        if (p->rq &&
            (cls == PROF_WAIT_early_scan
                 ? PMPI_Iscan(&p->in, &p->out, 1, latest_type, latest_op, s->comm, p->rq)
                 : PMPI_Iallreduce(&p->in, &p->out, 1, latest_type, latest_op, s->comm, p->rq)) == MPI_SUCCESS)
            rc = 0;
    }
    if (p)
        p->cls = cls;
    prof_lock(&nb.lock);
    if (rc == 0 && prof_hmap_put(&nb.m, req_key(*ev->req), p) == 0)
        p = NULL;
    prof_unlock(&nb.lock);
    if (p || rc != 0) {
        prof_lock(&ch.lock);
        ch.lost++;          /* its wait is not measured */
        prof_unlock(&ch.lock);
    }
    pend_free(p);
}

/* A point-to-point call's end: a followed send's request, or a blocking
 * one's end (waits_sync.c). */
static void p2p_end(const struct prof_ev_p2p *ev)
{
    int fn = prof_fn_base[ev->c->fn];
    if (fn == FN_MPI_Issend || fn == FN_MPI_Isend)
        prof_waits_sync_sent(ev, 0, 0);
    else if (fn == FN_MPI_Send || fn == FN_MPI_Ssend)
        prof_waits_sync_sent(ev, me.key, me.end);
}

/* The call c completed the nonblocking collective req: its wait is the
 * part of c before the last of the ranks it waited for came. */
static void req_done(const struct prof_ev_req *ev)
{
    prof_waits_sync_done(ev, me.key, me.end);
    prof_lock(&nb.lock);
    struct pend *p = ev->req == MPI_REQUEST_NULL ? NULL : prof_hmap_del(&nb.m, req_key(ev->req));
    prof_unlock(&nb.lock);
    if (!p)
        return;
    uint64_t latest = 0, at = 0;
    struct prof_cause got = { -1, 0, 0, 0 };
    if (!p->n) {
        if (PMPI_Wait(p->rq, MPI_STATUS_IGNORE) == MPI_SUCCESS && p->out.who != p->in.who &&
            prof_sync_in(p->out.at, p->out.node, 0, prof_clock(), &latest)) {
            got = p->out.cause;
        }
    } else if (PMPI_Waitall(p->n, p->rq, MPI_STATUSES_IGNORE) == MPI_SUCCESS) {
        uint64_t came = prof_clock();      /* the starts were sent before */
        for (int i = 0; i < p->n; i++)
            if (prof_sync_token(p->tok[i].at, p->tok[i].node, p->tok[i].from, came, ev->c->t0, &at) && at >= latest) {
                latest = at;
                got = p->tok[i].cause;
            }
    }
    uint64_t w = prof_ticks_before(latest, ev->c->t0, me.end);
    if (w && got.rank >= 0)
        prof_waits_charge(p->cls, me.key, &got, w);
    pend_free(p);
}

/* A reduction of size-byte values by fn: its datatype and operation. */
static int reduction(size_t size, MPI_User_function *fn, MPI_Datatype *type, MPI_Op *op)
{
    return PMPI_Type_contiguous((int)size, MPI_BYTE, type) == MPI_SUCCESS && PMPI_Type_commit(type) == MPI_SUCCESS &&
                   PMPI_Op_create(fn, 1, op) == MPI_SUCCESS
               ? 0 : -1;
}

static int start(void)
{
    int tag_ub = 0, *ub = NULL, flag = 0;
    PMPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
    tag_ub = flag && ub ? *ub : 32767;
    if (tag_ub < PROF_TAGS_WAITS + 31) {
        prof_log_once("MPI_TAG_UB is %d here, below the tags of the wait states' tokens (%d); wait states are off",
                      tag_ub, PROF_TAGS_WAITS + 31);
        return -1;
    }
    if (prof_colls_same("wait states", 1) != 0)
        return -1;
    for (int f = 0; f < PROF_FN_COUNT; f++)
        class_of[f] = prof_fn_coll[f] == 2 || prof_fn_coll[f] == 4
                          ? (signed char)class_named(prof_fn_name[prof_fn_blocking[f]], 0)
                    : prof_fn_coll[f] == 3 ? (signed char)class_named(prof_fn_name[f], 1) : -1;
    if (reduction(sizeof(struct last), pick, &last_type, &last_op) != 0 ||
        reduction(sizeof(struct latest), pick_latest, &latest_type, &latest_op) != 0) {
        prof_log_once("cannot make the wait states' reduction; wait states are off");
        return -1;
    }
    prof_waits_on = 1;
    prof_waits_lock_window(1);
    prof_waits_win_attach();
    prof_waits_sync_start();     /* rides on the tokens */
    prof_colls_claim(claims);
    prof_shadow_want(PROF_WANT_REPLY | PROF_WANT_WIN);
    return 0;
}

static void finish(void)
{
    for (uint32_t i = 0; i < nb.m.cap; i++)
        pend_free(nb.m.vals[i]);      /* never completed */
    prof_hmap_free(&nb.m);
    MPI_Op *ops[] = { &last_op, &latest_op };
    MPI_Datatype *types[] = { &last_type, &latest_type };
    for (int i = 0; i < 2; i++) {
        if (*ops[i] != MPI_OP_NULL)
            PMPI_Op_free(ops[i]);
        if (*types[i] != MPI_DATATYPE_NULL)
            PMPI_Type_free(types[i]);
    }
}

/* --- at MPI_Finalize: the charges as an array, named, gathered ------- */

static struct prof_wait_charge **all;
static int nall;
static double sec_per_tick;

static void collect(void)
{
    if (all)
        return;
    all = malloc(((size_t)ch.m.n + 1) * sizeof *all);
    for (uint32_t i = 0; all && i < ch.m.cap; i++)
        if (ch.m.vals[i])
            all[nall++] = ch.m.vals[i];
}

static int keeps_key(uint64_t key)
{
    (void)key;
    return 1;       /* the other ranks' charges name this rank's sites by key */
}

static void figures(struct prof_report_ctx *ctx, struct prof_rank_data *rd, uint64_t t_end)
{
    (void)t_end;
    prof_waits_lock_window(0);
    prof_waits_sync_finish(prof_run.comm);
    sec_per_tick = rd->sec_per_tick;
    int lost = ch.lost, any = 0;
    PMPI_Allreduce(&lost, &any, 1, MPI_INT, MPI_SUM, prof_run.comm);
    size_t n = strlen(ctx->notes);
    if (any > 0)
        snprintf(ctx->notes + n, sizeof ctx->notes - n,
                 "# note: %d waits were not charged to a cause (out of memory): waits.txt misses them\n", any);
}

static void named(struct prof_branch *v, int n)
{
    collect();
    prof_waits_named(all, all ? nall : 0, v, n);
}

static int agree(MPI_Comm comm)
{
    (void)comm;
    collect();
    int rc = prof_waits_agree(all, all ? nall : 0, sec_per_tick);
    for (int i = 0; all && i < nall; i++)
        free(all[i]);
    free(all);
    all = NULL;
    nall = 0;
    prof_hmap_free(&ch.m);
    return rc;
}

const struct prof_module prof_mod_waits = {
    .name = "wait states",
    .option = "EVAL_WAITS",
    .start = start,
    .finish = finish,
    .coll_enter = coll_enter,
    .call_end = call_end,
    .call_done = call_done,
    .msg_waited = msg_waited,
    .reqs_waited = reqs_waited,
    .icoll_started = icoll_started,
    .req_done = req_done,
    .p2p_end = p2p_end,
    .epoch = prof_waits_epoch,
    .rma_call = prof_waits_rma_call,
    .keeps_key = keeps_key,
    .named = named,
    .figures = figures,
    .agree = agree,
    .writer = &prof_report_waits,
};
