/* waits_rma.c: the wait states of active-target one-sided epochs
 * (waits.h), from the epoch events (events.h), with tokens on the window's
 * shadow (shadow.h):
 *
 *   late_post      an origin waiting in MPI_Win_start or MPI_Win_complete
 *                  for a target's MPI_Win_post: each target sends the
 *                  origins of its group a token at its post; an origin
 *                  posts their receives at its start and takes them at its
 *                  complete (MPI_Win_start may block until the posts, so
 *                  the epoch may); its wait is the part of its start and
 *                  complete calls before the last post was sent;
 *   early_wait     a target waiting in MPI_Win_wait while an origin was
 *                  still at its epoch's one-sided calls, and
 *   late_complete  after the origin's last one-sided call, before its
 *                  MPI_Win_complete: each origin sends the targets of its
 *                  group, at its complete, a token with the end of its last
 *                  one-sided call (the cause it passed on then) and one
 *                  with the cause it passes on at the complete; the target
 *                  takes them when its MPI_Win_wait (or the MPI_Win_test
 *                  that says the epoch is over) returns, and splits the
 *                  part of its call before the last complete at that
 *                  origin's last one-sided call.
 *
 * The times compare on one node only (the tokens' clocks): across nodes an
 * epoch has no figures. Cold: a few tokens per epoch call; every epoch call
 * takes part, profiled or not (the partners must meet), only profiled ones
 * are charged. */
#include <stdlib.h>
#include "nodes.h"
#include "prof.h"
#include "shadow.h"
#include "tokens.h"
#include "waits.h"

enum { TAG_POST = PROF_TAGS_WAITS + 16, TAG_DONE, TAG_LAST };

/* A window's epochs at this process, kept with its shadow. */
struct prof_waits_win {
    int *post, npost;               /* a target: its post group, in the window's ranks */
    int *start, nstart;             /* an origin: its start group, */
    struct prof_token *tok;         /* the tokens of their posts, */
    MPI_Request *rq;                /* and their receives (NULL: no access epoch open) */
    uint64_t start_t0, start_t1;    /* its MPI_Win_start (0: not profiled), */
    uint64_t last_op;               /* the end of its last one-sided call in the epoch (0: none), */
    struct prof_cause last_cause;   /* and the cause that call passed on; */
    struct prof_waits_locks *locks; /* its passive-target epochs (waits_lock.c; NULL: not followed) */
};

static void drop_posts(struct prof_waits_win *w)
{
    for (int i = 0; w->rq && i < w->nstart; i++)
        if (w->rq[i] != MPI_REQUEST_NULL) {
            PMPI_Cancel(&w->rq[i]);
            PMPI_Request_free(&w->rq[i]);
        }
    free(w->rq);
    free(w->tok);
    w->rq = NULL;
    w->tok = NULL;
}

/* A window's state, attached to its shadow (comm; collective over it)
 * when it is made, freed with it. */
static void *win_new(MPI_Comm comm)
{
    struct prof_waits_win *w = calloc(1, sizeof *w);
    struct prof_waits_locks *l = prof_waits_locks_new(comm, !w);
    if (w)
        w->locks = l;
    return w;
}

static void win_free(void *state)
{
    struct prof_waits_win *w = state;
    if (!w)
        return;
    drop_posts(w);
    prof_waits_locks_free(w->locks);
    free(w->post);
    free(w->start);
    free(w);
}

static void post(MPI_Comm comm, struct prof_waits_win *w, const struct prof_ev_epoch *ev)
{
    prof_group_ranks_in_win(ev->group, ev->win, &w->post, &w->npost);
    struct prof_cause mine = prof_waits_carried(prof_call_key(ev->c));
    for (int i = 0; i < w->npost; i++)
        if (w->post[i] != MPI_UNDEFINED)
            prof_token_send_cause(comm, w->post[i], TAG_POST, &mine, 0);
}

static void start(MPI_Comm comm, struct prof_waits_win *w, const struct prof_ev_epoch *ev)
{
    drop_posts(w);
    prof_group_ranks_in_win(ev->group, ev->win, &w->start, &w->nstart);
    w->tok = calloc((size_t)w->nstart + 1, sizeof *w->tok);
    w->rq = malloc(((size_t)w->nstart + 1) * sizeof *w->rq);
    for (int i = 0; w->rq && w->tok && i < w->nstart; i++)
        if (w->start[i] == MPI_UNDEFINED ||
            PMPI_Irecv(&w->tok[i], (int)sizeof w->tok[i], MPI_BYTE, w->start[i], TAG_POST, comm, &w->rq[i]) !=
                MPI_SUCCESS)
            w->rq[i] = MPI_REQUEST_NULL;
    if (!w->rq || !w->tok)
        drop_posts(w);
    w->start_t0 = ev->c->th ? ev->c->t0 : 0;
    w->start_t1 = prof_clock();
    w->last_op = 0;
}

static void complete(MPI_Comm comm, struct prof_waits_win *w, const struct prof_ev_epoch *ev)
{
    uint64_t latest = 0, at = 0, now = prof_clock();
    struct prof_cause got = PROF_CAUSE_NONE;
    if (w->rq && PMPI_Waitall(w->nstart, w->rq, MPI_STATUSES_IGNORE) == MPI_SUCCESS) {
        uint64_t came = prof_clock();      /* the posts were sent before */
        for (int i = 0; i < w->nstart; i++)
            if (w->start[i] != MPI_UNDEFINED && prof_sync_token(w->tok[i].at, w->tok[i].node, w->tok[i].from, came, ev->c->t0, &at) && at >= latest) {
                latest = at;
                got = w->tok[i].cause;
            }
    }
    drop_posts(w);
    uint64_t key = prof_call_key(ev->c);
    if (key && w->start_t0) {
        uint64_t late =
            prof_ticks_before(latest, w->start_t0, w->start_t1) + prof_ticks_before(latest, ev->c->t0, now);
        if (late && got.rank >= 0)
            prof_waits_charge(PROF_WAIT_late_post, key, &got, late);
    }
    struct prof_cause mine = prof_waits_carried(key);
    for (int i = 0; i < w->nstart; i++)
        if (w->start[i] != MPI_UNDEFINED) {
            prof_token_send_cause(comm, w->start[i], TAG_DONE, &mine, w->last_op ? prof_sync_out(w->last_op) : 0);
            prof_token_send_cause(comm, w->start[i], TAG_LAST, w->last_op ? &w->last_cause : &mine, 0);
        }
}

/* The end of an exposure epoch: its origins have completed, their tokens
 * sent. */
static void waited(MPI_Comm comm, struct prof_waits_win *w, const struct prof_ev_epoch *ev)
{
    if (ev->flag && !*ev->flag)
        return;
    uint64_t now = prof_clock(), latest = 0, at = 0, last_op = 0;
    struct prof_cause done = PROF_CAUSE_NONE, last = PROF_CAUSE_NONE;
    for (int i = 0; i < w->npost; i++) {
        struct prof_token d, l;
        if (w->post[i] == MPI_UNDEFINED || prof_token_recv_full(comm, w->post[i], TAG_DONE, &d) != 0 ||
            prof_token_recv_full(comm, w->post[i], TAG_LAST, &l) != 0)
            continue;
        uint64_t came = prof_clock();      /* sent before */
        if (prof_sync_token(d.at, d.node, d.from, came, ev->c->t0, &at) && at >= latest) {
            latest = at;
            last_op = 0;
            if (d.mark)
                prof_sync_in(d.mark, d.node, d.from, came, &last_op);
            done = d.cause;
            last = l.cause;
        }
    }
    uint64_t key = prof_call_key(ev->c);
    if (!key)
        return;
    uint64_t t0 = ev->c->t0, all = prof_ticks_before(latest, t0, now), from = last_op > t0 ? last_op : t0;
    uint64_t tail = last_op ? prof_ticks_before(latest, from, now) : 0;
    if (tail && done.rank >= 0)
        prof_waits_charge(PROF_WAIT_late_complete, key, &done, tail);
    if (all > tail && last.rank >= 0)
        prof_waits_charge(PROF_WAIT_early_wait, key, &last, all - tail);
}

static int slot = -1;    /* wait states' index in the windows' shadows' state */

void prof_waits_win_attach(void)
{
    slot = prof_shadow_attach(win_new, win_free);
}

/* The shadow of win and its state in *w (NULL: none). */
static struct prof_shadow *win_shadow(MPI_Win win, struct prof_waits_win **w)
{
    struct prof_shadow *s = prof_shadow_find(prof_shadow_key(PROF_SHADOW_WIN, &win, sizeof win));
    *w = s && slot >= 0 ? s->state[slot] : NULL;
    return s;
}

void prof_waits_epoch(const struct prof_ev_epoch *ev)
{
    struct prof_waits_win *w;
    struct prof_shadow *s = win_shadow(ev->win, &w);
    if (!w || (ev->c->rc != MPI_SUCCESS && ev->call != PROF_EPOCH_UNLOCK))
        return;     /* a failed unlock still ends the epoch's lock held */
    switch (ev->call) {
    case PROF_EPOCH_POST:
        post(s->comm, w, ev);
        break;
    case PROF_EPOCH_START:
        start(s->comm, w, ev);
        break;
    case PROF_EPOCH_COMPLETE:
        complete(s->comm, w, ev);
        break;
    case PROF_EPOCH_WAIT:
        waited(s->comm, w, ev);
        break;
    case PROF_EPOCH_LOCK:
        prof_waits_locked(w->locks, ev);
        break;
    case PROF_EPOCH_UNLOCK:
        prof_waits_unlocked(w->locks, ev);
        break;
    }
}

/* A one-sided data call in an open access epoch: its end and cause. */
void prof_waits_rma_call(const struct prof_ev_rma *ev)
{
    if (ev->kind > PROF_RMA_CAS || ev->win == MPI_WIN_NULL)
        return;
    struct prof_waits_win *w;
    win_shadow(ev->win, &w);
    if (w && w->rq) {
        w->last_op = prof_clock();
        w->last_cause = prof_waits_carried(prof_call_key(ev->c));
    }
}
