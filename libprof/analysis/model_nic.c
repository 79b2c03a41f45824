/* model_nic.c: the sending side of a message in the model (model.h), after
 * LogGP. A process's link injects one message at a time: a message of k
 * bytes sent by a call whose modelled clock is t starts at
 * s = max(t, the link free), is injected at e = s + o + k/bw, and the link
 * is free again at max(e, s + g). Between nodes s is also the earliest
 * free k/bw of its node's link out, which the node's ranks share
 * (model_link.c). It arrives, its receiving overhead
 * included, at s + T(k) = s + o + lat + k/bw + o (or o + a measured
 * table's time of k + o: model.h); its late-sender token
 * carries s. The sending call then ends:
 *   - MPI_Send, MPI_Rsend: at e when k <= eager; else (rendezvous) and for
 *     MPI_Ssend at max(s, r) + T(k), r when the receive was posted: s +
 *     T(k) here, and later by r if the receive's reply says so
 *     (model_reply.c; MPI_Rsend's receive is posted by definition);
 *   - MPI_Issend: o; the call that completes its request, at
 *     max(s, r) + T(k) at least, when the reply says so;
 *   - MPI_Sendrecv(_replace): its send half at e (the receive by its
 *     arrival);
 *   - MPI_Bsend, the other nonblocking sends and the starts of persistent
 *     ones: o per message; their completion costs nothing.
 * Under perfect every term is 0: the messages leave at the call's clock. */
#include <pthread.h>
#include "lock.h"
#include "model.h"
#include "prof.h"

static struct {
    pthread_mutex_t lock;
    double free;           /* the link's modelled clock: when it can start the next message */
} nic = { PTHREAD_MUTEX_INITIALIZER, 0 };

/* What the calling thread's current call injected: the call (and its start,
 * as a stack address is used again), its messages, the last one's start,
 * injection end and bytes. */
static __thread struct {
    const struct prof_call *c;
    uint64_t t0;
    unsigned n;
    double s, e;
    uint64_t bytes;
    int dst;
    struct prof_model_reply *reply;
} sent __attribute__((tls_model("initial-exec")));

/* Whether a send of bytes by fn (or the completion of its request)
 * completes only when its receive is posted. */
static int waits_for_receive(int fn, uint64_t bytes)
{
    return prof_fn_base[fn] == FN_MPI_Ssend || prof_fn_base[fn] == FN_MPI_Issend ||
           (prof_fn_base[fn] == FN_MPI_Send && (double)bytes > prof_model.eager);
}

double prof_model_inject(const struct prof_call *c, uint64_t bytes, int dst, double *injected)
{
    const struct prof_model *m = prof_model_between(prof_run.rank, dst);
    double t = prof_model_now(c), w = prof_model_wire(m, (double)bytes);
    prof_lock(&nic.lock);
    double s = t > nic.free ? t : nic.free;
    if (m != &prof_model)
        s = prof_model_link_out(s, w);      /* and the node's link */
    double e = s + prof_model.o + w;
    nic.free = e > s + m->g ? e : s + m->g;
    prof_unlock(&nic.lock);
    if (injected)
        *injected = e;
    if (c->th) {
        if (sent.c != c || sent.t0 != c->t0) {
            sent.c = c;
            sent.t0 = c->t0;
            sent.n = 0;
            sent.reply = NULL;
        }
        sent.n++;
        sent.s = s;
        sent.e = e;
        sent.bytes = bytes;
        sent.dst = dst;
    }
    return s;
}

double prof_model_send(const struct prof_call *c, uint64_t bytes, MPI_Comm reply, int dst, uint64_t *id)
{
    prof_model_reply_poll(NULL);
    int world = prof_model_world(reply, dst);
    double s = prof_model_inject(c, bytes, world, NULL);
    *id = 0;
    if (c->th && reply != MPI_COMM_NULL && waits_for_receive(c->fn, bytes))
        sent.reply = prof_model_reply_want(reply, dst, s,
                                           prof_model_time(prof_model_between(prof_run.rank, world), (double)bytes), id);
    return s;
}

void prof_model_sent(struct prof_call *c, MPI_Request req)
{
    if (sent.c != c || sent.t0 != c->t0 || !sent.n)
        return;
    sent.c = NULL;
    double at;
    switch (prof_fn_base[c->fn]) {
    case FN_MPI_Send:
    case FN_MPI_Rsend:
    case FN_MPI_Ssend:
        at = prof_fn_base[c->fn] != FN_MPI_Ssend && (double)sent.bytes <= prof_model.eager
                 ? sent.e
                 : sent.s + prof_model_time(prof_model_between(prof_run.rank, sent.dst), (double)sent.bytes);
        break;
    case FN_MPI_Sendrecv:
    case FN_MPI_Sendrecv_replace:
        at = sent.e;
        break;
    default:
        at = c->m_begin + sent.n * prof_model.o;
    }
    if (at > c->m_end)
        c->m_end = at;
    if (sent.reply && req != MPI_REQUEST_NULL)
        prof_model_reply_pending(sent.reply, req);
    else if (sent.reply)
        prof_model_reply_ready(sent.reply, c->fn, c->m_end);
}
