/* model_link.c: a node's link to the network in the model (model.h). The
 * ranks of one node send and receive between nodes through its one link:
 * each way a queue of the messages it carries, in modelled time, in
 * memory the node's processes share. A message between nodes, w seconds
 * on the wire (its bytes at the network's bandwidth), is ready for the
 * link out of its sender's node at its start, and for the link into its
 * receiver's node w before its arrival; each way serves them first come
 * first served in modelled time, one at a time. The processes come in
 * their real order, not the modelled one (each has its own clock): a
 * message waits for those ready before it, whenever they came; one ready
 * after it that came first went first (its times are out already), and
 * it takes the time they overlap on top, which keeps the link's work
 * whatever the order (a "free from" clock would make a message ready a
 * few microseconds before another that came first wait its whole w).
 * Each way keeps the last LINK_SLOTS messages (long past, as a rule, for
 * every process of the node, when they go: the earlier half at once).
 *
 * The queues are shared by the ranks of one modelled node that run on
 * one host (MPI_Win_allocate_shared): on the real nodes, and in a
 * hypothetical placement of a run on one host, a node's ranks. A modelled
 * node whose ranks run on several hosts has them on each; where the
 * MPI cannot share memory, each rank has its own (a note says so). */
#include <sched.h>
#include <stdatomic.h>
#include <string.h>
#include "log.h"
#include "model.h"
#include "prof.h"
#include "run.h"

#define LINK_SLOTS 128

/* A way of the link: the messages it carried, in the order of the times
 * they were ready for it (a), each w seconds on the wire until f (it had
 * the link from f - w), and msg[i].m the latest f of the first i + 1. */
struct queue {
    int n;
    struct msg {
        double a, w, f, m;
    } msg[LINK_SLOTS];
};

struct link {
    atomic_flag busy;                      /* the lock of the node's processes and threads */
    struct queue way[2];                   /* out of the node, into it */
};

static struct {
    struct link own, *at;                  /* the node's (at), or this process's own */
    MPI_Comm comm;
    MPI_Win win;
    double waited;                         /* how far the link moved this rank's messages on (s) */
} lk = { .at = &lk.own, .comm = MPI_COMM_NULL, .win = MPI_WIN_NULL };

static void hold(struct link *l)
{
    while (atomic_flag_test_and_set_explicit(&l->busy, memory_order_acquire))
        sched_yield();
}

static void release(struct link *l)
{
    atomic_flag_clear_explicit(&l->busy, memory_order_release);
}

/* q's m from i on. */
static void latest_from(struct queue *q, int i)
{
    for (struct msg *x = q->msg; i < q->n; i++)
        x[i].m = i > 0 && x[i - 1].m > x[i].f ? x[i - 1].m : x[i].f;
}

/* A message ready at a, w seconds on the wire, into q: when it is done.
 * It has the link after those ready before it (or at a and come before
 * it); those ready after it that the processes' real order put on the
 * link first keep their times (their messages went), and it takes as much
 * longer as it shares the link with them. */
static double enqueue(struct queue *q, double a, double w)
{
    struct msg *x = q->msg;
    int lo = 0, hi = q->n;
    while (lo < hi) {                      /* after every one ready at a or before */
        int mid = (lo + hi) / 2;
        if (x[mid].a > a)
            hi = mid;
        else
            lo = mid + 1;
    }
    double f = (lo > 0 && x[lo - 1].m > a ? x[lo - 1].m : a) + w, shared = 0;
    for (int i = lo; i < q->n && x[i].a < f; i++) {
        double from = x[i].f - x[i].w > f - w ? x[i].f - x[i].w : f - w, to = x[i].f < f ? x[i].f : f;
        shared += to > from ? to - from : 0;
    }
    f += shared;
    if (q->n == LINK_SLOTS) {              /* full: the earlier half goes */
        int keep = LINK_SLOTS / 2, gone = q->n - keep;
        memmove(x, x + gone, (size_t)keep * sizeof x[0]);
        q->n = keep;
        lo = lo > gone ? lo - gone : 0;
        latest_from(q, 0);
    }
    memmove(&x[lo + 1], &x[lo], (size_t)(q->n - lo) * sizeof x[0]);
    q->n++;
    x[lo] = (struct msg){ .a = a, .w = w, .f = f };
    latest_from(q, lo);
    return f;
}

/* A message ready at t, w seconds on the wire, on way: when it is done. */
static double take(int way, double t, double w)
{
    struct link *l = lk.at;
    hold(l);
    double f = enqueue(&l->way[way], t, w);
    lk.waited += f - t - w;
    release(l);
    return f;
}

double prof_model_link_out(double t, double w)
{
    return w > 0 ? take(0, t, w) - w : t;
}

double prof_model_link_in(double t, double w)
{
    return w > 0 ? take(1, t - w, w) : t;
}

void prof_model_link_start(const int *node_of)
{
    MPI_Comm host;
    int local = 0, n = 1, ok = 0, all = 0, unit = 0;
    MPI_Aint size = 0;
    struct link *base = NULL;
    if (PMPI_Comm_split_type(prof_run.comm, MPI_COMM_TYPE_SHARED, prof_run.rank, MPI_INFO_NULL, &host) !=
        MPI_SUCCESS)
        return;
    int rc = PMPI_Comm_split(host, node_of[prof_run.rank], prof_run.rank, &lk.comm);
    PMPI_Comm_free(&host);
    if (rc != MPI_SUCCESS)
        return;
    PMPI_Comm_size(lk.comm, &n);
    if (n == 1)
        return;
    PMPI_Comm_rank(lk.comm, &local);
    ok = PMPI_Win_allocate_shared(local ? 0 : (MPI_Aint)sizeof *base, 1, MPI_INFO_NULL, lk.comm, &base, &lk.win) ==
         MPI_SUCCESS;
    ok = ok && PMPI_Win_shared_query(lk.win, 0, &size, &unit, &base) == MPI_SUCCESS && base &&
         size >= (MPI_Aint)sizeof *base;
    if (ok && !local) {
        memset(base, 0, sizeof *base);
        atomic_flag_clear(&base->busy);
    }
    if (PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, lk.comm) == MPI_SUCCESS && all) {
        lk.at = base;
        return;
    }
    if (ok)
        PMPI_Win_free(&lk.win);
    lk.win = MPI_WIN_NULL;
    prof_log_once("the MPI cannot make a window shared by a node's processes; in the model each rank has a "
                  "link of its own to the network between nodes");
}

double prof_model_link_end(void)
{
    hold(lk.at);
    double waited = lk.waited;
    release(lk.at);
    if (lk.win != MPI_WIN_NULL) {
        memcpy(lk.own.way, lk.at->way, sizeof lk.own.way);
        lk.at = &lk.own;
        PMPI_Win_free(&lk.win);
    }
    if (lk.comm != MPI_COMM_NULL)
        PMPI_Comm_free(&lk.comm);
    return waited;
}
