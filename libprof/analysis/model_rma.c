/* model_rma.c: the model's one-sided epochs (model.h). A put, get or
 * accumulate costs o; its bytes (the origin's) are counted on the window
 * and leave through the origin's link (model_nic.c) at the call that
 * completes them, which ends when they are at the target, s + T(bytes):
 * MPI_Win_fence (agreed as a collective: every rank's fence ends after
 * the last data of the epoch arrived; at a fence the bytes each process
 * was sent in the epoch also come in through its own link, one after the
 * other: from the earliest start s' of their origins' messages, at s' +
 * T(their sum)), MPI_Win_unlock(_all) and
 * MPI_Win_flush(_all); MPI_Win_flush_local(_all) and MPI_Win_complete
 * when they left the origin. Active target by their partners:
 * MPI_Win_post sends the target's clock to each origin of its group,
 * MPI_Win_start waits for them; MPI_Win_complete sends to each target of
 * its start group when its data arrives there (or its clock plus T(0)),
 * and the bytes it put to that target with their start on its link;
 * MPI_Win_wait (or MPI_Win_test when it reports the epoch over) waits for
 * them, and for its epoch's bytes to come in through its own link, one
 * after the other, from the earliest start: s' + T(their sum); each
 * message a token on the window's shadow, carrying when it is at its
 * receiver. The exchange runs after every such call, profiled or
 * not (the partners must meet); a profiled call's modelled end follows from
 * it.
 * Passive target: MPI_Win_lock(_all) one T(0), the target taking no part.
 * A lock is granted at the later of that and the release of the lock's
 * previous holder (for an exclusive lock, of any lock; for a shared one,
 * of an exclusive one), the modelled end of its MPI_Win_unlock: the epoch
 * moves on by the difference, time of MPI_Win_lock. The releases are kept
 * at the targets in one lock window over MPI_COMM_WORLD (made when the
 * model starts, freed at MPI_Finalize): per process, SLOTS pairs of
 * clocks, the latest exclusive and shared release of a lock on the
 * windows of a slot (a window's slot: its number, agreed on its shadow
 * when it is made, modulo SLOTS; windows of one slot share their
 * releases). A profiled MPI_Win_unlock reads them and writes its own
 * release in one exclusive epoch of its own on the target's (the
 * profiler's time, after the call), so the holders follow each other in
 * the order their unlocks returned. In the same epoch it reads and moves
 * on the target's incoming link clock (after the slots): the epoch's bytes
 * b come in after those of the unlocks before, at the later of s + T(b)
 * and that clock + b/bw. An MPI_Win_lock_all epoch is a shared lock on
 * every target: its MPI_Win_unlock_all takes the targets' epochs in the
 * order of their MPI_COMM_WORLD ranks, waits for the latest exclusive
 * release among them and writes its release at each (its bytes at
 * s + T(b), their target not known). Not seen: unprofiled locks, targets
 * outside MPI_COMM_WORLD, bytes a flush completes (at the target at their
 * own s + T(b)). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model.h"
#include "prof.h"
#include "shadow.h"
#include "thread.h"
#include "tokens.h"

enum { TAG_POST = 1, TAG_COMPLETE = 2, TAG_DATA = 3 };

/* A lock this origin holds on a target: its lock type (0: none) and when
 * its MPI_Win_lock ended. */
struct held {
    int type;
    double end;
};

#define SLOTS 64
#define LINK (2 * SLOTS)    /* after the slots' releases: when the process's link is free for the next
                               passive-target bytes coming in */
static struct {
    MPI_Win win;
    double clock[2 * SLOTS + 1];
} locks;

void prof_model_locks(int start)
{
    if (start) {
        locks.win = prof_own_win(locks.clock, sizeof locks.clock, sizeof(double),
                                 "the model of passive-target epochs (locks held)");
    } else if (locks.win != MPI_WIN_NULL) {
        PMPI_Win_free(&locks.win);
    }
}

/* The ranks (in the window's group, as in its shadow) of a post's and a
 * start's group, kept with the window's shadow until the next; and the
 * window's locks. */
struct prof_pscw {
    int *post, npost;
    int *start, nstart;
    uint64_t bytes;        /* this origin's data since the window's last completing call */
    int slot;              /* its slot of the lock window (< 0: none) */
    double *to;            /* per target: bytes put since the last fence or complete, and scratch (2n;
                              NULL: not counted) */
    int n;                 /* its processes, */
    int *world;            /* their MPI_COMM_WORLD ranks, */
    struct held *held;     /* and the locks held on them (made on the first lock) */
};

/* A window's epoch state, attached to its shadow (comm, collective over
 * it) when it is made; freed with it. */
static void *pscw_new(MPI_Comm comm)
{
    int n = 0;
    PMPI_Comm_size(comm, &n);
    struct prof_pscw *p = calloc(1, sizeof *p);
    double *to = p && n > 0 ? calloc(2 * (size_t)n, sizeof *to) : NULL;
    int lacks = !to;
    unsigned number = 0;
    int ok = prof_win_number(comm, &lacks, &number) == 0;
    if (!p || !ok || lacks) {
        free(to);
        to = NULL;
    }
    if (p) {
        p->slot = ok ? (int)(number % SLOTS) : -1;
        p->to = to;
        p->n = n;
    }
    return p;
}

static void pscw_free(void *state)
{
    struct prof_pscw *p = state;
    if (p) {
        free(p->post);
        free(p->start);
        free(p->world);
        free(p->held);
        free(p->to);
    }
    free(p);
}

static int slot = -1;     /* the model's index in the windows' shadows' state */

void prof_model_rma_attach(void)
{
    slot = prof_shadow_attach(pscw_new, pscw_free);
}

static struct prof_shadow *win_shadow(MPI_Win win)
{
    return prof_shadow_find(prof_shadow_key(PROF_SHADOW_WIN, &win, sizeof win));
}

static void send_all(MPI_Comm comm, const int *ranks, int n, int tag, double clock)
{
    for (int i = 0; i < n; i++)
        if (ranks[i] != MPI_UNDEFINED)
            prof_token_isend(comm, ranks[i], tag, 0, clock);
}

/* The latest of the partners' tokens (< 0: none). */
static double recv_all(MPI_Comm comm, const int *ranks, int n, int tag)
{
    double latest = -1;
    for (int i = 0; i < n; i++) {
        double t = ranks[i] == MPI_UNDEFINED ? -1 : prof_token_recv(comm, ranks[i], tag, NULL);
        if (t > latest)
            latest = t;
    }
    return latest;
}

static struct prof_pscw *state(struct prof_shadow *s)
{
    if (slot < 0)
        return NULL;
    struct prof_pscw *p = s->state[slot];
    if (!p && (p = calloc(1, sizeof *p))) {
        p->slot = -1;
        s->state[slot] = p;
    }
    return p;
}

/* win's epoch state (NULL: no shadow or no memory). */
static struct prof_pscw *win_state(MPI_Win win)
{
    struct prof_shadow *s = win == MPI_WIN_NULL ? NULL : win_shadow(win);
    return s ? state(s) : NULL;
}

uint64_t prof_model_rma_take(MPI_Win win)
{
    struct prof_pscw *p = win_state(win);
    uint64_t bytes = p ? p->bytes : 0;
    if (p)
        p->bytes = 0;
    return bytes;
}

double prof_model_rma_deliver(const struct prof_call *c, uint64_t bytes, double *injected)
{
    if (!bytes)
        return *injected = -1;
    double s = prof_model_inject(c, bytes, -1, injected);
    return s + prof_model_transfer(bytes);
}

/* The data of c's window leaves: when it is at the target (< 0: none);
 * c->m_partner when it left the origin. */
static double deliver(struct prof_call *c, MPI_Win win)
{
    return prof_model_rma_deliver(c, prof_model_rma_take(win), &c->m_partner);
}

/* The window's shadow and its epoch state, when the model exchanges
 * clocks for the call c on win (NULL: it does not). */
static struct prof_shadow *exchanging(struct prof_call *c, MPI_Win win)
{
    struct prof_shadow *s;
    c->m_partner = -1;
    if (c->rc != MPI_SUCCESS || !(s = win_shadow(win)) || !state(s))
        return NULL;
    return s;
}

static void win_post(struct prof_call *c, MPI_Group group, MPI_Win win)
{
    struct prof_shadow *s = exchanging(c, win);
    if (s) {
        prof_group_ranks_in_win(group, win, &state(s)->post, &state(s)->npost);
        send_all(s->comm, state(s)->post, state(s)->npost, TAG_POST, prof_model_now(c) + prof_model_transfer(0));
    }
}

static void win_start(struct prof_call *c, MPI_Group group, MPI_Win win)
{
    struct prof_shadow *s = exchanging(c, win);
    if (s) {
        prof_group_ranks_in_win(group, win, &state(s)->start, &state(s)->nstart);
        c->m_partner = recv_all(s->comm, state(s)->start, state(s)->nstart, TAG_POST);
    }
}

/* MPI_Win_complete: to each target, when the epoch's data is there (or
 * the signal is), and the bytes it was put with their start on the link. */
static void win_complete(struct prof_call *c, MPI_Win win)
{
    struct prof_shadow *s = exchanging(c, win);
    if (!s)
        return;
    struct prof_pscw *p = state(s);
    uint64_t bytes = prof_model_rma_take(win);
    double at = prof_model_rma_deliver(c, bytes, &c->m_partner), signal = prof_model_now(c) + prof_model_transfer(0);
    double start = bytes ? at - prof_model_transfer(bytes) : -1;
    send_all(s->comm, p->start, p->nstart, TAG_COMPLETE, at > signal ? at : signal);
    for (int i = 0; i < p->nstart; i++) {
        int r = p->start[i];
        double *put = p->to && r >= 0 && r < p->n ? &p->to[r] : NULL;
        if (r != MPI_UNDEFINED)
            prof_token_isend(s->comm, r, TAG_DATA, put ? (uint64_t)*put : 0, start);
        if (put)
            *put = 0;
    }
}

/* MPI_Win_wait, and MPI_Win_test (flag): when the exposure epoch is over,
 * the latest of its origins' completions and of its data coming in
 * through this process's link, one after the other: from the earliest
 * start, T(their sum). */
static void win_wait(struct prof_call *c, MPI_Win win, const int *flag)
{
    struct prof_shadow *s = exchanging(c, win);
    if (!s || (flag && !*flag))
        return;
    struct prof_pscw *p = state(s);
    double latest = recv_all(s->comm, p->post, p->npost, TAG_COMPLETE), first = HUGE_VAL, in = 0;
    for (int i = 0; i < p->npost; i++) {
        uint64_t put = 0;
        double start = p->post[i] == MPI_UNDEFINED ? -1 : prof_token_recv(s->comm, p->post[i], TAG_DATA, &put);
        if (put && start >= 0) {
            in += (double)put;
            first = start < first ? start : first;
        }
    }
    double arrived = in > 0 ? first + prof_model_transfer((uint64_t)in) : -1;
    c->m_partner = arrived > latest ? arrived : latest;
}

void prof_model_epoch(const struct prof_ev_epoch *ev)
{
    switch (ev->call) {
    case PROF_EPOCH_POST:
        win_post(ev->c, ev->group, ev->win);
        break;
    case PROF_EPOCH_START:
        win_start(ev->c, ev->group, ev->win);
        break;
    case PROF_EPOCH_COMPLETE:
        win_complete(ev->c, ev->win);
        break;
    case PROF_EPOCH_WAIT:
        win_wait(ev->c, ev->win, ev->flag);
        break;
    default:        /* passive target: rma_call */
        break;
    }
}

double prof_model_fence(const struct prof_call *c, MPI_Win win, MPI_Comm shadow)
{
    struct prof_pscw *p = win_state(win);
    uint64_t bytes = prof_model_rma_take(win);
    double s = bytes ? prof_model_inject(c, bytes, -1, NULL) : -1, at = bytes ? s + prof_model_transfer(bytes) : -1;
    if (!p || !p->to)
        return at;
    double in[2] = { 0, 0 };
    for (int i = 0; i < p->n; i++)
        p->to[p->n + i] = p->to[i] > 0 ? s : HUGE_VAL;
    int ok = PMPI_Reduce_scatter_block(p->to, &in[0], 1, MPI_DOUBLE, MPI_SUM, shadow) == MPI_SUCCESS &&
             PMPI_Reduce_scatter_block(p->to + p->n, &in[1], 1, MPI_DOUBLE, MPI_MIN, shadow) == MPI_SUCCESS;
    memset(p->to, 0, (size_t)p->n * sizeof *p->to);
    double arrived = ok && in[0] > 0 ? in[1] + prof_model_transfer((uint64_t)in[0]) : -1;
    return arrived > at ? arrived : at;
}

void prof_model_rma_data(struct prof_call *c, MPI_Win win, int target, uint64_t bytes)
{
    struct prof_pscw *p = win_state(win);
    if (p)
        p->bytes += bytes;
    if (p && p->to && target >= 0 && target < p->n)
        p->to[target] += (double)bytes;
    prof_model_free(c);
    c->m_end = c->m_begin + prof_model.o;
}

/* p's locks: its processes' world ranks (0, or -1 without memory). */
static int lockable(struct prof_pscw *p, MPI_Win win)
{
    int n = 0;
    if (p->held)
        return 0;
    if (p->slot >= 0)
        prof_win_world_ranks(win, &p->world, &n);
    if (n > 0 && (p->held = calloc((size_t)n, sizeof *p->held))) {
        p->n = n;
        return 0;
    }
    free(p->world);
    p->world = NULL;
    p->slot = -1;
    return -1;
}

/* MPI_Win_lock ended at c->m_end: its target's lock held (MPI_Win_lock_all:
 * target PROF_EPOCH_ALL, a shared lock on every target). */
static void locked(struct prof_call *c, MPI_Win win, int target, int type)
{
    struct prof_pscw *p = win_state(win);
    if (!p || c->rc != MPI_SUCCESS || locks.win == MPI_WIN_NULL || lockable(p, win) != 0)
        return;
    int lo, hi;
    prof_epoch_targets(target, p->n, &lo, &hi);
    for (int t = lo; t < hi; t++)
        if (p->world[t] != MPI_UNDEFINED)
            p->held[t] = (struct held){ type, c->m_end };
}

/* The targets an unlock of target ends (PROF_EPOCH_ALL: every one held)
 * into *v, in the order of their MPI_COMM_WORLD ranks (so that the lock
 * window's epochs of two unlocks are taken in one order); their number.
 * *v is one, room for a single target, or (PROF_EPOCH_ALL) allocated. */
static int held_targets(const struct prof_pscw *p, int target, int *one, int **v)
{
    int n = 0, lo = 0, hi = 0;
    if (p && p->held)
        prof_epoch_targets(target, p->n, &lo, &hi);
    *v = hi - lo == 1 ? one : hi > lo ? malloc((size_t)(hi - lo) * sizeof **v) : NULL;
    for (int k = lo; *v && k < hi; k++)
        if (p->held[k].type) {
            int i = n++;
            for (; i > 0 && p->world[(*v)[i - 1]] > p->world[k]; i--)
                (*v)[i] = (*v)[i - 1];
            (*v)[i] = k;
        }
    return n;
}

/* MPI_Win_unlock of target (MPI_Win_unlock_all: PROF_EPOCH_ALL, every
 * target it holds): in one exclusive epoch on each target's lock window,
 * the releases it waits for read (for an exclusive lock, of any lock; for
 * a shared one, of an exclusive one), the latest counting, and its own
 * written; the call (and the clock) moves on by the wait, and its data
 * leaves after. Its modelled end. */
static double unlocked(struct prof_call *c, MPI_Win win, int target)
{
    struct prof_pscw *p = win_state(win);
    int one, *v, n = held_targets(p, target, &one, &v);
    double floor = c->m_begin + prof_model_transfer(0), wait = 0, link = 0, at;
    unsigned char ok1 = 0, *ok = n == 1 ? &ok1 : NULL;
    if (!n) {
        if (v != &one)
            free(v);
        at = deliver(c, win);
        return at > floor ? at : floor;
    }
    uint64_t t = prof_clock();
    if (n > 1)
        ok = calloc((size_t)n, 1);
    for (int i = 0; ok && i < n; i++) {
        struct held h = p->held[v[i]];
        double prev[2] = { 0, 0 };
        int world = p->world[v[i]];
        ok[i] = PMPI_Win_lock(MPI_LOCK_EXCLUSIVE, world, 0, locks.win) == MPI_SUCCESS;
        if (ok[i] && PMPI_Get(prev, 2, MPI_DOUBLE, world, 2 * p->slot, 2, MPI_DOUBLE, locks.win) == MPI_SUCCESS &&
            (target == PROF_EPOCH_ALL ||
             PMPI_Get(&link, 1, MPI_DOUBLE, world, LINK, 1, MPI_DOUBLE, locks.win) == MPI_SUCCESS))
            PMPI_Win_flush(world, locks.win);
        double d = (h.type == MPI_LOCK_EXCLUSIVE && prev[1] > prev[0] ? prev[1] : prev[0]) - h.end;
        wait = d > wait ? d : wait;
    }
    if (wait > 0) {
        prof_model_delay(FN_MPI_Win_lock, wait);
        c->m_begin += wait;
        c->m_end += wait;
        floor += wait;
    }
    /* The data comes in through the target's link after the bytes that
     * came in before it (of the unlocks before, in the order they
     * returned): at the later of s + T(b) and that link's free clock +
     * b / bw (MPI_Win_unlock_all, whose bytes per target are not known:
     * at s + T(b)). */
    uint64_t bytes = prof_model_rma_take(win);
    at = prof_model_rma_deliver(c, bytes, &c->m_partner);
    if (bytes && target != PROF_EPOCH_ALL && link + prof_model_wire(&prof_model, (double)bytes) > at)
        at = link + prof_model_wire(&prof_model, (double)bytes);
    double release = at > floor ? at : floor;
    for (int i = 0; i < n; i++) {
        int world = p->world[v[i]], type = p->held[v[i]].type;
        p->held[v[i]].type = 0;
        if (!ok || !ok[i])
            continue;
        PMPI_Accumulate(&release, 1, MPI_DOUBLE, world, 2 * p->slot + (type == MPI_LOCK_EXCLUSIVE ? 0 : 1), 1,
                        MPI_DOUBLE, MPI_MAX, locks.win);
        if (bytes && target != PROF_EPOCH_ALL)
            PMPI_Accumulate(&at, 1, MPI_DOUBLE, world, LINK, 1, MPI_DOUBLE, MPI_MAX, locks.win);
        PMPI_Win_unlock(world, locks.win);
    }
    if (ok != &ok1)
        free(ok);
    if (v != &one)
        free(v);
    prof_profiler_add(c->th, t);
    return release;
}

void prof_model_rma_epoch(struct prof_call *c, MPI_Win win, int k, int target, int lock)
{
    if (k == PROF_RMA_FENCE)
        return;
    prof_model_free(c);
    double at = -1;
    switch (c->fn) {
    case FN_MPI_Win_start:
    case FN_MPI_Win_wait:
    case FN_MPI_Win_test:
    case FN_MPI_Win_complete:       /* m_partner: the partners' tokens, or when its data left */
        at = c->m_partner;
        break;
    case FN_MPI_Win_post:
        break;
    case FN_MPI_Win_lock:
        c->m_end = c->m_begin + prof_model_transfer(0);
        locked(c, win, target, lock);
        return;
    case FN_MPI_Win_unlock:
        at = unlocked(c, win, target);
        break;
    case FN_MPI_Win_lock_all:
        c->m_end = c->m_begin + prof_model_transfer(0);
        locked(c, win, PROF_EPOCH_ALL, MPI_LOCK_SHARED);
        return;
    case FN_MPI_Win_unlock_all:
        at = unlocked(c, win, PROF_EPOCH_ALL);
        break;
    case FN_MPI_Win_flush_local:
    case FN_MPI_Win_flush_local_all:
        deliver(c, win);
        at = c->m_partner;
        break;
    default:        /* unlock, flushes: the data at the target, or one T(0) */
        at = deliver(c, win);
        if (at < c->m_begin + prof_model_transfer(0))
            at = c->m_begin + prof_model_transfer(0);
    }
    if (at > c->m_end)
        c->m_end = at;
}
