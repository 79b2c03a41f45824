/* tokens.c: the tokens of the point-to-point messages (see tokens.h):
 * the pool of token sends, each communicator's queue of tokens and list of
 * receives posted, the hooks around the point-to-point calls, and the
 * riders' hooks at a send, a posting and a token taken. Only when an
 * analysis wants them (late sender, wait states, the model): a token
 * message and a few MPI calls per message. One mutex guards this file's
 * state, taken only under MPI_THREAD_MULTIPLE (lock.h) and never across a
 * blocking call. */
#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "config.h"
#include "hmap.h"
#include "lock.h"
#include "module.h"
#include "next.h"
#include "prof.h"
#include "report.h"
#include "nodes.h"
#include "shadow.h"
#include "tokens.h"

/* The riders (tokens.h), and whether an analysis wants the tokens. */
static struct {
    const struct prof_rider *v[PROF_RIDERS_MAX];
    int n, order, late, wanted;
} riders;

static const struct prof_token unknown = { 0, -1, 0, 0, 0, { -1, 0, 0, 0 }, 0, 0, 0 };

/* Receives to evaluate when their token comes (tokens.h: prof_tokens_later):
 * a ring under the tokens' lock; one whose token never comes is
 * overwritten. id: LATER times the round plus the slot, 0 when free. The
 * receives one Wait variant completed are a group, of consecutive ids, of
 * GROUP_MAX at most: evaluated together once each has its token (or will
 * never have one), as their send-late times are parts of the call's one
 * wait (late_parts). */
#define LATER 1024
#define GROUP_MAX 64
#define LATE_NS 100000000      /* how long a shadow's freeing or MPI_Finalize takes coming tokens in */
static struct {
    struct later {
        uint64_t id, owner;        /* owner: the receiving thread's serial */
        uint64_t t0, t1;           /* the receive's wait */
        int noted;
        struct prof_later l;
        uint64_t first;            /* a group's: its first id (0: alone) */
        int size, left;            /* the first's: its receives, and those still to come (+1 until its call is done) */
        int has;                   /* a member's: its token came, with its sender's site and send-late time */
        uint64_t key, late;
    } v[LATER];
    uint64_t next;
    prof_later_fn found;
} later;

/* A send's token kept to go after its message (MPIPROF_TEST_TOKEN), stamped
 * as the send began: this thread's until its message is sent (prof_sent);
 * then, with next, the process's one until the next send (of any thread)
 * is, its shadow's freeing or MPI_Finalize. */
struct kept {
    int held;
    MPI_Comm shadow;
    int dst, tag;
    struct prof_token t;
};
static __thread struct {
    const struct prof_call *c;     /* the send it was kept for, while fresh */
    int fresh;
    struct kept k;
} after_msg __attribute__((tls_model("initial-exec")));
static struct {
    pthread_mutex_t lock;
    struct kept k;
} next_msg = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* A communicator's tokens in arrival order: arrived (at: when taken in),
 * or the place of one whose message was matched before it came: expected
 * (a receive will take it) or claimed (its receive went without it; the
 * token is dropped when it comes). Of one source and tag, the arrived ones
 * come first, then the places, in the order the messages were sent. */
enum { ARRIVED, EXPECTED, CLAIMED };

struct queued {
    int src, tag, state;
    uint64_t at;
    struct prof_token tok;
    uint64_t later;        /* claimed: the receive to evaluate when it comes (0: none) */
};

/* When the sender of queued token t sent (its clock, on this node) or,
 * from another node, when t arrived here. */
static uint64_t sent_at(const struct queued *t, uint64_t since)
{
    return prof_token_sent_at(&t->tok, t->at, since);
}

uint64_t prof_token_sent_at(const struct prof_token *t, uint64_t arrived, uint64_t since)
{
    uint64_t at;
    return prof_sync_token(t->at, t->node, t->from, arrived, since, &at) ? at : arrived;
}

/* The part of a wait from t0 to t1 before time x. */
static uint64_t before(uint64_t x, uint64_t t0, uint64_t t1)
{
    return prof_ticks_before(x, t0, t1) >> (prof_config.test_skew == PROF_SKEW_LATE);  /* a wrong figure on purpose */
}

/* A receive, from its posting until it has its token: a nonblocking one
 * (req), the started instance of a persistent one, a blocking call's (req
 * MPI_REQUEST_NULL), or one that completed with (got_src, got_tag) before
 * its position could be told (done). listed on q in posting order (seq).
 * The description of a persistent request is one too (persistent; never
 * listed): its starts send a token (a send) or list an instance (active). */
struct rx {
    MPI_Request req;
    MPI_Comm comm;
    struct prof_token_queue *q;
    int peer, tag;
    uint64_t bytes;            /* a persistent send's, with riders */
    struct prof_posting p;     /* a receive's posting, for the riders */
    int recv, persistent, nostatus, usable, done;
    int got_src, got_tag;
    uint64_t seq;
    struct rx *prev, *next;
    struct rx *active;
};

/* Batches (MPIPROF_TEST_TOKEN=batch, with late sender alone on the
 * tokens): the tokens to one process on one shadow kept in the order of
 * their messages (after each was sent) and sent as one message, of
 * late sender's part of each token (struct batched), when BATCH are kept,
 * at the first hook BATCH_NS after the oldest kept token (any shadow's),
 * when KEPT_MAX are kept in all (so that the receives waiting for them,
 * tokens.h's LATER, are not overwritten), at the shadow's freeing and at
 * MPI_Finalize. The receiver takes a batch in token by token; its
 * receives are evaluated as their tokens come (evaluate_late). Each token
 * is then a 32nd of a message or less, where it was one. */
#define BATCH 32
#define BATCH_NS 1000000
#define KEPT_MAX 512

struct batched {
    int32_t tag, from;
    uint64_t key, at, node;
};

#define QUEUE_MAX 65536u   /* tokens kept per communicator */

struct prof_token_queue {
    struct queued *v;      /* n entries, room for cap from v: within the allocation at base, */
    struct queued *base;   /* whose first ones are the ones taken off the front (cut) */
    uint32_t n, cap;
    uint32_t places;       /* expected or claimed entries in v */
    uint32_t deferred;     /* done receives listed */
    uint32_t front;        /* the first entries of v, all claimed (nth need not look at them) */
    uint32_t missed;       /* with batches: receives without their token since the last test (find_token) */
    struct rx *head, *tail;
    uint64_t seq;
    MPI_Comm comm;         /* the shadow */
    MPI_Comm reply;        /* the reply shadow (shadow.h) */
    MPI_Request posted;    /* a receive of any token (a batch: batched()), kept */
    union {                /* posted so that it lands at once instead of waiting to be probed */
        struct prof_token token;
        struct batched in[BATCH];
    } got;
};

static struct {
    pthread_mutex_t lock;
    struct prof_hmap reqs; /* request handle -> struct rx: receives pending, persistent requests */
    struct rx *spare;
} tokens = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* The queues of shadows freed while tokens were still to come to them
 * (claimed places: their senders had not sent them yet, as with batches):
 * each keeps its duplicate communicator and its posted token receive,
 * and is freed with them once its tokens came (taken in at the shadows'
 * freeing and every DRAIN_EVERY hooks) or at MPI_Finalize. Tokens' lock. */
struct retired {
    struct prof_token_queue *q;
    struct retired *next;
};
static struct retired *retired;

/* Token sends in flight: a ring; a slot is reused once its send completed
 * (a token is small: sent eagerly, complete at once in practice). The
 * first token on a shadow to a process is tested until it is out, for
 * FIRST_NS at most: a transport that connects lazily (Open MPI's TCP
 * between nodes) moves a new connection on only while the process is in an
 * MPI call, so a token left to complete in the background could arrive a
 * whole run late (a rank that computes between short calls), and its
 * receiver, whose call waits for it (a rooted collective's root), wait
 * for it as long. Never waited for outright: the other process may need
 * to progress first (MPICH's UCX over shared memory, whose first message
 * to a process waited for that process's next call, hung). */
#define FIRST_NS 2000000
#define POOL 256

struct batch {
    MPI_Comm shadow;
    int dst, n;
    struct batch *next;        /* every batch made */
    struct batched v[BATCH];
};

static struct {
    pthread_mutex_t lock;
    unsigned next;
    MPI_Request req[POOL];
    union {
        struct prof_token one;
        struct batched many[BATCH];
    } msg[POOL];
    struct prof_hmap sent;     /* the (shadow, destination) pairs a token went to */
    struct prof_hmap batch;    /* (shadow, destination) -> its struct batch */
    struct batch *batches;
    unsigned kept;             /* tokens kept in the batches */
    uint64_t due;              /* when the batches go (0: none kept) */
} pool = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* The receive and send calls the hooks make: with MPI-4.0 the large-count
 * ones, as the count of a _c variant (MPI_Recv_c) may not fit an int. */
#if MPI_VERSION >= 4
#define TOK_IRECV PMPI_Irecv_c
#define TOK_ISEND PMPI_Isend_c
#define TOK_RECV PMPI_Recv_c
#define TOK_SENDRECV PMPI_Sendrecv_c
#define TOK_SENDRECV_REPLACE PMPI_Sendrecv_replace_c
#define TOK_PACK_SIZE PMPI_Pack_size_c
#define TOK_PACK PMPI_Pack_c
typedef MPI_Count tok_count;
#else
#define TOK_IRECV PMPI_Irecv
#define TOK_ISEND PMPI_Isend
#define TOK_RECV PMPI_Recv
#define TOK_SENDRECV PMPI_Sendrecv
#define TOK_SENDRECV_REPLACE PMPI_Sendrecv_replace
#define TOK_PACK_SIZE PMPI_Pack_size
#define TOK_PACK PMPI_Pack
typedef int tok_count;
#endif

/* Token send *req tested until it is out, or CLOCK_MONOTONIC's until. */
static void out_by(MPI_Request *req, uint64_t until)
{
    int done = *req == MPI_REQUEST_NULL;
    while (!done && PMPI_Test(req, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && prof_clock_mono_ns() < until)
        ;
}

/* Token t stamped with the time now, as it travels (nodes.h). */
static void stamp(struct prof_token *t)
{
    t->at = prof_sync_out(prof_clock());
    t->node = prof_sync_node();
    t->from = prof_sync_from();
}

static uint64_t pair_of(MPI_Comm comm, int dst)
{
    return PROF_HKEY(comm) * 1099511628211ULL ^ ((uint64_t)(unsigned)dst + 1);
}

/* Send the bytes at buf (a token, or a batch) to dst with tag on comm
 * (pool's lock held). */
static void pool_isend(MPI_Comm comm, int dst, int tag, const void *buf, size_t bytes)
{
    unsigned i = pool.next++ % POOL;
    if (pool.req[i] != MPI_REQUEST_NULL)
        PMPI_Wait(&pool.req[i], MPI_STATUS_IGNORE);
    memcpy(&pool.msg[i], buf, bytes);
    if (PMPI_Isend(&pool.msg[i], (int)bytes, MPI_BYTE, dst, tag, comm, &pool.req[i]) != MPI_SUCCESS)
        pool.req[i] = MPI_REQUEST_NULL;
    uint64_t pair = pair_of(comm, dst);
    if (pool.req[i] != MPI_REQUEST_NULL && !prof_hmap_get(&pool.sent, pair)) {
        out_by(&pool.req[i], prof_clock_mono_ns() + FIRST_NS);
        prof_hmap_put(&pool.sent, pair, &pool);
    }
}

/* Send token t (stamped) to dst with tag on comm. */
static void token_isend(MPI_Comm comm, int dst, int tag, const struct prof_token *t)
{
    prof_lock(&pool.lock);
    pool_isend(comm, dst, tag, t, sizeof *t);
    prof_unlock(&pool.lock);
}

/* Batch b goes (pool's lock held). */
static void batch_goes(struct batch *b)
{
    if (b->n)
        pool_isend(b->shadow, b->dst, 0, b->v, (size_t)b->n * sizeof *b->v);
    pool.kept -= (unsigned)b->n;
    b->n = 0;
    if (!pool.kept)
        __atomic_store_n(&pool.due, 0, __ATOMIC_RELAXED);
}

/* Every batch goes (on shadow only, unless MPI_COMM_NULL; pool's lock
 * held). */
static void each_goes(MPI_Comm shadow)
{
    for (struct batch *b = pool.batches; pool.kept && b; b = b->next)
        if (shadow == MPI_COMM_NULL || b->shadow == shadow)
            batch_goes(b);
}

static void batches_go(MPI_Comm shadow)
{
    prof_lock(&pool.lock);
    each_goes(shadow);
    prof_unlock(&pool.lock);
}

/* Token t (stamped) of a message to dst with tag on shadow kept in its
 * batch, which goes when full; alone without memory for a batch. */
static void batch_add(MPI_Comm shadow, int dst, int tag, const struct prof_token *t)
{
    struct batched one = { tag, t->from, t->key, t->at, t->node };
    uint64_t pair = pair_of(shadow, dst);
    prof_lock(&pool.lock);
    struct batch *b = prof_hmap_get(&pool.batch, pair);
    if (!b && (b = malloc(sizeof *b))) {
        if (prof_hmap_put(&pool.batch, pair, b) == 0) {
            b->shadow = shadow;
            b->dst = dst;
            b->n = 0;
            b->next = pool.batches;
            pool.batches = b;
        } else {
            free(b);
            b = NULL;
        }
    }
    if (!b || b->shadow != shadow || b->dst != dst) {     /* no memory, or another pair's key */
        pool_isend(shadow, dst, 0, &one, sizeof one);
        prof_unlock(&pool.lock);
        return;
    }
    if (!pool.kept++)
        __atomic_store_n(&pool.due, prof_clock() + prof_clock_span(BATCH_NS), __ATOMIC_RELAXED);
    b->v[b->n++] = one;
    if (b->n == BATCH)
        batch_goes(b);
    if (pool.kept >= KEPT_MAX)
        each_goes(MPI_COMM_NULL);
    prof_unlock(&pool.lock);
}

void prof_token_isend(MPI_Comm comm, int dst, int tag, uint64_t key, double sent)
{
    struct prof_token t = unknown;
    t.key = key;
    t.sent = sent;
    stamp(&t);
    token_isend(comm, dst, tag, &t);
}

void prof_token_send_cause(MPI_Comm comm, int dst, int tag, const struct prof_cause *cause, uint64_t mark)
{
    struct prof_token t = unknown;
    t.cause = *cause;
    t.mark = mark;
    stamp(&t);
    token_isend(comm, dst, tag, &t);
}

int prof_token_recv_full(MPI_Comm comm, int src, int tag, struct prof_token *t)
{
    *t = unknown;
    return PMPI_Recv(t, (int)sizeof *t, MPI_BYTE, src, tag, comm, MPI_STATUS_IGNORE) == MPI_SUCCESS ? 0 : -1;
}

int prof_token_recv_cause(MPI_Comm comm, int src, int tag, uint64_t since, struct prof_cause *cause, uint64_t *sent)
{
    struct prof_token t;
    int rc = prof_token_recv_full(comm, src, tag, &t);
    *sent = prof_token_sent_at(&t, prof_clock(), since);
    *cause = t.cause;
    return rc;
}

double prof_token_recv(MPI_Comm comm, int src, int tag, uint64_t *key)
{
    struct prof_token t = unknown;
    int ok = PMPI_Recv(&t, (int)sizeof t, MPI_BYTE, src, tag, comm, MPI_STATUS_IGNORE) == MPI_SUCCESS;
    if (key)
        *key = ok ? t.key : 0;
    return ok ? t.sent : -1;
}

static struct prof_shadow *shadow_of(MPI_Comm comm)
{
    return comm == MPI_COMM_NULL ? NULL : prof_shadow_find(prof_shadow_key(PROF_SHADOW_COMM, &comm, sizeof comm));
}

/* The token queue of comm, made on first use; NULL without a shadow or
 * memory. */
static struct prof_token_queue *queue_of(MPI_Comm comm)
{
    struct prof_shadow *s = shadow_of(comm);
    if (!s)
        return NULL;
    struct prof_token_queue *q = __atomic_load_n(&s->tokens, __ATOMIC_ACQUIRE);
    if (q)
        return q;
    prof_lock(&tokens.lock);
    if (!s->tokens && (q = calloc(1, sizeof *q))) {
        q->posted = MPI_REQUEST_NULL;
        q->comm = s->comm;
        q->reply = s->reply;
        __atomic_store_n(&s->tokens, q, __ATOMIC_RELEASE);
    }
    q = s->tokens;
    prof_unlock(&tokens.lock);
    return q;
}

/* The bytes of count items of type, for the riders (0 when not known,
 * or nobody rides). */
static uint64_t msg_bytes(MPI_Count count, MPI_Datatype type)
{
    MPI_Count size = 0;
    return riders.n && count > 0 && PMPI_Type_size_x(type, &size) == MPI_SUCCESS && size > 0
               ? (uint64_t)count * (uint64_t)size : 0;
}

static void next_goes(MPI_Comm shadow, const struct kept *k);

/* Whether the tokens of messages go in batches: asked for, and no rider
 * waits for an answer to them when their receives complete. */
static int batched(void)
{
    return prof_config.test_token == PROF_TOKEN_BATCH && !riders.n;
}

/* The token t (stamped) of a message to dst with tag on shadow goes, or
 * joins its batch. */
static void token_goes(MPI_Comm shadow, int dst, int tag, const struct prof_token *t)
{
    if (batched())
        batch_add(shadow, dst, tag, t);
    else
        token_isend(shadow, dst, tag, t);
}

/* The token of a send by the call c: its call site. */
static struct prof_token token_of(const struct prof_call *c)
{
    struct prof_token t = unknown;
    t.key = prof_call_key(c);
    t.sent = 0;
    return t;
}

/* The token of a send of bytes by the call c on shadow comm: its call site
 * and what the riders put in (the answer they want on reply). */
static void send_token(const struct prof_call *c, MPI_Comm shadow, MPI_Comm reply, int dst, int tag, uint64_t bytes)
{
    if (prof_config.test_token == PROF_TOKEN_NEXT)      /* the tokens in the order of their messages */
        next_goes(MPI_COMM_NULL, NULL);
    struct prof_token t = token_of(c);
    for (int i = 0; i < riders.n; i++)
        if (riders.v[i]->send)
            riders.v[i]->send(c, bytes, reply, dst, &t);
    stamp(&t);
    token_goes(shadow, dst, tag, &t);
}

/* Whether a send's token goes after its message: asked for, and no rider
 * waits for an answer to it when its receive completes. */
static int after_message(void)
{
    return prof_config.test_token != PROF_TOKEN_BEFORE && !riders.n;
}

/* The token kept in k, if any, goes (on shadow only, unless MPI_COMM_NULL). */
static void kept_goes(struct kept *k, MPI_Comm shadow)
{
    if (k->held && (shadow == MPI_COMM_NULL || shadow == k->shadow)) {
        token_goes(k->shadow, k->dst, k->tag, &k->t);
        k->held = 0;
    }
}

/* next: the token kept goes (on shadow only, unless MPI_COMM_NULL), and
 * the one in k (unless NULL) is kept in its place. */
static void next_goes(MPI_Comm shadow, const struct kept *k)
{
    prof_lock(&next_msg.lock);
    kept_goes(&next_msg.k, shadow);
    if (k)
        next_msg.k = *k;
    prof_unlock(&next_msg.lock);
}

/* The token of a send by c, kept until its message is sent (around_sent). */
static void keep_token(const struct prof_call *c, MPI_Comm shadow, int dst, int tag)
{
    struct kept k = { 1, shadow, dst, tag, token_of(c) };
    stamp(&k.t);
    after_msg.c = c;
    after_msg.fresh = 1;
    after_msg.k = k;
}

/* A receive's posting by c, as the riders note it. */
static struct prof_posting posting(const struct prof_call *c)
{
    struct prof_posting p = { -1, 0, { -1, 0, 0, 0 } };
    for (int i = 0; i < riders.n; i++)
        if (riders.v[i]->posted)
            riders.v[i]->posted(c, &p);
    return p;
}

/* Receive e took token t from src (lock held): the riders' answers. */
static void answer(const struct rx *e, int src, struct prof_token *t)
{
    for (int i = 0; i < riders.n; i++)
        if (riders.v[i]->taken)
            riders.v[i]->taken(&e->p, e->comm, e->q ? e->q->reply : MPI_COMM_NULL, src, t);
}

static uint64_t hkey(MPI_Request req)
{
    return PROF_HKEY(req);
}

static int matches(int spec, int v, int any)
{
    return spec == any || spec == v;
}

/* --- the token queue (lock held) ------------------------------------------ */

/* Room for one more entry at the end of q: the entries moved back to the
 * start of their allocation when a quarter of it or more was taken off the
 * front (or when a twice larger one cannot be had), else a twice larger
 * one. */
static int room(struct prof_token_queue *q)
{
    if (q->n < q->cap)
        return 1;
    size_t off = (size_t)(q->v - q->base);
    uint32_t all = q->cap + (uint32_t)off, cap = all ? 2 * all : 64;
    struct queued *v = (!off || off < all / 4) && cap <= QUEUE_MAX ? realloc(q->base, cap * sizeof *v) : NULL;
    if (!v && !off)
        return 0;
    if (!v) {              /* the room taken off the front */
        v = q->base;
        cap = all;
    }
    memmove(v, v + off, q->n * sizeof *v);
    q->base = q->v = v;
    q->cap = cap;
    return 1;
}

/* Entry i leaves q: the first one by moving the start on (the oldest are
 * taken first), another by closing up. */
static void cut(struct prof_token_queue *q, uint32_t i)
{
    if (q->v[i].state != ARRIVED)
        q->places--;
    if (i < q->front)
        q->front--;
    if (i == 0) {
        q->v++;
        q->cap--;
    } else {
        memmove(q->v + i, q->v + i + 1, (q->n - i - 1) * sizeof *q->v);
    }
    q->n--;
}

static void member_came(struct later *e, const struct prof_token *t, uint64_t late);
static void parts_anew(uint64_t first, int n);

/* Receive id's token t came at now (lock held): its figures, on the thread
 * that received, when late sender noted them (a group's once all came).
 * Only with the sender's send time on this node's clock (its node's, or
 * synchronized): its arrival, long after the receive, tells nothing (the
 * receive stays not evaluated). */
static void evaluate_late(uint64_t id, const struct prof_token *t, uint64_t now)
{
    struct later *e = &later.v[id % LATER];
    const struct prof_thread *th = prof_tl;
    uint64_t at = 0;
    if (e->id != id)
        return;
    int known = prof_sync_token(t->at, t->node, t->from, now, e->t0, &at);
    uint64_t late = known ? before(at, e->t0, e->t1) : 0;
    if (e->first) {
        member_came(e, known ? t : NULL, late);
        return;
    }
    if (known && e->l.sends) {     /* its call's parts made anew with its sends' */
        e->has = 1;
        e->key = t->key;
        e->late = late;
        parts_anew(id, 1);
        return;
    }
    e->id = 0;
    if (known && e->noted && th && th->serial == e->owner)     /* the call's parts stay: it took them all */
        later.found(&e->l, 1, t->key, late, e->l.wait, 0);
}

/* A token came from src with tag: it fills the first place of its source
 * and tag (a claimed one's receive is evaluated), or joins the queue (the
 * oldest token goes when it is full). */
static void arrived(struct prof_token_queue *q, int src, int tag, struct prof_token tok)
{
    uint64_t now = prof_clock();
    for (uint32_t i = 0; q->places && i < q->n; i++) {
        struct queued *e = &q->v[i];
        if (e->src != src || e->tag != tag || e->state == ARRIVED)
            continue;
        if (e->state == CLAIMED) {
            uint64_t id = e->later;
            cut(q, i);
            if (id)
                evaluate_late(id, &tok, now);
        } else {
            q->places--;
            *e = (struct queued){ src, tag, ARRIVED, now, tok, 0 };
        }
        return;
    }
    if (!room(q)) {
        if (!q->n)
            return;
        cut(q, 0);
        room(q);       /* the place it left */
    }
    q->v[q->n++] = (struct queued){ src, tag, ARRIVED, now, tok, 0 };
}

/* q's token receive posted, if it is not (0), or -1. */
static int post_token(struct prof_token_queue *q)
{
    if (q->posted != MPI_REQUEST_NULL)
        return 0;
    int bytes = batched() ? (int)sizeof q->got.in : (int)sizeof q->got.token;
    if (PMPI_Irecv(&q->got, bytes, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, q->comm, &q->posted) == MPI_SUCCESS)
        return 0;
    q->posted = MPI_REQUEST_NULL;
    return -1;
}

/* q's token receive got st: a token, whose message's tag is its own, or
 * a batch of them (batched(); one alone when its sender had no memory
 * for a batch). */
static void came(struct prof_token_queue *q, const MPI_Status *st)
{
    int bytes = 0;
    if (!batched()) {
        arrived(q, st->MPI_SOURCE, st->MPI_TAG, q->got.token);
        return;
    }
    PMPI_Get_count(st, MPI_BYTE, &bytes);
    for (int i = 0; i < bytes / (int)sizeof *q->got.in; i++) {
        const struct batched *b = &q->got.in[i];
        struct prof_token t = unknown;
        t.key = b->key;
        t.at = b->at;
        t.node = b->node;
        t.from = b->from;
        arrived(q, st->MPI_SOURCE, b->tag, t);
    }
}

/* Take in the tokens that have arrived, and keep a token receive posted. */
static void drain(struct prof_token_queue *q)
{
    int flag = 0;
    MPI_Status st;
    while (post_token(q) == 0 && PMPI_Test(&q->posted, &flag, &st) == MPI_SUCCESS && flag)
        came(q, &st);
}

/* The tokens known to be coming to q: the places of messages received
 * before their tokens came (lock held). */
static uint32_t claimed_in(const struct prof_token_queue *q)
{
    uint32_t n = 0;
    for (uint32_t i = 0; q && i < q->n; i++)
        n += q->v[i].state == CLAIMED;
    return n;
}

/* The index in q->v of the token of (src, tag) at position pos (from 0)
 * among those not yet taken (claimed places are taken); with grow, places
 * are added up to it. -1 when there is none. */
static int nth(struct prof_token_queue *q, int src, int tag, int pos, int grow)
{
    int seen = 0;
    for (uint32_t i = q->front; i < q->n; i++)
        if (q->v[i].src == src && q->v[i].tag == tag && q->v[i].state != CLAIMED && seen++ == pos)
            return (int)i;
    for (; grow && seen <= pos; seen++) {
        if (!room(q))
            return -1;
        q->v[q->n++] = (struct queued){ src, tag, EXPECTED, 0, unknown, 0 };
        q->places++;
    }
    return grow ? (int)q->n - 1 : -1;
}

/* --- the receives posted (lock held) -------------------------------------- */

static struct rx *rx_new(void)
{
    struct rx *e = tokens.spare;
    if (e)
        tokens.spare = e->next;
    else if (!(e = malloc(sizeof *e)))
        return NULL;
    memset(e, 0, sizeof *e);
    e->req = MPI_REQUEST_NULL;
    return e;
}

static void rx_free(struct rx *e)
{
    e->next = tokens.spare;
    tokens.spare = e;
}

static void list(struct prof_token_queue *q, struct rx *e)
{
    e->q = q;
    e->seq = ++q->seq;
    e->next = NULL;
    e->prev = q->tail;
    if (q->tail)
        q->tail->next = e;
    else
        q->head = e;
    q->tail = e;
}

static void unlist(struct rx *e)
{
    struct prof_token_queue *q = e->q;
    if (!q)
        return;
    if (e->prev)
        e->prev->next = e->next;
    else
        q->head = e->next;
    if (e->next)
        e->next->prev = e->prev;
    else
        q->tail = e->prev;
    if (e->done)
        q->deferred--;
    e->q = NULL;
}

static void drop(struct rx *e)
{
    unlist(e);
    rx_free(e);
}

/* Whether the pending receive p, posted earlier, holds a message of (src,
 * tag) that it has not taken the token of: 1 or 0, or -1 when that cannot
 * be told (p has a wildcard that (src, tag) matches and is not complete). */
static int holds(const struct rx *p, int src, int tag)
{
    if (!matches(p->peer, src, MPI_ANY_SOURCE) || !matches(p->tag, tag, MPI_ANY_TAG))
        return 0;
    if (p->done)
        return p->got_src == src && p->got_tag == tag;
    if (p->peer == src && p->tag == tag)
        return 1;
    int flag = 0, cancelled = 0;
    MPI_Status st;
    if (p->req == MPI_REQUEST_NULL || PMPI_Request_get_status(p->req, &flag, &st) != MPI_SUCCESS || !flag)
        return -1;
    PMPI_Test_cancelled(&st, &cancelled);
    return !cancelled && st.MPI_SOURCE == src && st.MPI_TAG == tag;
}

/* The position among the tokens of (src, tag) not yet taken of the
 * message that a receive posted at seq got: the receives posted before it
 * that hold earlier messages of (src, tag) come first. -1: not known yet. */
static int position(const struct prof_token_queue *q, uint64_t seq, int src, int tag)
{
    int k = 0;
    for (const struct rx *p = q->head; p && p->seq < seq; p = p->next) {
        int h = holds(p, src, tag);
        if (h < 0)
            return -1;
        k += h;
    }
    return k;
}

/* Receive e's token: at position k of (src, tag), taken out if it has
 * arrived (1, in *t), else its place claimed (0) for the receive id to
 * evaluate when it comes (0: none). */
static int take(struct prof_token_queue *q, int src, int tag, int k, struct queued *t, uint64_t id)
{
    int i = nth(q, src, tag, k, 1);
    if (i < 0)
        return 0;
    if (q->v[i].state != ARRIVED) {
        q->v[i].state = CLAIMED;
        q->v[i].later = id;
        while (q->front < q->n && q->v[q->front].state == CLAIMED)
            q->front++;
        return 0;
    }
    *t = q->v[i];
    cut(q, (uint32_t)i);
    return 1;
}

/* Whether a token of src that came before the (k+1)-th of (src, tag) is
 * still there, not taken: its message was sent before that one and is
 * not received yet (the tokens of one sender come in the order sent). */
static int sent_before(struct prof_token_queue *q, int src, int tag, int k)
{
    int i = nth(q, src, tag, k, 0);
    for (int j = 0; j < i; j++)
        if (q->v[j].src == src && q->v[j].tag != tag && q->v[j].state == ARRIVED)
            return 1;
    return 0;
}

/* Done receives whose position can be told now take their token (their
 * figures were counted, not evaluated). */
static void settle(struct prof_token_queue *q)
{
    struct queued t;
    for (struct rx *p = q->head, *next; q->deferred && p; p = next) {
        next = p->next;
        if (!p->done)
            continue;
        int k = position(q, p->seq, p->got_src, p->got_tag);
        if (k < 0)
            continue;
        if (take(q, p->got_src, p->got_tag, k, &t, 0))
            answer(p, p->got_src, &t.tok);
        drop(p);
    }
}

/* A receive leaves without a message (cancelled, failed, freed). */
static void forget(struct rx *e)
{
    struct prof_token_queue *q = e->q;
    drop(e);
    if (q)
        settle(q);
}

/* The token of the message of (src, tag) that a receive posted at seq
 * got: its index in q if it has arrived, else -1; its position in *k
 * (-1: not known yet). */
static int arrived_token(struct prof_token_queue *q, uint64_t seq, int src, int tag, int *k)
{
    *k = position(q, seq, src, tag);
    int i = *k < 0 ? -1 : nth(q, src, tag, *k, 0);
    return i >= 0 && q->v[i].state == ARRIVED ? i : -1;
}

/* The same, with the tokens that came in taken in first if it has not
 * arrived (tokens come before their data). With batches, whose tokens come
 * after most of their messages, the token receive is tested once every
 * BATCH receives that found no token: a test is a progress call of the
 * MPI (over TCP a poll of its sockets, a microsecond or more), which at
 * every receive cost more than the tokens saved; a late token's receive is
 * evaluated when it comes, with the same figures. */
static int find_token(struct prof_token_queue *q, uint64_t seq, int src, int tag, int *k)
{
    int i = arrived_token(q, seq, src, tag, k);
    if (i < 0 && (!batched() || ++q->missed >= BATCH)) {
        q->missed = 0;
        drain(q);
        i = arrived_token(q, seq, src, tag, k);
    }
    return i;
}

/* What a completed receive learnt: its token, and whether its send-late
 * time was measured (or will be: later). */
struct got {
    int eval, wrong;
    uint64_t late, later;
    struct prof_token tok;
};

/* What a receive's completion tells of its sender (around.h). */
static struct prof_sender sender_of(const struct got *g)
{
    return (struct prof_sender){ g->tok.key, g->tok.sent, g->late, g->eval, g->wrong, g->tok.cause, g->later };
}

/* n receives that waited from t0 to t1, to evaluate when their tokens
 * come (lock held): the first of their n consecutive ids (a group when n >
 * 1), 0 when they cannot be (late sender is not alone on the tokens, or
 * no thread state). */
static uint64_t later_new(int n, uint64_t t0, uint64_t t1)
{
    const struct prof_thread *th = prof_tl;
    if (riders.n || !later.found || !th || n > GROUP_MAX)
        return 0;
    uint64_t first = later.next + 1;
    for (int k = 0; k < n; k++) {
        uint64_t id = ++later.next;
        later.v[id % LATER] = (struct later){ .id = id, .owner = th->serial, .t0 = t0, .t1 = t1, .l.world = -1,
                                              .first = n > 1 ? first : 0, .size = n, .left = n + 1 };
    }
    return first;
}

void prof_tokens_later(uint64_t id, const struct prof_later *l)
{
    prof_lock(&tokens.lock);
    struct later *e = &later.v[id % LATER];
    if (id && e->id == id) {
        e->l = *l;
        e->noted = 1;
    }
    prof_unlock(&tokens.lock);
}

/* The receives one call completed, a group made when one of them is the
 * first to need it (lock held): the member id of the k-th, 0 when none can
 * be made. */
struct grouping {
    int n, k;
    uint64_t first;
};

static uint64_t member_id(struct grouping *grp, uint64_t t0, uint64_t t1)
{
    if (!grp->first)
        grp->first = later_new(grp->n, t0, t1);
    return grp->first ? grp->first + (uint64_t)grp->k : 0;
}

/* Receive e completed with status st (NULL: failed, or no status to tell),
 * in a call that waited from t0 to t1 (t0 0: it did not wait). Its
 * send-late time is the wait before its token came, within the call; with
 * defer, if the token has not come, when it comes (with grp, as a member
 * of the group of the call's receives). e is unlisted and
 * freed, unless its position cannot be told yet (it stays, done). */
static struct got completed(struct rx *e, const MPI_Status *st, uint64_t t0, uint64_t t1, int defer,
                            struct grouping *grp)
{
    struct got g = { 0, 0, 0, 0, unknown };
    struct prof_token_queue *q = e->q;
    int src = e->peer, tag = e->tag, cancelled = 0;
    if (st && !e->nostatus) {
        PMPI_Test_cancelled(st, &cancelled);
        src = st->MPI_SOURCE;
        tag = st->MPI_TAG;
    }
    if (!q || !st || cancelled || src == MPI_PROC_NULL || src == MPI_ANY_SOURCE || tag == MPI_ANY_TAG) {
        forget(e);
        return g;
    }
    int k, here = find_token(q, e->seq, src, tag, &k) >= 0;
    if (k < 0) {
        e->done = 1;
        e->got_src = src;
        e->got_tag = tag;
        q->deferred++;
        return g;
    }
    struct queued t;
    g.wrong = riders.order && sent_before(q, src, tag, k);
    uint64_t id = here || !t0 ? 0 : grp ? member_id(grp, t0, t1) : defer ? later_new(1, t0, t1) : 0;
    if (take(q, src, tag, k, &t, id)) {
        answer(e, src, &t.tok);
        g.tok = t.tok;
        if (t0) {
            g.eval = 1;
            g.late = before(sent_at(&t, t0), t0, t1);
        }
    } else {
        g.later = id;
    }
    forget(e);
    return g;
}

/* A blocking call's receive on q, listed now: NULL without memory. */
static struct rx *listed(const struct prof_call *c, struct prof_token_queue *q, MPI_Comm comm, int src, int tag)
{
    struct prof_posting p = posting(c);
    prof_lock(&tokens.lock);
    struct rx *e = rx_new();
    if (e) {
        e->p = p;
        e->comm = comm;
        e->peer = src;
        e->tag = tag;
        e->recv = 1;
        list(q, e);
    }
    prof_unlock(&tokens.lock);
    return e;
}

/* The end of a blocking call's receive e (st NULL: it got nothing): its
 * figures in c (defer: completed's). */
static void received(struct prof_call *c, struct rx *e, const MPI_Status *st, uint64_t t0, uint64_t t1, int defer)
{
    prof_lock(&tokens.lock);
    struct got g = completed(e, st, t0, t1, defer, NULL);
    prof_unlock(&tokens.lock);
    c->sender = sender_of(&g);
}

static void no_figures(struct prof_call *c)
{
    c->sender = PROF_SENDER_NONE;
}

/* --- waiting as the program's call waits ----------------------------------- */

/* Until ready(arg) says the program's call would return now, the tokens of
 * the n queues are taken in as they come (their arrival times are what the
 * send-late figures are made of). The operations themselves are all posted
 * already: the caller never waits for a token. It polls as the MPI's own
 * wait does, giving the processor away (after 64 polls) only on an
 * oversubscribed node, as Open MPI yields when idle only there: a yield
 * elsewhere would let a process that shares this one's core run where the
 * program's own wait would not, and the profiled run be faster than the
 * program's (two ranks bound to one core, 4 ms a message unprofiled, NPB
 * CG 16 times faster under late sender). */
static void await(struct prof_token_queue *const *qs, int n, int (*ready)(void *), void *arg)
{
    for (unsigned spin = 0;; spin++) {
        prof_lock(&tokens.lock);
        for (int i = 0; i < n; i++)
            drain(qs[i]);
        prof_unlock(&tokens.lock);
        if (ready(arg))
            return;
        if (spin >= 64 && prof_run.oversubscribed)
            sched_yield();
    }
}

/* The requests a hook made for the program (MPI_Recv's, a send-receive's)
 * completed, their statuses in sts, while the tokens of q come in: one
 * MPI_Waitany over them and q's token receive, repeated, which returns as
 * soon as either a token or the data is there. Under MPI_THREAD_MULTIPLE,
 * where another thread may be taking q's tokens in, polled instead.
 * Returns the first error, or MPI_SUCCESS. */
static int complete_own(struct prof_token_queue *q, MPI_Request *r, int n, MPI_Status *sts);

/* Requests a Wait variant waits for: all of them, or any. */
struct waiting {
    MPI_Request *reqs;
    int n, any, from;
};

static int reqs_ready(void *arg)
{
    struct waiting *w = arg;
    int flag = 0, live = 0;
    for (int i = w->any ? 0 : w->from; i < w->n; i++) {
        if (w->reqs[i] == MPI_REQUEST_NULL)
            continue;
        if (PMPI_Request_get_status(w->reqs[i], &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            return 1;       /* the program's call reports it */
        if (w->any && flag)
            return 1;
        if (!w->any && !flag) {
            w->from = i;
            return 0;
        }
        live = 1;
    }
    return !w->any || !live;
}

static int complete_own(struct prof_token_queue *q, MPI_Request *r, int n, MPI_Status *sts)
{
    if (prof_run.thread_level == MPI_THREAD_MULTIPLE) {
        struct waiting w = { r, n, 0, 0 };
        await(&q, 1, reqs_ready, &w);
        int rc = PMPI_Waitall(n, r, sts);
        for (int i = 0; rc == MPI_ERR_IN_STATUS && i < n; i++)
            if (sts[i].MPI_ERROR != MPI_SUCCESS)
                return sts[i].MPI_ERROR;
        return rc;
    }
    MPI_Request all[3];
    int left = n, err = MPI_SUCCESS;
    while (left > 0) {
        if (q->posted == MPI_REQUEST_NULL)
            drain(q);
        all[0] = q->posted;
        for (int i = 0; i < n; i++)
            all[1 + i] = r[i];
        int idx = MPI_UNDEFINED;
        MPI_Status st;
        int rc = PMPI_Waitany(n + 1, all, &idx, &st);
        if (idx == 0) {                      /* a token */
            q->posted = MPI_REQUEST_NULL;
            if (rc == MPI_SUCCESS)
                came(q, &st);
            continue;
        }
        if (idx == MPI_UNDEFINED || idx > n)
            return rc != MPI_SUCCESS ? rc : MPI_ERR_INTERN;
        r[idx - 1] = MPI_REQUEST_NULL;
        sts[idx - 1] = st;
        if (rc != MPI_SUCCESS && err == MPI_SUCCESS)
            err = rc;
        left--;
    }
    return err;
}

/* A probe waits for a message of (src, tag) on comm. */
struct probing {
    int src, tag;
    MPI_Comm comm;
};

static int probe_ready(void *arg)
{
    const struct probing *p = arg;
    int flag = 0;
    return PMPI_Iprobe(p->src, p->tag, p->comm, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS || flag;
}

/* --- hooks ---------------------------------------------------------------- */

static int tag_ub = INT_MAX;     /* MPI_TAG_UB, read once (start_run) */

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

/* Tokens whose receive the profiler never sees complete (one freed with
 * MPI_Request_free) would stay in MPI's queues: every DRAIN_EVERY hook
 * calls, the tokens of every shadow are taken into its bounded queue. */
#define DRAIN_EVERY 4096u

static void drain_shadow(struct prof_shadow *s)
{
    prof_lock(&tokens.lock);
    if (s->tokens)
        drain(s->tokens);
    prof_unlock(&tokens.lock);
}

static __thread unsigned hook_calls __attribute__((tls_model("initial-exec")));
static void retired_go(int all);

/* At each hook of c: the batches that are due go (c's start the time),
 * and every DRAIN_EVERY of this thread's hooks the shadows are drained. */
static void now_and_then(const struct prof_call *c)
{
    uint64_t due = __atomic_load_n(&pool.due, __ATOMIC_RELAXED);
    if (due && (c->th ? c->t0 : prof_clock()) >= due)
        batches_go(MPI_COMM_NULL);
    if (++hook_calls % DRAIN_EVERY == 0) {
        prof_shadow_each(PROF_SHADOW_COMM, drain_shadow);
        if (__atomic_load_n(&retired, __ATOMIC_RELAXED)) {
            prof_lock(&tokens.lock);
            retired_go(0);
            prof_unlock(&tokens.lock);
        }
    }
}

static int around_send(struct prof_call *c, MPI_Count count, MPI_Datatype type, int dst, int tag, MPI_Comm comm)
{
    now_and_then(c);
    struct prof_shadow *s = dst == MPI_PROC_NULL ? NULL : shadow_of(comm);
    if (!s || !p2p_ok(comm, count, type, dst, tag, 0))
        return 0;
    if (after_message())
        keep_token(c, s->comm, dst, tag);
    else
        send_token(c, s->comm, s->reply, dst, tag, msg_bytes(count, type));
    return 0;
}

/* After a send (every call), if it was sent: the token kept for it goes
 * (after), or takes the place of the one kept before, which goes (next). */
static void around_sent(struct prof_call *c)
{
    if (!after_msg.fresh || after_msg.c != c)
        return;
    after_msg.fresh = 0;
    if (c->rc == MPI_SUCCESS && prof_config.test_token == PROF_TOKEN_NEXT)
        next_goes(MPI_COMM_NULL, &after_msg.k);
    else if (c->rc == MPI_SUCCESS)
        kept_goes(&after_msg.k, MPI_COMM_NULL);
    after_msg.k.held = 0;
}

/* MPI_Recv: posted at once (an MPI_Rsend may count on it), then waited for
 * while its token is taken in; unprofiled, made as it is (MPI_Irecv: the
 * after= hook lists it). */
static int around_recv(struct prof_call *c, void *buf, MPI_Count count, MPI_Datatype type, int src, int tag, MPI_Comm comm,
                  MPI_Status *status, MPI_Request *req)
{
    no_figures(c);
    now_and_then(c);
    struct prof_token_queue *q;
    if (req || src == MPI_PROC_NULL || !(q = queue_of(comm)) || !p2p_ok(comm, count, type, src, tag, 1))
        return 0;
    struct rx *e = listed(c, q, comm, src, tag);
    if (!e)
        return 0;
    MPI_Status local, *st = status == MPI_STATUS_IGNORE ? &local : status;
    uint64_t t0 = 0, t1 = 0;
    if (c->th && batched()) {       /* the tokens come after: the receive waits alone */
        t0 = prof_clock();
        c->rc = TOK_RECV(buf, (tok_count)count, type, src, tag, comm, st);
        t1 = prof_clock();
    } else if (c->th) {
        MPI_Request r;
        c->rc = TOK_IRECV(buf, (tok_count)count, type, src, tag, comm, &r);
        if (c->rc == MPI_SUCCESS) {
            t0 = prof_clock();
            c->rc = complete_own(q, &r, 1, st);
            t1 = prof_clock();
        }
    } else {
        c->rc = TOK_RECV(buf, (tok_count)count, type, src, tag, comm, st);
    }
    received(c, e, c->rc == MPI_SUCCESS ? st : NULL, t0, t1, 1);
    return 1;
}

/* A send-receive, profiled: its receive and its send posted (as MPI_Irecv
 * and MPI_Isend: MPI defines MPI_Sendrecv so), then both waited for while
 * the receive's token is taken in. Returns the call's error code. */
static int sendrecv_posted(struct prof_token_queue *q, const void *sbuf, tok_count scount, MPI_Datatype stype, int dst,
                           int tag, void *rbuf, tok_count rcount, MPI_Datatype rtype, int src, int rtag,
                           MPI_Comm comm, MPI_Status *st, uint64_t *t0)
{
    MPI_Request r[2] = { MPI_REQUEST_NULL, MPI_REQUEST_NULL };
    MPI_Status sts[2];
    int rc = TOK_IRECV(rbuf, rcount, rtype, src, rtag, comm, &r[0]);
    if (rc != MPI_SUCCESS)
        return rc;
    if ((rc = TOK_ISEND(sbuf, scount, stype, dst, tag, comm, &r[1])) != MPI_SUCCESS) {
        PMPI_Cancel(&r[0]);
        PMPI_Wait(&r[0], MPI_STATUS_IGNORE);
        return rc;
    }
    *t0 = prof_clock();
    rc = complete_own(q, r, 2, sts);
    *st = sts[0];
    return rc;
}

/* MPI_Sendrecv and (replace) MPI_Sendrecv_replace, whose send goes from a
 * packed copy, as MPI libraries do it (its receive lands in rbuf = sbuf).
 * The send's token first; unprofiled, or without memory for the copy, the
 * program's call is made as it is (not evaluated). */
static int sendrecv(struct prof_call *c, const void *sbuf, MPI_Count scount, MPI_Datatype stype, int dst, int tag,
                    void *rbuf, MPI_Count rcount, MPI_Datatype rtype, int src, int rtag, MPI_Comm comm,
                    MPI_Status *status, int replace)
{
    no_figures(c);
    now_and_then(c);
    struct prof_token_queue *q = queue_of(comm);
    struct rx *e;
    if (!q || !p2p_ok(comm, scount, stype, dst, tag, 0) || !p2p_ok(comm, rcount, rtype, src, rtag, 1))
        return 0;
    if (dst != MPI_PROC_NULL)
        send_token(c, q->comm, q->reply, dst, tag, msg_bytes(scount, stype));
    if (src == MPI_PROC_NULL || !(e = listed(c, q, comm, src, rtag)))
        return 0;
    MPI_Status local, *st = status == MPI_STATUS_IGNORE ? &local : status;
    uint64_t t0 = 0, t1 = 0;
    tok_count size = 0, pos = 0;
    void *packed = NULL;
    if (c->th && replace && TOK_PACK_SIZE((tok_count)scount, stype, comm, &size) == MPI_SUCCESS &&
        (packed = malloc(size ? (size_t)size : 1)) &&
        TOK_PACK(sbuf, (tok_count)scount, stype, packed, size, &pos, comm) == MPI_SUCCESS) {
        sbuf = packed;
        scount = pos;
        stype = MPI_PACKED;
    }
    if (c->th && (!replace || sbuf == packed)) {
        c->rc = sendrecv_posted(q, sbuf, (tok_count)scount, stype, dst, tag, rbuf, (tok_count)rcount, rtype, src,
                                rtag, comm, st, &t0);
        t1 = prof_clock();
    } else if (replace) {
        c->rc = TOK_SENDRECV_REPLACE(rbuf, (tok_count)rcount, rtype, dst, tag, src, rtag, comm, st);
    } else {
        c->rc = TOK_SENDRECV(sbuf, (tok_count)scount, stype, dst, tag, rbuf, (tok_count)rcount, rtype, src, rtag,
                             comm, st);
    }
    free(packed);
    received(c, e, c->rc == MPI_SUCCESS ? st : NULL, t0, t1, 0);
    return 1;
}

static int around_sendrecv(struct prof_call *c, const void *sbuf, MPI_Count scount, MPI_Datatype stype, int dst, int tag,
                      void *rbuf, MPI_Count rcount, MPI_Datatype rtype, int src, int rtag, MPI_Comm comm,
                      MPI_Status *status)
{
    return sendrecv(c, sbuf, scount, stype, dst, tag, rbuf, rcount, rtype, src, rtag, comm, status, 0);
}

static int around_sendrecv_replace(struct prof_call *c, void *buf, MPI_Count count, MPI_Datatype type, int dst, int tag,
                              int src, int rtag, MPI_Comm comm, MPI_Status *status)
{
    return sendrecv(c, buf, count, type, dst, tag, buf, count, type, src, rtag, comm, status, 1);
}

/* MPI_Probe waits like a receive (for the message it finds, whose token
 * stays for the receive that takes it); MPI_Iprobe does not wait, and
 * gives the model the token of what it found. */
static int around_probe(struct prof_call *c, int src, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    no_figures(c);
    struct prof_token_queue *q;
    if (src == MPI_PROC_NULL || !(q = queue_of(comm)) || !p2p_ok(comm, 0, MPI_BYTE, src, tag, 1))
        return 0;
    MPI_Status local, *st = status == MPI_STATUS_IGNORE ? &local : status;
    uint64_t t0 = 0, t1;
    if (flag) {
        c->rc = prof_next.MPI_Iprobe(src, tag, comm, flag, st);
    } else {
        struct probing p = { src, tag, comm };
        t0 = prof_clock();
        if (c->th)
            await(&q, 1, probe_ready, &p);
        c->rc = prof_next.MPI_Probe(src, tag, comm, st);
    }
    t1 = prof_clock();
    if (c->rc != MPI_SUCCESS || (flag && !*flag) || st->MPI_SOURCE == MPI_PROC_NULL)
        return 1;
    prof_lock(&tokens.lock);
    int k, i = find_token(q, q->seq + 1, st->MPI_SOURCE, st->MPI_TAG, &k);
    if (i >= 0) {
        struct queued t = q->v[i];
        c->sender.key = t.tok.key;
        c->sender.sent = t.tok.sent;
        c->sender.cause = t.tok.cause;
        c->sender.eval = !flag && c->th;
        if (c->sender.eval)
            c->sender.late = before(sent_at(&t, t0), t0, t1);
    }
    prof_unlock(&tokens.lock);
    return 1;
}

/* MPI_Mprobe matches its message: a receive that waits; MPI_Improbe one
 * that does not. */
static int around_mprobe(struct prof_call *c, int src, int tag, MPI_Comm comm, MPI_Message *msg, int *flag,
                    MPI_Status *status)
{
    no_figures(c);
    struct prof_token_queue *q;
    struct rx *e;
    if (src == MPI_PROC_NULL || !(q = queue_of(comm)) || !p2p_ok(comm, 0, MPI_BYTE, src, tag, 1) ||
        !(e = listed(c, q, comm, src, tag)))
        return 0;
    MPI_Status local, *st = status == MPI_STATUS_IGNORE ? &local : status;
    uint64_t t0 = 0, t1;
    if (flag) {
        c->rc = prof_next.MPI_Improbe(src, tag, comm, flag, msg, st);
    } else {
        struct probing p = { src, tag, comm };
        if (c->th) {
            t0 = prof_clock();
            await(&q, 1, probe_ready, &p);
        }
        c->rc = prof_next.MPI_Mprobe(src, tag, comm, msg, st);
    }
    t1 = prof_clock();
    received(c, e, c->rc == MPI_SUCCESS && (!flag || *flag) ? st : NULL, t0, t1, 0);
    return 1;
}

/* Persistent requests: each start of a send sends its token, each start of
 * a receive lists an instance of it. */
static int around_start(struct prof_call *c, int n, MPI_Request *reqs)
{
    now_and_then(c);
    for (int i = 0; i < n; i++) {
        prof_lock(&tokens.lock);
        struct rx *p = reqs[i] == MPI_REQUEST_NULL ? NULL : prof_hmap_get(&tokens.reqs, hkey(reqs[i]));
        struct rx d = p && p->persistent && p->usable ? *p : (struct rx){ .usable = 0 };
        prof_unlock(&tokens.lock);
        if (!d.usable)
            continue;
        if (!d.recv) {
            struct prof_shadow *s = shadow_of(d.comm);
            if (s)
                send_token(c, s->comm, s->reply, d.peer, d.tag, d.bytes);
            continue;
        }
        struct prof_token_queue *q = queue_of(d.comm);
        struct prof_posting posted = posting(c);
        prof_lock(&tokens.lock);
        p = prof_hmap_get(&tokens.reqs, hkey(reqs[i]));
        struct rx *e = q && p && p->persistent ? rx_new() : NULL;
        if (e) {
            if (p->active)
                forget(p->active);        /* started twice: the first never completed */
            *e = (struct rx){ .req = reqs[i], .comm = d.comm, .peer = d.peer, .tag = d.tag, .recv = 1,
                              .p = posted };
            list(q, e);
            p->active = e;
        }
        prof_unlock(&tokens.lock);
    }
    return 0;
}

static int around_start1(struct prof_call *c, MPI_Request *req)
{
    return around_start(c, 1, req);
}

/* Handle h given out again (lock held): a new request, so the entry of
 * the one it named before goes. */
static void renamed(MPI_Request h)
{
    struct rx *old = prof_hmap_get(&tokens.reqs, hkey(h));
    if (!old)
        return;
    prof_hmap_del(&tokens.reqs, hkey(h));
    if (!old->persistent) {
        forget(old);
        return;
    }
    if (old->active)
        forget(old->active);
    rx_free(old);
}

static void init_(struct prof_call *c, MPI_Count count, MPI_Datatype type, int peer, int tag, MPI_Comm comm,
                  MPI_Request *req, int recv)
{
    if (c->rc != MPI_SUCCESS || *req == MPI_REQUEST_NULL)
        return;
    int usable = peer != MPI_PROC_NULL && shadow_of(comm) && p2p_ok(comm, count, type, peer, tag, recv);
    uint64_t bytes = usable && !recv ? msg_bytes(count, type) : 0;
    prof_lock(&tokens.lock);
    renamed(*req);
    struct rx *e = rx_new();
    if (e) {
        *e = (struct rx){ .req = *req, .comm = comm, .peer = peer, .tag = tag, .bytes = bytes, .recv = recv,
                          .persistent = 1, .usable = usable };
        if (prof_hmap_put(&tokens.reqs, hkey(*req), e) != 0)
            rx_free(e);
    }
    prof_unlock(&tokens.lock);
}

static void post_(struct prof_call *c, MPI_Count count, MPI_Datatype type, int src, int tag, MPI_Comm comm,
                  MPI_Request *req, int nostatus)
{
    struct prof_token_queue *q;
    if (c->rc != MPI_SUCCESS || src == MPI_PROC_NULL || *req == MPI_REQUEST_NULL || !(q = queue_of(comm)) ||
        !p2p_ok(comm, count, type, src, tag, 1))
        return;
    struct prof_posting posted = posting(c);
    prof_lock(&tokens.lock);
    renamed(*req);
    struct rx *e = rx_new();
    if (e) {
        e->p = posted;
        e->req = *req;
        e->comm = comm;
        e->peer = src;
        e->tag = tag;
        e->recv = 1;
        e->nostatus = nostatus;
        if (prof_hmap_put(&tokens.reqs, hkey(*req), e) == 0)
            list(q, e);
        else
            rx_free(e);
    }
    prof_unlock(&tokens.lock);
}

/* The request with handle h leaves the map (lock held): its receive, if it
 * was one in flight (a persistent one's active instance), or NULL. */
static struct rx *unmap(MPI_Request h)
{
    struct rx *e = prof_hmap_get(&tokens.reqs, hkey(h));
    if (!e || !e->recv)
        return NULL;
    if (e->persistent) {
        struct rx *a = e->active;
        e->active = NULL;
        return a;
    }
    prof_hmap_del(&tokens.reqs, hkey(h));
    return e;
}

/* MPI_Request_free: a receive freed in flight takes its token if it is
 * complete, else it is forgotten (the token of the message it gets stays,
 * and the next receive of that source and tag takes it in its stead); a
 * persistent request's description goes. */
static int around_request_free(struct prof_call *c, MPI_Request *req)
{
    (void)c;
    if (*req == MPI_REQUEST_NULL)
        return 0;
    prof_lock(&tokens.lock);
    struct rx *p = prof_hmap_get(&tokens.reqs, hkey(*req));
    int persistent = p && p->persistent;
    struct rx *e = unmap(*req);
    if (e) {
        int flag = 0;
        MPI_Status st;
        if (PMPI_Request_get_status(*req, &flag, &st) == MPI_SUCCESS && flag)
            completed(e, &st, 0, 0, 0, NULL);
        else
            forget(e);
    }
    if (persistent) {
        prof_hmap_del(&tokens.reqs, hkey(*req));
        rx_free(p);
    }
    prof_unlock(&tokens.lock);
    return 0;
}

/* --- completion calls ------------------------------------------------------ */

enum mode { ONE, ALL, ANY, SOME };

/* The program's Wait or Test call. */
static int call(enum mode m, int test, int n, MPI_Request *reqs, int *index, int *flag, int *outcount, int *indices,
                MPI_Status *status, MPI_Status *statuses)
{
    switch (m) {
    case ONE:
        return test ? prof_next.MPI_Test(reqs, flag, status) : prof_next.MPI_Wait(reqs, status);
    case ALL:
        return test ? prof_next.MPI_Testall(n, reqs, flag, statuses) : prof_next.MPI_Waitall(n, reqs, statuses);
    case ANY:
        return test ? prof_next.MPI_Testany(n, reqs, index, flag, status)
                    : prof_next.MPI_Waitany(n, reqs, index, status);
    default:
        return test ? prof_next.MPI_Testsome(n, reqs, outcount, indices, statuses)
                    : prof_next.MPI_Waitsome(n, reqs, outcount, indices, statuses);
    }
}

/* The statuses a call returns into: the caller's, or the thread's scratch
 * ones; MPI_STATUSES_IGNORE when there is no memory for them. */
static MPI_Status *statuses_for(MPI_Status *given, int n)
{
    struct prof_thread *th = prof_tl;
    if (given != MPI_STATUSES_IGNORE)
        return given;
    if ((!th && !(th = prof_thread_attach())) ||
        prof_thread_room((void **)&th->statuses, &th->statuses_cap, n, sizeof *th->statuses) != 0)
        return MPI_STATUSES_IGNORE;
    return th->statuses;
}

/* A receive the call completed: its index, entry and status. */
struct done {
    int i;
    struct rx *e;
    const MPI_Status *st;
    uint64_t late;          /* once taken: its send-late time, UINT64_MAX when not evaluated */
};

static int by_posting(const void *a, const void *b)
{
    uint64_t x = ((const struct done *)a)->e->seq, y = ((const struct done *)b)->e->seq;
    return (x > y) - (x < y);
}

static int by_late(const void *a, const void *b)
{
    const struct done *x = a, *y = b;
    return x->late != y->late ? (x->late > y->late) - (x->late < y->late) : (x->i > y->i) - (x->i < y->i);
}

/* The receives one call completed each waited from the call's start until
 * its message was sent: parts of one wait, which overlap. Each keeps the
 * part from the send before it (in the order they were sent) to its own,
 * so that their sum is the wait until the last was sent, within the call:
 * d sorted by late, and each late (UINT64_MAX: not evaluated) made its
 * part. */
static void into_parts(struct done *d, int nd)
{
    if (nd > 1)
        qsort(d, (size_t)nd, sizeof *d, by_late);
    uint64_t before = 0;
    for (int k = 0; k < nd && d[k].late != UINT64_MAX; k++) {
        uint64_t late = d[k].late;
        d[k].late -= before;
        before = late;
    }
}

/* The same for th's entries of c (the nd receives d, once taken). */
static void late_parts(struct prof_call *c, struct prof_thread *th, struct done *d, int nd)
{
    into_parts(d, nd);
    for (int k = 0; k < nd && d[k].late != UINT64_MAX; k++)
        th->taken[c->rq_base + d[k].i].sender.late = d[k].late;
}

/* Group member e's token t came (NULL: it never will) with send-late time
 * late (lock held): once every member's has, the group's parts made anew. */
static void member_came(struct later *e, const struct prof_token *t, uint64_t late)
{
    struct later *f = &later.v[e->first % LATER];
    if (t) {
        e->has = 1;
        e->key = t->key;
        e->late = late;
    }
    if (f->id == e->first && --f->left == 0)
        parts_anew(f->first, f->size);
}

/* The n receives of ids first.. that one call completed, their tokens all
 * come (lock held): their figures, on the thread that received, those
 * late sender noted. Each one's send-late time is its part of the wait,
 * in the order the messages were sent (into_parts). The call's time was
 * split between its requests in equal parts when it completed (p2p.c: no
 * send-late time known then); the parts of the receives noted and of the
 * sends the call completed with them (tokens.h: prof_later's sends) are
 * made anew as p2p.c makes them when the tokens are there: each receive
 * its send-late time and each request an equal part of the rest. When
 * the send-late times exceed those parts (clocks that disagree), the
 * parts stay and each receive takes its send-late time up to its part,
 * what does not fit carried to the next, and what is left at the end to
 * the earlier ones. */
static void parts_anew(uint64_t first, int n)
{
    struct done d[GROUP_MAX];
    struct later *m[GROUP_MAX];
    uint64_t wait[GROUP_MAX];
    for (int k = 0; k < n; k++) {
        m[k] = &later.v[(first + (uint64_t)k) % LATER];
        if (m[k]->id != first + (uint64_t)k)
            return;      /* a member overwritten: the group is lost */
        d[k] = (struct done){ k, NULL, NULL, m[k]->has ? m[k]->late : UINT64_MAX };
        wait[k] = m[k]->l.wait;
    }
    into_parts(d, n);
    uint64_t all = 0, late = 0, parts = 0, rest = 0, sent = 0;
    for (int k = 0; k < n; k++) {
        const struct later *e = m[d[k].i];
        if (!e->noted)
            continue;
        parts++;
        all += e->l.wait;
        late += d[k].late == UINT64_MAX ? 0 : d[k].late;
        for (int j = 0; j < e->l.sends; j++) {
            parts += e->l.send[j].n;
            all += e->l.send[j].n * e->l.send_wait;
            sent = e->l.send_wait;
        }
    }
    if (late <= all) {
        uint64_t odd = parts ? (all - late) % parts : 0;
        rest = parts ? (all - late) / parts : 0;
        for (int k = 0; k < n; k++)
            if (m[d[k].i]->noted) {
                wait[d[k].i] = rest + odd + (d[k].late == UINT64_MAX ? 0 : d[k].late);
                odd = 0;
            }
    } else {
        uint64_t carry = 0;
        rest = sent;
        for (int k = 0; k < n && d[k].late != UINT64_MAX; k++) {
            uint64_t want = d[k].late + carry, w = wait[d[k].i];
            d[k].late = want < w ? want : w;
            carry = want - d[k].late;
        }
        for (int k = n - 1; k >= 0 && carry; k--) {
            uint64_t w = wait[d[k].i];
            uint64_t more = d[k].late == UINT64_MAX || w <= d[k].late ? 0 : w - d[k].late;
            more = more < carry ? more : carry;
            if (more) {
                d[k].late += more;
                carry -= more;
            }
        }
    }
    const struct prof_thread *th = prof_tl;
    for (int k = 0; k < n; k++) {
        struct later *e = m[d[k].i];
        if (e->noted && th && th->serial == e->owner &&
            (e->has || wait[d[k].i] != e->l.wait || (e->l.sends && rest != e->l.send_wait)))
            later.found(&e->l, e->has, e->has ? e->key : 0, e->has ? d[k].late : 0, wait[d[k].i], rest);
    }
    for (int k = 0; k < n; k++)
        m[k]->id = 0;
}

/* Whether a request reported with status st (NULL: none) completed, rc
 * being the call's return code. */
static int finished(int rc, const MPI_Status *st)
{
    if (rc == MPI_SUCCESS)
        return 1;
    return rc == MPI_ERR_IN_STATUS && st && st->MPI_ERROR != MPI_ERR_PENDING;
}

/* The nd receives d (in posting order, their figures gs) that c completed
 * are group's members, some of whose tokens are still to come: all are
 * evaluated when the last comes (member_came), none now. */
static void grouped(struct prof_call *c, struct prof_thread *th, struct done *d, const struct got *gs, int nd,
                    uint64_t group)
{
    for (int k = 0; k < nd; k++)
        if (!gs[k].later)       /* its token here, or never to come */
            member_came(&later.v[(group + (uint64_t)k) % LATER], gs[k].eval ? &gs[k].tok : NULL, gs[k].late);
    for (int k = 0; k < nd; k++) {
        if (th && d[k].i < c->rq_n) {
            struct got g = { 0, 0, 0, gs[k].eval || gs[k].later ? group + (uint64_t)k : 0, unknown };
            th->taken[c->rq_base + d[k].i].sender = sender_of(&g);
        }
        d[k].late = UINT64_MAX;
    }
    later.v[group % LATER].left--;      /* the call is done */
}

/* After the call: the receives it completed, in posting order, take their
 * tokens; a profiled call's figures go to its requests' th->taken entries
 * (p2p.c). t0 0: a Test variant. */
static void completions(struct prof_call *c, enum mode m, int n, struct rx **es, int *index,
                        int *flag, int *outcount, int *indices, MPI_Status *status, MPI_Status *statuses,
                        uint64_t t0, uint64_t t1, struct done *d)
{
    int nd = 0, rc = c->rc;
    int ok = rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS;
    MPI_Status *sts = statuses == MPI_STATUSES_IGNORE ? NULL : statuses;
    if (ok && (!flag || *flag)) {
        if (m == ONE || (m == ANY && *index != MPI_UNDEFINED)) {
            int i = m == ONE ? 0 : *index;
            if (es[i])
                d[nd++] = (struct done){ i, es[i], rc == MPI_SUCCESS ? status : NULL, 0 };
        } else if (m == ALL) {
            for (int i = 0; i < n; i++)
                if (es[i] && finished(rc, sts ? &sts[i] : NULL))
                    d[nd++] = (struct done){ i, es[i], sts && (rc == MPI_SUCCESS || sts[i].MPI_ERROR == MPI_SUCCESS)
                                                            ? &sts[i] : NULL, 0 };
        } else if (m == SOME && *outcount != MPI_UNDEFINED) {
            for (int k = 0; k < *outcount; k++)
                if (es[indices[k]])
                    d[nd++] = (struct done){ indices[k], es[indices[k]],
                                             sts && (rc == MPI_SUCCESS || sts[k].MPI_ERROR == MPI_SUCCESS)
                                                 ? &sts[k] : NULL, 0 };
        }
    }
    qsort(d, (size_t)nd, sizeof *d, by_posting);
    struct prof_thread *th = prof_tl;
    prof_lock(&tokens.lock);
    struct grouping grp = { nd, 0, 0 };
    struct got gs[GROUP_MAX];
    for (int k = 0; k < nd; k++) {
        struct rx *p = prof_hmap_get(&tokens.reqs, hkey(d[k].e->req));
        if (p && p->persistent && p->active == d[k].e)
            p->active = NULL;
        es[d[k].i] = NULL;
        grp.k = k;
        struct got g = completed(d[k].e, d[k].st, t0, t1, nd == 1, nd > 1 && nd <= GROUP_MAX ? &grp : NULL);
        if (nd <= GROUP_MAX)
            gs[k] = g;
        d[k].late = g.eval ? g.late : UINT64_MAX;
        if (th && d[k].i < c->rq_n)
            th->taken[c->rq_base + d[k].i].sender = sender_of(&g);
        else
            d[k].late = UINT64_MAX;
    }
    if (grp.first)
        grouped(c, th, d, gs, nd, grp.first);
    for (int i = 0; i < n; i++)      /* not completed: back in the map */
        if (es[i] && es[i]->req != MPI_REQUEST_NULL && !prof_hmap_get(&tokens.reqs, hkey(es[i]->req)) &&
            prof_hmap_put(&tokens.reqs, hkey(es[i]->req), es[i]) != 0)
            forget(es[i]);
    prof_unlock(&tokens.lock);
    if (th && nd > 1)
        late_parts(c, th, d, nd);
}

/* A Wait or Test variant over requests some of which are receives this
 * analysis follows: a Wait variant waits as the program's call would (for
 * all of them, or any) while their tokens are taken in; then the program's
 * call is made, and returns at once. */
static int complete_call(struct prof_call *c, enum mode m, int test, int n, MPI_Request *reqs, int *index, int *flag,
                         int *outcount, int *indices, MPI_Status *status, MPI_Status *statuses)
{
    now_and_then(c);
    if (n <= 0)
        return 0;
    struct rx *small[8], **es = n <= 8 ? small : malloc((size_t)n * sizeof *es);
    struct done dsmall[8], *d = n <= 8 ? dsmall : malloc((size_t)n * sizeof *d);
    struct prof_token_queue *qs[8];
    int nq = 0, nrx = 0;
    if (!es || !d) {
        if (es != small)
            free(es);
        if (d != dsmall)
            free(d);
        return 0;
    }
    /* The receives' entries leave the map before the call (a persistent
     * one's description stays): once the call frees a handle, another
     * thread may be given the same value for a new request at once. */
    prof_lock(&tokens.lock);
    for (int i = 0; i < n; i++) {
        struct rx *e = reqs[i] == MPI_REQUEST_NULL ? NULL : prof_hmap_get(&tokens.reqs, hkey(reqs[i]));
        if (e && !e->persistent && e->recv)
            prof_hmap_del(&tokens.reqs, hkey(reqs[i]));
        if (e && e->persistent)
            e = e->active;
        es[i] = e && e->recv ? e : NULL;
        if (!es[i])
            continue;
        nrx++;
        int seen = 0;
        for (int k = 0; k < nq; k++)
            seen |= qs[k] == e->q;
        if (e->q && !seen && nq < 8)
            qs[nq++] = e->q;
    }
    prof_unlock(&tokens.lock);
    if (!nrx) {
        if (es != small)
            free(es);
        if (d != dsmall)
            free(d);
        return 0;
    }
    MPI_Status one;
    if ((m == ONE || m == ANY) && status == MPI_STATUS_IGNORE)
        status = &one;
    if (m == ALL || m == SOME)
        statuses = statuses_for(statuses, n);
    uint64_t t0 = 0, t1;
    if (!test) {
        struct waiting w = { reqs, n, m == ANY || m == SOME, 0 };
        t0 = prof_clock();
        if (!batched())     /* batched, the tokens come after: the program's call waits alone */
            await(qs, nq, reqs_ready, &w);
    }
    c->rc = call(m, test, n, reqs, index, flag, outcount, indices, status, statuses);
    t1 = prof_clock();
    completions(c, m, n, es, index, flag, outcount, indices, status, statuses, t0, t1, d);
    if (d != dsmall)
        free(d);
    if (es != small)
        free(es);
    return 1;
}

static int around_wait(struct prof_call *c, int n, MPI_Request *reqs, int *index, int *flag, int *outcount, int *indices,
                  MPI_Status *status, MPI_Status *statuses, int test)
{
    enum mode m = index ? ANY : outcount ? SOME : ALL;
    return complete_call(c, m, test || flag, n, reqs, index, flag, outcount, indices, status, statuses);
}

static int around_wait1(struct prof_call *c, MPI_Request *req, int *flag, MPI_Status *status)
{
    return complete_call(c, ONE, flag != NULL, 1, req, NULL, flag, NULL, NULL, status, NULL);
}

/* --- communicators and the run ---------------------------------------------- */

/* Withdraw the posted token receive of queue q. */
static void unpost(struct prof_token_queue *q)
{
    if (q->posted != MPI_REQUEST_NULL) {
        PMPI_Cancel(&q->posted);
        PMPI_Wait(&q->posted, MPI_STATUS_IGNORE);
    }
}

static void unpost_shadow(struct prof_shadow *s)
{
    prof_lock(&tokens.lock);
    if (s->tokens)
        unpost(s->tokens);
    prof_unlock(&tokens.lock);
}

/* The tokens of the messages received on s before them (sent after them)
 * taken in as they come, until CLOCK_MONOTONIC's until (those there then
 * at least; one whose send failed never comes): else they would be left unreceived in the MPI
 * library, and their receives not evaluated. */
static void take_coming(struct prof_shadow *s, uint64_t until)
{
    for (;;) {
        prof_lock(&tokens.lock);
        int n = s->tokens && claimed_in(s->tokens);
        if (n)
            drain(s->tokens);
        prof_unlock(&tokens.lock);
        if (!n || prof_clock_mono_ns() >= until)
            return;
    }
}

static void queue_gone(struct prof_token_queue *q)
{
    unpost(q);
    free(q->base);
    free(q);
}

/* The retired queues whose tokens all came freed (all: every one;
 * tokens' lock held). */
static void retired_go(int all)
{
    for (struct retired **p = &retired, *r; (r = *p);) {
        drain(r->q);
        if (!all && claimed_in(r->q)) {
            p = &r->next;
            continue;
        }
        *p = r->next;
        MPI_Comm comm = r->q->comm;
        queue_gone(r->q);
        PMPI_Comm_free(&comm);
        free(r);
    }
}

/* Shadow s freed: its kept tokens go, and its queue is freed, or retired
 * with the shadow's communicator (which s then no longer has) when tokens
 * are still to come to it; without memory for that, they are waited for
 * LATE_NS at most. */
void prof_tokens_queue_free(struct prof_shadow *s)
{
    next_goes(s->comm, NULL);
    batches_go(s->comm);
    prof_lock(&tokens.lock);
    retired_go(0);
    struct prof_token_queue *q = s->tokens;
    struct retired *r = q && (drain(q), claimed_in(q)) ? malloc(sizeof *r) : NULL;
    prof_unlock(&tokens.lock);
    if (q && !r)
        take_coming(s, prof_clock_mono_ns() + LATE_NS);
    prof_lock(&tokens.lock);
    s->tokens = NULL;
    if (q) {
        /* Receives still listed: their owners (a request, a running call)
         * find them unlisted; those waiting for a position are nobody's. */
        for (struct rx *e = q->head, *next; e; e = next) {
            next = e->next;
            int done = e->done;
            unlist(e);
            if (done)
                rx_free(e);
        }
    }
    if (r) {
        r->q = q;
        r->next = retired;
        retired = r;
        s->comm = MPI_COMM_NULL;
    } else if (q) {
        queue_gone(q);
    }
    prof_unlock(&tokens.lock);
}

static void start_run(void)
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

/* At MPI_Finalize, every rank there (so every token sent): each shadow's
 * coming tokens taken in, LATE_NS at most in all. */
static uint64_t late_until;

static void take_late(struct prof_shadow *s)
{
    take_coming(s, late_until);
}

/* The same for the retired queues, which are then freed. */
static void retired_late(void)
{
    for (;;) {
        prof_lock(&tokens.lock);
        int n = 0;
        for (struct retired *r = retired; r; r = r->next) {
            drain(r->q);
            n += claimed_in(r->q) > 0;
        }
        if (!n || prof_clock_mono_ns() >= late_until) {
            retired_go(1);
            prof_unlock(&tokens.lock);
            return;
        }
        prof_unlock(&tokens.lock);
    }
}

/* At MPI_Finalize, every rank there: this process's token sends tested
 * until they are out (FIRST_NS at most; one still in flight is let go
 * after), then, once every rank's are (a barrier), the tokens that came
 * taken in, so that none is left unreceived in the MPI library when it
 * finalizes (tokens sent after their messages, MPIPROF_TEST_TOKEN, can
 * come after the last receive that would have taken them in). */
static void tokens_out(void)
{
    uint64_t until = prof_clock_mono_ns() + FIRST_NS;
    prof_lock(&pool.lock);
    for (int i = 0; i < POOL; i++)
        out_by(&pool.req[i], until);
    prof_unlock(&pool.lock);
    PMPI_Barrier(prof_run.comm);
    prof_shadow_each(PROF_SHADOW_COMM, drain_shadow);
}

/* At MPI_Finalize: the tokens out and in, the receives still to evaluate
 * get theirs, the token receives are withdrawn, the token sends let go,
 * and the notes of requests never completed freed. */
static void finish(void)
{
    next_goes(MPI_COMM_NULL, NULL);
    batches_go(MPI_COMM_NULL);
    tokens_out();
    late_until = prof_clock_mono_ns() + LATE_NS;
    prof_shadow_each(PROF_SHADOW_COMM, take_late);
    retired_late();
    prof_shadow_each(PROF_SHADOW_COMM, unpost_shadow);
    prof_lock(&pool.lock);
    for (int i = 0; i < POOL; i++)
        if (pool.req[i] != MPI_REQUEST_NULL)
            PMPI_Request_free(&pool.req[i]);
    prof_hmap_free(&pool.sent);
    prof_hmap_free(&pool.batch);
    while (pool.batches) {
        struct batch *b = pool.batches;
        pool.batches = b->next;
        free(b);
    }
    prof_unlock(&pool.lock);
    prof_lock(&tokens.lock);
    for (uint32_t i = 0; i < tokens.reqs.cap; i++) {
        struct rx *e = tokens.reqs.vals[i];
        if (!e)
            continue;
        if (e->persistent && e->active) {
            unlist(e->active);
            free(e->active);
        }
        unlist(e);
        free(e);
    }
    prof_hmap_free(&tokens.reqs);
    while (tokens.spare) {
        struct rx *e = tokens.spare;
        tokens.spare = e->next;
        free(e);
    }
    prof_unlock(&tokens.lock);
}

/* --- the module (module.h) ------------------------------------------------- */

void prof_tokens_ride(const struct prof_rider *r)
{
    if (riders.n < PROF_RIDERS_MAX)
        riders.v[riders.n++] = r;
    riders.order |= r->order;
    riders.late |= r->late;
}

void prof_tokens_want(prof_later_fn found)
{
    riders.wanted = 1;
    later.found = found;
}

int prof_tokens_wanted(void)
{
    return riders.wanted || riders.n;
}

int prof_tokens_late(void)
{
    return riders.late;
}

/* On when an analysis wants the tokens (they started before it, in the
 * same order on every rank, after agreeing their options). */
static int start(void)
{
    if (!prof_tokens_wanted())
        return -1;
    prof_shadow_want(PROF_WANT_COMM);
    start_run();
    return 0;
}

static void recv_posted(const struct prof_ev_post *ev)
{
    post_(ev->c, ev->count, ev->type, ev->peer, ev->tag, ev->comm, ev->req, ev->nostatus);
}

static void p2p_init(const struct prof_ev_post *ev)
{
    init_(ev->c, ev->count, ev->type, ev->peer, ev->tag, ev->comm, ev->req, ev->recv);
}

static const struct prof_around around = {
    .send = around_send,
    .recv = around_recv,
    .sendrecv = around_sendrecv,
    .sendrecv_replace = around_sendrecv_replace,
    .start = around_start,
    .start1 = around_start1,
    .probe = around_probe,
    .mprobe = around_mprobe,
    .wait1 = around_wait1,
    .wait = around_wait,
    .request_free = around_request_free,
    .sent = around_sent,
};

const struct prof_module prof_mod_tokens = {
    .name = "tokens",
    .start = start,
    .finish = finish,
    .recv_posted = recv_posted,
    .p2p_init = p2p_init,
    .around = &around,
};
