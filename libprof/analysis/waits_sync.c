/* waits_sync.c: late receiver of the sends whose sender learns when
 * their receive was posted (waits.h): MPI_Ssend, whose call waits for the
 * receive to be posted; an MPI_Issend whose request the call completing
 * it (MPI_Wait, Waitall, a Test, ...) waited the same; MPI_Send and
 * MPI_Isend above the MPI's eager limit to their destination the same
 * (eager.h: a rendezvous; the blocking send completes itself; an eager
 * one ends before the posting and does not wait). The receiver knows when it
 * posted the receive and the cause its call passed on; the sender knows
 * the completing call, so the sender works the wait out: it is within
 * that call whatever the clocks of two nodes err by. The send's token
 * (tokens.h) carries a notice id (sync set, mark the id), and the receive
 * that takes it sends a notice back on the communicator's reply shadow
 * (shadow.h): a token whose key is the id, whose mark is the posting,
 * with the receiver's node and cause, sent synchronously to a receive the
 * sender posted with its token (TAG_NOTICE from the destination). The
 * notices of one pair come in the order the receives took the tokens, not
 * always the order of the sends, so a notice may land in another send's
 * receive: it is given to the send its id names, whose receive, still
 * posted, takes the place of the one it came in.
 *
 * The sender never waits for a notice: it keeps the completing call's
 * site and times, and once both are there (tested when the request
 * completes, then after each profiled call until the notice came) the
 * wait is the part of the completing call before the posting (on one node:
 * one clock), charged to that call's site and the receiver's cause. At
 * MPI_Finalize every notice sent is matched (its receive was posted before
 * the token left), then after a barrier the receives still posted are
 * withdrawn: their token was never taken (the send cancelled, its receive
 * not evaluated). Cold: only with wait states, per such send one notice
 * (80 bytes) and a scan of the sends followed per completed request; at
 * most KEPT sends are followed at once, the rest go without the figure. */
#include <pthread.h>
#include <stdlib.h>
#include "answers.h"
#include "eager.h"
#include "fn_table.h"
#include "lock.h"
#include "nodes.h"
#include "prof.h"
#include "run.h"
#include "shadow.h"
#include "tokens.h"
#include "waits.h"

#define TAG_NOTICE (PROF_TAGS_WAITS + 24)
#define KEPT 4096u

/* A notice's receive: its request and buffer. */
struct note {
    MPI_Request req;
    struct prof_token tok;
};

/* A send followed: its id, whether it is synchronous (MPI_Ssend,
 * MPI_Issend: complete only once the receive was posted), a
 * receive posted for a notice (NULL once one came in it and was given on),
 * the notice for it (noticed) and when it was taken, its request
 * (MPI_REQUEST_NULL until its call ended), and the call that completed it
 * (key 0: not yet). */
struct sync {
    uint64_t id;
    int synchronous;
    struct note *rx;
    int noticed;
    struct prof_token got;
    uint64_t came;
    MPI_Request user;
    uint64_t key, t0, t1;
    struct sync *next;
};

static struct {
    pthread_mutex_t lock;
    struct sync *head;
    unsigned kept, due;      /* followed; completed, not yet noticed */
    uint64_t ids;
} sy = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* The sends that may wait for their receive, set at start: 1 for the
 * synchronous ones (MPI_Ssend, MPI_Issend and their _c forms), 2 for the
 * standard ones (MPI_Send, MPI_Isend), which wait above the eager limit
 * (eager.h: a rendezvous). Both get a notice. */
static unsigned char is_ssend[PROF_FN_COUNT];

/* This thread's send whose request its p2p_end brings: the call (and its
 * start, as a stack address is used again) and the send. */
static __thread struct {
    const struct prof_call *c;
    uint64_t t0;
    struct sync *s;
} last __attribute__((tls_model("initial-exec")));

/* The notice id a send that waits for its receive (call c of this
 * thread) to dst asks for in its token (0: none; reply: the
 * communicator's reply shadow). */
static uint64_t isend(const struct prof_call *c, MPI_Comm reply, int dst)
{
    last.s = NULL;
    if (reply == MPI_COMM_NULL || dst < 0 || __atomic_load_n(&sy.kept, __ATOMIC_RELAXED) >= KEPT)
        return 0;
    struct sync *s = calloc(1, sizeof *s);
    struct note *rx = calloc(1, sizeof *rx);
    if (!s || !rx ||
        PMPI_Irecv(&rx->tok, (int)sizeof rx->tok, MPI_BYTE, dst, TAG_NOTICE, reply, &rx->req) != MPI_SUCCESS) {
        free(s);
        free(rx);
        return 0;
    }
    s->rx = rx;
    s->user = MPI_REQUEST_NULL;
    prof_lock(&sy.lock);
    s->id = ++sy.ids;
    s->next = sy.head;
    sy.head = s;
    __atomic_store_n(&sy.kept, sy.kept + 1, __ATOMIC_RELAXED);
    prof_unlock(&sy.lock);
    last.c = c;
    last.t0 = c->t0;
    last.s = s;
    return s->id;
}

/* Unlink s (lock held), its receive withdrawn unless a notice came in it. */
static void drop(struct sync *s)
{
    for (struct sync **pp = &sy.head; *pp; pp = &(*pp)->next)
        if (*pp == s) {
            *pp = s->next;
            break;
        }
    if (s->rx && s->rx->req != MPI_REQUEST_NULL) {
        PMPI_Cancel(&s->rx->req);
        PMPI_Wait(&s->rx->req, MPI_STATUS_IGNORE);
    }
    __atomic_store_n(&sy.kept, sy.kept - 1, __ATOMIC_RELAXED);
    free(s->rx);
    free(s);
}

/* The notices come in s's receive (lock held), each given to the send it
 * answers; s takes that send's receive, still posted, in exchange. */
static void take(struct sync *s)
{
    while (s->rx && !s->noticed) {
        int came = 0;
        if (PMPI_Test(&s->rx->req, &came, MPI_STATUS_IGNORE) != MPI_SUCCESS || !came)
            return;
        struct sync *t = sy.head;
        while (t && t->id != s->rx->tok.key)
            t = t->next;
        if (!t || t->noticed) {          /* not a send followed: the receive is spent */
            free(s->rx);
            s->rx = NULL;
            return;
        }
        t->got = s->rx->tok;
        t->noticed = 1;
        t->came = prof_clock();
        struct note *swap = t->rx;
        t->rx = s->rx;
        s->rx = swap;
    }
}

/* s's wait, once its notice came and its completing call is known (lock
 * held): the part of that call before the posting when it ended after it
 * (an eager send that ended first did not wait), charged, and s dropped;
 * 1, else 0. current: the completing call is the thread's current one (its
 * wait passes its cause on). */
static int settle(struct sync *s, int current)
{
    take(s);
    if (!s->key || !s->noticed)
        return 0;
    /* The clock condition (nodes.h): the notice was sent before it was
     * taken, and the receive posted before an MPI_Issend completed. */
    uint64_t posted = 0;
    prof_sync_token(s->got.at, s->got.node, s->got.from, s->came, 0, &posted);
    uint64_t w = prof_sync_in(s->got.mark, s->got.node, s->got.from, s->synchronous ? s->t1 : s->came, &posted) &&
                         s->t1 >= posted ? prof_ticks_before(posted, s->t0, s->t1) : 0;
    if (w && current)
        prof_waits_charge(PROF_WAIT_late_receiver, s->key, &s->got.cause, w);
    else if (w)
        prof_waits_charge_rank(PROF_WAIT_late_receiver, prof_run.rank, s->key, &s->got.cause, w);
    drop(s);
    return 1;
}

/* s completed by the call at site key from t0 to t1 (lock held): its
 * wait now, or once its notice comes. */
static void complete(struct sync *s, uint64_t key, uint64_t t0, uint64_t t1)
{
    s->key = key;
    s->t0 = t0;
    s->t1 = t1;
    if (!settle(s, 1))
        __atomic_store_n(&sy.due, sy.due + 1, __ATOMIC_RELAXED);
}

void prof_waits_sync_done(const struct prof_ev_req *ev, uint64_t key, uint64_t t1)
{
    if (!__atomic_load_n(&sy.kept, __ATOMIC_RELAXED) || ev->req == MPI_REQUEST_NULL || !key)
        return;
    prof_lock(&sy.lock);
    for (struct sync *s = sy.head; s; s = s->next)
        if (!s->key && s->user == ev->req) {
            complete(s, key, ev->c->t0, t1);
            break;
        }
    prof_unlock(&sy.lock);
}

void prof_waits_sync_sent(const struct prof_ev_p2p *ev, uint64_t key, uint64_t t1)
{
    struct sync *s = last.s;
    if (!s || last.c != ev->c || last.t0 != ev->c->t0)
        return;
    last.s = NULL;
    if (ev->c->rc != MPI_SUCCESS)
        return;         /* followed until MPI_Finalize: its token may yet be taken, and answered */
    prof_lock(&sy.lock);
    s->synchronous = is_ssend[ev->c->fn] == 1;
    if (key)
        complete(s, key, ev->c->t0, t1);
    else
        s->user = ev->req;
    prof_unlock(&sy.lock);
}

/* The sends completed and waiting for their notice (lock held): those
 * whose came charged. */
static void settle_due(void)
{
    for (struct sync *s = sy.head, *next; s; s = next) {
        next = s->next;
        if (s->key && settle(s, 0))
            __atomic_store_n(&sy.due, sy.due - 1, __ATOMIC_RELAXED);
    }
}

void prof_waits_sync_poll(void)
{
    if (!__atomic_load_n(&sy.due, __ATOMIC_RELAXED))
        return;
    prof_lock(&sy.lock);
    for (struct sync *s = sy.head; s; s = s->next)
        take(s);        /* a notice for a due send may be in another send's receive */
    settle_due();
    prof_unlock(&sy.lock);
}

/* The receive that took the token of notice id from src was posted at
 * posted, passing on cause: the notice back. */
static void notify(MPI_Comm reply, int src, uint64_t id, uint64_t posted, const struct prof_cause *cause)
{
    struct prof_token tok = { id, -1, prof_sync_out(prof_clock()), prof_sync_node(), 0, *cause, 0, prof_sync_from(),
                              prof_sync_out(posted) };
    if (id && reply != MPI_COMM_NULL)
        prof_answer_send(reply, src, TAG_NOTICE, &tok, (int)sizeof tok);
}

void prof_waits_sync_finish(MPI_Comm all)
{
    prof_answers_matched();
    PMPI_Barrier(all);
    prof_lock(&sy.lock);
    for (struct sync *s = sy.head; s; s = s->next)
        take(s);
    settle_due();
    while (sy.head)
        drop(sy.head);
    sy.due = 0;
    prof_unlock(&sy.lock);
}

/* --- riding on the tokens (tokens.h) ------------------------------------- */

/* A send's token carries the cause its call passes on, and whether it
 * waits for its receive (sync; a notice id in mark). */
static void ride_send(const struct prof_call *c, uint64_t bytes, MPI_Comm reply, int dst, struct prof_token *t)
{
    int sync = c->th ? is_ssend[c->fn] : 0;
    t->cause = prof_waits_carried(t->key);
    uint64_t notice = sync == 1 || (sync == 2 && reply != MPI_COMM_NULL && prof_eager_waits(reply, dst, bytes))
                          ? isend(c, reply, dst) : 0;
    t->sync = notice != 0;
    t->mark = notice;
}

/* A receive's posting: when, and the cause its call passes on. */
static void ride_posted(const struct prof_call *c, struct prof_posting *p)
{
    p->at = prof_clock();
    p->cause = prof_waits_carried(prof_call_key(c));
}

/* The receive posted as p took t from src: the sender's notice of the
 * posting, if it asked for one. */
static void ride_taken(const struct prof_posting *p, MPI_Comm comm, MPI_Comm reply, int src, struct prof_token *t)
{
    (void)comm;
    if (t->sync)
        notify(reply, src, t->mark, p->at, &p->cause);
}

static const struct prof_rider rider = {
    .send = ride_send, .posted = ride_posted, .taken = ride_taken, .order = 1, .late = 1
};

void prof_waits_sync_start(void)
{
    for (int f = 0; f < PROF_FN_COUNT; f++)
        is_ssend[f] = prof_fn_base[f] == FN_MPI_Ssend || prof_fn_base[f] == FN_MPI_Issend ? 1
                    : prof_fn_base[f] == FN_MPI_Send || prof_fn_base[f] == FN_MPI_Isend ? 2 : 0;
    prof_eager_start();
    prof_tokens_ride(&rider);
}
