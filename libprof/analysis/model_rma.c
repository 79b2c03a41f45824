/* model_rma.c: the model's one-sided epochs (model.h). A put, get or
 * accumulate costs o; its bytes (the origin's) are counted on the window
 * per target and leave through the origin's link (model_nic.c) at the
 * call that completes them, which ends when they are at the target,
 * s + T(bytes): the bytes to targets on the origin's node (or of no
 * known node: all of them without a placement) as one message, then those
 * to each target on another node as one of their own, priced by the
 * network between nodes and through the node's link out (model_link.c).
 * MPI_Win_fence (agreed as a collective: every rank's fence ends after
 * the last data of the epoch arrived; at a fence the bytes each process
 * was sent in the epoch also come in through its own link, one after the
 * other: from the earliest start s' of their origins' messages, at s' +
 * T(their sum), those from other nodes' origins apart, under the network
 * between nodes and through its node's link in), MPI_Win_unlock(_all)
 * and MPI_Win_flush(_all); MPI_Win_flush_local(_all) and MPI_Win_complete
 * when they left the origin. Active target by their partners:
 * MPI_Win_post sends the target's clock to each origin of its group,
 * MPI_Win_start waits for them; MPI_Win_complete sends to each target of
 * its start group when its data arrives there (or its clock plus T(0)),
 * and the bytes it put to that target with their start on its link;
 * MPI_Win_wait (or MPI_Win_test when it reports the epoch over) waits for
 * them, and for its epoch's bytes to come in as at a fence; each
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
 * and that clock + b/bw, both under the model between origin and target
 * (the target's own link, not its node's). An MPI_Win_lock_all epoch is
 * a shared lock on every target: its MPI_Win_unlock_all takes the
 * targets' epochs in the order of their MPI_COMM_WORLD ranks, waits for
 * the latest exclusive release among them and writes its release at each
 * (its bytes at s + T(b), not through a target's link). The locks, the
 * flushes' floor and the signals of active-target epochs cost T(0)
 * between the two processes. Not seen: unprofiled locks, targets
 * outside MPI_COMM_WORLD, bytes a flush completes (at the target at their
 * own s + T(b)). */
#include <math.h>
#include <stdlib.h>
#include "model.h"
#include "prof.h"
#include "run.h"
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
 * start's group, kept with the window's shadow until the next; the data
 * put since the completing calls; and the window's locks. */
struct prof_pscw {
    int *post, npost;
    int *start, nstart;
    uint64_t bytes;        /* this origin's data since the window's last completing call whose target
                              is not counted in to */
    int slot;              /* its slot of the lock window (< 0: none) */
    double *to;            /* per target: bytes put since the last call that completed them (n), then
                              the scratch of the last delivery (SUMS, STARTS); NULL: not counted */
    int n;                 /* its processes, */
    int *world;            /* their MPI_COMM_WORLD ranks (NULL: not known), */
    struct held *held;     /* and the locks held on them (made on the first lock) */
};

/* A delivery's scratch in p->to, per target t, k 0 inside this process's
 * node and 1 between nodes: the bytes at SUMS(p) + 2t + k and the start
 * of their message at STARTS(p) + 2t + k (HUGE_VAL: none), in the layout
 * of a PMPI_Reduce_scatter_block of 2 per process. */
#define SUMS(p) ((p)->to + (p)->n)
#define STARTS(p) ((p)->to + 3 * (p)->n)

/* A window's epoch state, attached to its shadow (comm, collective over
 * it) when it is made; freed with it. */
static void *pscw_new(MPI_Comm comm)
{
    int n = 0;
    PMPI_Comm_size(comm, &n);
    struct prof_pscw *p = calloc(1, sizeof *p);
    double *to = p && n > 0 ? calloc(5 * (size_t)n, sizeof *to) : NULL;
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
        int m = 0;
        prof_comm_world_ranks(comm, &p->world, &m);
        if (m != n) {
            free(p->world);
            p->world = NULL;
        }
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

/* Where p's target t is: its MPI_COMM_WORLD rank when that is on another
 * node than this process, else -1 (on this one, or not known). */
static int away(const struct prof_pscw *p, int t)
{
    int w = p->world && t >= 0 && t < p->n ? p->world[t] : -1;
    return w >= 0 && prof_model_between(prof_run.rank, w) != &prof_model ? w : -1;
}

/* The model between this process and p's target (PROF_EPOCH_ALL: the
 * network between nodes when any target is on another node). */
static const struct prof_model *toward(const struct prof_pscw *p, int target)
{
    int lo = 0, hi = 0;
    if (p)
        prof_epoch_targets(target, p->n, &lo, &hi);
    for (int t = lo; t < hi; t++)
        if (away(p, t) >= 0)
            return prof_model_net();
    return &prof_model;
}

/* What a delivery sent: when its bytes inside the node are at their
 * targets and when the last are at theirs (< 0: none), when the last left
 * the origin (< 0: none), and how many bytes. */
struct gone {
    double node_at, at, injected, bytes;
};

/* A message of bytes that c sends now to world rank dst (-1: inside the
 * node), into g: its start. */
static double send_data(const struct prof_call *c, double bytes, int dst, struct gone *g)
{
    double e, s = prof_model_inject(c, (uint64_t)bytes, dst, &e);
    double at = s + prof_model_time(prof_model_between(prof_run.rank, dst), bytes);
    g->at = at > g->at ? at : g->at;
    g->injected = e > g->injected ? e : g->injected;
    g->bytes += bytes;
    return s;
}

/* The data to p's targets [lo, hi) leaves with c: the bytes to those on
 * this process's node, or whose node is not known (every one without a
 * placement), and those of no counted target, as one message; then the
 * bytes to each target on another node as one message of its own, in the
 * targets' order, through the node's link out (model_nic.c). The counts
 * taken are 0 after, and the scratch of [lo, hi) says each target's bytes
 * and their start (SUMS, STARTS). */
static struct gone leave(const struct prof_call *c, struct prof_pscw *p, int lo, int hi)
{
    struct gone g = { -1, -1, -1, 0 };
    double node = p ? (double)p->bytes : 0, s = -1;
    if (p)
        p->bytes = 0;
    if (!p || !p->to)
        hi = lo;
    for (int t = lo; t < hi; t++)
        node += away(p, t) < 0 ? p->to[t] : 0;
    if (node > 0) {
        s = send_data(c, node, -1, &g);
        g.node_at = g.at;
    }
    for (int t = lo; t < hi; t++) {
        int w = away(p, t), k = w >= 0;
        double b = p->to[t];
        SUMS(p)[2 * t + k] = b;
        SUMS(p)[2 * t + !k] = 0;
        STARTS(p)[2 * t + !k] = HUGE_VAL;
        STARTS(p)[2 * t + k] = !(b > 0) ? HUGE_VAL : k ? send_data(c, b, w, &g) : s;
        p->to[t] = 0;
    }
    return g;
}

/* The data c completes on p's target (PROF_EPOCH_ALL: every one) leaves:
 * what it sent; c->m_partner when it left the origin. */
static struct gone deliver(struct prof_call *c, struct prof_pscw *p, int target)
{
    int lo = 0, hi = 0;
    if (p)
        prof_epoch_targets(target, p->n, &lo, &hi);
    struct gone g = leave(c, p, lo, hi);
    c->m_partner = g.injected;
    return g;
}

/* When the bytes put to this process in an epoch are in (< 0: none): those
 * from its node's processes (bytes[0], the earliest start of their
 * messages first[0]) through its own link one after the other, first +
 * T(their sum); those from other nodes' (bytes[1], first[1]) the same
 * under the network between nodes, and through its node's link in
 * (model_link.c). */
static double come_in(const double bytes[2], const double first[2])
{
    const struct prof_model *net = prof_model_net();
    double node = bytes[0] > 0 ? first[0] + prof_model_transfer((uint64_t)bytes[0]) : -1;
    double other = bytes[1] > 0 ? prof_model_link_in(first[1] + prof_model_time(net, bytes[1]),
                                                     prof_model_wire(net, bytes[1]))
                                : -1;
    return node > other ? node : other;
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

/* MPI_Win_post: to each origin of its group, its clock plus T(0) between
 * the two. */
static void win_post(struct prof_call *c, MPI_Group group, MPI_Win win)
{
    struct prof_shadow *s = exchanging(c, win);
    if (!s)
        return;
    struct prof_pscw *p = state(s);
    prof_group_ranks_in_win(group, win, &p->post, &p->npost);
    double now = prof_model_now(c);
    for (int i = 0; i < p->npost; i++)
        if (p->post[i] != MPI_UNDEFINED)
            prof_token_isend(s->comm, p->post[i], TAG_POST, 0, now + prof_model_time(toward(p, p->post[i]), 0));
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
 * the signal is: its clock plus T(0)), and the bytes it was put with their
 * start on the link, each priced by where the target is (the data inside
 * the node is there with the last of it). */
static void win_complete(struct prof_call *c, MPI_Win win)
{
    struct prof_shadow *s = exchanging(c, win);
    if (!s)
        return;
    struct prof_pscw *p = state(s);
    struct gone g = deliver(c, p, PROF_EPOCH_ALL);
    double now = prof_model_now(c);
    for (int i = 0; i < p->nstart; i++) {
        int r = p->start[i], k = away(p, r) >= 0;
        if (r == MPI_UNDEFINED)
            continue;
        double put = p->to && r >= 0 && r < p->n ? SUMS(p)[2 * r + k] : 0;
        double start = put > 0 ? STARTS(p)[2 * r + k] : -1;
        const struct prof_model *m = k ? prof_model_net() : &prof_model;
        double at = k ? (put > 0 ? start + prof_model_time(m, put) : -1) : g.node_at;
        double signal = now + prof_model_time(m, 0);
        prof_token_isend(s->comm, r, TAG_COMPLETE, 0, at > signal ? at : signal);
        prof_token_isend(s->comm, r, TAG_DATA, (uint64_t)put, start);
    }
}

/* MPI_Win_wait, and MPI_Win_test (flag): when the exposure epoch is over,
 * the latest of its origins' completions and of its data coming in
 * (come_in: from its node's origins and from other nodes'). */
static void win_wait(struct prof_call *c, MPI_Win win, const int *flag)
{
    struct prof_shadow *s = exchanging(c, win);
    if (!s || (flag && !*flag))
        return;
    struct prof_pscw *p = state(s);
    double latest = recv_all(s->comm, p->post, p->npost, TAG_COMPLETE), first[2] = { HUGE_VAL, HUGE_VAL };
    double in[2] = { 0, 0 };
    for (int i = 0; i < p->npost; i++) {
        uint64_t put = 0;
        int k = away(p, p->post[i]) >= 0;
        double start = p->post[i] == MPI_UNDEFINED ? -1 : prof_token_recv(s->comm, p->post[i], TAG_DATA, &put);
        if (put && start >= 0) {
            in[k] += (double)put;
            first[k] = start < first[k] ? start : first[k];
        }
    }
    double arrived = come_in(in, first);
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
    struct gone g = leave(c, p, 0, p ? p->n : 0);
    if (!p || !p->to)
        return g.at;
    double in[4] = { 0, 0, HUGE_VAL, HUGE_VAL };     /* bytes put here inside the node and between nodes, and
                                                         their messages' earliest starts */
    int ok = PMPI_Reduce_scatter_block(SUMS(p), in, 2, MPI_DOUBLE, MPI_SUM, shadow) == MPI_SUCCESS &&
             PMPI_Reduce_scatter_block(STARTS(p), in + 2, 2, MPI_DOUBLE, MPI_MIN, shadow) == MPI_SUCCESS;
    double arrived = ok ? come_in(in, in + 2) : -1;
    return arrived > g.at ? arrived : g.at;
}

void prof_model_rma_data(struct prof_call *c, MPI_Win win, int target, uint64_t bytes)
{
    struct prof_pscw *p = win_state(win);
    if (p && p->to && target >= 0 && target < p->n)
        p->to[target] += (double)bytes;
    else if (p)
        p->bytes += bytes;
    prof_model_free(c);
    c->m_end = c->m_begin + prof_model.o;
}

/* p's locks: 0, or -1 (no slot, its processes' world ranks not known, or
 * no memory). */
static int lockable(struct prof_pscw *p)
{
    if (p->held)
        return 0;
    if (p->slot >= 0 && p->world && p->n > 0 && (p->held = calloc((size_t)p->n, sizeof *p->held)))
        return 0;
    p->slot = -1;
    return -1;
}

/* MPI_Win_lock ended at c->m_end: its target's lock held (MPI_Win_lock_all:
 * target PROF_EPOCH_ALL, a shared lock on every target). */
static void locked(struct prof_call *c, MPI_Win win, int target, int type)
{
    struct prof_pscw *p = win_state(win);
    if (!p || c->rc != MPI_SUCCESS || locks.win == MPI_WIN_NULL || lockable(p) != 0)
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
    double floor = c->m_begin + prof_model_time(toward(p, target), 0), wait = 0, link = 0, at;
    unsigned char ok1 = 0, *ok = n == 1 ? &ok1 : NULL;
    if (!n) {
        if (v != &one)
            free(v);
        at = deliver(c, p, target).at;
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
     * b / bw, under the model between this process and the target
     * (MPI_Win_unlock_all: each message at s + T(b), not through the
     * targets' link clocks). */
    struct gone g = deliver(c, p, target);
    double wire = prof_model_wire(prof_model_between(prof_run.rank, p->world[v[0]]), g.bytes);
    at = g.at;
    if (g.bytes > 0 && target != PROF_EPOCH_ALL && link + wire > at)
        at = link + wire;
    double release = at > floor ? at : floor;
    for (int i = 0; i < n; i++) {
        int world = p->world[v[i]], type = p->held[v[i]].type;
        p->held[v[i]].type = 0;
        if (!ok || !ok[i])
            continue;
        PMPI_Accumulate(&release, 1, MPI_DOUBLE, world, 2 * p->slot + (type == MPI_LOCK_EXCLUSIVE ? 0 : 1), 1,
                        MPI_DOUBLE, MPI_MAX, locks.win);
        if (g.bytes > 0 && target != PROF_EPOCH_ALL)
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
        c->m_end = c->m_begin + prof_model_time(toward(win_state(win), target), 0);
        locked(c, win, target, lock);
        return;
    case FN_MPI_Win_unlock:
        at = unlocked(c, win, target);
        break;
    case FN_MPI_Win_lock_all:
        c->m_end = c->m_begin + prof_model_time(toward(win_state(win), PROF_EPOCH_ALL), 0);
        locked(c, win, PROF_EPOCH_ALL, MPI_LOCK_SHARED);
        return;
    case FN_MPI_Win_unlock_all:
        at = unlocked(c, win, PROF_EPOCH_ALL);
        break;
    case FN_MPI_Win_flush_local:
    case FN_MPI_Win_flush_local_all:
        deliver(c, win_state(win), target);
        at = c->m_partner;
        break;
    default: {      /* flushes: the data at the target, or one T(0) */
        double floor = c->m_begin + prof_model_time(toward(win_state(win), target), 0);
        at = deliver(c, win_state(win), target).at;
        at = at > floor ? at : floor;
    }
    }
    if (at > c->m_end)
        c->m_end = at;
}
