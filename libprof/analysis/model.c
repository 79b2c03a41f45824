/* model.c: virtual clocks (see model.h). One clock per process, under a
 * lock: with several threads calling MPI their calls share one timeline. */
#include <pthread.h>
#include <stdlib.h>
#include "agree.h"
#include "config.h"
#include "lock.h"
#include "log.h"
#include "model.h"
#include "module.h"
#include "nodes.h"
#include "prof.h"
#include "request.h"
#include "shadow.h"
#include "thread.h"
#include "tokens.h"

int prof_model_on;

/* Where the ranks are: each world rank's node (NULL: one node), and the
 * model of a message between two nodes. */
static struct {
    int *node_of;
    struct prof_model net;
} place;

int prof_model_world(MPI_Comm comm, int peer)
{
    return place.node_of && comm != MPI_COMM_NULL ? prof_comm_world_rank(comm, peer) : -1;
}

const struct prof_model *prof_model_between(int a, int b)
{
    return place.node_of && a >= 0 && b >= 0 && a < prof_run.size && b < prof_run.size &&
                   place.node_of[a] != place.node_of[b] ? &place.net : &prof_model;
}

const struct prof_model *prof_model_net(void)
{
    return place.node_of ? &place.net : &prof_model;
}

/* The nodes' count and the most ranks on one, from place.node_of. */
static void place_counts(void)
{
    prof_model_nnodes = prof_model_spread(place.node_of, prof_run.size, NULL, prof_run.size, &prof_model_ppn);
}

/* A hypothetical placement (nodes=), at the model's start: 0, or -1 and
 * rank 0 says why (every rank finds the same: the options agree). */
static int place_given(const struct prof_model *m)
{
    if (!m->net || !m->nodes)
        return 0;
    if (prof_model_place(m, prof_run.size, NULL) != 0) {
        prof_log_once("MPIPROF_MODEL='%s' is not valid (%s); no model", prof_config.model, prof_model_why());
        return -1;
    }
    place.node_of = malloc((size_t)prof_run.size * sizeof *place.node_of);
    if (!place.node_of) {
        prof_log_once("out of memory for the model's placement; no model");
        return -1;
    }
    prof_model_place(m, prof_run.size, place.node_of);
    prof_model_net_of(m, &place.net);
    place_counts();
    return 0;
}

/* The real placement (a network between nodes without nodes=), once the
 * nodes module told each rank its node (collective): each rank's; when a
 * rank's is not known, one node, and rank 0 says so. */
static void place_real(void)
{
    if (!prof_model.net || prof_model.nodes)
        return;
    int mine = prof_nodes_index();
    place.node_of = malloc((size_t)prof_run.size * sizeof *place.node_of);
    int ok = mine >= 0 && place.node_of;
    if (PMPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, prof_run.comm) != MPI_SUCCESS)
        ok = 0;
    if (ok)
        ok = PMPI_Allgather(&mine, 1, MPI_INT, place.node_of, 1, MPI_INT, prof_run.comm) == MPI_SUCCESS;
    if (!ok) {
        prof_log_once("the model cannot tell the ranks' nodes apart; every message is priced as inside a node");
        free(place.node_of);
        place.node_of = NULL;
        return;
    }
    prof_model_net_of(&prof_model, &place.net);
    place_counts();
}

static struct {
    pthread_mutex_t lock;
    double now;              /* the modelled clock at the last call's end (s) */
    uint64_t last;           /* the real clock then (ticks) */
    double sec_per_tick;
    double mpi, compute;     /* modelled time inside MPI calls and between them */
    double waited;           /* how far partners' clocks have moved it on, in all */
    double node, net;        /* the transfers completed here, priced inside a node and between nodes */
    double fn[PROF_FN_COUNT];
} clk = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* --- the clock ------------------------------------------------------------- */

/* T(bytes): one message's modelled time. */
double prof_model_transfer(uint64_t bytes)
{
    return prof_model_time(&prof_model, (double)bytes);
}

/* Seconds per tick of the profiler's clock (its own ratio is known only
 * at the end of the run): from the model's start (calibrate_from) to its
 * begin (calibrated), 1 ms at least (prof_clock_mono_apart), the modules'
 * starts and agreements in between (it slept 20 ms here once, which every
 * profiled job under a model paid). */
static uint64_t cal_mono, cal_tick;

static void calibrate_from(void)
{
    cal_mono = prof_clock_mono_ns();
    cal_tick = prof_clock();
}

static double calibrated(void)
{
    if (!prof_clock_tsc())
        return 1e-9;
    uint64_t m1 = prof_clock_mono_apart(cal_mono);
    uint64_t t1 = prof_clock();
    return t1 > cal_tick ? (double)(m1 - cal_mono) * 1e-9 / (double)(t1 - cal_tick) : 1e-9;
}

/* The modelled time of the compute before a call that started at t0. */
static double compute_before(uint64_t t0)
{
    return t0 > clk.last ? (double)(t0 - clk.last) * clk.sec_per_tick * prof_model.cpu : 0;
}

double prof_model_now(const struct prof_call *c)
{
    prof_lock(&clk.lock);
    double v = clk.now + (c && c->th ? compute_before(c->t0) : 0);
    prof_unlock(&clk.lock);
    return v;
}

void prof_model_delay(int fn, double d)
{
    if (!(d > 0))
        return;
    prof_lock(&clk.lock);
    clk.now += d;
    clk.mpi += d;
    clk.fn[fn] += d;
    prof_unlock(&clk.lock);
}

static void begin(struct prof_call *c, uint64_t t1)
{
    prof_model_reply_poll(c->th);     /* after the call's real end */
    c->m_begin = prof_model_now(c);
    c->m_real = (double)(t1 - c->t0) * clk.sec_per_tick;
    c->m_end = c->m_begin + c->m_real;
    c->m_bytes = 0;
}

void prof_model_free(struct prof_call *c)
{
    c->m_end = c->m_begin;
}

double prof_model_waited(void)
{
    prof_lock(&clk.lock);
    double v = clk.waited;
    prof_unlock(&clk.lock);
    return v;
}

/* A partner's clock says c ends at at: how far that moves c's end on is
 * waiting (max(own, partner) moves on from own by that much; the moves
 * of one call add up to its latest partner's). */
static void partner_end(struct prof_call *c, double at)
{
    if (!(at > c->m_end))
        return;
    prof_lock(&clk.lock);
    clk.waited += at - c->m_end;
    prof_unlock(&clk.lock);
    c->m_end = at;
}

/* Transfers completed here: in inside a node, out between nodes. */
static void transferred(double in, double out)
{
    prof_lock(&clk.lock);
    clk.node += in;
    clk.net += out;
    prof_unlock(&clk.lock);
}

void prof_model_arrival(struct prof_call *c, double sent, uint64_t bytes, int src)
{
    const struct prof_model *m = prof_model_between(src, prof_run.rank);
    double x = prof_model_time(m, (double)bytes);
    if (sent >= 0) {
        transferred(m == &prof_model ? x : 0, m == &prof_model ? 0 : x);
        /* between nodes, through the receiver's node's link in */
        partner_end(c, m == &prof_model ? sent + x : prof_model_link_in(sent + x, prof_model_wire(m, (double)bytes)));
    } else if (c->m_begin + c->m_real > c->m_end) {
        c->m_end = c->m_begin + c->m_real;
    }
}

/* A collective's modelled cost on p processes when the largest volume of
 * one process is bytes (model_parse.c); a large-count variant as its base
 * function. */
/* How a communicator's processes are spread: p of them on n nodes, q at
 * most on one. */
struct spread {
    int p, n, q;
};

/* The world ranks of comm's processes (intra-communicator) into w[p]:
 * 0, or -1. */
static int world_ranks(MPI_Comm comm, int p, int *w)
{
    MPI_Group g, world;
    int *r = malloc((size_t)p * sizeof *r), rc = -1;
    if (r && PMPI_Comm_group(comm, &g) == MPI_SUCCESS) {
        if (PMPI_Comm_group(prof_run.comm, &world) == MPI_SUCCESS) {
            for (int i = 0; i < p; i++)
                r[i] = i;
            rc = PMPI_Group_translate_ranks(g, p, r, world, w) == MPI_SUCCESS ? 0 : -1;
            PMPI_Group_free(&world);
        }
        PMPI_Group_free(&g);
    }
    free(r);
    return rc;
}

/* comm's spread (n 1 without a placement, on an inter-communicator, or
 * when comm's ranks in MPI_COMM_WORLD cannot be told); the last few
 * communicators' kept by their serial (prof_comm_info). */
#define SPREADS 16
static struct spread spread_of(MPI_Comm comm)
{
    static struct {
        uint64_t serial;
        struct spread s;
    } kept[SPREADS];
    struct spread s = { 0, 1, 0 };
    if (PMPI_Comm_size(comm, &s.p) != MPI_SUCCESS || !place.node_of)
        return (struct spread){ s.p, 1, s.p };
    const struct prof_comm_info *ci = prof_comm_info(comm);
    if (ci->inter)
        return (struct spread){ s.p, 1, s.p };
    prof_lock(&clk.lock);
    for (int i = 0; i < SPREADS; i++)
        if (kept[i].serial == ci->serial) {
            s = kept[i].s;
            prof_unlock(&clk.lock);
            return s;
        }
    prof_unlock(&clk.lock);
    int *w = malloc((size_t)s.p * sizeof *w);
    s.n = w && world_ranks(comm, s.p, w) == 0 ? prof_model_spread(place.node_of, prof_run.size, w, s.p, &s.q) : 0;
    free(w);
    if (s.n < 1)
        s = (struct spread){ s.p, 1, s.p };
    prof_lock(&clk.lock);
    static unsigned next;
    kept[next % SPREADS].serial = ci->serial;
    kept[next++ % SPREADS].s = s;
    prof_unlock(&clk.lock);
    return s;
}

static double coll_cost(int fn, const struct spread *s, uint64_t bytes)
{
    enum prof_model_coll k;
    switch (prof_fn_base[fn]) {
    case FN_MPI_Barrier:
    case FN_MPI_Ibarrier:
    case FN_MPI_Win_fence:
        k = PROF_MC_BARRIER;
        break;
    case FN_MPI_Bcast:
    case FN_MPI_Ibcast:
        k = PROF_MC_BCAST;
        break;
    case FN_MPI_Reduce:
    case FN_MPI_Ireduce:
        k = PROF_MC_REDUCE;
        break;
    case FN_MPI_Allreduce:
    case FN_MPI_Iallreduce:
        k = PROF_MC_ALLREDUCE;
        break;
    case FN_MPI_Scan:
    case FN_MPI_Iscan:
    case FN_MPI_Exscan:
    case FN_MPI_Iexscan:
        k = PROF_MC_SCAN;
        break;
    case FN_MPI_Gather:
    case FN_MPI_Igather:
    case FN_MPI_Gatherv:
    case FN_MPI_Igatherv:
    case FN_MPI_Scatter:
    case FN_MPI_Iscatter:
    case FN_MPI_Scatterv:
    case FN_MPI_Iscatterv:
        k = PROF_MC_GATHER;
        break;
    case FN_MPI_Allgather:
    case FN_MPI_Iallgather:
    case FN_MPI_Allgatherv:
    case FN_MPI_Iallgatherv:
        k = PROF_MC_ALLGATHER;
        break;
    case FN_MPI_Reduce_scatter:
    case FN_MPI_Ireduce_scatter:
    case FN_MPI_Reduce_scatter_block:
    case FN_MPI_Ireduce_scatter_block:
        k = PROF_MC_REDUCE_SCATTER;
        break;
    case FN_MPI_Alltoall:
    case FN_MPI_Ialltoall:
    case FN_MPI_Alltoallv:
    case FN_MPI_Ialltoallv:
    case FN_MPI_Alltoallw:
    case FN_MPI_Ialltoallw:
        k = PROF_MC_ALLTOALL;
        break;
    default:        /* the neighbourhood collectives */
        k = PROF_MC_NEIGHBOR;
    }
    double out, cost = prof_model_coll_placed(&prof_model, &place.net, k, s->p, s->n, s->q, (double)bytes, &out);
    transferred(cost - out, out);
    return cost;
}

/* A collective's modelled end: the latest start and the largest volume of
 * the processes (all: the reduction over the communicator; on an
 * inter-communicator it covers the remote group only, and the own values
 * stand for the local one), plus its cost. */
static double coll_end(int fn, const struct spread *s, const double mine[2], const double all[2])
{
    double latest = all[0] > mine[0] ? all[0] : mine[0], bytes = all[1] > mine[1] ? all[1] : mine[1];
    return latest + coll_cost(fn, s, (uint64_t)bytes);
}

/* A blocking collective's modelled end, agreed with the others when it
 * leaves (inside the call's time: coll_leave), in c->m_partner. */
static void agree(struct prof_call *c, uint64_t bytes)
{
    prof_model_reply_poll(NULL);
    double mine[2] = { prof_model_now(c), (double)bytes }, all[2];
    if (prof_fn_base[c->fn] == FN_MPI_Win_fence && c->m_partner > mine[0])     /* the epoch's data (coll_enter) */
        mine[0] = c->m_partner;
    c->m_partner = -1;
    struct spread s = spread_of(c->m_comm);
    if (s.p < 1 || PMPI_Allreduce(mine, all, 2, MPI_DOUBLE, MPI_MAX, c->m_comm) != MPI_SUCCESS)
        return;
    c->m_partner = coll_end(c->fn, &s, mine, all);
    if (all[0] > mine[0]) {     /* waiting for the latest, the cost after it */
        prof_lock(&clk.lock);
        clk.waited += all[0] - mine[0];
        prof_unlock(&clk.lock);
    }
}

/* A collective creation call (a communicator's or a window's) ends at the
 * latest modelled arrival of its processes plus the shortest time one of
 * them took in it (the others' longer times were waiting for the last):
 * agreed on comm, where every process of the call makes it (the new
 * intra-communicator, the window's communicator), inside the call's time,
 * profiled or not.
 * The calling thread keeps the answer for the call's end (its after= hook
 * runs before its clock is read, and the call's fields are not set yet). */
static __thread struct {
    const struct prof_call *c;
    uint64_t t0;
    double end;
} created_end __attribute__((tls_model("initial-exec")));

static void created(struct prof_call *c, MPI_Comm comm)
{
    int inter = 1;
    if (c->rc != MPI_SUCCESS || comm == MPI_COMM_NULL || PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter)
        return;
    if (!c->th) {     /* not profiled (a rank that stopped collecting): its partners agree all the same */
        double mine[2] = { prof_model_now(c), 0 }, all[2];
        PMPI_Allreduce(mine, all, 2, MPI_DOUBLE, MPI_MAX, comm);
        return;
    }
    double mine[2] = { prof_model_now(c), -(double)(prof_clock() - c->t0) * clk.sec_per_tick }, all[2];
    if (PMPI_Allreduce(mine, all, 2, MPI_DOUBLE, MPI_MAX, comm) != MPI_SUCCESS)
        return;
    created_end.c = c;
    created_end.t0 = c->t0;
    created_end.end = all[0] - all[1];
}

static void comm_created(const struct prof_ev_handle *ev)
{
    created(ev->c, *(MPI_Comm *)ev->handle);
}

static void win_created(const struct prof_ev_handle *ev)
{
    created(ev->c, ev->comm);
}

/* Nonblocking collectives pending: their clocks are agreed by a
 * PMPI_Iallreduce posted on the same communicator when the start call
 * ends (every process starts the collectives of a communicator in the same
 * order, so these match), and settled by the call that completes them. */
struct icoll {
    MPI_Request user, clock;
    double in[2], out[2];
    int fn;
    struct spread s;
    struct icoll *next;
};
static struct icoll *pending;       /* under clk.lock */

/* The pending entry of req, taken off the list (NULL if none). */
static struct icoll *take(MPI_Request req)
{
    prof_lock(&clk.lock);
    struct icoll **pp = &pending, *e;
    while ((e = *pp) && e->user != req)
        pp = &e->next;
    if (e)
        *pp = e->next;
    prof_unlock(&clk.lock);
    return e;
}

/* The latest start of e's collective plus its cost. What it waits for
 * is the profiler's time (th: the calling thread's, or NULL). */
static double settle(struct icoll *e, struct prof_thread *th)
{
    double at = -1;
    uint64_t t = prof_clock();
    if (PMPI_Wait(&e->clock, MPI_STATUS_IGNORE) == MPI_SUCCESS)
        at = coll_end(e->fn, &e->s, e->in, e->out);
    prof_profiler_add(th, t);
    free(e);
    return at;
}

/* The call c started the collective fn on comm, its request req, bytes
 * its volume here: its clocks agreed alongside (a nonblocking reduction of
 * the start times and volumes on comm, in the order every rank starts its
 * collectives there), waited for when req completes. */
static void start_icoll(struct prof_call *c, int fn, MPI_Comm comm, MPI_Request req, uint64_t bytes)
{
    struct icoll *e = calloc(1, sizeof *e), *old = take(req);
    if (old)
        settle(old, c->th);     /* its handle is given again: it completed unseen */
    if (!e)
        return;
    *e = (struct icoll){ req, MPI_REQUEST_NULL, { c->m_begin, (double)bytes }, { 0, 0 }, fn, { 0, 1, 0 }, NULL };
    uint64_t t = prof_clock();
    e->s = spread_of(comm);
    int ok = e->s.p >= 1 && PMPI_Iallreduce(e->in, e->out, 2, MPI_DOUBLE, MPI_MAX, comm, &e->clock) == MPI_SUCCESS;
    prof_profiler_add(c->th, t);
    if (!ok) {
        free(e);
        return;
    }
    prof_lock(&clk.lock);
    e->next = pending;
    pending = e;
    prof_unlock(&clk.lock);
}

static void completed(struct prof_call *c, MPI_Request req)
{
    struct icoll *e = req == MPI_REQUEST_NULL ? NULL : take(req);
    if (e)
        partner_end(c, settle(e, c->th));
}

/* The call's modelled time moves the clock; the next call's compute
 * starts now, after what the profiler did since the call's end. */
static void end(struct prof_call *c)
{
    if (prof_fn_coll[c->fn] == 2 && c->m_partner >= 0)
        c->m_end = c->m_partner;
    if (created_end.c == c && created_end.t0 == c->t0) {
        c->m_end = created_end.end;
        created_end.c = NULL;
    }
    if (prof_fn_coll[c->fn] == 3) {
        c->m_end = c->m_begin;
        if (c->m_comm != MPI_COMM_NULL)
            start_icoll(c, (int)c->fn, c->m_comm, c->m_ireq, c->m_bytes);
    }
    prof_lock(&clk.lock);
    double before = compute_before(c->t0);
    if (c->m_end < c->m_begin)
        c->m_end = c->m_begin;
    clk.compute += before;
    clk.mpi += c->m_end - c->m_begin;
    clk.fn[c->fn] += c->m_end - c->m_begin;
    clk.now = c->m_end > clk.now + before ? c->m_end : clk.now + before;
    clk.last = prof_clock();
    prof_unlock(&clk.lock);
}

void prof_model_finish(uint64_t t_end, double *elapsed, double *mpi, double *compute)
{
    /* Collectives whose completion was not seen: their clocks still meet. */
    struct icoll *e;
    while ((e = pending)) {
        pending = e->next;
        settle(e, NULL);
    }
    prof_lock(&clk.lock);
    double tail = compute_before(t_end);
    *elapsed = clk.now + tail;
    *mpi = clk.mpi;
    *compute = clk.compute + tail;
    prof_unlock(&clk.lock);
}

double prof_model_fn_time(int fn)
{
    return clk.fn[fn];
}

void prof_model_transfers(double *node, double *net)
{
    prof_lock(&clk.lock);
    *node = clk.node;
    *net = clk.net;
    prof_unlock(&clk.lock);
}

/* --- the model as a module (module.h) ------------------------------------- */

/* On when MPIPROF_MODEL names a model and every rank has the same one
 * (its tokens and clock exchanges are communication); else off everywhere,
 * and rank 0 says so when they differ. */
static int start(void)
{
    struct prof_model m = { 0 };
    int on = prof_config.model[0] && prof_model_parse(prof_config.model, &m) == 0;
    double v[17] = { on, m.perfect, m.lat, m.bw, m.cpu, m.o, m.g, m.eager, m.table ? m.table->sum : 0,
                     m.net, m.net_lat, m.net_bw, m.net_g, m.net_table ? m.net_table->sum : 0, m.nodes, m.ppn, m.place };
    int same = prof_agree(v, 17, NULL);
    if (same == 0)
        prof_log_once("MPIPROF_MODEL is not the same on every rank; no model");
    if (same != 1 || !on || place_given(&m) != 0)
        return -1;
    prof_model = m;
    prof_model_on = 1;
    calibrate_from();
    prof_model_locks(1);
    prof_model_rma_attach();
    prof_tokens_ride(&prof_model_rider);     /* the clocks travel with the messages */
    prof_shadow_want(PROF_WANT_REPLY | PROF_WANT_WIN);
    return 0;
}

/* The clock starts at 0 with the run's times (MPI_Init returns), after
 * the placement's collectives (the profiler's, not the program's: on 4
 * ranks sharing 2 cores they took 20 ms, which the first barrier made
 * every rank's). */
static void begin_run(uint64_t t)
{
    place_real();
    if (place.node_of)
        prof_model_link_start(place.node_of);
    clk.sec_per_tick = calibrated();
    uint64_t now = prof_clock();
    clk.last = now > t ? now : t;
    clk.now = 0;
}

static void call_end(const struct prof_ev_call *ev)
{
    begin(ev->c, ev->t1);
}

/* A blocking collective agrees its clocks on its communicator, or on its
 * window's shadow; a collective file call keeps MPI-IO's real time. */
static void coll_enter(const struct prof_ev_coll *ev)
{
    struct prof_call *c = ev->c;
    c->m_comm = ev->on == PROF_COLL_FILE ? MPI_COMM_NULL : prof_shadow_coll_comm(ev);
    c->m_partner = ev->on == PROF_COLL_WIN && c->m_comm != MPI_COMM_NULL ? prof_model_fence(c, ev->win, c->m_comm) : -1;
}

static void coll_leave(const struct prof_ev_call *ev)
{
    if (ev->c->m_comm != MPI_COMM_NULL)
        agree(ev->c, ev->bytes);
}

/* A nonblocking collective's call: its clocks agreed at its end, once its
 * volume is known (call_volume); an MPI_Start of a persistent one: now,
 * with the volume its init gave, as its blocking form's. */
static void icoll_started(const struct prof_ev_icoll *ev)
{
    struct prof_call *c = ev->c;
    if (ev->fn != (int)c->fn) {
        struct prof_request info;
        if (c->rc == MPI_SUCCESS && prof_request_get(*ev->req, &info))
            start_icoll(c, prof_fn_blocking[ev->fn], ev->comm, *ev->req,
                        info.tr.bytes_sent > info.tr.bytes_recv ? info.tr.bytes_sent : info.tr.bytes_recv);
        return;
    }
    c->m_comm = c->rc == MPI_SUCCESS ? ev->comm : MPI_COMM_NULL;
    c->m_ireq = c->rc == MPI_SUCCESS ? *ev->req : MPI_REQUEST_NULL;
}

static void call_volume(const struct prof_ev_call *ev)
{
    ev->c->m_bytes = ev->bytes;
}

/* A point-to-point call ends when its sends leave (model_nic.c) and, by
 * msg_arrived, when the messages it receives arrive: their sender's clock
 * plus their transfer. */
static void p2p_end(const struct prof_ev_p2p *ev)
{
    prof_model_free(ev->c);
    prof_model_sent(ev->c, ev->req);
}

static void req_done(const struct prof_ev_req *ev)
{
    completed(ev->c, ev->req);
    prof_model_reply_done(ev->c->fn, ev->req, ev->c->m_end);
}

static void msg_arrived(const struct prof_ev_arrival *ev)
{
    prof_model_arrival(ev->c, ev->sent, ev->bytes, ev->src);
}

/* One-sided data and synchronization (fences are collectives). */
static void rma_call(const struct prof_ev_rma *ev)
{
    switch (ev->kind) {
    case PROF_RMA_PUT:
    case PROF_RMA_GET:
    case PROF_RMA_ACC:
    case PROF_RMA_GET_ACC:
    case PROF_RMA_FOP:
    case PROF_RMA_CAS:
        prof_model_rma_data(ev->c, ev->win, ev->target, ev->bytes);
        break;
    case PROF_RMA_FENCE:
    case PROF_RMA_PSCW:
    case PROF_RMA_LOCK:
    case PROF_RMA_LOCK_ALL:
    case PROF_RMA_FLUSH:
        prof_model_rma_epoch(ev->c, ev->win, ev->kind, ev->target, ev->lock);
        break;
    default:
        break;
    }
}

static void call_done(const struct prof_ev_call *ev)
{
    end(ev->c);
}

const struct prof_module prof_mod_model = {
    .name = "the model",
    .start = start,
    .begin = begin_run,
    .figures = prof_model_figures,
    .call_end = call_end,
    .comm_created = comm_created,
    .win_created = win_created,
    .coll_enter = coll_enter,
    .coll_leave = coll_leave,
    .icoll_started = icoll_started,
    .call_volume = call_volume,
    .p2p_end = p2p_end,
    .req_done = req_done,
    .msg_arrived = msg_arrived,
    .rma_call = rma_call,
    .epoch = prof_model_epoch,
    .call_done = call_done,
    .writer = &prof_report_model,
};
