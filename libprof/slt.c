/* slt.c: late sender by the stuttering method (see slt.h). Tokens travel on
 * the shadows of the communicators; each shadow holds the tokens received
 * and not yet matched in arrival order (a queue, under the shadow's lock).
 * Only with MPIPROF_EVAL_SLT or a model: a token message and a few MPI
 * calls per message (locks only under MPI_THREAD_MULTIPLE, lock.h). */
#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include "lock.h"
#include "prof.h"
#include "request.h"

int prof_slt_asked;
int prof_slt_on;

/* What a token carries: the sender's call site (its record key, 0 if
 * unknown) and the sender's modelled clock at the send (model.h; < 0 if
 * unknown). */
struct token {
    uint64_t key;
    double sent;
};

static const struct token unknown = { 0, -1 };

struct queued {
    int src, tag;
    struct token tok;
};

#define QUEUE_MAX 65536u   /* tokens kept per communicator; the oldest go first */
#define OWED_MAX 16

/* Tokens received and not matched; "owed": messages that arrived before
 * their token, whose token is dropped when it comes. A receive of any
 * token is kept posted (posted, into token), so that a token lands at once
 * instead of waiting in MPI's unexpected messages to be probed and copied. */
struct prof_slt_queue {
    struct queued *v;
    uint32_t n, cap;
    struct {
        int src, tag;
        uint32_t n;
    } owed[OWED_MAX];
    MPI_Request posted;
    struct token token;
};

/* Token sends in flight: a ring; a slot is reused once its send completed
 * (a token is small: sent eagerly, complete at once in practice). */
#define POOL 256
static struct {
    pthread_mutex_t lock;
    unsigned next;
    MPI_Request req[POOL];
    struct token tok[POOL];
} pool = { .lock = PTHREAD_MUTEX_INITIALIZER };

static struct prof_shadow *shadow_of(MPI_Comm comm)
{
    return comm == MPI_COMM_NULL ? NULL : prof_shadow_find(prof_shadow_key(PROF_SHADOW_COMM, &comm, sizeof comm));
}

void prof_token_isend(MPI_Comm comm, int dst, int tag, uint64_t key, double sent)
{
    prof_lock(&pool.lock);
    unsigned i = pool.next++ % POOL;
    if (pool.req[i] != MPI_REQUEST_NULL)
        PMPI_Wait(&pool.req[i], MPI_STATUS_IGNORE);
    pool.tok[i] = (struct token){ key, sent };
    if (PMPI_Isend(&pool.tok[i], (int)sizeof pool.tok[i], MPI_BYTE, dst, tag, comm, &pool.req[i]) != MPI_SUCCESS)
        pool.req[i] = MPI_REQUEST_NULL;
    prof_unlock(&pool.lock);
}

double prof_token_recv(MPI_Comm comm, int src, int tag)
{
    struct token t = unknown;
    if (PMPI_Recv(&t, (int)sizeof t, MPI_BYTE, src, tag, comm, MPI_STATUS_IGNORE) != MPI_SUCCESS)
        return -1;
    return t.sent;
}

/* The token of a send by the call c: its call site and modelled clock. */
static void send_token(const struct prof_call *c, const struct prof_shadow *s, int dst, int tag)
{
    prof_token_isend(s->comm, dst, tag, c->th ? prof_call_record(c)->key : 0, prof_model_on ? prof_model_now(c) : 0);
}

/* --- the queue (shadow lock held) ----------------------------------------- */

static int matches(int spec, int v, int any)
{
    return spec == any || spec == v;
}

static int find(const struct prof_slt_queue *q, int src, int tag)
{
    for (uint32_t i = 0; q && i < q->n; i++)
        if (matches(src, q->v[i].src, MPI_ANY_SOURCE) && matches(tag, q->v[i].tag, MPI_ANY_TAG))
            return (int)i;
    return -1;
}

/* The queue of shadow s, made on first use (NULL without memory). */
static struct prof_slt_queue *queue(struct prof_shadow *s)
{
    if (!s->slt && (s->slt = calloc(1, sizeof *s->slt)))
        s->slt->posted = MPI_REQUEST_NULL;
    return s->slt;
}

static void push(struct prof_shadow *s, int src, int tag, struct token tok)
{
    struct prof_slt_queue *q = s->slt;
    for (int i = 0; i < OWED_MAX; i++)
        if (q->owed[i].n && q->owed[i].src == src && q->owed[i].tag == tag) {
            q->owed[i].n--;
            return;
        }
    if (q->n == q->cap) {
        uint32_t cap = q->cap ? 2 * q->cap : 64;
        struct queued *v = cap <= QUEUE_MAX ? realloc(q->v, cap * sizeof *v) : NULL;
        if (v) {
            q->v = v;
            q->cap = cap;
        } else if (q->n) {
            memmove(q->v, q->v + 1, --q->n * sizeof *q->v);
        } else {
            return;
        }
    }
    q->v[q->n++] = (struct queued){ src, tag, tok };
}

/* Queue the tokens that have arrived, all of them or (until) up to the
 * first of (src, tag), and keep a receive posted. 1 when until stopped it. */
static int drain_until(struct prof_shadow *s, int until, int src, int tag)
{
    struct prof_slt_queue *q = queue(s);
    int flag = 0;
    MPI_Status st;
    while (q) {
        if (q->posted == MPI_REQUEST_NULL && PMPI_Irecv(&q->token, (int)sizeof q->token, MPI_BYTE, MPI_ANY_SOURCE,
                                                        MPI_ANY_TAG, s->comm, &q->posted) != MPI_SUCCESS) {
            q->posted = MPI_REQUEST_NULL;
            return 0;
        }
        if (PMPI_Test(&q->posted, &flag, &st) != MPI_SUCCESS || !flag)
            return 0;
        push(s, st.MPI_SOURCE, st.MPI_TAG, q->token);
        if (until && matches(src, st.MPI_SOURCE, MPI_ANY_SOURCE) && matches(tag, st.MPI_TAG, MPI_ANY_TAG))
            return 1;
    }
    return 0;
}

static void drain(struct prof_shadow *s)
{
    drain_until(s, 0, 0, 0);
}

/* Tokens whose message a call the profiler does not follow received (an
 * untracked request, an unprofiled completion that ignored its status)
 * would stay in MPI's queues: every DRAIN_EVERY late-sender hook calls, the
 * tokens of every shadow are taken into its bounded queue. */
#define DRAIN_EVERY 4096u
static unsigned hook_calls;

static void drain_locked(struct prof_shadow *s)
{
    prof_lock(&s->lock);
    drain(s);
    prof_unlock(&s->lock);
}

static void now_and_then(void)
{
    if (__atomic_add_fetch(&hook_calls, 1, __ATOMIC_RELAXED) % DRAIN_EVERY == 0)
        prof_shadow_each(PROF_SHADOW_COMM, drain_locked);
}

static int token_there(struct prof_shadow *s, int src, int tag)
{
    prof_lock(&s->lock);
    int hit = find(s->slt, src, tag) >= 0 || drain_until(s, 1, src, tag);
    prof_unlock(&s->lock);
    return hit;
}

/* The index of the earliest token of (src, tag) queued, those that have
 * arrived taken in first if none is (lock held); -1 if none. */
static int find_arrived(struct prof_shadow *s, int src, int tag)
{
    int i = find(s->slt, src, tag);
    if (i < 0) {
        drain(s);
        i = find(s->slt, src, tag);
    }
    return i;
}

/* The earliest token of (src, tag); if it has not come yet, it is owed. */
static struct token pop(struct prof_shadow *s, int src, int tag)
{
    struct token tok = unknown;
    prof_lock(&s->lock);
    int i = find_arrived(s, src, tag);
    struct prof_slt_queue *q = s->slt;
    if (i >= 0) {
        tok = q->v[i].tok;
        memmove(q->v + i, q->v + i + 1, (q->n - (uint32_t)i - 1) * sizeof *q->v);
        q->n--;
    } else if ((q = queue(s))) {
        int k = 0;
        while (k < OWED_MAX && q->owed[k].n && !(q->owed[k].src == src && q->owed[k].tag == tag))
            k++;
        if (k < OWED_MAX) {
            q->owed[k].src = src;
            q->owed[k].tag = tag;
            q->owed[k].n++;
        }
    }
    prof_unlock(&s->lock);
    return tok;
}

double prof_slt_peek(MPI_Comm comm, int src, int tag)
{
    struct prof_shadow *s = src == MPI_PROC_NULL ? NULL : shadow_of(comm);
    double sent = -1;
    if (!s)
        return sent;
    prof_lock(&s->lock);
    int i = find_arrived(s, src, tag);
    if (i >= 0)
        sent = s->slt->v[i].tok.sent;
    prof_unlock(&s->lock);
    return sent;
}

uint64_t prof_slt_pop(MPI_Comm comm, int src, int tag, double *sent)
{
    struct prof_shadow *s = src == MPI_PROC_NULL ? NULL : shadow_of(comm);
    struct token t = s ? pop(s, src, tag) : unknown;
    *sent = t.sent;
    return t.key;
}

void prof_slt_received(struct prof_call *c, MPI_Comm comm, int *flag, MPI_Status *status)
{
    if (!prof_slt_on)
        return;
    c->slt_key = 0;
    c->slt_sent = -1;
    if (c->rc == MPI_SUCCESS && (!flag || *flag) && status && status != MPI_STATUS_IGNORE)
        c->slt_key = prof_slt_pop(comm, status->MPI_SOURCE, status->MPI_TAG, &c->slt_sent);
}

/* Withdraw the posted token receive of shadow s. */
static void unpost(struct prof_shadow *s)
{
    struct prof_slt_queue *q = s->slt;
    if (q && q->posted != MPI_REQUEST_NULL) {
        PMPI_Cancel(&q->posted);
        PMPI_Wait(&q->posted, MPI_STATUS_IGNORE);
    }
}

void prof_slt_queue_free(struct prof_shadow *s)
{
    unpost(s);
    if (s->slt)
        free(s->slt->v);
    free(s->slt);
    s->slt = NULL;
}

/* --- waiting for a token --------------------------------------------------- */

/* What a receive waits for: a token of (src, tag) on shadow s, or its data
 * (req complete, or a message there to probe for when req is NULL). */
struct want {
    struct prof_shadow *s;
    int src, tag;
    MPI_Comm comm;
    MPI_Request req;
};

static int data_there(const struct want *w)
{
    int flag = 0;
    if (w->req != MPI_REQUEST_NULL)
        PMPI_Request_get_status(w->req, &flag, MPI_STATUS_IGNORE);
    else
        PMPI_Iprobe(w->src, w->tag, w->comm, &flag, MPI_STATUS_IGNORE);
    return flag;
}

/* Until one of the n wants has its token or its data: the send-late time
 * (halved with MPIPROF_TEST_SKEW=late: a wrong figure on purpose). */
static uint64_t await(const struct want *w, int n)
{
    uint64_t t0 = prof_clock();
    for (unsigned spin = 0;; spin++) {
        for (int i = 0; i < n; i++)
            if (token_there(w[i].s, w[i].src, w[i].tag) || data_there(&w[i]))
                return (prof_clock() - t0) >> (prof_config.test_skew == PROF_SKEW_LATE);
        if (spin >= 64)
            sched_yield();
    }
}

/* --- hooks ---------------------------------------------------------------- */

static int tag_ub = INT_MAX;     /* MPI_TAG_UB, read once (prof_slt_start_run) */

/* Whether one side of a point-to-point call on comm (which has a shadow, so
 * is a communicator) can succeed, as far as arguments tell without an MPI
 * call: count >= 0, a datatype, peer a rank of comm's group (the remote
 * group of an intercommunicator) or MPI_PROC_NULL, tag from 0 to
 * MPI_TAG_UB; a receive (any) also takes MPI_ANY_SOURCE and MPI_ANY_TAG. */
static int p2p_ok(MPI_Comm comm, MPI_Count count, MPI_Datatype type, int peer, int tag, int any)
{
    const struct prof_comm_info *ci = prof_comm_info(comm);
    int n = ci->inter ? ci->remote_size : ci->size;
    return count >= 0 && type != MPI_DATATYPE_NULL &&
           ((peer >= 0 && peer < n) || peer == MPI_PROC_NULL || (any && peer == MPI_ANY_SOURCE)) &&
           ((tag >= 0 && tag <= tag_ub) || (any && tag == MPI_ANY_TAG));
}

int prof_slt_send(struct prof_call *c, MPI_Count count, MPI_Datatype type, int dst, int tag, MPI_Comm comm)
{
    now_and_then();
    struct prof_shadow *s = dst == MPI_PROC_NULL ? NULL : shadow_of(comm);
    if (s && p2p_ok(comm, count, type, dst, tag, 0))
        send_token(c, s, dst, tag);
    return 0;
}

/* The receive calls: with MPI-4.0 the large-count ones, as the count of a
 * _c variant (MPI_Recv_c) may not fit an int. */
#if MPI_VERSION >= 4
#define SLT_IRECV PMPI_Irecv_c
#define SLT_RECV PMPI_Recv_c
#else
#define SLT_IRECV PMPI_Irecv
#define SLT_RECV PMPI_Recv
#endif

/* A blocking receive: posted at once (an MPI_Rsend may count on it), then
 * the token, then the data. An unprofiled one only takes its token. */
int prof_slt_recv(struct prof_call *c, void *buf, MPI_Count count, MPI_Datatype type, int src, int tag, MPI_Comm comm,
                  MPI_Status *status, MPI_Request *req)
{
    c->slt_eval = 0;
    c->slt_sent = -1;
    now_and_then();
    struct prof_shadow *s = req || src == MPI_PROC_NULL ? NULL : shadow_of(comm);
    if (!s || !p2p_ok(comm, count, type, src, tag, 1))
        return 0;
    MPI_Status local, *st = status == MPI_STATUS_IGNORE ? &local : status;
    struct want w = { s, src, tag, comm, MPI_REQUEST_NULL };
    if (c->th) {
        c->rc = SLT_IRECV(buf, count, type, src, tag, comm, &w.req);
        if (c->rc != MPI_SUCCESS)
            return 1;
        c->slt_late = await(&w, 1);
        c->slt_eval = 1;
        c->rc = PMPI_Wait(&w.req, st);
    } else {
        c->rc = SLT_RECV(buf, count, type, src, tag, comm, st);
    }
    struct token t = c->rc == MPI_SUCCESS ? pop(s, st->MPI_SOURCE, st->MPI_TAG) : unknown;
    c->slt_key = t.key;
    c->slt_sent = t.sent;
    return 1;
}

int prof_slt_sendrecv(struct prof_call *c, MPI_Count scount, MPI_Datatype stype, int dst, int tag, MPI_Count rcount,
                      MPI_Datatype rtype, int src, int rtag, MPI_Comm comm)
{
    c->slt_eval = 0;
    struct prof_shadow *s = shadow_of(comm);
    if (!s || !p2p_ok(comm, scount, stype, dst, tag, 0) || !p2p_ok(comm, rcount, rtype, src, rtag, 1))
        return 0;
    if (dst != MPI_PROC_NULL)
        send_token(c, s, dst, tag);
    if (c->th && src != MPI_PROC_NULL) {
        struct want w = { s, src, rtag, comm, MPI_REQUEST_NULL };
        c->slt_late = await(&w, 1);
        c->slt_eval = 1;
    }
    return 0;
}

/* Persistent sends send their token at each start (when tracked). */
int prof_slt_start(struct prof_call *c, int n, MPI_Request *reqs)
{
    struct prof_request info;
    for (int i = 0; i < n && prof_request_any(); i++) {
        if (!prof_request_get(reqs[i], &info) || info.is_recv || info.local == MPI_PROC_NULL)
            continue;
        struct prof_shadow *s = shadow_of(info.comm);
        if (s)
            send_token(c, s, info.local, info.tag);
    }
    return 0;
}

int prof_slt_start1(struct prof_call *c, MPI_Request *req)
{
    return prof_slt_start(c, 1, req);
}

/* MPI_Mprobe waits like a receive; MPI_Improbe is not evaluated. */
int prof_slt_mprobe(struct prof_call *c, int src, int tag, MPI_Comm comm, int *flag)
{
    c->slt_eval = 0;
    struct prof_shadow *s = flag || !c->th || src == MPI_PROC_NULL ? NULL : shadow_of(comm);
    if (s && p2p_ok(comm, 0, MPI_BYTE, src, tag, 1)) {
        struct want w = { s, src, tag, comm, MPI_REQUEST_NULL };
        c->slt_late = await(&w, 1);
        c->slt_eval = 1;
    }
    return 0;
}

/* The tracked receives among a completion call's requests (th->taken, see
 * p2p.c) wait for their tokens: MPI_Wait and Waitall each in turn (t->slt
 * 1, t->late its own wait), Waitany and Waitsome for the first (t->slt 2,
 * c->slt_late the wait, shared by those the call completes); Test variants
 * do not wait. */
int prof_slt_wait(struct prof_call *c, int n, MPI_Request *reqs, int *index, int *flag, int *outcount)
{
    now_and_then();
    if (!c->th || flag || !c->rq_n)
        return 0;
    struct want w[64];
    struct prof_taken *ts[64];
    int nw = 0;
    for (int i = 0; i < c->rq_n && i < n; i++) {
        struct prof_taken *t = &c->th->taken[c->rq_base + i];
        const struct prof_request *info = &t->info;
        struct prof_shadow *s;
        if (t->state == 0 || !info->is_recv || (info->persistent && !info->active) ||
            info->local == MPI_PROC_NULL || !(s = shadow_of(info->comm)))
            continue;
        struct want one = { s, info->local, info->tag, info->comm, reqs[i] };
        if (index || outcount) {
            if (nw < 64) {
                ts[nw] = t;
                w[nw++] = one;
            }
        } else {
            t->late = await(&one, 1);
            t->slt = 1;
        }
    }
    if (nw) {                      /* one wait, shared by those that complete */
        c->slt_late = await(w, nw);
        for (int i = 0; i < nw; i++)
            ts[i]->slt = 2;
    }
    return 0;
}

int prof_slt_wait1(struct prof_call *c, MPI_Request *req, int *flag)
{
    return prof_slt_wait(c, 1, req, NULL, flag, NULL);
}

void prof_comm_created(struct prof_call *c, MPI_Comm *newcomm)
{
    if (prof_slt_on && c->rc == MPI_SUCCESS && *newcomm != MPI_COMM_NULL)
        prof_shadow_add(prof_shadow_key(PROF_SHADOW_COMM, newcomm, sizeof *newcomm), *newcomm);
}

void prof_slt_start_run(void)
{
    MPI_Comm world = MPI_COMM_WORLD, self = MPI_COMM_SELF;
    int *ub, flag = 0;
    if (PMPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag) == MPI_SUCCESS && flag)
        tag_ub = *ub;
    for (int i = 0; i < POOL; i++)
        pool.req[i] = MPI_REQUEST_NULL;
    prof_shadow_add(prof_shadow_key(PROF_SHADOW_COMM, &world, sizeof world), world);
    prof_shadow_add(prof_shadow_key(PROF_SHADOW_COMM, &self, sizeof self), self);
}

void prof_slt_finish(void)
{
    prof_shadow_each(PROF_SHADOW_COMM, unpost);
    prof_lock(&pool.lock);
    for (int i = 0; i < POOL; i++)
        if (pool.req[i] != MPI_REQUEST_NULL)
            PMPI_Request_free(&pool.req[i]);
    prof_unlock(&pool.lock);
}
