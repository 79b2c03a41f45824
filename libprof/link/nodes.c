/* nodes.c: the nodes module (nodes.h), always on: at MPI_Init a
 * communicator per node and one of its leaders, and, when an analysis
 * wants it on several nodes, the leaders' clock offsets; at MPI_Finalize
 * the offsets again (the drift) and nodes.txt. Cold, but for prof_sync_out
 * and prof_sync_in (a token's send and arrival). */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "clock.h"
#include "lock.h"
#include "log.h"
#include "module.h"
#include "nodes.h"
#include "report.h"
#include "run.h"
#include "wait.h"

#define PINGS 10                     /* ping-pongs a pair of leaders makes; the shortest tells */
#define BIAS ((uint64_t)1 << 62)     /* a time on the timeline travels as its ns plus BIAS: never negative */
enum { TAG_PING = 1, TAG_OFFSET = 2 };

/* A clock offset: how many ns the timeline is ahead of a node's clock, how
 * far off that may be (half the shortest round trip of each pair of
 * leaders on the way from the first node), and when it was measured (the
 * node's clock, ns). */
struct offset {
    int64_t off, err, at;
};

static struct {
    uint64_t hash;                   /* host name and clock kind */
    char host[64];
    int want;                        /* an analysis asked for the timeline */
    int synced;                      /* the ranks' times travel on the timeline */
    MPI_Comm node, lead;             /* this node's processes; the leaders (MPI_COMM_NULL but there) */
    MPI_Group group;                 /* node's group, on several nodes (else MPI_GROUP_NULL) */
    int nnodes, index;               /* how many nodes (leaders), and which this one is */
    struct skew *skew;               /* the drift of each node's times here (nnodes; NULL: none) */
    struct offset init, fin;         /* at MPI_Init and at MPI_Finalize */
    _Atomic int64_t *ahead;          /* ns the clock condition moved this node's timeline on (below) */
    _Atomic int64_t own;             /* where *ahead is, but in the node's window */
    MPI_Win win;                     /* the node's window holding it (MPI_WIN_NULL: none) */
    struct row *rows;                /* rank 0, at MPI_Finalize: nodes.txt's rows, */
    int *node_of;                    /* each rank's node, */
    int waits;                       /* and whether wait states ran (prof_nodes_waits_on) */
} nd = { .node = MPI_COMM_NULL, .lead = MPI_COMM_NULL, .group = MPI_GROUP_NULL, .ahead = &nd.own,
         .win = MPI_WIN_NULL };

void prof_sync_want(void)
{
    nd.want = 1;
}

uint64_t prof_sync_node(void)
{
    return nd.synced ? PROF_SYNC_COMMON : nd.hash;
}

/* How many ns the timeline is ahead of this node's clock now. */
static int64_t offset(void)
{
    return nd.init.off + atomic_load_explicit(nd.ahead, memory_order_relaxed);
}

uint64_t prof_sync_out(uint64_t t)
{
    return nd.synced ? (uint64_t)(prof_clock_ns(t) + offset()) + BIAS : t;
}

/* The clock condition: a time that another node sent, at on the timeline,
 * came before this process's time by. When the timeline puts it after,
 * this node's timeline is behind the sender's by at least the difference
 * (the offsets measured at MPI_Init have drifted since, or erred): it moves
 * on by that much, for every process of the node at once. It never moves
 * back, so the nodes that exchange messages keep up with the one whose
 * clock runs fastest, within the time a message takes, however long the
 * run, and no process sees another's time after its own arrival. */
static void condition(int64_t at, uint64_t by)
{
    int64_t was = atomic_load_explicit(nd.ahead, memory_order_relaxed), local = prof_clock_ns(by) + nd.init.off;
    while (at > local + was &&
           !atomic_compare_exchange_weak_explicit(nd.ahead, &was, at - local, memory_order_relaxed,
                                                  memory_order_relaxed))
        ;
}

/* --- the drift of another node's times, from its messages' delays --------
 *
 * The clock condition catches a node whose times come late, not one whose
 * clock runs slow against this one's: its times come early, by its drift
 * since MPI_Init, and where messages go one way only (a pipeline, a late
 * broadcast root) nothing here tells it. Its messages do: their one-way
 * delay on the timeline, arrival less send time, is the transfer's plus
 * the two clocks' error, and the least delays of a node's messages over a
 * run grow as that error does. So per node heard from, the least delay of
 * a first window of WINDOW ns and of each later window (an eighth of the
 * run since, at least WINDOW), and once two are BASE apart the slope
 * between the first and the last is the rate at which that node's times
 * come earlier here (0 when they do not): they are moved on by it times
 * the run since MPI_Init, never past their message's arrival. Only the
 * messages that came while their receiver waited in MPI for them count
 * (sent after its waiting call began): the others' arrival is when the
 * process next looked, and their delays would make a drift of its
 * business. */
#define WINDOW 50000000
#define BASE 200000000

struct skew {
    pthread_mutex_t lock;
    int first;                       /* the first window is open */
    int64_t t_a, d_a;                /* the first window's least delay and when (ns since MPI_Init) */
    int64_t end, t_w, d_w;           /* the open window: its end, its least delay and when */
    _Atomic int64_t ppb;             /* how much earlier the node's times come, parts per 10^9 of run */
};

static void skew_sample(struct skew *s, int64_t d, int64_t t)
{
    prof_lock(&s->lock);
    if (!s->end) {
        s->first = 1;
        s->end = t + WINDOW;
        s->t_w = t;
        s->d_w = d;
    } else if (t < s->end) {
        if (d < s->d_w) {
            s->d_w = d;
            s->t_w = t;
        }
    } else {
        if (s->first) {
            s->t_a = s->t_w;
            s->d_a = s->d_w;
            s->first = 0;
        } else if (s->t_w - s->t_a >= BASE) {
            double r = (double)(s->d_w - s->d_a) * 1e9 / (double)(s->t_w - s->t_a);
            atomic_store(&s->ppb, r > 0 ? (int64_t)r : 0);
        }
        s->end = t + ((t - s->t_a) / 8 > WINDOW ? (t - s->t_a) / 8 : WINDOW);
        s->t_w = t;
        s->d_w = d;
    }
    prof_unlock(&s->lock);
}

int32_t prof_sync_from(void)
{
    return nd.synced && nd.skew ? nd.index + 1 : 0;
}

/* The node from names (prof_sync_from) as this process's table has it:
 * NULL for this node or none. */
static struct skew *skew_of(uint64_t node, int32_t from)
{
    return node == PROF_SYNC_COMMON && nd.skew && from >= 1 && from <= nd.nnodes && from - 1 != nd.index
               ? &nd.skew[from - 1] : NULL;
}

/* A time t (ticks) from node s moved on by its drift at this process's
 * time now (ticks), but not past by (0: no bound). */
static uint64_t drifted(const struct skew *s, uint64_t t, uint64_t now, uint64_t by)
{
    int64_t early = (int64_t)((double)atomic_load(&s->ppb) * 1e-9 * (double)(prof_clock_ns(now) - nd.init.at));
    if (early <= 0)
        return t;
    t += prof_clock_span((uint64_t)early);
    return by && t > by ? by : t;
}

int prof_sync_token(uint64_t at, uint64_t node, int32_t from, uint64_t arrived, uint64_t since, uint64_t *t)
{
    if (!prof_sync_in(at, node, 0, arrived, t))
        return 0;
    struct skew *s = skew_of(node, from);
    if (s) {
        if (since && *t > since)
            skew_sample(s, prof_clock_ns(arrived) - prof_clock_ns(*t), prof_clock_ns(arrived) - nd.init.at);
        *t = drifted(s, *t, arrived, arrived);
    }
    return 1;
}

int prof_sync_in(uint64_t at, uint64_t node, int32_t from, uint64_t by, uint64_t *t)
{
    if (node == nd.hash) {
        *t = at;
        return 1;
    }
    if (node != PROF_SYNC_COMMON || !nd.synced)
        return 0;
    if (by)
        condition((int64_t)(at - BIAS), by);
    *t = prof_clock_ticks((int64_t)(at - BIAS) - offset());
    const struct skew *s = skew_of(node, from);
    if (s)
        *t = drifted(s, *t, by ? by : prof_clock(), by);
    return 1;
}

int prof_sync_arrive(MPI_Comm comm, uint64_t t, uint64_t *latest)
{
    uint64_t node = prof_sync_node(), in[3] = { prof_sync_out(t), node, ~node }, out[3];
    if (PMPI_Allreduce(in, out, 3, MPI_UINT64_T, MPI_MAX, comm) != MPI_SUCCESS)
        return -1;
    /* one clock: the most node is the least; the last came before now */
    return out[1] == ~out[2] && prof_sync_in(out[0], out[1], 0, prof_clock(), latest);
}

uint64_t prof_sync_span(uint64_t d)
{
    return nd.synced ? prof_clock_span(d) : d;
}

/* FNV-1a of the host name and the clock kind: processes with the same
 * read one clock. Never 0 (unknown) or PROF_SYNC_COMMON. */
static uint64_t node_hash(const char *host)
{
    uint64_t h = 1469598103934665603ULL;
    for (const char *p = host; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ULL;
    h = (h ^ (unsigned char)prof_clock_tsc()) * 1099511628211ULL;
    return h > PROF_SYNC_COMMON ? h : 2;
}

static int64_t now_ns(void)
{
    return prof_clock_ns(prof_clock());
}

/* The leaders' offsets to the first one's clock (collective over
 * nd.lead): in round k, each leader r < k that knows its offset pairs
 * with leader r + k, takes the midpoint of the shortest of PINGS round
 * trips against the time r + k read in it, and sends r + k its offset.
 * 0, or -1 when a message failed. */
static int measure(struct offset *o)
{
    int r = 0, n = 0, ok = 1;
    PMPI_Comm_rank(nd.lead, &r);
    PMPI_Comm_size(nd.lead, &n);
    *o = (struct offset){ 0, 0, now_ns() };
    for (int k = 1; k < n; k <<= 1) {
        if (r < k && r + k < n) {
            int64_t best = INT64_MAX, mid = 0, theirs = 0;
            for (int i = 0; i < PINGS; i++) {
                int64_t t1 = now_ns();
                ok &= PMPI_Send(NULL, 0, MPI_BYTE, r + k, TAG_PING, nd.lead) == MPI_SUCCESS &&
                      PMPI_Recv(&theirs, 1, MPI_INT64_T, r + k, TAG_PING, nd.lead, MPI_STATUS_IGNORE) == MPI_SUCCESS;
                int64_t t2 = now_ns();
                if (t2 - t1 < best) {
                    best = t2 - t1;
                    mid = t1 + best / 2 - theirs;
                }
            }
            int64_t v[2] = { o->off + mid, o->err + best / 2 + 1 };
            ok &= PMPI_Send(v, 2, MPI_INT64_T, r + k, TAG_OFFSET, nd.lead) == MPI_SUCCESS;
        } else if (r >= k && r < 2 * k) {
            for (int i = 0; i < PINGS; i++) {
                ok &= PMPI_Recv(NULL, 0, MPI_BYTE, r - k, TAG_PING, nd.lead, MPI_STATUS_IGNORE) == MPI_SUCCESS;
                int64_t mine = now_ns();
                ok &= PMPI_Send(&mine, 1, MPI_INT64_T, r - k, TAG_PING, nd.lead) == MPI_SUCCESS;
            }
            int64_t v[2] = { 0, 0 };
            ok &= PMPI_Recv(v, 2, MPI_INT64_T, r - k, TAG_OFFSET, nd.lead, MPI_STATUS_IGNORE) == MPI_SUCCESS;
            o->off = v[0];
            o->err = v[1];
        }
    }
    return ok ? 0 : -1;
}

/* Every rank's offset, its leader's (collective over prof_run.comm): 0
 * when every leader measured one. The other ranks of a node wait for it
 * asleep (wait.h): polling, they would take the cores the leaders'
 * ping-pongs need where a node has fewer cores than ranks. */
static int offsets(struct offset *o)
{
    int64_t v[4] = { 0, 0, 0, 0 };
    MPI_Request rq;
    if (nd.lead != MPI_COMM_NULL) {
        v[3] = measure(o) == 0;
        memcpy(v, o, sizeof *o);
    }
    if (PMPI_Ibcast(v, 4, MPI_INT64_T, 0, nd.node, &rq) == MPI_SUCCESS)
        prof_wait(&rq);
    else
        v[3] = 0;
    int mine = (int)v[3], all = 0;
    if (PMPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, prof_run.comm) != MPI_SUCCESS || !all)
        return -1;
    /* The leader's offset, measured at its time at: here, on the same
     * clock, the same offset. */
    *o = (struct offset){ v[0], v[1], v[2] };
    return 0;
}

/* This process's node: the processes that share its memory and its
 * clock (a host name or clock kind of their own sets a process apart). */
static int split_node(void)
{
    MPI_Comm shm;
    uint64_t h[2] = { nd.hash, ~nd.hash }, low[2] = { 0, 0 };
    if (PMPI_Comm_split_type(prof_run.comm, MPI_COMM_TYPE_SHARED, prof_run.rank, MPI_INFO_NULL, &shm) !=
        MPI_SUCCESS)
        return -1;
    int rc = PMPI_Comm_split(shm, (int)(nd.hash & 0x7fffffff), prof_run.rank, &nd.node);
    PMPI_Comm_free(&shm);
    if (rc != MPI_SUCCESS)
        return -1;
    return PMPI_Allreduce(h, low, 2, MPI_UINT64_T, MPI_MIN, nd.node) == MPI_SUCCESS && low[0] == nd.hash &&
                   ~low[1] == nd.hash ? 0 : -1;
}

/* The node's processes move its timeline on together (the clock
 * condition): *nd.ahead in a window the node shares, its leader's
 * (collective over nd.node; a process alone keeps its own). Where the MPI
 * cannot make it, each process moves its own, and a note says so. */
static int unshared;

static void share_ahead(void)
{
    _Atomic int64_t *base = NULL;
    MPI_Aint size = 0;
    int unit = 0, local = 0, all = 0, n = 1;
    PMPI_Comm_size(nd.node, &n);
    if (n == 1)
        return;
    PMPI_Comm_rank(nd.node, &local);
    int ok = PMPI_Win_allocate_shared(local ? 0 : (MPI_Aint)sizeof *base, (int)sizeof *base, MPI_INFO_NULL, nd.node,
                                      &base, &nd.win) == MPI_SUCCESS;
    ok = ok && PMPI_Win_shared_query(nd.win, 0, &size, &unit, &base) == MPI_SUCCESS && base &&
         size >= (MPI_Aint)sizeof *base;
    if (ok && !local)
        atomic_store(base, 0);
    if (PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, nd.node) == MPI_SUCCESS && all) {
        nd.ahead = base;
        return;
    }
    if (ok)
        PMPI_Win_free(&nd.win);     /* made on every process of the node: freed (else left) */
    nd.win = MPI_WIN_NULL;
    unshared = 1;
    prof_log_once("the MPI cannot make a window shared by a node's processes; each moves its own timeline "
                  "to keep the clock condition, and times of one node may differ by what they moved");
}

/* The node's window goes (MPI_Finalize); its value stays with each process. */
static void unshare_ahead(void)
{
    if (nd.win == MPI_WIN_NULL)
        return;
    atomic_store(&nd.own, atomic_load(nd.ahead));
    nd.ahead = &nd.own;
    PMPI_Win_free(&nd.win);
}

int prof_nodes_local(MPI_Comm comm, int peer)
{
    MPI_Group g;
    int r = 0;
    if (nd.group == MPI_GROUP_NULL || PMPI_Comm_group(comm, &g) != MPI_SUCCESS)
        return 1;
    if (PMPI_Group_translate_ranks(g, 1, &peer, nd.group, &r) != MPI_SUCCESS)
        r = 0;
    PMPI_Group_free(&g);
    return r != MPI_UNDEFINED;
}

static void free_comms(void)
{
    if (nd.group != MPI_GROUP_NULL)
        PMPI_Group_free(&nd.group);
    if (nd.lead != MPI_COMM_NULL)
        PMPI_Comm_free(&nd.lead);
    if (nd.node != MPI_COMM_NULL)
        PMPI_Comm_free(&nd.node);
}

static int start(void)
{
    char host[256] = "";
    if (gethostname(host, sizeof host - 1) != 0 || !host[0])
        strcpy(host, "-");
    snprintf(nd.host, sizeof nd.host, "%.*s", (int)sizeof nd.host - 1, host);
    nd.hash = node_hash(host);
    int ok = split_node() == 0, local = 1;
    if (ok)
        PMPI_Comm_rank(nd.node, &local);
    if (PMPI_Comm_split(prof_run.comm, local ? MPI_UNDEFINED : 0, prof_run.rank, &nd.lead) != MPI_SUCCESS)
        ok = 0;
    /* Every rank found its node, and whether every one wants the timeline. */
    int mine[3] = { !ok, nd.want, !nd.want }, all[3] = { 1, 0, 0 };
    if (PMPI_Allreduce(mine, all, 3, MPI_INT, MPI_MAX, prof_run.comm) != MPI_SUCCESS || all[0]) {
        prof_log_once("cannot tell the ranks' nodes apart; no nodes.txt, and times from other processes are "
                      "compared at their arrival");
        free_comms();
        return -1;
    }
    int n[2] = { 0, 0 };
    if (nd.lead != MPI_COMM_NULL) {
        PMPI_Comm_size(nd.lead, &n[0]);
        PMPI_Comm_rank(nd.lead, &n[1]);
    }
    PMPI_Bcast(n, 2, MPI_INT, 0, nd.node);
    nd.nnodes = n[0];
    nd.index = n[1];
    if (nd.nnodes > 1 && PMPI_Comm_group(nd.node, &nd.group) != MPI_SUCCESS)
        nd.group = MPI_GROUP_NULL;
    PMPI_Comm_size(nd.node, &local);
    prof_run.oversubscribed = local > sysconf(_SC_NPROCESSORS_ONLN);
    if (all[1] && !all[2] && nd.nnodes > 1) {
        if (offsets(&nd.init) == 0) {
            share_ahead();
            nd.skew = calloc((size_t)nd.nnodes, sizeof *nd.skew);
            for (int i = 0; nd.skew && i < nd.nnodes; i++)
                pthread_mutex_init(&nd.skew[i].lock, NULL);
            nd.synced = 1;
        } else
            prof_log_once("cannot measure the nodes' clock offsets; times from other nodes are compared at "
                          "their arrival");
    }
    return 0;
}

int prof_nodes_index(void)
{
    return nd.nnodes > 0 ? nd.index : -1;
}

int prof_nodes_count(void)
{
    return nd.nnodes;
}

/* --- at MPI_Finalize: the offsets again, and nodes.txt ------------------- */

#define NODE_RANKS 160
struct row {
    int ranks;                       /* how many */
    char list[NODE_RANKS];           /* which: "0-3,8", cut with "..." */
    char host[64];
    double mpi_s;                    /* their MPI time */
    struct offset init, fin;
    int64_t ahead;                   /* ns the clock condition moved its timeline on */
    double waited_s, caused_s;       /* rank 0: the waiting its ranks suffered and caused (wait states) */
};

/* The ranks of this node's members (leader), as ranges. */
static void rank_list(const int *world, int n, char *list)
{
    size_t len = 0;
    list[0] = '\0';
    for (int i = 0; i < n; i++) {
        int j = i;
        while (j + 1 < n && world[j + 1] == world[j] + 1)
            j++;
        char part[32];
        int k = j > i ? snprintf(part, sizeof part, "%s%d-%d", i ? "," : "", world[i], world[j])
                      : snprintf(part, sizeof part, "%s%d", i ? "," : "", world[i]);
        if (len + (size_t)k + 4 > NODE_RANKS) {
            strcpy(list + len, ",...");
            return;
        }
        strcpy(list + len, part);
        len += (size_t)k;
        i = j;
    }
}

static void figures(struct prof_report_ctx *ctx, struct prof_rank_data *rd, uint64_t t_end)
{
    (void)t_end;
    if (nd.synced && offsets(&nd.fin) != 0)
        nd.fin = (struct offset){ 0, -1, 0 };
    int n = 0;
    PMPI_Comm_size(nd.node, &n);
    int *world = malloc((size_t)n * sizeof *world);
    double mpi = (double)rd->mpi_ticks * rd->sec_per_tick, sum = 0;
    PMPI_Reduce(&mpi, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, nd.node);
    int me = world ? prof_run.rank : -1;
    PMPI_Gather(&me, 1, MPI_INT, world, 1, MPI_INT, 0, nd.node);
    if (nd.lead != MPI_COMM_NULL) {
        struct row mine = { .ranks = n, .mpi_s = sum, .init = nd.init, .fin = nd.fin, .ahead = atomic_load(nd.ahead) };
        snprintf(mine.host, sizeof mine.host, "%s", nd.host);
        if (world)
            rank_list(world, n, mine.list);
        else
            strcpy(mine.list, "-");
        if (prof_run.rank == 0)
            nd.rows = calloc((size_t)nd.nnodes, sizeof *nd.rows);
        /* rank 0 is the first leader; without memory it takes in nothing */
        int room = prof_run.rank != 0 || nd.rows, all = 0;
        PMPI_Allreduce(&room, &all, 1, MPI_INT, MPI_MIN, nd.lead);
        if (all)
            PMPI_Gather(&mine, (int)sizeof mine, MPI_BYTE, nd.rows, (int)sizeof mine, MPI_BYTE, 0, nd.lead);
        else
            prof_log_local("out of memory for nodes.txt's rows; it has none");
    }
    free(world);
    /* Rank 0: each rank's node, for the waits' figures (prof_nodes_waited). */
    int ok = 1;
    if (prof_run.rank == 0)
        ok = nd.rows && (nd.node_of = malloc((size_t)prof_run.size * sizeof *nd.node_of)) != NULL;
    PMPI_Bcast(&ok, 1, MPI_INT, 0, prof_run.comm);
    if (ok)
        PMPI_Gather(&nd.index, 1, MPI_INT, nd.node_of, 1, MPI_INT, 0, prof_run.comm);
    unshare_ahead();
    free_comms();
    size_t len = strlen(ctx->notes);
    if (unshared)
        snprintf(ctx->notes + len, sizeof ctx->notes - len,
                 "# note: the MPI could not make a window shared by a node's processes: each moved its own "
                 "timeline (clock condition), times of one node may differ by what they moved\n");
}

void prof_nodes_waits_on(void)
{
    nd.waits = 1;
}

/* Rank 0: the row of rank's node (NULL: none known). */
static struct row *row_of(int rank)
{
    int i = nd.node_of && nd.rows && rank >= 0 && rank < prof_run.size ? nd.node_of[rank] : -1;
    return i >= 0 && i < nd.nnodes ? &nd.rows[i] : NULL;
}

void prof_nodes_waited(int waiter, int cause, double s)
{
    struct row *w = row_of(waiter), *c = row_of(cause);
    if (w)
        w->waited_s += s;
    if (c)
        c->caused_s += s;
}

#define NAME(c) #c,
#define PROF_NODES_COLUMNS(X) \
    X(node) X(host) X(ranks) X(rank_list) X(mpi_s) X(offset_s) X(drift_ppm) X(sync_error_s) X(advanced_s) \
        X(waited_s) X(caused_s)
static const char *const columns[] = { PROF_NODES_COLUMNS(NAME) };

/* A node's offset to the first node's clock at MPI_Init, its drift from
 * there to MPI_Finalize, the larger error bound of the two, and how far the
 * clock condition moved its timeline on ("-" where the clocks were not
 * synchronized); the waiting its ranks suffered and caused ("-" without
 * wait states). */
static void write_rows(struct prof_buf *b, const struct prof_report_ctx *ctx, const struct prof_rank_data *rd)
{
    (void)ctx, (void)rd;
    for (int i = 0; nd.rows && i < nd.nnodes; i++) {
        const struct row *r = &nd.rows[i];
        prof_buf_printf(b, "%d ", i);
        prof_report_word(b, r->host);
        prof_buf_printf(b, " %d %s %.9f", r->ranks, r->list, r->mpi_s);
        if (!nd.synced) {
            prof_buf_printf(b, " - - - -");
        } else {
            prof_buf_printf(b, " %.9f", (double)r->init.off * 1e-9);
            if (r->fin.err < 0 || r->fin.at <= r->init.at)
                prof_buf_printf(b, " - %.9f", (double)r->init.err * 1e-9);
            else
                prof_buf_printf(b, " %.3f %.9f",
                                (double)(r->init.off - r->fin.off) * 1e6 / (double)(r->fin.at - r->init.at),
                                (double)(r->init.err > r->fin.err ? r->init.err : r->fin.err) * 1e-9);
            prof_buf_printf(b, " %.9f", (double)r->ahead * 1e-9);
        }
        if (nd.waits)
            prof_buf_printf(b, " %.9f %.9f\n", r->waited_s, r->caused_s);
        else
            prof_buf_printf(b, " - -\n");
    }
}

static const struct prof_writer writer = {
    .file = "nodes.txt", PROF_COLUMNS_OF(columns), .rows = write_rows, .merged = 1,
};

const struct prof_module prof_mod_nodes = {
    .name = "nodes",
    .start = start,
    .figures = figures,
    .writer = &writer,
};
