/* model_reply.c: the model's sends that wait for their receive (model.h):
 * MPI_Ssend, and MPI_Send of more than eager= bytes (a rendezvous). Such a
 * send ends at max(s, r) + T(k), s when its message starts on the link,
 * r when its receive was posted (its modelled clock then): under perfect
 * the sender still waits for its receiver's program. The receiver knows
 * r; the sender learns it from a reply, asked for by the send's token (its
 * tag, plus 1) and sent back on the reply shadow of the communicator
 * (shadow.h) when the receive takes the token (tokens.h: the model rides
 * on the tokens, prof_model_rider below).
 *
 * The sender never waits for a reply (its receiver may complete the
 * receive only after a call that needs the sender: an MPI_Irecv waited for
 * after a collective). Its receive is posted with the token; the calls
 * after the send test it (prof_model_reply_poll, before the model reads a
 * call's start: for the call, a send's token, a receive's posting, a
 * collective's clock agreement), and when it has come the sender's clock
 * moves on by what the send waited for beyond its modelled end, less the
 * waiting for partners' clocks since (which that wait takes the place
 * of): the calls made since move with it. At MPI_Finalize every reply sent
 * is matched (a synchronous send, matched by the receive posted before its
 * token left), then after a barrier the receives still posted are
 * withdrawn: their receive never took its token (freed in flight, a
 * wildcard position never told). Cold: only with a model. */
#include <pthread.h>
#include <stdlib.h>
#include "answers.h"
#include "lock.h"
#include "model.h"
#include "prof.h"
#include "shadow.h"
#include "thread.h"
#include "tokens.h"

#define TAGS PROF_TAGS_REPLIES   /* shadow.h; MPI_TAG_UB is at least 32767 */

/* A send waiting for its reply: its receive, the clock that comes in it,
 * the message's start s and T(bytes), the send's modelled end, the
 * clock's waiting for partners then (prof_model_waited) and the send's
 * function (ready: those known, after its p2p_end; for an MPI_Issend,
 * after the call that completes its request user, and of that call). */
struct prof_model_reply {
    MPI_Request req, user;
    double posted;
    double s, x, end, waited;
    int fn, ready;
    struct prof_model_reply *next;
};

static struct {
    pthread_mutex_t lock;
    struct prof_model_reply *head;
    unsigned waiting, tag, pending;     /* pending: MPI_Issend's, until their completion */
} rep = { .lock = PTHREAD_MUTEX_INITIALIZER };

struct prof_model_reply *prof_model_reply_want(MPI_Comm reply, int dst, double s, double x, uint64_t *id)
{
    struct prof_model_reply *r = calloc(1, sizeof *r);
    *id = 0;
    if (!r)
        return NULL;
    prof_lock(&rep.lock);
    int tag = (int)(rep.tag++ % TAGS);
    if (rep.waiting >= TAGS / 2 ||     /* so many unanswered that a tag could be in use twice */
        PMPI_Irecv(&r->posted, 1, MPI_DOUBLE, dst, tag, reply, &r->req) != MPI_SUCCESS) {
        prof_unlock(&rep.lock);
        free(r);
        return NULL;
    }
    r->s = s;
    r->x = x;
    r->user = MPI_REQUEST_NULL;
    r->next = rep.head;
    rep.head = r;
    __atomic_store_n(&rep.waiting, rep.waiting + 1, __ATOMIC_RELAXED);
    prof_unlock(&rep.lock);
    *id = (uint64_t)tag + 1;
    return r;
}

/* r ready: its send (or completion) fn ended at end (under rep.lock). */
static void ready(struct prof_model_reply *r, int fn, double end, double waited)
{
    r->fn = fn;
    r->end = end;
    r->waited = waited;
    r->ready = 1;
}

void prof_model_reply_ready(struct prof_model_reply *r, int fn, double end)
{
    double waited = prof_model_waited();
    prof_lock(&rep.lock);
    ready(r, fn, end, waited);
    prof_unlock(&rep.lock);
}

void prof_model_reply_pending(struct prof_model_reply *r, MPI_Request user)
{
    prof_lock(&rep.lock);
    r->user = user;
    __atomic_store_n(&rep.pending, rep.pending + 1, __ATOMIC_RELAXED);
    prof_unlock(&rep.lock);
}

void prof_model_reply_done(int fn, MPI_Request user, double end)
{
    if (user == MPI_REQUEST_NULL || !__atomic_load_n(&rep.pending, __ATOMIC_RELAXED))
        return;
    double waited = prof_model_waited();
    prof_lock(&rep.lock);
    for (struct prof_model_reply *r = rep.head; r; r = r->next)
        if (!r->ready && r->user == user) {
            ready(r, fn, end, waited);
            __atomic_store_n(&rep.pending, rep.pending - 1, __ATOMIC_RELAXED);
            break;
        }
    prof_unlock(&rep.lock);
}

void prof_model_reply(MPI_Comm reply, int src, uint64_t id, double posted)
{
    prof_answer_send(reply, src, (int)(id - 1), &posted, (int)sizeof posted);
}

/* How much later the clock is now (r has come): what the send of r waited
 * for beyond its modelled end, less what the clock has waited for
 * partners since (a call that ends at max(own, partner) would have ended
 * at the same partner's time had the send ended later, up to that much). */
static double delay(const struct prof_model_reply *r)
{
    double at = (r->posted > r->s ? r->posted : r->s) + r->x - r->end - (prof_model_waited() - r->waited);
    return r->ready && r->posted >= 0 && at > 0 ? at : 0;
}

/* The replies that have come move the clock (all: every send's, its
 * receive withdrawn if its reply has not come). */
static void collect(int all)
{
    struct prof_model_reply *done = NULL;
    prof_lock(&rep.lock);
    for (struct prof_model_reply **pp = &rep.head, *r; (r = *pp);) {
        int flag = 0;
        if (all) {
            MPI_Status st;
            int cancelled = 1;
            if (PMPI_Cancel(&r->req) == MPI_SUCCESS && PMPI_Wait(&r->req, &st) == MPI_SUCCESS)
                PMPI_Test_cancelled(&st, &cancelled);
            r->ready &= !cancelled;
            flag = 1;
        } else if (r->ready && PMPI_Test(&r->req, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
            flag = 0;
        }
        if (!flag) {
            pp = &r->next;
            continue;
        }
        *pp = r->next;
        r->next = done;
        done = r;
        __atomic_store_n(&rep.waiting, rep.waiting - 1, __ATOMIC_RELAXED);
    }
    prof_unlock(&rep.lock);
    while (done) {
        struct prof_model_reply *r = done;
        done = r->next;
        prof_model_delay(r->fn, delay(r));
        free(r);
    }
}

void prof_model_reply_poll(struct prof_thread *th)
{
    if (!__atomic_load_n(&rep.waiting, __ATOMIC_RELAXED))
        return;
    uint64_t t = prof_clock();
    collect(0);
    prof_profiler_add(th, t);
}

void prof_model_reply_finish(MPI_Comm all)
{
    prof_answers_matched();
    PMPI_Barrier(all);
    collect(1);
}

/* --- riding on the tokens (tokens.h) ------------------------------------- */

/* A send's token carries its modelled clock and the reply it waits for. */
static void ride_send(const struct prof_call *c, uint64_t bytes, MPI_Comm reply, int dst, struct prof_token *t)
{
    t->sent = prof_model_send(c, bytes, reply, dst, &t->reply);
}

/* A receive's posting: its modelled clock now. */
static void ride_posted(const struct prof_call *c, struct prof_posting *p)
{
    prof_model_reply_poll(NULL);
    p->clock = prof_model_now(c);
}

/* The receive that took t answers the reply its sender asked for; a send
 * that waited for the receive started when both were there. */
static void ride_taken(const struct prof_posting *p, MPI_Comm comm, MPI_Comm reply, int src, struct prof_token *t)
{
    (void)comm;
    if (!t->reply || reply == MPI_COMM_NULL)
        return;
    prof_model_reply(reply, src, t->reply, p->clock);
    if (t->sent >= 0 && p->clock > t->sent)
        t->sent = p->clock;
}

const struct prof_rider prof_model_rider = { .send = ride_send, .posted = ride_posted, .taken = ride_taken };
