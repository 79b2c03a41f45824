/* waits_lock.c: lock contention (waits.h), the wait state of passive-
 * target epochs: an MPI_Win_lock epoch waiting, in its MPI_Win_lock or its
 * MPI_Win_unlock (an implementation may take the lock at either), for the
 * release of a lock it conflicts with (an exclusive lock with any, a
 * shared one with an exclusive one) held by another process.
 *
 * The epochs are kept at their targets in one lock window over
 * MPI_COMM_WORLD (made when wait states start, freed at MPI_Finalize): per
 * process SLOTS rings of the last RING epochs that locked the windows of a
 * slot (a window's slot: its number, prof_win_number, modulo SLOTS), each
 * with its release (when its MPI_Win_unlock started: the holders follow
 * each other in that order), its node, process and lock type, its lock and
 * unlock calls (sites and times), the release its wait was charged to so
 * far and the cause it passes on. After every MPI_Win_unlock of an
 * MPI_Win_lock epoch, profiled or not, the process reads the target's ring
 * and writes its own epoch in one exclusive epoch of its own on the
 * target's lock window (the profiler's time, not the call's). Of two
 * epochs that followed each other, the one written second works out the
 * later one's wait: the part of its MPI_Win_lock and of its MPI_Win_unlock
 * before the earlier one's release, each charged to that call's site and
 * to the cause the earlier one passed on (its region, from its call before
 * MPI_Win_unlock to it; or, when it waited for the lock itself longer than
 * it then held it, the cause of that wait).
 *
 * An MPI_Win_lock_all epoch is a shared lock on every target of the
 * window: written at each at its MPI_Win_unlock_all, charged the longest
 * of its waits there (they overlap in its two calls).
 *
 * Not seen: waits in the one-sided calls and flushes between (an
 * implementation that takes the lock there, or only in MPI_Win_unlock
 * after a later epoch's unlock started); holders on other nodes whose
 * clocks are not on one timeline (nodes.h); an unprofiled unlock's
 * release is when it returned. Cost: per MPI_Win_unlock one exclusive
 * epoch on the target (a get, a flush, a put), per MPI_Win_unlock_all one
 * on each target of the window. */
#include <stdlib.h>
#include "nodes.h"
#include "prof.h"
#include "run.h"
#include "shadow.h"
#include "waits.h"

#define SLOTS 64
#define RING 8

/* An epoch that locked a window of the slot. */
struct epoch {
    uint64_t at;                           /* its release: when its MPI_Win_unlock started (0: none), */
    uint64_t node;                         /* on which clock (prof_sync_node): its times are prof_sync_out's, */
    int32_t rank, type;                    /* by which process (of MPI_COMM_WORLD), its lock type, */
    uint64_t lock_key, lock_t0, lock_t1;   /* its MPI_Win_lock (key 0: not profiled), */
    uint64_t unlock_key, unlock_t1;        /* its MPI_Win_unlock (from at), */
    uint64_t charged;                      /* the release its wait was charged to so far (0: none), */
    struct prof_cause cause;               /* and the cause it passes on */
};

struct slot {
    uint64_t count;               /* epochs written, */
    struct epoch last[RING];      /* the latest RING of them at count % RING */
};

static struct {
    MPI_Win win;
    struct slot slot[SLOTS];
} lw = { MPI_WIN_NULL, { { 0 } } };

/* A lock this process holds on a target: its type (0: none) and its
 * MPI_Win_lock call (key 0: not profiled). */
struct held {
    int type;
    uint64_t key, t0, t1;
};

/* A window's passive-target state: its slot, its processes' MPI_COMM_WORLD
 * ranks and the locks held on them. */
struct prof_waits_locks {
    int slot, n;
    int *world;
    struct held *held;
};

void prof_waits_lock_window(int start)
{
    if (start) {
        lw.win = prof_own_win(lw.slot, sizeof lw.slot, 1, "lock contention (wait states)");
    } else if (lw.win != MPI_WIN_NULL) {
        PMPI_Win_free(&lw.win);
    }
}

struct prof_waits_locks *prof_waits_locks_new(MPI_Comm comm, int lacks)
{
    struct prof_waits_locks *l = calloc(1, sizeof *l);
    if (l)
        prof_comm_world_ranks(comm, &l->world, &l->n);
    if (l && l->n > 0)
        l->held = calloc((size_t)l->n, sizeof *l->held);
    unsigned number = 0;
    lacks = lacks || !l || !l->held;
    if (prof_win_number(comm, &lacks, &number) != 0 || lacks) {
        prof_waits_locks_free(l);
        return NULL;
    }
    l->slot = (int)(number % SLOTS);
    return l;
}

void prof_waits_locks_free(struct prof_waits_locks *l)
{
    if (l) {
        free(l->world);
        free(l->held);
    }
    free(l);
}

void prof_waits_locked(struct prof_waits_locks *l, const struct prof_ev_epoch *ev)
{
    if (!l)
        return;
    struct held h = { ev->lock, prof_call_key(ev->c), ev->c->th ? ev->c->t0 : 0, prof_clock() };
    int lo, hi;
    prof_epoch_targets(ev->target, l->n, &lo, &hi);
    for (int t = lo; t < hi; t++)
        l->held[t] = h;
}

/* Whether e had to wait for the release of p (another process's, on its
 * node and clock, released before e's, in a lock it conflicts with). */
static int follows(const struct epoch *e, const struct epoch *p)
{
    return p->at && p->at < e->at && p->rank != e->rank && p->node == e->node &&
           (e->type == MPI_LOCK_EXCLUSIVE || p->type == MPI_LOCK_EXCLUSIVE);
}

/* The part of e's MPI_Win_lock (part[0]) and MPI_Win_unlock (part[1]) before x. */
static void parts(const struct epoch *e, uint64_t x, uint64_t part[2])
{
    part[0] = e->lock_key ? prof_ticks_before(x, e->lock_t0, e->lock_t1) : 0;
    part[1] = e->unlock_key ? prof_ticks_before(x, e->at, e->unlock_t1) : 0;
}

/* A wait of e worked out: what it waited for p's release beyond what was
 * charged (in *got, to charge once the epoch on the ring is over), and the
 * cause it passes on: p's when its whole wait was longer than it held the
 * lock after p. */
struct charge {
    int rank;
    uint64_t key[2], ticks[2];
    struct prof_cause cause;
};

static void waited_for(struct epoch *e, const struct epoch *p, struct charge *got)
{
    uint64_t now[2], was[2];
    parts(e, p->at, now);
    parts(e, e->charged, was);
    *got = (struct charge){ e->rank, { e->lock_key, e->unlock_key }, { now[0] - was[0], now[1] - was[1] }, p->cause };
    e->charged = p->at;
    if (now[0] + now[1] > e->at - p->at)
        e->cause = p->cause;
}

/* In the ring s, before mine is written: the epoch mine followed (its
 * wait, in *own), and each epoch that followed mine but was written
 * before it, with no epoch it follows between (their waits in other, *n of
 * them). */
static void match(struct slot *s, struct epoch *mine, struct charge *own, struct charge *other, int *n)
{
    struct epoch *p = NULL;
    for (int i = 0; i < RING; i++)
        if (follows(mine, &s->last[i]) && (!p || s->last[i].at > p->at))
            p = &s->last[i];
    if (p)
        waited_for(mine, p, own);
    for (int i = 0; i < RING; i++) {
        struct epoch *e = &s->last[i];
        int between = 0;
        if (!follows(e, mine) || e->charged >= mine->at)
            continue;
        for (int j = 0; j < RING; j++)
            between |= j != i && follows(e, &s->last[j]) && s->last[j].at > mine->at;
        if (!between)
            waited_for(e, mine, &other[(*n)++]);
    }
}

/* A wait worked out (on the clock of prof_sync_node, as this process's
 * ticks): charged to this thread's call or to another rank's. */
static void charge(const struct charge *c)
{
    for (int i = 0; i < 2; i++) {
        uint64_t ticks = prof_sync_span(c->ticks[i]);
        if (!c->key[i] || !ticks)
            continue;
        if (c->rank == prof_run.rank)
            prof_waits_charge(PROF_WAIT_lock_contention, c->key[i], &c->cause, ticks);
        else
            prof_waits_charge_rank(PROF_WAIT_lock_contention, c->rank, c->key[i], &c->cause, ticks);
    }
}

/* The epoch mine, ended on the target of window rank t: written in the
 * target's ring (one exclusive epoch on its lock window) with the epochs
 * it followed and that followed it worked out; those others' waits
 * charged, its own in *own (rank -1: none). 0, or -1 when the exchange
 * failed. */
static int exchange(struct prof_waits_locks *l, int t, struct epoch *mine, struct charge *own)
{
    struct charge other[RING];
    int n = 0, world = l->world[t];
    struct slot s;
    MPI_Aint at = (MPI_Aint)((size_t)l->slot * sizeof s);
    own->rank = -1;
    if (world == MPI_UNDEFINED || PMPI_Win_lock(MPI_LOCK_EXCLUSIVE, world, 0, lw.win) != MPI_SUCCESS)
        return -1;
    if (PMPI_Get(&s, (int)sizeof s, MPI_BYTE, world, at, (int)sizeof s, MPI_BYTE, lw.win) == MPI_SUCCESS &&
        PMPI_Win_flush(world, lw.win) == MPI_SUCCESS) {
        match(&s, mine, own, other, &n);
        s.last[s.count % RING] = *mine;
        s.count++;
        PMPI_Put(&s, (int)sizeof s, MPI_BYTE, world, at, (int)sizeof s, MPI_BYTE, lw.win);
    }
    PMPI_Win_unlock(world, lw.win);
    for (int i = 0; i < n; i++)
        charge(&other[i]);
    return 0;
}

/* An MPI_Win_unlock, or an MPI_Win_unlock_all (every target its lock
 * held): the epoch written at each target. Of an MPI_Win_lock_all's
 * waits at its targets, which overlap in its one MPI_Win_lock_all and
 * MPI_Win_unlock_all, the longest is charged. */
void prof_waits_unlocked(struct prof_waits_locks *l, const struct prof_ev_epoch *ev)
{
    struct prof_call *c = ev->c;
    int lo, hi;
    if (!l || lw.win == MPI_WIN_NULL || (prof_epoch_targets(ev->target, l->n, &lo, &hi), lo == hi))
        return;
    uint64_t now = prof_clock(), key = prof_call_key(c);
    struct charge own = { .rank = -1 }, got;
    for (int t = lo; t < hi; t++) {
        if (!l->held[t].type)
            continue;
        struct held h = l->held[t];
        l->held[t].type = 0;
        if (c->rc != MPI_SUCCESS)
            continue;
        struct epoch mine = { prof_sync_out(c->th ? c->t0 : now), prof_sync_node(), prof_run.rank, h.type, h.key,
                              prof_sync_out(h.t0), prof_sync_out(h.t1), key, prof_sync_out(now), 0,
                              prof_waits_carried(key) };
        if (exchange(l, t, &mine, &got) == 0 && got.rank >= 0 &&
            (own.rank < 0 || got.ticks[0] + got.ticks[1] > own.ticks[0] + own.ticks[1]))
            own = got;
    }
    uint64_t done = prof_clock();
    if (own.rank >= 0)
        charge(&own);
    if (c->th) {         /* the exchanges are the profiler's time */
        c->t0 += done - now;
        c->th->profiler += done - now;
    }
}
