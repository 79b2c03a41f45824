/* slt_account.c: late sender's figures of the receives (hot with late
 * sender on), from the waits the core reports (events.h: msg_waited,
 * reqs_waited, msg_matched) and the senders the tokens found (tokens.c, in
 * c->sender and the completion's th->taken entries): per call site, the
 * receives evaluated, their wait and send-late time, and those not
 * evaluated; per partner (rank and sending site), the send-late time and
 * the wait of its messages. */
#include "prof.h"
#include "slt.h"

/* A receive's figures on the record r that holds its receive wait; wait is
 * its share of that wait. */
static void account(struct prof_record *r, int evaluated, uint64_t late, uint64_t wait)
{
    if (!evaluated) {
        r->s.slt_skipped++;
        r->s.slt_skipped_ticks += wait;
        return;
    }
    r->s.slt_calls++;
    r->s.late_ticks += late;
    r->s.slt_wait_ticks += wait;
}

/* The send-late time and wait of messages from world sent by the site key,
 * to that partner of r (counted by p2p.c). */
static void partner_wait(struct prof_record *r, int world, uint64_t key, uint64_t late, uint64_t wait)
{
    if (prof_config.partners && world >= 0)
        prof_partners_add_slt(&r->partners, world, key, 0, 0, 0, late, wait);
}

/* A blocking receive or probe: its send-late time is at most its wait. */
void prof_slt_msg_waited(const struct prof_ev_wait *ev)
{
    const struct prof_sender *s = &ev->c->sender;
    uint64_t late = s->eval && s->late <= ev->ticks ? s->late : 0;
    account(ev->r, s->eval, late, ev->ticks);
    partner_wait(ev->r, ev->peer, s->key, late, ev->ticks);
}

/* A receive request's send-late time goes to the partner counted on the
 * record of its arrival. */
void prof_slt_msg_matched(const struct prof_ev_wait *ev)
{
    partner_wait(ev->r, ev->peer, ev->t->sender.key, ev->t->sender.late, 0);
}

/* A completion call: each request completed waited its part of the call
 * (p2p.c: its send-late time, if measured, and an equal part of the rest,
 * the parts adding up to the call); a receive's goes to its posting site
 * and to the partner of its arrival, when this thread owns them. */
void prof_slt_reqs_waited(const struct prof_ev_wait *ev)
{
    struct prof_call *c = ev->c;
    const struct prof_taken *taken = &c->th->taken[c->rq_base];
    uint64_t serial = c->th->serial;
    for (int i = 0; i < c->rq_n; i++) {
        const struct prof_taken *t = &taken[i];
        const struct prof_request *info = &t->info;
        if (!t->done || !info->is_recv)
            continue;
        if (info->owner == serial && t->peer != MPI_PROC_NULL)
            account(info->rec, t->sender.eval, t->sender.late < t->share ? t->sender.late : t->share, t->share);
        if (info->arr_rec && info->arr_owner == serial)
            partner_wait(info->arr_rec, t->peer, t->sender.key, 0, t->share);
    }
}
