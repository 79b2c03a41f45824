/* fuzz_gen.c: a schedule from a seed (fuzz.c says what the shapes are and
 * why each is legal under synchronous sends). A private PRNG (xoshiro256**
 * seeded by splitmix64), never rand(): every rank builds the same
 * schedule, then runs its own part. Called once per schedule: cold. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz.h"

struct gen {
    uint64_t s[4];
    int np;
    const struct fz_gen_opts *o;
    struct fz_step *st;
    int pos;                                   /* generic: the message being laid out */
    int npend[FZ_MAX_RANKS];                   /* requests posted, completion not yet laid out */
    struct {
        short slot;
        int due;                               /* the message whose position makes it due */
    } pend[FZ_MAX_RANKS][FZ_SET_MAX];
    unsigned char plain[FZ_MAX_RANKS][FZ_SET_MAX];   /* a nonblocking send or receive (not persistent, not cancelled) */
};

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fprintf(stderr, "fuzz: out of memory\n");
        abort();
    }
    return q;
}

/* --- the generator's random numbers ---------------------------------------- */

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static uint64_t next(struct gen *g)
{
    uint64_t *s = g->s, r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return r;
}

static int rnd(struct gen *g, int n)     /* 0 .. n-1 */
{
    return n <= 1 ? 0 : (int)(next(g) % (uint64_t)n);
}

static int chance(struct gen *g, int pct)
{
    return rnd(g, 100) < pct;
}

static void shuffle(struct gen *g, int *v, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = rnd(g, i + 1), t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
}

/* --- ranks and communicators --------------------------------------------- */

int fz_comm_rank(int comm, int world, int np)
{
    if (comm == FZ_WORLD)
        return world;
    if (comm == FZ_SELF)
        return 0;
    int n = 0;                           /* the halves are in reverse world order */
    for (int w = world + 2; w < np; w += 2)
        n++;
    return n;
}

/* The world ranks that rank r can send to or receive from on comm. */
static int reachable(const struct gen *g, int comm, int r, int *v)
{
    int n = 0;
    for (int w = 0; w < g->np; w++)
        if (comm == FZ_WORLD || (comm == FZ_HALF && w % 2 == r % 2) || (comm == FZ_INTER && w % 2 != r % 2) ||
            (comm == FZ_SELF && w == r))
            v[n++] = w;
    return n;
}

static struct fz_spec exact(const struct gen *g, int i)
{
    const struct fz_msg *m = &g->st->msg[i];
    return (struct fz_spec){ m->comm, fz_comm_rank(m->comm, m->src, g->np), m->tag };
}

/* Mostly small, some zero-byte, some above the eager limits (rendezvous). */
static int pick_count(struct gen *g)
{
    int c = rnd(g, 100);
    if (c < 18)
        return 0;
    if (c < 80)
        return 4 + rnd(g, 61);
    if (c < 94)
        return 256 + rnd(g, 1793);
    return 16384 + rnd(g, 16385);
}

/* --- laying out operations ---------------------------------------------- */

static struct fz_op *emit(struct gen *g, int r, int kind)
{
    struct fz_step *st = g->st;
    if (st->nops[r] == st->capops[r]) {
        st->capops[r] = st->capops[r] ? 2 * st->capops[r] : 16;
        st->ops[r] = xrealloc(st->ops[r], (size_t)st->capops[r] * sizeof *st->ops[r]);
    }
    struct fz_op *op = &st->ops[r][st->nops[r]++];
    memset(op, 0, sizeof *op);
    op->kind = (unsigned char)kind;
    op->slot = -1;
    op->msg = op->rmsg = -1;
    return op;
}

static int add_msg(struct gen *g, int comm, int src, int dst, int tag, int count)
{
    struct fz_step *st = g->st;
    st->msg = xrealloc(st->msg, (size_t)(st->nmsg + 1) * sizeof *st->msg);
    st->msg[st->nmsg] = (struct fz_msg){ comm, src, dst, tag, count };
    return st->nmsg++;
}

/* A request slot of rank r, -1 when the step has used them all. */
static int new_slot(struct gen *g, int r, int plain)
{
    if (g->st->nslot[r] >= FZ_SET_MAX)
        return -1;
    g->plain[r][g->st->nslot[r]] = (unsigned char)plain;
    return g->st->nslot[r]++;
}

static void pend_add(struct gen *g, int r, int slot, int due)
{
    g->pend[r][g->npend[r]].slot = (short)slot;
    g->pend[r][g->npend[r]++].due = due;
}

static void delay(struct gen *g, int r, int pct)
{
    if (g->o->max_delay_us > 0 && chance(g, pct))
        emit(g, r, K_DELAY)->us = rnd(g, g->o->max_delay_us + 1);
}

/* The send of message i by its source. may_block: a blocking send may
 * stand here; ready: its receive is known to be posted (1: a ready mode
 * now and then, 2: always). Without a free slot a nonblocking send becomes
 * MPI_Bsend, which never waits for its receive. */
static void emit_send(struct gen *g, int i, int may_block, int ready)
{
    int r = g->st->msg[i].src, slot = -1;
    delay(g, r, 45);
    if (!may_block || chance(g, 45))
        slot = new_slot(g, r, 1);
    int rmode = ready == 2 || (ready && chance(g, 60));
    struct fz_op *op;
    if (slot >= 0) {
        op = emit(g, r, K_ISEND);
        op->mode = (unsigned char)(rmode ? M_IRSEND : M_ISEND + rnd(g, 3));
        op->slot = (short)slot;
        pend_add(g, r, slot, i);
    } else {
        op = emit(g, r, K_SEND);
        op->mode = (unsigned char)(!may_block ? M_BSEND : rmode ? M_RSEND : M_SEND + rnd(g, 3));
    }
    op->msg = i;
}

/* A receive of message i (or of any of a pool: i < 0, r the receiver) by
 * spec sp: blocking in one of the forms, or nonblocking, completed later.
 * may_block 0: only MPI_Irecv (the message may need r's later calls). */
static void emit_recv(struct gen *g, int r, int i, struct fz_spec sp, int may_block)
{
    int c = rnd(g, 100), slot = -1;
    delay(g, r, 10);
    if (!may_block || c < 35)
        slot = new_slot(g, r, 1);
    if (slot >= 0) {
        struct fz_op *op = emit(g, r, may_block && c % 5 == 0 ? K_IMRECV : K_IRECV);
        op->spec = sp;
        op->slot = (short)slot;
        op->rmsg = i;
        pend_add(g, r, slot, i < 0 ? 0 : i);
        return;
    }
    struct fz_op *op = emit(g, r, K_RECV);
    op->spec = sp;
    op->rmsg = i;
    op->mode = (unsigned char)(c < 60 ? F_RECV : c < 72 ? F_PROBE : c < 80 ? F_IPROBE : c < 92 ? F_MPROBE : F_IMPROBE);
}

/* A completion call over n slots of rank r, each of which completes
 * without r's later calls: one of the eight, k = n (MPI_Wait and MPI_Test:
 * one call per slot). */
static void complete_set(struct gen *g, int r, const int *slots, int n)
{
    if (n <= 0)
        return;
    int how = rnd(g, 8), v[FZ_SET_MAX];
    memcpy(v, slots, (size_t)n * sizeof *v);
    shuffle(g, v, n);
    if (how == H_WAIT || how == H_TEST) {
        for (int j = 0; j < n; j++) {
            struct fz_op *op = emit(g, r, K_COMPLETE);
            op->mode = (unsigned char)how;
            op->n = op->k = 1;
            op->set[0] = (short)v[j];
            op->due[0] = 1;
        }
        return;
    }
    struct fz_op *op = emit(g, r, K_COMPLETE);
    op->mode = (unsigned char)how;
    op->n = op->k = n;
    for (int j = 0; j < n; j++) {
        op->set[j] = (short)v[j];
        op->due[j] = 1;
    }
}

/* Everything r has pending, all of which is due. */
static void complete_pending(struct gen *g, int r)
{
    int v[FZ_SET_MAX];
    for (int j = 0; j < g->npend[r]; j++)
        v[j] = g->pend[r][j].slot;
    complete_set(g, r, v, g->npend[r]);
    g->npend[r] = 0;
}

/* Those of r's pending requests that are due at this position. */
static void complete_due(struct gen *g, int r)
{
    int v[FZ_SET_MAX], nv = 0, n = 0;
    for (int j = 0; j < g->npend[r]; j++)
        if (g->pend[r][j].due <= g->pos)
            v[nv++] = g->pend[r][j].slot;
        else
            g->pend[r][n++] = g->pend[r][j];
    g->npend[r] = n;
    complete_set(g, r, v, nv);
}

/* At the end of a step: every plain request of r (those done already are
 * skipped when it runs). */
static void complete_final(struct gen *g, int r)
{
    int v[FZ_SET_MAX], n = 0;
    for (int j = 0; j < g->st->nslot[r]; j++)
        if (g->plain[r][j])
            v[n++] = j;
    complete_set(g, r, v, n);
    g->npend[r] = 0;
}

/* Generic layout: now and then, a completion call over some of r's
 * pending requests. Due (their message is at or before this position)
 * ones may be waited for; a Waitany/Waitsome/Testany/Testsome array also
 * holds requests that are not due (a receive whose sender needs this
 * rank's later messages), and asks for at most as many completions as it
 * holds due requests, so that it always returns. */
static void maybe_complete(struct gen *g, int r, int pct)
{
    int due[FZ_SET_MAX], nd = 0, later[FZ_SET_MAX], nl = 0;
    if (!g->npend[r] || !chance(g, pct))
        return;
    for (int j = 0; j < g->npend[r]; j++)
        if (g->pend[r][j].due <= g->pos)
            due[nd++] = j;
        else
            later[nl++] = j;
    if (!nd)
        return;
    shuffle(g, due, nd);
    struct fz_op *op = emit(g, r, K_COMPLETE);
    op->mode = (unsigned char)rnd(g, 8);
    int take = op->mode <= H_TEST ? 1 : 1 + rnd(g, nd), done = take;
    for (int j = 0; j < take; j++) {
        op->set[op->n] = g->pend[r][due[j]].slot;
        op->due[op->n++] = 1;
    }
    op->k = take;
    if (op->mode >= H_WAITANY) {
        for (int j = 0; j < nl; j++)
            if (chance(g, 50)) {
                op->set[op->n] = g->pend[r][later[j]].slot;
                op->due[op->n++] = 0;
            }
        op->k = done = 1 + rnd(g, take);
        for (int j = op->n - 1; j > 0; j--) {      /* the mixed array in any order */
            int x = rnd(g, j + 1);
            short s = op->set[j];
            unsigned char d = op->due[j];
            op->set[j] = op->set[x];
            op->due[j] = op->due[x];
            op->set[x] = s;
            op->due[x] = d;
        }
    }
    /* Forget the ones taken to be done (others may be, at run time: the
     * step's last completion call takes whatever is left). */
    int mark[FZ_SET_MAX] = { 0 };
    for (int j = 0; j < done; j++)
        mark[due[j]] = 1;
    int n = 0;
    for (int j = 0; j < g->npend[r]; j++)
        if (!mark[j])
            g->pend[r][n++] = g->pend[r][j];
    g->npend[r] = n;
}

/* --- the generic shape: any sequence of messages ------------------------- */

struct plan {
    int hoist;     /* -2: received at its position; -1: posted at the step's start; p: before position p */
    int ready;     /* the send may be a ready send: the receive was posted before the notice */
    int notice;    /* this message tells the next one's sender that its receive is posted */
    int wild;      /* 1: MPI_ANY_SOURCE, 2: MPI_ANY_TAG */
};

static void pick_pair(struct gen *g, int *comm, int *s, int *d)
{
    int c = rnd(g, 100), v[FZ_MAX_RANKS];
    *s = rnd(g, g->np);
    if (c < 12) {
        *comm = chance(g, 50) ? FZ_SELF : FZ_WORLD;
        *d = *s;
        return;
    }
    *comm = c < 27 ? FZ_HALF : c < 42 ? FZ_INTER : FZ_WORLD;
    int n = reachable(g, *comm, *s, v);
    *d = v[rnd(g, n)];
    if (*comm == FZ_WORLD && *d == *s)
        *d = (*s + 1 + rnd(g, g->np - 1)) % g->np;
}

static struct fz_spec plan_spec(struct gen *g, int i, const struct plan *p)
{
    struct fz_spec sp = exact(g, i);
    if (p->wild == 1)
        sp.src = MPI_ANY_SOURCE;
    if (p->wild == 2)
        sp.tag = MPI_ANY_TAG;
    return sp;
}

/* A receive posted before its position: MPI_Irecv by exact source or
 * MPI_ANY_SOURCE (never MPI_ANY_TAG: it could match an earlier message). */
static void post_early(struct gen *g, int j, struct plan *p)
{
    int r = g->st->msg[j].dst, slot = new_slot(g, r, 1);
    if (slot < 0) {
        p->hoist = -2;
        p->ready = 0;
        return;
    }
    struct fz_op *op = emit(g, r, K_IRECV);
    op->spec = plan_spec(g, j, p);
    op->slot = (short)slot;
    op->rmsg = j;
    pend_add(g, r, slot, j);
}

/* A message to oneself: the receive posted first (then any send, even a
 * ready one), a nonblocking send first, MPI_Bsend, or MPI_Sendrecv. */
static void gen_self(struct gen *g, int i, const struct plan *p)
{
    int r = g->st->msg[i].src, how = p->hoist != -2 ? 0 : rnd(g, 4), slot;
    struct fz_spec sp = plan_spec(g, i, p);
    if (how == 0 && p->hoist == -2) {
        if ((slot = new_slot(g, r, 1)) < 0) {
            how = 2;
        } else {
            struct fz_op *op = emit(g, r, K_IRECV);
            op->spec = sp;
            op->slot = (short)slot;
            op->rmsg = i;
            pend_add(g, r, slot, i);
        }
    }
    if (how == 1 && (slot = new_slot(g, r, 1)) < 0)
        how = 2;
    struct fz_op *op;
    switch (how) {
    case 0:
        emit_send(g, i, 1, 1);
        break;
    case 1:
        delay(g, r, 45);
        op = emit(g, r, K_ISEND);
        op->mode = (unsigned char)(M_ISEND + rnd(g, 3));
        op->msg = i;
        op->slot = (short)slot;
        pend_add(g, r, slot, i);
        emit_recv(g, r, i, sp, 1);
        break;
    case 2:
        delay(g, r, 45);
        op = emit(g, r, K_SEND);
        op->mode = M_BSEND;
        op->msg = i;
        emit_recv(g, r, i, sp, 1);
        break;
    default:
        delay(g, r, 45);
        op = emit(g, r, K_SENDRECV);
        op->mode = (unsigned char)rnd(g, 2);
        op->msg = op->rmsg = i;
        op->spec = sp;
    }
}

/* Adjacent blocking send and MPI_Recv of one rank (only delays between)
 * become one MPI_Sendrecv(_replace): both are posted at once and complete
 * together, which is legal when nothing of this rank stands between them
 * (the send becomes a standard one: not for a message to oneself received
 * later). */
static void merge_sendrecv(struct gen *g, int r)
{
    struct fz_step *st = g->st;
    struct fz_op *v = st->ops[r];
    int n = st->nops[r], out = 0;
    for (int j = 0; j < n;) {
        int k = j + 1;
        while (k < n && v[k].kind == K_DELAY)
            k++;
        struct fz_op *a = &v[j], *b = k < n ? &v[k] : NULL;
        struct fz_op *snd = NULL, *rcv = NULL;
        if (b && a->kind == K_SEND && b->kind == K_RECV && b->mode == F_RECV)
            snd = a, rcv = b;
        if (b && b->kind == K_SEND && a->kind == K_RECV && a->mode == F_RECV)
            snd = b, rcv = a;
        /* A send to oneself may be an MPI_Bsend because its receive comes
         * later: as Sendrecv's standard send it would wait for it. */
        int own = snd && st->msg[snd->msg].src == st->msg[snd->msg].dst && snd->msg != rcv->rmsg;
        if (!snd || own || st->msg[snd->msg].comm != rcv->spec.comm || !chance(g, 35)) {
            v[out++] = v[j++];
            continue;
        }
        struct fz_op sr = *snd;
        sr.kind = K_SENDRECV;
        sr.mode = (unsigned char)rnd(g, 2);
        sr.spec = rcv->spec;
        sr.rmsg = rcv->rmsg;
        for (int d = j + 1; d < k; d++)       /* the delays between go first */
            v[out++] = v[d];
        v[out++] = sr;
        j = k + 1;
    }
    st->nops[r] = out;
}

static void gen_generic(struct gen *g)
{
    struct fz_step *st = g->st;
    int want = 3 + rnd(g, 7), cancel_post[FZ_MAX_RANKS], cancel_end[FZ_MAX_RANKS], cslot[FZ_MAX_RANKS];
    struct plan pl[32];
    while (st->nmsg < want) {
        int comm, s, d, i;
        pick_pair(g, &comm, &s, &d);
        if (s != d && chance(g, 12)) {       /* a notice, then a ready send */
            i = add_msg(g, comm, d, s, 100 + st->nmsg, 0);
            pl[i] = (struct plan){ -2, 0, 1, chance(g, 30) };
            i = add_msg(g, comm, s, d, 100 + st->nmsg, pick_count(g));
            pl[i] = (struct plan){ i - 1, 1, 0, chance(g, 30) };
            continue;
        }
        i = add_msg(g, comm, s, d, 100 + st->nmsg, pick_count(g));
        pl[i] = (struct plan){ -2, 0, 0, 0 };
        if (chance(g, 25))
            pl[i].hoist = rnd(g, i + 1) - 1;
        pl[i].wild = chance(g, 20) ? 1 : pl[i].hoist == -2 && chance(g, 18) ? 2 : 0;
    }
    int n = st->nmsg;
    for (int r = 0; r < g->np; r++) {
        cancel_post[r] = cancel_end[r] = -1;
        if (chance(g, 6)) {
            cancel_post[r] = rnd(g, n);
            cancel_end[r] = cancel_post[r] + rnd(g, n - cancel_post[r]);
        }
    }
    for (int i = -1; i < n; i++) {
        g->pos = i;
        for (int j = i + 1; j < n; j++)
            if (pl[j].hoist == i)
                post_early(g, j, &pl[j]);
        if (i < 0)
            continue;
        for (int r = 0; r < g->np; r++)
            if (cancel_post[r] == i && (cslot[r] = new_slot(g, r, 0)) >= 0) {
                int v[FZ_MAX_RANKS], comm = rnd(g, FZ_NCOMM), nr = reachable(g, comm, r, v);
                struct fz_op *op = emit(g, r, K_CANCEL_POST);
                op->slot = (short)cslot[r];
                op->spec = (struct fz_spec){ comm, chance(g, 50) ? MPI_ANY_SOURCE : fz_comm_rank(comm, v[rnd(g, nr)], g->np),
                                             FZ_TAG_NEVER };
            } else if (cancel_post[r] == i) {
                cancel_end[r] = -1;
            }
        const struct fz_msg *m = &st->msg[i];
        if (m->src == m->dst) {
            gen_self(g, i, &pl[i]);
        } else {
            emit_send(g, i, 1, pl[i].ready);
            if (pl[i].hoist == -2)
                emit_recv(g, m->dst, i, plan_spec(g, i, &pl[i]), 1);
            if (pl[i].notice)   /* the ready send must follow the notice's arrival */
                complete_due(g, m->dst);
        }
        maybe_complete(g, m->src, 30);
        if (m->dst != m->src)
            maybe_complete(g, m->dst, 30);
        for (int r = 0; r < g->np; r++)
            if (cancel_end[r] == i)
                emit(g, r, K_CANCEL)->slot = (short)cslot[r];
    }
    for (int r = 0; r < g->np; r++)
        merge_sendrecv(g, r);
}

/* --- the other shapes ------------------------------------------------------ */

/* Rank d's message m to itself, sent before its receive is posted: a
 * nonblocking send (completed later), or an MPI_Bsend without a slot. */
static void send_to_self(struct gen *g, int d, int m)
{
    int slot = new_slot(g, d, 1);
    struct fz_op *op = emit(g, d, slot >= 0 ? K_ISEND : K_SEND);
    op->mode = (unsigned char)(slot >= 0 ? M_ISEND + rnd(g, 3) : M_BSEND);
    op->msg = m;
    op->slot = (short)slot;
    if (slot >= 0)
        pend_add(g, d, slot, 0);
}

/* Wildcard pool: k messages to d from any senders; d's k receives all
 * name MPI_ANY_SOURCE and one tag, or MPI_ANY_SOURCE and MPI_ANY_TAG (then
 * these are the only messages to d on that communicator in the step). */
static void gen_pool(struct gen *g)
{
    int d = rnd(g, g->np), c = rnd(g, 100), v[FZ_MAX_RANKS];
    int comm = c < 60 ? FZ_WORLD : c < 80 ? FZ_INTER : FZ_HALF;
    int nv = reachable(g, comm, d, v), k = 2 + rnd(g, 4), anytag = chance(g, 50), self = 0;
    for (int j = 0; j < k; j++) {
        int s = v[rnd(g, nv)];
        add_msg(g, comm, s, d, anytag ? 100 + rnd(g, 3) : 100, pick_count(g));
        self |= s == d;
    }
    for (int j = 0; j < k; j++) {            /* d's messages to itself: posted first, or buffered */
        if (g->st->msg[j].src != d)
            continue;
        send_to_self(g, d, j);
    }
    struct fz_spec sp = { comm, MPI_ANY_SOURCE, anytag ? MPI_ANY_TAG : 100 };
    for (int j = 0; j < k; j++) {
        emit_recv(g, d, -1, sp, 1);
        if (!self && chance(g, 20))          /* posted pool receives are all due */
            complete_pending(g, d);
    }
    complete_pending(g, d);
    for (int j = 0; j < k; j++)
        if (g->st->msg[j].src != d) {
            emit_send(g, j, 1, 0);
            complete_pending(g, g->st->msg[j].src);
        }
}

/* An MPI_Irecv posted by exact source, then a receive from MPI_ANY_SOURCE
 * of the same tag: the message it could also match goes to the earlier
 * receive; the wildcard one gets the other sender's (often late). */
static void gen_anysrc(struct gen *g)
{
    int d = rnd(g, g->np), v[FZ_MAX_RANKS], a[FZ_MAX_RANKS], na = 0;
    int comm = chance(g, 30) ? FZ_INTER : FZ_WORLD;
    int nv = reachable(g, comm, d, v);
    if (nv < 2)
        comm = FZ_WORLD, nv = reachable(g, comm, d, v);
    for (int j = 0; j < nv; j++)
        if (v[j] != d)
            a[na++] = v[j];
    shuffle(g, a, na);
    int nexact = 1 + rnd(g, na > 2 ? 2 : 1), b;
    if (nexact < na && chance(g, 60))
        b = a[nexact];
    else if (comm == FZ_WORLD)
        b = d;
    else
        nexact = na - 1, b = a[nexact];
    for (int j = 0; j < nexact; j++)
        add_msg(g, comm, a[j], d, 100, pick_count(g));
    int mb = add_msg(g, comm, b, d, 100, pick_count(g));
    if (b == d) {
        send_to_self(g, d, mb);
    }
    for (int j = 0; j < nexact; j++) {
        int slot = new_slot(g, d, 1);
        struct fz_op *op = emit(g, d, K_IRECV);
        op->spec = exact(g, j);
        op->slot = (short)slot;
        op->rmsg = j;
        pend_add(g, d, slot, 0);
    }
    emit_recv(g, d, mb, (struct fz_spec){ comm, MPI_ANY_SOURCE, chance(g, 30) ? MPI_ANY_TAG : 100 }, 1);
    complete_pending(g, d);
    for (int j = 0; j < nexact; j++) {
        emit_send(g, j, 1, 0);
        complete_pending(g, a[j]);
    }
    if (b != d) {
        delay(g, b, 80);
        emit_send(g, mb, 1, 0);
        complete_pending(g, b);
    }
}

/* A ring pass: each member sends to the next and receives from the
 * previous, as Send-then-Recv (S), Recv-then-Send (R), MPI_Sendrecv or
 * MPI_Sendrecv_replace (B); legal when not all are S and not all are R. */
static void gen_ring(struct gen *g)
{
    int comm = chance(g, 70) ? FZ_WORLD : FZ_HALF, mem[FZ_MAX_RANKS], type[FZ_MAX_RANKS], L;
    if (comm == FZ_WORLD) {
        L = reachable(g, comm, 0, mem);
        shuffle(g, mem, L);
        L = 2 + rnd(g, L - 1);
    } else {
        L = reachable(g, comm, rnd(g, 2), mem);
        shuffle(g, mem, L);
    }
    int ns = 0, nr = 0, count = pick_count(g);
    for (int x = 0; x < L; x++) {
        type[x] = L == 1 ? 2 + rnd(g, 2) : rnd(g, 4);
        ns += type[x] == 0;
        nr += type[x] == 1;
    }
    if (ns == L || nr == L)
        type[rnd(g, L)] = 2 + rnd(g, 2);
    for (int x = 0; x < L; x++)
        add_msg(g, comm, mem[x], mem[(x + 1) % L], 100, count);
    for (int x = 0; x < L; x++) {
        int r = mem[x], p = (x + L - 1) % L, w = rnd(g, 4);
        struct fz_spec sp = exact(g, p);
        if (w == 1)
            sp.src = MPI_ANY_SOURCE;
        if (w == 2)         /* each member gets one message in this step: both wildcards are safe */
            sp.src = MPI_ANY_SOURCE, sp.tag = MPI_ANY_TAG;
        if (type[x] == 0) {
            emit_send(g, x, 1, 0);
            emit_recv(g, r, p, sp, 1);
        } else if (type[x] == 1) {
            emit_recv(g, r, p, sp, 1);
            complete_pending(g, r);
            emit_send(g, x, 1, 0);
        } else {
            delay(g, r, 45);
            struct fz_op *op = emit(g, r, K_SENDRECV);
            op->mode = (unsigned char)(type[x] == 3);
            op->msg = x;
            op->rmsg = p;
            op->spec = sp;
        }
        complete_pending(g, r);
    }
}

/* A completed send beside a pending receive: A's Waitany (Waitsome,
 * Testany, Testsome) over [Isend to B, Irecv from B] can only return the
 * send, as B sends only after A's next message. */
static void gen_waitany_send(struct gen *g)
{
    int a = rnd(g, g->np), comm = chance(g, 25) ? FZ_INTER : FZ_WORLD, v[FZ_MAX_RANKS];
    int nv = reachable(g, comm, a, v), b;
    do
        b = v[rnd(g, nv)];
    while (b == a);
    int m1 = add_msg(g, comm, a, b, 100, pick_count(g));
    int m2 = add_msg(g, comm, a, b, 101, pick_count(g));
    int m3 = add_msg(g, comm, b, a, 102, pick_count(g));
    int s1 = new_slot(g, a, 1), s3 = new_slot(g, a, 1);
    delay(g, a, 30);
    struct fz_op *op = emit(g, a, K_ISEND);
    op->mode = (unsigned char)(M_ISEND + rnd(g, 3));
    op->msg = m1;
    op->slot = (short)s1;
    op = emit(g, a, K_IRECV);
    op->spec = exact(g, m3);
    if (chance(g, 40))
        op->spec.src = MPI_ANY_SOURCE;
    op->slot = (short)s3;
    op->rmsg = m3;
    op = emit(g, a, K_COMPLETE);
    op->mode = (unsigned char)(H_WAITANY + rnd(g, 4));
    op->n = 2;
    op->k = 1;
    int first = rnd(g, 2);
    op->set[first] = (short)s1;
    op->due[first] = 1;
    op->set[1 - first] = (short)s3;
    op->due[1 - first] = 0;
    emit_send(g, m2, 1, 0);
    pend_add(g, a, s3, 0);
    complete_pending(g, a);
    emit_recv(g, b, m1, exact(g, m1), 1);
    complete_pending(g, b);
    emit_recv(g, b, m2, exact(g, m2), 1);
    complete_pending(g, b);
    delay(g, b, 60);
    emit_send(g, m3, 1, 0);
    complete_pending(g, b);
}

/* Persistent requests: channels among 2-4 ranks (a rank's own included),
 * MPI_Send_init/MPI_Ssend_init and MPI_Recv_init, 2-4 rounds of
 * MPI_Start/MPI_Startall and a completion call over all, then free. */
static void gen_persist(struct gen *g)
{
    int mem[FZ_MAX_RANKS], nm = reachable(g, FZ_WORLD, 0, mem);
    shuffle(g, mem, nm);
    nm = 2 + rnd(g, (nm < 4 ? nm : 4) - 1);
    int nch = 0, csrc[8], cdst[8], ccount[8], rounds = 2 + rnd(g, 3), idx[4][8];
    for (int x = 0; x < nm; x++)
        for (int c = 1 + rnd(g, 2); c > 0 && nch < 8; c--) {
            csrc[nch] = mem[x];
            cdst[nch] = mem[rnd(g, nm)];
            ccount[nch++] = pick_count(g);
        }
    for (int q = 0; q < rounds; q++)
        for (int c = 0; c < nch; c++)
            idx[q][c] = add_msg(g, FZ_WORLD, csrc[c], cdst[c], 100 + c, ccount[c]);
    for (int x = 0; x < nm; x++) {
        int r = mem[x], slots[16], chan[16], n = 0, order[16];
        for (int c = 0; c < nch; c++) {
            if (csrc[c] == r) {
                chan[n] = c;
                slots[n++] = new_slot(g, r, 0);
            }
            if (cdst[c] == r) {
                chan[n] = -1 - c;
                slots[n++] = new_slot(g, r, 0);
            }
        }
        if (!n)
            continue;
        for (int j = 0; j < n; j++)
            order[j] = j;
        shuffle(g, order, n);
        for (int j = 0; j < n; j++) {
            int e = order[j], c = chan[e] >= 0 ? chan[e] : -1 - chan[e];
            struct fz_op *op = emit(g, r, chan[e] >= 0 ? K_SEND_INIT : K_RECV_INIT);
            op->slot = (short)slots[e];
            if (chan[e] >= 0) {
                op->msg = idx[0][c];
                op->mode = (unsigned char)chance(g, 25);
            } else {
                op->spec = exact(g, idx[0][c]);
                if (chance(g, 40))
                    op->spec.src = MPI_ANY_SOURCE;   /* the channel's tag is its own */
            }
        }
        /* rounds laid out per rank: each round starts after its last one completed */
        for (int q = 0; q < rounds; q++) {
            delay(g, r, 40);
            shuffle(g, order, n);
            int split = rnd(g, n + 1), how = rnd(g, 3);
            if (how == 0)
                split = 0;
            if (how == 1)
                split = n;
            if (split > 0) {        /* these one by one */
                for (int j = 0; j < split; j++) {
                    int e = order[j];
                    struct fz_op *op = emit(g, r, K_START);
                    op->n = 1;
                    op->set[0] = (short)slots[e];
                    op->msgs[0] = chan[e] >= 0 ? idx[q][chan[e]] : -1;
                }
            }
            if (split < n) {        /* the rest in one MPI_Startall */
                struct fz_op *op = emit(g, r, K_STARTALL);
                for (int j = split; j < n; j++) {
                    int e = order[j];
                    op->set[op->n] = (short)slots[e];
                    op->msgs[op->n++] = chan[e] >= 0 ? idx[q][chan[e]] : -1;
                }
            }
            complete_set(g, r, slots, n);
        }
        struct fz_op *op = emit(g, r, K_FREE);
        for (int j = 0; j < n; j++)
            op->set[op->n++] = (short)slots[j];
    }
}

/* A ready send where the receive is provably posted: d posts it (MPI_Irecv
 * or MPI_Recv_init + MPI_Start), then tells s (a zero-byte notice); s
 * receives the notice, then MPI_Rsend/MPI_Irsend. To oneself: post, then
 * ready-send. */
static void gen_ready(struct gen *g)
{
    int d = rnd(g, g->np), s = d, v[FZ_MAX_RANKS], comm = FZ_WORLD;
    if (chance(g, 80)) {
        int c = rnd(g, 3);
        comm = c == 0 ? FZ_WORLD : c == 1 ? FZ_INTER : FZ_HALF;
        int nv = reachable(g, comm, d, v);
        s = v[rnd(g, nv)];
        if (s == d && comm != FZ_HALF) {
            comm = FZ_WORLD;
            s = (d + 1 + rnd(g, g->np - 1)) % g->np;
        }
    } else if (chance(g, 50)) {
        comm = FZ_SELF;
    }
    int m = add_msg(g, comm, s, d, 100, pick_count(g)), persistent = chance(g, 35);
    int slot = new_slot(g, d, !persistent);
    struct fz_spec sp = exact(g, m);
    if (chance(g, 30))
        sp.src = MPI_ANY_SOURCE;
    struct fz_op *op = emit(g, d, persistent ? K_RECV_INIT : K_IRECV);
    op->spec = sp;
    op->slot = (short)slot;
    op->rmsg = m;
    if (persistent) {
        op = emit(g, d, K_START);
        op->n = 1;
        op->set[0] = (short)slot;
        op->msgs[0] = -1;
    }
    pend_add(g, d, slot, 0);
    if (s == d) {
        emit_send(g, m, 1, 2);
    } else {
        int notice = add_msg(g, comm, d, s, 101, 0);
        emit_send(g, notice, 1, 0);
        struct fz_spec nsp = exact(g, notice);
        int w = rnd(g, 3);
        if (w == 1)
            nsp.src = MPI_ANY_SOURCE;
        if (w == 2)
            nsp.tag = MPI_ANY_TAG;
        emit_recv(g, s, notice, nsp, 1);
        complete_pending(g, s);
        delay(g, s, 60);
        emit_send(g, m, 1, 2);
        complete_pending(g, s);
    }
    complete_pending(g, d);
    if (persistent) {
        op = emit(g, d, K_FREE);
        op->n = 1;
        op->set[0] = (short)slot;
    }
}

/* --- steps and schedules ------------------------------------------------- */

static const struct {
    const char *name;
    void (*gen)(struct gen *);
    int weight;
} shapes[] = {
    { "generic", gen_generic, 34 }, { "pool", gen_pool, 12 },   { "anysrc", gen_anysrc, 10 },
    { "ring", gen_ring, 14 },       { "waitany-send", gen_waitany_send, 8 }, { "persist", gen_persist, 12 },
    { "ready", gen_ready, 10 },
};
#define NSHAPES (int)(sizeof shapes / sizeof shapes[0])

/* After the layout: a zero-byte message is known by its envelope, so it
 * must be the only message of its communicator, source, destination and
 * tag in the step; an MPI_Sendrecv_replace sends as many ints as it can
 * receive (its message grows to the one it receives). */
static void fix_counts(struct gen *g)
{
    struct fz_step *st = g->st;
    for (int i = 0; i < st->nmsg; i++)
        for (int j = 0; j < st->nmsg && st->msg[i].count == 0; j++) {
            const struct fz_msg *a = &st->msg[i], *b = &st->msg[j];
            if (j != i && a->comm == b->comm && a->src == b->src && a->dst == b->dst && a->tag == b->tag)
                st->msg[i].count = 4;
        }
    for (int changed = 1; changed;) {
        changed = 0;
        for (int r = 0; r < g->np; r++)
            for (int j = 0; j < st->nops[r]; j++) {
                const struct fz_op *op = &st->ops[r][j];
                if (op->kind == K_SENDRECV && op->mode == 1 && st->msg[op->msg].count < st->msg[op->rmsg].count) {
                    st->msg[op->msg].count = st->msg[op->rmsg].count;
                    changed = 1;
                }
            }
    }
    st->maxcount = 4;
    for (int i = 0; i < st->nmsg; i++)
        if (st->msg[i].count > st->maxcount)
            st->maxcount = st->msg[i].count;
}

static int weight(const struct gen *g, int i)
{
    return g->o->shapes & (1u << i) ? shapes[i].weight : 0;
}

static void gen_step(struct gen *g, struct fz_step *st)
{
    memset(st, 0, sizeof *st);
    memset(g->npend, 0, sizeof g->npend);
    g->st = st;
    int total = 0, w;
    for (int i = 0; i < NSHAPES; i++)
        total += weight(g, i);
    w = rnd(g, total);
    int i = 0;
    while (w >= weight(g, i))
        w -= weight(g, i++);
    st->shape = shapes[i].name;
    shapes[i].gen(g);
    for (int r = 0; r < g->np; r++)      /* whatever a Waitany or Testsome left */
        complete_final(g, r);
    fix_counts(g);
    if (chance(g, 15))
        while (!st->off)
            for (int r = 0; r < g->np; r++)
                if (chance(g, 50))
                    st->off |= 1u << r;
    if (!g->o->pcontrol)          /* drawn all the same: -P leaves the rest of the schedule as it was */
        st->off = 0;
}

unsigned fz_shapes(const char *list)
{
    unsigned mask = 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        int i = 0;
        while (i < NSHAPES && strcmp(t, shapes[i].name))
            i++;
        if (i == NSHAPES)
            return 0;
        mask |= 1u << i;
    }
    return mask;
}

const char *fz_shape_names(void)
{
    static char buf[256];
    size_t n = 0;
    for (int i = 0; i < NSHAPES; i++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", i ? "," : "", shapes[i].name);
    return buf;
}

struct fz_sched *fz_generate(uint64_t seed, int lane, const struct fz_gen_opts *o)
{
    struct gen *g = calloc(1, sizeof *g);
    struct fz_sched *sc = calloc(1, sizeof *sc);
    if (!g || !sc) {
        free(g);
        free(sc);
        return NULL;
    }
    uint64_t x = seed * 0x9e3779b97f4a7c15ull + (uint64_t)lane * 0x632be59bd9b4e019ull + (uint64_t)o->np;
    for (int i = 0; i < 4; i++)
        g->s[i] = splitmix(&x);
    g->np = o->np;
    g->o = o;
    sc->nstep = 5 + rnd(g, 4);
    sc->step = xrealloc(NULL, (size_t)sc->nstep * sizeof *sc->step);
    for (int k = 0; k < sc->nstep; k++) {
        gen_step(g, &sc->step[k]);
        sc->step[k].first_id = sc->nmsg;
        sc->nmsg += sc->step[k].nmsg;
    }
    free(g);
    return sc;
}

void fz_free(struct fz_sched *sc)
{
    if (!sc)
        return;
    for (int k = 0; k < sc->nstep; k++) {
        free(sc->step[k].msg);
        for (int r = 0; r < FZ_MAX_RANKS; r++)
            free(sc->step[k].ops[r]);
    }
    free(sc->step);
    free(sc);
}

/* --- the schedule in words (-v) -------------------------------------------- */

static const char *const comm_name[FZ_NCOMM] = { "world", "half", "inter", "self" };
static const char *const mode_name[] = { "send", "ssend", "bsend", "rsend", "isend", "issend", "ibsend", "irsend" };
static const char *const form_name[] = { "recv", "probe", "iprobe", "mprobe", "improbe" };
static const char *const how_name[] = { "wait", "test", "waitall", "testall", "waitany", "testany", "waitsome", "testsome" };

static void spec(FILE *f, const struct fz_spec *sp)
{
    fprintf(f, "(%s,", comm_name[sp->comm]);
    if (sp->src == MPI_ANY_SOURCE)
        fprintf(f, "any,");
    else
        fprintf(f, "%d,", sp->src);
    if (sp->tag == MPI_ANY_TAG)
        fprintf(f, "any)");
    else
        fprintf(f, "%d)", sp->tag);
}

void fz_describe(const struct fz_sched *sc, uint64_t seed, int lane, FILE *f)
{
    for (int k = 0; k < sc->nstep; k++) {
        const struct fz_step *st = &sc->step[k];
        fprintf(f, "# s=%llu l=%d step %d %s off=%#x msgs:", (unsigned long long)seed, lane, k, st->shape, st->off);
        for (int i = 0; i < st->nmsg; i++)
            fprintf(f, " #%d=%d>%d/%s/t%d/n%d", st->first_id + i, st->msg[i].src, st->msg[i].dst,
                    comm_name[st->msg[i].comm], st->msg[i].tag, st->msg[i].count);
        fputc('\n', f);
        for (int r = 0; r < FZ_MAX_RANKS; r++) {
            if (!st->nops[r])
                continue;
            fprintf(f, "#   r%d:", r);
            for (int j = 0; j < st->nops[r]; j++) {
                const struct fz_op *op = &st->ops[r][j];
                int id = st->first_id + op->msg;
                fputc(' ', f);
                switch (op->kind) {
                case K_DELAY: fprintf(f, "delay%dus", op->us); break;
                case K_SEND: fprintf(f, "%s#%d", mode_name[op->mode], id); break;
                case K_ISEND: fprintf(f, "%s#%d@%d", mode_name[op->mode], id, op->slot); break;
                case K_RECV: fprintf(f, "%s", form_name[op->mode]); spec(f, &op->spec); break;
                case K_IRECV: fprintf(f, "irecv@%d", op->slot); spec(f, &op->spec); break;
                case K_IMRECV: fprintf(f, "imrecv@%d", op->slot); spec(f, &op->spec); break;
                case K_SENDRECV: fprintf(f, "sendrecv%s#%d+", op->mode ? "_replace" : "", id); spec(f, &op->spec); break;
                case K_CANCEL_POST: fprintf(f, "irecv_cancel@%d", op->slot); spec(f, &op->spec); break;
                case K_CANCEL: fprintf(f, "cancel@%d", op->slot); break;
                case K_SEND_INIT: fprintf(f, "%s_init#%d@%d", op->mode ? "ssend" : "send", id, op->slot); break;
                case K_RECV_INIT: fprintf(f, "recv_init@%d", op->slot); spec(f, &op->spec); break;
                default: {
                    const char *name = op->kind == K_COMPLETE ? how_name[op->mode] : op->kind == K_START ? "start"
                                       : op->kind == K_STARTALL ? "startall" : "free";
                    fprintf(f, "%s[", name);
                    for (int e = 0; e < op->n; e++) {
                        fprintf(f, "%s%d", e ? "," : "", op->set[e]);
                        if (op->kind == K_COMPLETE && !op->due[e])
                            fputc('~', f);
                        if ((op->kind == K_START || op->kind == K_STARTALL) && op->msgs[e] >= 0)
                            fprintf(f, "#%d", st->first_id + op->msgs[e]);
                    }
                    fputc(']', f);
                    if (op->kind == K_COMPLETE && op->k != op->n)
                        fprintf(f, "k%d", op->k);
                }
                }
            }
            fputc('\n', f);
        }
    }
}
