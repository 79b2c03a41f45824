/* slt_account.c: late sender's figures of the receives (hot with late
 * sender on), from the waits the core reports (events.h: msg_waited,
 * reqs_waited) and the senders the tokens found (tokens.c, in c->sender
 * and the completion's th->taken entries): per call site, the receives
 * evaluated, their wait and send-late time, and those not evaluated; per
 * partner (rank and sending site) of that same site, the send-late time
 * and the wait of its messages, so that a site's partners add up to its
 * slt.txt row and its branches.txt receive wait (a probe's partner too,
 * though it moved no message; mpiprof-report check). A receive whose token
 * had not come is counted not evaluated, with no sending site, and moved
 * when the token comes (prof_slt_found). */
#include "prof.h"
#include "slt.h"
#include "tokens.h"

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
 * to that partner of r (whose messages p2p.c counts, or none: a probe's). */
static void partner_wait(struct prof_record *r, int world, uint64_t key, uint64_t late, uint64_t wait)
{
    if (prof_config.partners && world >= 0)
        prof_partners_add_slt(&r->partners, world, key, 0, 0, 0, late, wait);
}

/* Whether the partner world of r with no sending site is counted among
 * its others: there its figures stay when its sender is found
 * (prof_slt_found). */
static int among_others(struct prof_record *r, int world)
{
    return r && prof_config.partners && world >= 0 && prof_partners_among_others(&r->partners, world, 0);
}

/* A blocking receive or probe: its send-late time is at most its wait
 * (a probe's partner: the rank whose message it found). */
void prof_slt_msg_waited(const struct prof_ev_wait *ev)
{
    const struct prof_sender *s = &ev->c->sender;
    uint64_t late = s->eval && s->late <= ev->ticks ? s->late : 0;
    account(ev->r, s->eval, late, ev->ticks);
    partner_wait(ev->r, ev->peer, s->key, late, ev->ticks);
    if (s->later) {     /* an MPI_Recv: its message is on its record, with its wait */
        int others = among_others(ev->r, ev->peer);
        struct prof_later l = { .rec = ev->r, .arr = ev->r, .world = ev->peer, .wait = ev->ticks, .bytes = ev->bytes,
                                .ticks = ev->ticks, .rec_others = others, .arr_others = others };
        prof_tokens_later(s->later, &l);
    }
}

/* The sends call c completed, to be given their parts of its time anew
 * with its receives evaluated later (tokens.h): their partners (world
 * ranks) and how many went to each, on l, with their part (all have the
 * same: p2p.c); none when more partners than l holds. */
static void sends_of(const struct prof_call *c, const struct prof_taken *taken, struct prof_later *l)
{
    for (int i = 0; i < c->rq_n; i++) {
        const struct prof_taken *t = &taken[i];
        if (!t->done || t->info.is_recv || t->peer < 0)
            continue;
        int j = 0;
        while (j < l->sends && l->send[j].world != t->peer)
            j++;
        if (j == PROF_LATER_SENDS) {
            l->sends = 0;
            return;
        }
        if (j == l->sends)
            l->send[l->sends++].world = t->peer;
        l->send[j].n++;
        l->send_wait = t->share;
    }
}

/* A completion call: each request completed waited its part of the call
 * (p2p.c: its send-late time, if measured, and an equal part of the rest,
 * the parts adding up to the call); a receive's goes to its posting site
 * (a persistent one's: MPI_Recv_init's, as its receive wait in
 * branches.txt) and to that site's partner, when this thread owns it. The
 * first receive to be evaluated later carries the call's sends, whose
 * parts are made anew with it. */
void prof_slt_reqs_waited(const struct prof_ev_wait *ev)
{
    struct prof_call *c = ev->c;
    const struct prof_taken *taken = &c->th->taken[c->rq_base];
    uint64_t serial = c->th->serial;
    int first = 1;
    for (int i = 0; i < c->rq_n; i++) {
        const struct prof_taken *t = &taken[i];
        const struct prof_request *info = &t->info;
        if (!t->done || !info->is_recv)
            continue;
        if (info->owner != serial || t->peer == MPI_PROC_NULL)
            continue;
        uint64_t late = !t->sender.eval ? 0 : t->sender.late < t->share ? t->sender.late : t->share;
        account(info->rec, t->sender.eval, late, t->share);
        partner_wait(info->rec, t->peer, t->sender.key, late, t->share);
        if (t->sender.later) {      /* its message is on the record of its arrival (p2p.c) */
            struct prof_record *arr = info->arr_owner == serial ? info->arr_rec : NULL;
            struct prof_later l = { .rec = info->rec, .arr = arr, .call = ev->r, .world = t->peer,
                                    .wait = t->share, .bytes = t->bytes, .ticks = info->arr_ticks,
                                    .rec_others = among_others(info->rec, t->peer),
                                    .arr_others = among_others(arr, t->peer) };
            if (first && prof_config.partners)
                sends_of(c, taken, &l);
            first = 0;
            prof_tokens_later(t->sender.later, &l);
        }
    }
}

/* Receive l's token came (eval), or the parts of its call's time were
 * made anew (wait its own, sent each of l's sends': tokens.h): its figures
 * moved from not evaluated to evaluated, its partner to the sending site,
 * and the change of each part (modulo 2^64: it may be less) added where
 * that part went: its receive wait and its partner's, and the completion
 * call's time with each partner. */
void prof_slt_found(const struct prof_later *l, int eval, uint64_t key, uint64_t late, uint64_t wait, uint64_t sent)
{
    uint64_t more = wait - l->wait;
    late = late < wait ? late : wait;
    for (int j = 0; l->call && j < l->sends; j++)
        prof_partners_add(&l->call->partners, l->send[j].world, 0, 0, (uint64_t)l->send[j].n * (sent - l->send_wait));
    if (more) {
        l->rec->s.recv_wait_ticks += more;
        if (l->call && prof_config.partners && l->world >= 0)
            prof_partners_add(&l->call->partners, l->world, 0, 0, more);
    }
    if (eval) {
        l->rec->s.slt_skipped--;
        l->rec->s.slt_skipped_ticks -= l->wait;
        account(l->rec, 1, late, wait);
    } else {            /* key and late 0: its part's change alone goes below */
        l->rec->s.slt_skipped_ticks += more;
    }
    if (!prof_config.partners || l->world < 0)
        return;
    struct prof_partner moved = { .wait_ticks = l->wait };
    struct prof_partner msg = { .count = 1, .bytes = l->bytes, .ticks = l->ticks };
    if (key && l->arr == l->rec) {
        moved.count = msg.count;
        moved.bytes = msg.bytes;
        moved.ticks = msg.ticks;
    } else if (key && l->arr && !l->arr_others) {
        prof_partners_rekey(&l->arr->partners, l->world, key, &msg);
    }
    /* the send-late time where its wait is: among the others, or moved
     * to the sender's site */
    if (l->rec_others) {
        l->rec->partners.p[PROF_PARTNERS].late_ticks += late;
        l->rec->partners.p[PROF_PARTNERS].wait_ticks += more;
        return;
    }
    int at = key && prof_partners_rekey(&l->rec->partners, l->world, key, &moved);
    partner_wait(l->rec, l->world, at ? key : 0, late, more);
}
