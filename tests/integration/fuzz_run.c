/* fuzz_run.c: one rank's part of a schedule, step by step: each operation
 * made with the calls of fuzz_ops.c, every message's data checked, one
 * output line per message received, and the times the truth needs
 * (fuzz_truth.c) recorded. Between steps a PMPI_Barrier, so that no
 * wildcard of one step can match a message of the next (and the profile
 * does not see it). Cold. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "fuzz.h"

enum { SL_NONE, SL_SEND, SL_RECV, SL_IMRECV, SL_PSEND, SL_PRECV, SL_CANCEL };

struct slot {
    MPI_Request req;
    int kind, active;
    int comm;                   /* a receive's communicator */
    int *buf;
};

struct exec {
    struct fz_lane *L;
    const struct fz_step *st;
    int stepno;
    struct slot *sl;
    int *got;                   /* per message of the step: times received here */
    int *sbuf, *rbuf;           /* a blocking call's buffers */
    int cap;                    /* ints in every buffer: the step's largest message */
    int off;                    /* between MPI_Pcontrol(0) and (1): receives not in the truth */
};

static const char *const comm_name[FZ_NCOMM] = { "world", "half", "inter", "self" };

int fz_sync;

int64_t fz_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void busy_wait(int us)
{
    int64_t end = fz_now_ns() + (int64_t)us * 1000;
    while (fz_now_ns() < end)
        ;
}

/* --- payloads: id, sender, seed, checksum, then words of (seed, id, i) ---- */

static int word(uint64_t seed, int lane, int id, int i)
{
    uint64_t x = seed * 0x9e3779b97f4a7c15ull ^ ((uint64_t)lane << 56) ^ ((uint64_t)id << 24) ^ (uint64_t)i;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return (int)(x & 0x7fffffff);
}

static int checksum(const int *b, int n)
{
    uint32_t s = 0;
    for (int i = 0; i < n; i++)
        if (i != 3)
            s = s * 31u + (uint32_t)b[i];
    return (int)(s & 0x7fffffff);
}

static void fill(const struct exec *E, int *b, int i)
{
    const struct fz_msg *m = &E->st->msg[i];
    int id = E->st->first_id + i;
    if (!m->count)
        return;
    b[0] = id;
    b[1] = m->src;
    b[2] = (int)(E->L->seed & 0x7fffffff);
    for (int k = 4; k < m->count; k++)
        b[k] = word(E->L->seed, E->L->lane, id, k);
    b[3] = checksum(b, m->count);
}

/* A message arrived in b with status st on comm: which one (the step's
 * index), its data checked, its line printed. -1 if wrong. */
static int received(struct exec *E, int comm, const int *b, const MPI_Status *st)
{
    const struct fz_step *S = E->st;
    struct fz_lane *L = E->L;
    int n = -1, idx = -1, np = L->np;
    const char *why = NULL;
    PMPI_Get_count(st, MPI_INT, &n);
    if (n == 0) {                /* known by its envelope: the only one of its kind (fuzz_gen.c) */
        for (int i = 0; i < S->nmsg && idx < 0; i++) {
            const struct fz_msg *m = &S->msg[i];
            if (m->count == 0 && m->comm == comm && m->dst == L->rank && m->tag == st->MPI_TAG &&
                fz_comm_rank(comm, m->src, np) == st->MPI_SOURCE)
                idx = i;
        }
        if (idx < 0)
            why = "no such zero-byte message";
    } else if (n < 4) {
        why = "short message";
    } else if (b[0] < S->first_id || b[0] >= S->first_id + S->nmsg) {
        why = "unknown id";
    } else {
        idx = b[0] - S->first_id;
        const struct fz_msg *m = &S->msg[idx];
        if (m->comm != comm || m->dst != L->rank)
            why = "delivered to the wrong place";
        else if (fz_comm_rank(comm, m->src, np) != st->MPI_SOURCE || m->tag != st->MPI_TAG)
            why = "wrong status";
        else if (m->count != n || b[1] != m->src || b[2] != (int)(L->seed & 0x7fffffff) || b[3] != checksum(b, n))
            why = "wrong data";
        for (int k = 4; k < n && !why; k++)
            if (b[k] != word(L->seed, L->lane, b[0], k))
                why = "wrong data";
    }
    if (idx >= 0 && E->got[idx]++ && !why)
        why = "received twice";
    fz_say(L, "m s=%llu l=%d id=%d to=%d c=%s from=%d tag=%d n=%d %s%s\n", (unsigned long long)L->seed, L->lane,
           idx >= 0 ? S->first_id + idx : -1, L->rank, comm_name[comm], st->MPI_SOURCE, st->MPI_TAG, n,
           why ? "BAD " : "ok", why ? why : "");
    L->received++;
    if (why) {
        L->bad++;
        return -1;
    }
    return idx;
}

static uint64_t key(const struct exec *E, int idx)
{
    return fz_key(E->L->ordinal, E->L->lane, E->st->first_id + idx);
}

/* The receive of message idx charged to site over [t0, t1] (eval 0: not
 * waited for). Receives while collecting is stopped are not in the truth. */
static void charge(struct exec *E, int idx, int site, int64_t t0, int64_t t1, int eval, int via)
{
    if (E->off || (idx < 0 && eval))
        return;
    fz_add_recv(&E->L->recs, idx >= 0 ? key(E, idx) : 0, site, t0, t1, eval, via);
}

static void sent(struct exec *E, int idx, int64_t t)
{
    fz_add_send(&E->L->recs, key(E, idx), t);
}

/* --- operations ---------------------------------------------------------- */

static MPI_Comm comm_of(const struct exec *E, int c)
{
    return E->L->comm[c];
}

static int peer(const struct exec *E, const struct fz_msg *m)
{
    return fz_comm_rank(m->comm, m->dst, E->L->np);
}

static void do_send(struct exec *E, const struct fz_op *op)
{
    const struct fz_msg *m = &E->st->msg[op->msg];
    MPI_Comm c = comm_of(E, m->comm);
    int d = peer(E, m);
    fill(E, E->sbuf, op->msg);
    sent(E, op->msg, fz_now_ns());
    switch (op->mode) {
    case M_SEND:
        if (fz_sync)
            op_ssend(E->sbuf, m->count, d, m->tag, c);
        else
            op_send(E->sbuf, m->count, d, m->tag, c);
        break;
    case M_SSEND: op_ssend(E->sbuf, m->count, d, m->tag, c); break;
    case M_BSEND: op_bsend(E->sbuf, m->count, d, m->tag, c); break;
    default: op_rsend(E->sbuf, m->count, d, m->tag, c); break;
    }
}

static void do_isend(struct exec *E, const struct fz_op *op)
{
    const struct fz_msg *m = &E->st->msg[op->msg];
    struct slot *sl = &E->sl[op->slot];
    MPI_Comm c = comm_of(E, m->comm);
    int d = peer(E, m);
    fill(E, sl->buf, op->msg);
    sl->kind = SL_SEND;
    sl->active = 1;
    sent(E, op->msg, fz_now_ns());
    switch (op->mode) {
    case M_ISEND:
        if (fz_sync)
            op_issend(sl->buf, m->count, d, m->tag, c, &sl->req);
        else
            op_isend(sl->buf, m->count, d, m->tag, c, &sl->req);
        break;
    case M_ISSEND: op_issend(sl->buf, m->count, d, m->tag, c, &sl->req); break;
    case M_IBSEND: op_ibsend(sl->buf, m->count, d, m->tag, c, &sl->req); break;
    default: op_irsend(sl->buf, m->count, d, m->tag, c, &sl->req); break;
    }
}

/* A blocking receive in one of its forms. A probe is charged for the
 * message it found; the MPI_Recv that follows it, over its own interval. */
static void do_recv(struct exec *E, const struct fz_op *op)
{
    const struct fz_spec *sp = &op->spec;
    MPI_Comm c = comm_of(E, sp->comm);
    MPI_Status st, pst;
    MPI_Message msg;
    int flag = 0, idx;
    int64_t t0 = fz_now_ns(), t1, t2, t3;
    switch (op->mode) {
    case F_RECV:
        op_recv(E->rbuf, E->cap, sp->src, sp->tag, c, &st);
        t1 = fz_now_ns();
        charge(E, received(E, sp->comm, E->rbuf, &st), S_RECV, t0, t1, 1, -1);
        break;
    case F_PROBE:
    case F_IPROBE:
        if (op->mode == F_PROBE)
            op_probe(sp->src, sp->tag, c, &pst);
        else
            while (!flag)
                op_iprobe(sp->src, sp->tag, c, &flag, &pst);
        t1 = fz_now_ns();
        t2 = fz_now_ns();
        op_recv(E->rbuf, E->cap, pst.MPI_SOURCE, pst.MPI_TAG, c, &st);
        t3 = fz_now_ns();
        idx = received(E, sp->comm, E->rbuf, &st);
        charge(E, idx, op->mode == F_PROBE ? S_PROBE : S_IPROBE, t0, t1, op->mode == F_PROBE, -1);
        charge(E, idx, S_RECV, t2, t3, 1, -1);
        break;
    default:
        if (op->mode == F_MPROBE)
            op_mprobe(sp->src, sp->tag, c, &msg, &pst);
        else
            while (!flag)
                op_improbe(sp->src, sp->tag, c, &flag, &msg, &pst);
        t1 = fz_now_ns();
        op_mrecv(E->rbuf, E->cap, &msg, &st);
        idx = received(E, sp->comm, E->rbuf, &st);
        charge(E, idx, op->mode == F_MPROBE ? S_MPROBE : S_IMPROBE, t0, t1, op->mode == F_MPROBE, -1);
        charge(E, idx, S_MRECV, 0, 0, 0, -1);
    }
}

static void do_sendrecv(struct exec *E, const struct fz_op *op)
{
    const struct fz_msg *m = &E->st->msg[op->msg];
    const struct fz_spec *sp = &op->spec;
    MPI_Comm c = comm_of(E, m->comm);
    MPI_Status st;
    int d = peer(E, m);
    int64_t t0, t1;
    if (fz_sync) {       /* its send synchronous: Issend, Irecv, Waitall (charged as such) */
        MPI_Request rq[2];
        MPI_Status sts[2];
        fill(E, E->sbuf, op->msg);
        sent(E, op->msg, fz_now_ns());
        op_issend(E->sbuf, m->count, d, m->tag, c, &rq[0]);
        op_irecv(E->rbuf, op->mode ? m->count : E->cap, sp->src, sp->tag, c, &rq[1]);
        t0 = fz_now_ns();
        op_waitall(2, rq, sts);
        t1 = fz_now_ns();
        charge(E, received(E, sp->comm, E->rbuf, &sts[1]), S_IRECV, t0, t1, 1, H_WAITALL);
        return;
    } else if (op->mode) {      /* _replace: one buffer, as many ints as its own message */
        fill(E, E->rbuf, op->msg);
        t0 = fz_now_ns();
        sent(E, op->msg, t0);
        op_sendrecv_replace(E->rbuf, m->count, d, m->tag, sp->src, sp->tag, c, &st);
    } else {
        fill(E, E->sbuf, op->msg);
        t0 = fz_now_ns();
        sent(E, op->msg, t0);
        op_sendrecv(E->sbuf, m->count, d, m->tag, E->rbuf, E->cap, sp->src, sp->tag, c, &st);
    }
    t1 = fz_now_ns();
    charge(E, received(E, sp->comm, E->rbuf, &st), op->mode ? S_SENDRECV_REPLACE : S_SENDRECV, t0, t1, 1, -1);
}

/* A request done: a receive's message checked and charged to the call
 * that posted it, over the completion call's interval [t0, t1]. */
static void done(struct exec *E, int s, const MPI_Status *st, int64_t t0, int64_t t1, int how)
{
    struct slot *sl = &E->sl[s];
    int eval = how == H_WAIT || how == H_WAITALL || how == H_WAITANY || how == H_WAITSOME;
    sl->active = 0;
    if (sl->kind == SL_RECV)
        charge(E, received(E, sl->comm, sl->buf, st), S_IRECV, t0, t1, eval, how);
    else if (sl->kind == SL_PRECV)
        charge(E, received(E, sl->comm, sl->buf, st), S_RECV_INIT, t0, t1, eval, how);
    else if (sl->kind == SL_IMRECV)
        charge(E, received(E, sl->comm, sl->buf, st), S_IMRECV, t0, t1, 0, how);
}

static int active_due(const struct exec *E, const struct fz_op *op)
{
    for (int j = 0; j < op->n; j++)
        if (op->due[j] && E->sl[op->set[j]].active)
            return 1;
    return 0;
}

/* A completion call over op->set: at least op->k completions, or until
 * none of the due requests is left (others may have completed them). */
static void do_complete(struct exec *E, const struct fz_op *op)
{
    MPI_Request rq[FZ_SET_MAX];
    MPI_Status sts[FZ_SET_MAX], st;
    int n = op->n, ix[FZ_SET_MAX], flag = 0, i, out, count = 0, was[FZ_SET_MAX];
    int64_t t0, t1;
    for (int j = 0; j < n; j++) {
        was[j] = E->sl[op->set[j]].active;
        rq[j] = was[j] ? E->sl[op->set[j]].req : MPI_REQUEST_NULL;
    }
    switch (op->mode) {
    case H_WAIT:
    case H_TEST:
        if (!was[0])
            break;
        t0 = fz_now_ns();
        if (op->mode == H_WAIT)
            op_wait(&rq[0], &st);
        else
            while (!flag)
                op_test(&rq[0], &flag, &st);
        t1 = fz_now_ns();
        E->sl[op->set[0]].req = rq[0];
        done(E, op->set[0], &st, t0, t1, op->mode);
        break;
    case H_WAITALL:
    case H_TESTALL:
        if (!active_due(E, op))
            break;
        t0 = fz_now_ns();
        if (op->mode == H_WAITALL)
            op_waitall(n, rq, sts);
        else
            while (!flag)
                op_testall(n, rq, &flag, sts);
        t1 = fz_now_ns();
        for (int j = 0; j < n; j++)
            if (was[j]) {
                E->sl[op->set[j]].req = rq[j];
                done(E, op->set[j], &sts[j], t0, t1, op->mode);
            }
        break;
    case H_WAITANY:
    case H_TESTANY:
        while (count < op->k && active_due(E, op)) {
            t0 = fz_now_ns();
            if (op->mode == H_WAITANY) {
                op_waitany(n, rq, &i, &st);
            } else {
                op_testany(n, rq, &i, &flag, &st);
                if (!flag)
                    continue;
            }
            t1 = fz_now_ns();
            if (i == MPI_UNDEFINED)
                break;
            E->sl[op->set[i]].req = rq[i];
            done(E, op->set[i], &st, t0, t1, op->mode);
            count++;
        }
        break;
    default:
        while (count < op->k && active_due(E, op)) {
            t0 = fz_now_ns();
            if (op->mode == H_WAITSOME)
                op_waitsome(n, rq, &out, ix, sts);
            else
                op_testsome(n, rq, &out, ix, sts);
            t1 = fz_now_ns();
            if (out == MPI_UNDEFINED)
                break;
            for (int o = 0; o < out; o++) {
                E->sl[op->set[ix[o]]].req = rq[ix[o]];
                done(E, op->set[ix[o]], &sts[o], t0, t1, op->mode);
            }
            count += out;
        }
    }
}

static void do_start(struct exec *E, const struct fz_op *op)
{
    MPI_Request rq[FZ_SET_MAX];
    for (int j = 0; j < op->n; j++) {
        struct slot *sl = &E->sl[op->set[j]];
        if (op->msgs[j] >= 0)
            fill(E, sl->buf, op->msgs[j]);
        rq[j] = sl->req;
        sl->active = 1;
    }
    if (op->kind == K_STARTALL) {
        int64_t t = fz_now_ns();
        for (int j = 0; j < op->n; j++)
            if (op->msgs[j] >= 0)
                sent(E, op->msgs[j], t);
        op_startall(op->n, rq);
        for (int j = 0; j < op->n; j++)
            E->sl[op->set[j]].req = rq[j];
        return;
    }
    for (int j = 0; j < op->n; j++) {
        if (op->msgs[j] >= 0)
            sent(E, op->msgs[j], fz_now_ns());
        op_start(&E->sl[op->set[j]].req);
    }
}

static void do_op(struct exec *E, const struct fz_op *op)
{
    struct slot *sl = op->slot >= 0 ? &E->sl[op->slot] : NULL;
    const struct fz_spec *sp = &op->spec;
    const struct fz_msg *m = op->msg >= 0 ? &E->st->msg[op->msg] : NULL;
    MPI_Message msg;
    MPI_Status st;
    int flag = 0;
    switch (op->kind) {
    case K_DELAY:
        busy_wait(op->us);
        break;
    case K_SEND:
        do_send(E, op);
        break;
    case K_ISEND:
        do_isend(E, op);
        break;
    case K_RECV:
        do_recv(E, op);
        break;
    case K_IRECV:
        sl->kind = SL_RECV;
        sl->comm = sp->comm;
        sl->active = 1;
        op_irecv(sl->buf, E->cap, sp->src, sp->tag, comm_of(E, sp->comm), &sl->req);
        break;
    case K_IMRECV: {
        int64_t t0 = fz_now_ns();
        while (!flag)
            op_improbe(sp->src, sp->tag, comm_of(E, sp->comm), &flag, &msg, &st);
        /* MPI_Improbe found it, not waited: charged nothing; known once received */
        if (!E->off)
            fz_add_recv(&E->L->recs, 0, S_IMPROBE, t0, fz_now_ns(), 0, -1);
        sl->kind = SL_IMRECV;
        sl->comm = sp->comm;
        sl->active = 1;
        op_imrecv(sl->buf, E->cap, &msg, &sl->req);
        break;
    }
    case K_SENDRECV:
        do_sendrecv(E, op);
        break;
    case K_COMPLETE:
        do_complete(E, op);
        break;
    case K_CANCEL_POST:
        sl->kind = SL_CANCEL;
        sl->active = 1;
        op_irecv_cancel(sl->buf, E->cap, sp->src, sp->tag, comm_of(E, sp->comm), &sl->req);
        break;
    case K_CANCEL:
        op_cancel(&sl->req);
        op_wait(&sl->req, &st);
        op_test_cancelled(&st, &flag);
        sl->active = 0;
        fz_say(E->L, "cancel s=%llu l=%d step=%d rank=%d slot=%d %s\n", (unsigned long long)E->L->seed, E->L->lane,
               E->stepno, E->L->rank, op->slot, flag ? "ok" : "BAD not cancelled");
        E->L->bad += !flag;
        break;
    case K_SEND_INIT:
        sl->kind = SL_PSEND;
        if (op->mode || fz_sync)
            op_ssend_init(sl->buf, m->count, peer(E, m), m->tag, comm_of(E, m->comm), &sl->req);
        else
            op_send_init(sl->buf, m->count, peer(E, m), m->tag, comm_of(E, m->comm), &sl->req);
        break;
    case K_RECV_INIT:
        sl->kind = SL_PRECV;
        sl->comm = sp->comm;
        op_recv_init(sl->buf, E->cap, sp->src, sp->tag, comm_of(E, sp->comm), &sl->req);
        break;
    case K_START:
    case K_STARTALL:
        do_start(E, op);
        break;
    case K_FREE:
        for (int j = 0; j < op->n; j++) {
            op_request_free(&E->sl[op->set[j]].req);
            E->sl[op->set[j]].kind = SL_NONE;
        }
        break;
    }
}

/* --- steps ------------------------------------------------------------------ */

static void run_step(struct fz_lane *L, const struct fz_step *st, int stepno)
{
    int r = L->rank, ns = st->nslot[r];
    struct exec E = { .L = L, .st = st, .stepno = stepno, .cap = st->maxcount, .off = (int)(st->off >> r & 1) };
    E.sl = calloc((size_t)ns + 1, sizeof *E.sl);
    E.got = calloc((size_t)st->nmsg + 1, sizeof *E.got);
    E.sbuf = malloc((size_t)E.cap * sizeof(int));
    E.rbuf = malloc((size_t)E.cap * sizeof(int));
    for (int j = 0; j < ns; j++) {
        E.sl[j].req = MPI_REQUEST_NULL;
        E.sl[j].buf = malloc((size_t)E.cap * sizeof(int));
    }
    if (E.off)
        op_pcontrol(0);
    for (int j = 0; j < st->nops[r]; j++)
        do_op(&E, &st->ops[r][j]);
    for (int i = 0; i < st->nmsg; i++)
        if (st->msg[i].dst == r && E.got[i] != 1) {
            fz_say(L, "lost s=%llu l=%d id=%d to=%d BAD received %d times\n", (unsigned long long)L->seed, L->lane,
                   st->first_id + i, r, E.got[i]);
            L->bad++;
        }
    for (int j = 0; j < ns; j++)
        if (E.sl[j].active) {
            fz_say(L, "left s=%llu l=%d step=%d rank=%d slot=%d BAD request still active\n",
                   (unsigned long long)L->seed, L->lane, stepno, r, j);
            L->bad++;
        }
    if (E.off)
        op_pcontrol(1);
    PMPI_Barrier(L->comm[FZ_WORLD]);
    for (int j = 0; j < ns; j++)
        free(E.sl[j].buf);
    free(E.sl);
    free(E.got);
    free(E.sbuf);
    free(E.rbuf);
}

int fz_run(struct fz_lane *L, const struct fz_sched *s)
{
    long bad = L->bad;
    for (int k = 0; k < s->nstep; k++) {
        if (L->verbose && L->rank == 0)
            fprintf(stderr, "# s=%llu l=%d step %d starts\n", (unsigned long long)L->seed, L->lane, k);
        run_step(L, &s->step[k], k);
    }
    return L->bad != bad;
}
