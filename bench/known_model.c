/* known_model.c: the model workloads of mpiprof-known (known.h), whose
 * modelled elapsed time (summary.txt model_elapsed_s, under mpiprof
 * --model) follows from the model in force (MPIPROF_MODEL, as the launcher
 * sets it) and from how long each computation took (measured):
 *   model-compute  rank i computes (i + 1) x D ms before each of K
 *                  MPI_Allreduce of one double: every rank's modelled
 *                  elapsed is the critical path, sum over calls of the
 *                  slowest computation x cpu, plus K allreduce costs
 *                  (model-icompute: MPI_Iallreduce and MPI_Wait;
 *                  model-pcompute: MPI_Allreduce_init once, then
 *                  MPI_Start and MPI_Wait, MPI-4.0).
 *   model-comm     pairs of ranks (0-1, 2-3, ...) compute D ms and swap
 *                  -s BYTES (default 1 MiB) with MPI_Sendrecv, K times: a
 *                  perfect interconnect leaves the computation alone; the
 *                  gather of the measurements at the end brings every
 *                  rank to the latest pair's clock; pairs on the same
 *                  nodes share their links (model-link).
 *   model-link     K rounds: each rank of the first half computes D ms and
 *                  sends -s BYTES (default 1 MiB) to its partner in the
 *                  second half (r + P/2), all at once, then MPI_Barrier:
 *                  with a network between nodes, the messages of one
 *                  node's ranks take its one link out and into the
 *                  receivers' node one after the other (model_link.c).
 *   model-chain    K rounds of a pipeline: rank 0 computes D ms and sends
 *                  -s BYTES (default 8) to rank 1, which receives (in odd
 *                  rounds after MPI_Probe), computes and sends on, to the
 *                  last rank; then MPI_Barrier: each round is P
 *                  computations, P - 1 transfers and a barrier.
 *   model-sync     ranks 0 and 1 take turns: in round k rank k % 2 sends
 *                  -s BYTES (default 8) to the other at once, then
 *                  computes D ms; the other computes D ms, then receives
 *                  (-m ssend, the default: MPI_Ssend; -m issend:
 *                  MPI_Issend and MPI_Wait at once; -m send: MPI_Send).
 *                  A send that waits for its receive (MPI_Ssend, the
 *                  Wait of MPI_Issend, MPI_Send above eager=) ends at max(s, r) + T(size), s its start
 *                  on the link, r the receive's posting: a perfect
 *                  interconnect leaves the waiting for the receiver's
 *                  program, 2 D a round.
 *   model-lock     K rounds: every rank holds an exclusive lock on rank
 *                  0's window in turn, computing D ms and taking its place
 *                  in the round with MPI_Fetch_and_op; then MPI_Barrier. A
 *                  lock is granted when the previous holder's
 *                  MPI_Win_unlock ends: a round is P x D, under a perfect
 *                  interconnect too. -m lockall: the odd ranks take an
 *                  MPI_Win_lock_all epoch (shared, on every rank)
 *                  instead, granted after the exclusive holders before
 *                  them (not after each other).
 * The answer is worked out on rank 0 from every rank's measured
 * computations (all the time between its MPI calls, from a barrier before
 * the first, and the latest rank's time from MPI_Init to it: ready) by
 * the model's rules (model.h): a receive completes at
 * max(its clock, the sender's clock + T(size)) (T: prof_model_time),
 * a collective at the latest arrival plus its cost. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <mpi.h>
#include "model.h"
#include "intopts.h"
#include "known.h"

#define MAX_CALLS 10000

struct model_opts {
    long calls, ms, bytes;
    struct prof_model m;
    /* The placement (MPIPROF_MODEL's network between nodes): each rank's
     * node (NULL: all on one), how many nodes and the most ranks on one,
     * and the model between two nodes. */
    int *node_of, nnodes, ppn;
    struct prof_model net;
    /* This rank's time from MPI_Init's return to the workload's first
     * synchronization (ready); on rank 0 (gather_n) the model's clock
     * after it, every rank's: the latest of those, times cpu, plus a
     * barrier's cost. */
    double pre, start;
};

/* How many nodes o->node_of has, and the most ranks on one. */
static void place_counts(struct model_opts *o, int size)
{
    o->nnodes = prof_model_spread(o->node_of, size, NULL, size, &o->ppn);
}

/* o's placement for size ranks: nodes= as the model places them (no MPI
 * call: the answer counts from the first barrier, the model's clock from
 * MPI_Init); the real nodes are found by gather_n. 0, or -1 and err. */
static int place(struct model_opts *o, int size, char *err, size_t len)
{
    o->node_of = NULL;
    o->nnodes = 1;
    o->ppn = size;
    if (!o->m.net)
        return 0;
    prof_model_net_of(&o->m, &o->net);
    if (!o->m.nodes)
        return 0;
    o->node_of = known_ints(size);
    if (prof_model_place(&o->m, size, o->node_of) != 0) {
        snprintf(err, len, "MPIPROF_MODEL's placement does not fit: %s", prof_model_why());
        return -1;
    }
    place_counts(o, size);
    return 0;
}

/* This process's host as a number exact in a double (52 bits of a hash of
 * its name): the ranks of one host make a node, as the profiler's host
 * names do. */
static double host_key(void)
{
    char host[256] = "";
    uint64_t h = 1469598103934665603ULL;
    gethostname(host, sizeof host - 1);
    for (const char *p = host; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ULL;
    return (double)(h >> 12);
}

/* The model of a message between ranks a and b under o's placement. */
static const struct prof_model *between(const struct model_opts *o, int a, int b)
{
    return o->node_of && o->node_of[a] != o->node_of[b] ? &o->net : &o->m;
}

/* A collective of shape k over MPI_COMM_WORLD (size ranks) of x bytes
 * under o's placement. */
static double coll(const struct model_opts *o, enum prof_model_coll k, int size, double x)
{
    return prof_model_coll_placed(&o->m, &o->net, k, size, o->nnodes, o->ppn, x, NULL);
}

static int parse(const char *name, int argc, char **argv, int rank, int size, long bytes, struct model_opts *o)
{
    char err[256], prog[64];
    o->calls = 10;
    o->ms = 20;
    o->bytes = bytes;
    snprintf(prog, sizeof prog, "mpiprof-known %s", name);
    const struct bench_intopt opts[] = { { 'k', 1, MAX_CALLS, &o->calls }, { 'd', 0, 10000, &o->ms },
                                         { 's', 0, 1 << 26, &o->bytes } };
    int rc = bench_intopts_parse(prog, argc, argv, opts, bytes < 0 ? 2 : 3, err, sizeof err);
    const char *model = getenv("MPIPROF_MODEL");
    if (rc == 0 && (!model || prof_model_parse(model, &o->m) != 0)) {
        snprintf(err, sizeof err, "%s: MPIPROF_MODEL is %s: run it under mpiprof --model MODEL", prog,
                 model ? "not a valid model" : "not set");
        rc = 2;
    }
    if (rc == 0 && size < 2) {
        snprintf(err, sizeof err, "%s: needs at least 2 processes (got %d)", prog, size);
        rc = 2;
    }
    if (rc == 0 && place(o, size, err, sizeof err) != 0)
        rc = 2;
    if (rc != 0) {
        if (rank == 0 && rc == 1) {
            printf("Usage: mpiprof-known %s [-k CALLS (1..%d, default 10)] [-d MS (0..10000, default 20)]", name,
                   MAX_CALLS);
            if (bytes >= 0)
                printf(" [-s BYTES (default %ld)]", bytes);
            printf(", under mpiprof --model\n");
        }
        else if (rank == 0 && rc != 1)
            fprintf(stderr, "%s\n", err);
        return rc == 1 ? 0 : 2;
    }
    return -1;
}

/* The workload's first synchronization is next (a barrier or a fence):
 * the time since MPI_Init returned, which the model's clock counts (on a
 * loaded node, a rank descheduled before it costs every rank 10 ms and
 * more). */
static void ready(struct model_opts *o)
{
    o->pre = MPI_Wtime() - known_t0;
}

/* Every rank's measured computations (n per rank) on rank 0, times cpu
 * (NULL elsewhere), and o->start; with a network between nodes and the
 * real nodes, each rank's host too, which places the ranks on rank 0
 * (o->node_of). */
static double *gather_n(struct model_opts *o, const double *spent, long n, int rank, int size)
{
    int hosts = o->m.net && !o->m.nodes;
    long each = n + 1 + hosts;
    double *mine = known_doubles(each);
    memcpy(mine, spent, (size_t)n * sizeof *mine);
    mine[n] = o->pre;
    if (hosts)
        mine[n + 1] = host_key();
    double *all = known_gather(mine, (int)each);
    free(mine);
    if (rank != 0)
        return all;
    if (hosts) {
        o->node_of = known_ints(size);
        for (int r = 0; r < size; r++) {
            int k = 0;
            while (all[k * each + n + 1] != all[r * each + n + 1])
                k++;
            o->node_of[r] = k;
        }
        place_counts(o, size);
    }
    double pre = 0;
    for (int r = 0; r < size; r++) {
        pre = all[r * each + n] > pre ? all[r * each + n] : pre;
        memmove(&all[r * n], &all[r * each], (size_t)n * sizeof *all);
    }
    o->start = pre * o->m.cpu + coll(o, PROF_MC_BARRIER, size, 0);
    for (long i = 0; i < size * n; i++)
        all[i] *= o->m.cpu;
    return all;
}

static double *gather_spent(struct model_opts *o, const double *spent, int rank, int size)
{
    return gather_n(o, spent, o->calls, rank, size);
}

/* A workload's first option "FLAG WORD" (-c COLLECTIVE, -m MODE): the
 * index of WORD among the n entries of table (each starting with its name,
 * stride bytes apart), with argc and argv moved past it; without FLAG,
 * dflt (-1: FLAG is required). -2 when rank 0 has said what is wrong. */
static int pick(const char *prog, const char *flag, const void *table, size_t stride, int n, int dflt, int *argc,
                char ***argv, int rank)
{
    int given = *argc >= 2 && strcmp((*argv)[1], flag) == 0;
    if (!given && dflt >= 0)
        return dflt;
    for (int i = 0; given && *argc >= 3 && i < n; i++)
        if (strcmp((*argv)[2], *(const char *const *)((const char *)table + (size_t)i * stride)) == 0) {
            (*argv)[2] = (*argv)[0];
            *argc -= 2;
            *argv += 2;
            return i;
        }
    if (rank == 0) {
        fprintf(stderr, "%s: %s%s must be one of", prog, dflt < 0 ? "the first option, " : "", flag);
        for (int i = 0; i < n; i++)
            fprintf(stderr, " %s", *(const char *const *)((const char *)table + (size_t)i * stride));
        fprintf(stderr, "\n");
    }
    return -2;
}

/* The expected line: values (per rank) and nominal (per rank). */
static void expect(const char *name, const struct model_opts *o, int size, const double *values,
                   const double *nominal)
{
    double *from = known_doubles(size);
    for (int r = 0; r < size; r++)
        from[r] = o->start + values[r];
    known_line(name, o->calls, o->ms * 1e-3, "summary.txt", "model_elapsed_s");
    known_list("values", size, NULL, from);
    free(from);
    known_list("nominal", size, NULL, nominal);
    known_end();
}

/* The expected line when every rank ends at the same clock (the gather of
 * the measurements that ends each workload makes them so): value, and
 * nominal. */
static void expect_same(const char *name, const struct model_opts *o, int size, double value, double nominal)
{
    double *values = known_doubles(size), *nominals = known_doubles(size);
    for (int r = 0; r < size; r++) {
        values[r] = value;
        nominals[r] = nominal;
    }
    expect(name, o, size, values, nominals);
    free(values);
    free(nominals);
}

/* The expected line of rank i computing (i + 1) x D before each of the
 * calls collectives that cost cost: per call the slowest computation
 * (all: gather_spent's) then the cost, on every rank. */
static void expect_critical(const char *name, const struct model_opts *o, int size, const double *all, double cost)
{
    double t = 0;
    for (long k = 0; k < o->calls; k++) {
        double slowest = 0;
        for (int r = 0; r < size; r++)
            slowest = all[r * o->calls + k] > slowest ? all[r * o->calls + k] : slowest;
        t += slowest + cost;
    }
    expect_same(name, o, size, t, o->calls * (size * o->ms * 1e-3 * o->m.cpu + cost));
}

/* The time since *mark, which moves to now: call it right before an MPI
 * call and set *mark right after, and it measures what happened between. */
static double since(double *mark)
{
    double now = MPI_Wtime(), d = now - *mark;
    *mark = now;
    return d;
}

/* model-compute's reductions: blocking, nonblocking (model-icompute) or
 * persistent (model-pcompute, MPI-4.0). */
enum { BLOCKING, NONBLOCKING, PERSISTENT };

static int compute(const char *name, int how, int argc, char **argv, int rank, int size)
{
    struct model_opts o;
    int rc = parse(name, argc, argv, rank, size, -1, &o);
    if (rc >= 0)
        return rc;
    double one = 1, total = 0, sum = 0, mark;
    MPI_Request req = MPI_REQUEST_NULL;
#if MPI_VERSION >= 4
    if (how == PERSISTENT)
        MPI_Allreduce_init(&one, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
#else
    if (how == PERSISTENT) {
        if (rank == 0)
            fprintf(stderr, "mpiprof-known %s: persistent collectives are MPI-4.0; this MPI is %d.%d\n", name,
                    MPI_VERSION, MPI_SUBVERSION);
        return 2;
    }
#endif
    double *spent = known_doubles(o.calls), d = o.ms * 1e-3;
    ready(&o);
    MPI_Barrier(MPI_COMM_WORLD);
    mark = MPI_Wtime();
    for (long k = 0; k < o.calls; k++) {
        known_compute((rank + 1) * d);
        spent[k] = since(&mark);
        if (how == NONBLOCKING)
            MPI_Iallreduce(&one, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req);
        else if (how == PERSISTENT)
            MPI_Start(&req);
        else
            MPI_Allreduce(&one, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        if (how != BLOCKING)
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        mark = MPI_Wtime();
        sum += total;
    }
    if (req != MPI_REQUEST_NULL)
        MPI_Request_free(&req);
    if (sum != (double)o.calls * size)
        fprintf(stderr, "mpiprof-known %s: rank %d: the reduction sums to %g\n", name, rank, sum);
    double *all = gather_spent(&o, spent, rank, size);
    if (rank == 0)
        expect_critical(name, &o, size, all, coll(&o, PROF_MC_ALLREDUCE, size, sizeof(double)));
    free(all);
    free(spent);
    return sum != (double)o.calls * size;
}

static int model_compute(int argc, char **argv, int rank, int size)
{
    return compute("model-compute", BLOCKING, argc, argv, rank, size);
}

static int model_icompute(int argc, char **argv, int rank, int size)
{
    return compute("model-icompute", NONBLOCKING, argc, argv, rank, size);
}

static int model_pcompute(int argc, char **argv, int rank, int size)
{
    return compute("model-pcompute", PERSISTENT, argc, argv, rank, size);
}

/* The nodes' links (model_link.c) in an answer: when each node's link out
 * and its link in are free again, and the ranks in the order their
 * messages are ready. */
struct links {
    double *out, *in;
    int *order;
};

static struct links links_new(int size)
{
    return (struct links){ known_doubles(size), known_doubles(size), known_ints(size) };
}

static void links_free(struct links *l)
{
    free(l->out);
    free(l->in);
    free(l->order);
}

/* The n ranks 0..n-1 by their ready times t[] into l->order (equal ones
 * in rank order). */
static void links_order(struct links *l, const double *t, int n)
{
    for (int r = 0; r < n; r++) {
        int i = r;
        for (; i > 0 && t[l->order[i - 1]] > t[r]; i--)
            l->order[i] = l->order[i - 1];
        l->order[i] = r;
    }
}

/* A message of o->bytes from rank a, ready at t, to rank b, messages
 * taken in the order they are ready: its start (between nodes, a's
 * node's link out first free from t on) and *at its arrival (through b's
 * node's link in, its last w before it). */
static double link_message(const struct model_opts *o, struct links *l, int a, int b, double t, double *at)
{
    const struct prof_model *m = between(o, a, b);
    double w = prof_model_wire(m, (double)o->bytes), s = t;
    *at = s + prof_model_time(m, (double)o->bytes);
    if (m == &o->m)
        return s;
    int na = o->node_of[a], nb = o->node_of[b];
    s = t > l->out[na] ? t : l->out[na];
    l->out[na] = s + w;
    *at = s + prof_model_time(m, (double)o->bytes);
    *at = *at - w > l->in[nb] ? *at : l->in[nb] + w;
    l->in[nb] = *at;
    return s;
}

/* model-comm's swap from the clocks v[] after computations t[]: each
 * rank's clock after it, its send half done (injected) and its peer's
 * message arrived (a rank without a peer: its computation). */
static void comm_round(const struct model_opts *o, int size, double *v, const double *t, struct links *l)
{
    double *ready = known_doubles(size), *start = known_doubles(size), *at = known_doubles(size);
    for (int r = 0; r < size; r++)
        ready[r] = v[r] + t[r];
    links_order(l, ready, size);
    for (int i = 0; i < size; i++) {
        int r = l->order[i];
        if ((r ^ 1) < size)
            start[r] = link_message(o, l, r, r ^ 1, ready[r], &at[r ^ 1]);
    }
    for (int r = 0; r < size; r++) {
        double sent = start[r] + o->m.o + prof_model_wire(between(o, r, r ^ 1), (double)o->bytes);
        v[r] = (r ^ 1) >= size ? ready[r] : at[r] > sent ? at[r] : sent;
    }
    free(ready);
    free(start);
    free(at);
}

static int model_comm(int argc, char **argv, int rank, int size)
{
    struct model_opts o;
    int rc = parse("model-comm", argc, argv, rank, size, 1 << 20, &o);
    if (rc >= 0)
        return rc;
    double *spent = known_doubles(o.calls), d = o.ms * 1e-3, mark;
    char *out = malloc((size_t)o.bytes + 1), *in = malloc((size_t)o.bytes + 1);
    int peer = rank ^ 1, bad = 0;
    if (peer >= size)
        peer = MPI_PROC_NULL;
    ready(&o);
    MPI_Barrier(MPI_COMM_WORLD);
    mark = MPI_Wtime();
    for (long k = 0; out && in && k < o.calls; k++) {
        memset(out, (int)(k + rank) & 0x7f, (size_t)o.bytes + 1);
        known_compute(d);
        spent[k] = since(&mark);
        MPI_Sendrecv(out, (int)o.bytes, MPI_CHAR, peer, 3, in, (int)o.bytes, MPI_CHAR, peer, 3, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        mark = MPI_Wtime();
        if (peer != MPI_PROC_NULL && o.bytes > 0 && in[o.bytes - 1] != (char)((k + peer) & 0x7f))
            bad = 1;
    }
    if (!out || !in || bad)
        fprintf(stderr, "mpiprof-known model-comm: rank %d: %s\n", rank, bad ? "wrong data" : "out of memory");
    double *all = gather_spent(&o, spent, rank, size);
    if (rank == 0) {
        /* The pairs swap through the nodes' links; the gather of the
         * measurements then makes every clock the latest. */
        double *values = known_doubles(size), *nominal = known_doubles(size), *t = known_doubles(size);
        struct links l = links_new(size), nl = links_new(size);
        for (long k = 0; k < o.calls; k++) {
            for (int r = 0; r < size; r++)
                t[r] = all[r * o.calls + k];
            comm_round(&o, size, values, t, &l);
            for (int r = 0; r < size; r++)
                t[r] = d * o.m.cpu;
            comm_round(&o, size, nominal, t, &nl);
        }
        double latest = 0;
        for (int r = 0; r < size; r++)
            latest = values[r] > latest ? values[r] : latest;
        for (int r = 0; r < size; r++)
            values[r] = latest;
        links_free(&l);
        links_free(&nl);
        free(t);
        expect("model-comm", &o, size, values, nominal);
        free(values);
        free(nominal);
    }
    free(all);
    free(spent);
    free(out);
    free(in);
    return bad || !out || !in;
}

static int model_chain(int argc, char **argv, int rank, int size)
{
    struct model_opts o;
    int rc = parse("model-chain", argc, argv, rank, size, 8, &o);
    if (rc >= 0)
        return rc;
    double *spent = known_doubles(o.calls), d = o.ms * 1e-3, mark;
    char *buf = calloc((size_t)o.bytes + 1, 1);
    int bad = !buf;
    ready(&o);
    MPI_Barrier(MPI_COMM_WORLD);
    mark = MPI_Wtime();
    for (long k = 0; buf && k < o.calls; k++) {
        if (rank > 0) {
            if (k % 2)      /* odd rounds probe first: the model times the probe's wait */
                MPI_Probe(rank - 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Recv(buf, (int)o.bytes, MPI_CHAR, rank - 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            mark = MPI_Wtime();
            if (o.bytes > 0 && buf[0] != (char)(k & 0x7f))
                bad = 1;
        }
        known_compute(d);
        if (o.bytes > 0)
            buf[0] = (char)(k & 0x7f);
        spent[k] = since(&mark);
        if (rank < size - 1)
            MPI_Send(buf, (int)o.bytes, MPI_CHAR, rank + 1, 5, MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
        mark = MPI_Wtime();
    }
    if (bad)
        fprintf(stderr, "mpiprof-known model-chain: rank %d: %s\n", rank, buf ? "wrong data" : "out of memory");
    double *all = gather_spent(&o, spent, rank, size);
    if (rank == 0) {
        double x = 0, t = 0, barrier = coll(&o, PROF_MC_BARRIER, size, 0);
        for (int r = 0; r + 1 < size; r++)        /* the chain's messages, each between its two ranks */
            x += prof_model_time(between(&o, r, r + 1), (double)o.bytes);
        for (long k = 0; k < o.calls; k++) {
            for (int r = 0; r < size; r++)
                t += all[r * o.calls + k];
            t += x + barrier;
        }
        expect_same("model-chain", &o, size, t, o.calls * (size * d * o.m.cpu + x + barrier));
    }
    free(all);
    free(spent);
    free(buf);
    return bad;
}

/* The model's link (model_nic.c) for the sends of model-sends: the start
 * of a message of bytes sent at clock t, and *done its sender's end. */
static double link_send(const struct prof_model *m, double *free, double t, double bytes, double *done)
{
    double s = t > *free ? t : *free, e = s + m->o + prof_model_wire(m, bytes);
    *free = e > s + m->g ? e : s + m->g;
    *done = bytes <= m->eager ? e : s + prof_model_time(m, bytes);
    return s;
}

static int model_sends(int argc, char **argv, int rank, int size)
{
    struct model_opts o;
    int rc = parse("model-sends", argc, argv, rank, size, 1 << 20, &o);
    if (rc >= 0)
        return rc;
    double *spent = known_doubles(o.calls), d = o.ms * 1e-3, mark;
    char *buf = calloc((size_t)o.bytes + 1, 1);
    int bad = !buf;
    ready(&o);
    MPI_Barrier(MPI_COMM_WORLD);
    mark = MPI_Wtime();
    for (long k = 0; buf && rank < 2 && k < o.calls; k++) {
        if (rank == 0) {
            known_compute(d);
            buf[0] = (char)(k & 0x7f);
            spent[k] = since(&mark);
            MPI_Send(buf, (int)o.bytes, MPI_CHAR, 1, 6, MPI_COMM_WORLD);
        } else {
            spent[k] = since(&mark);
            MPI_Recv(buf, (int)o.bytes, MPI_CHAR, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (o.bytes > 0 && buf[0] != (char)(k & 0x7f))
                bad = 1;
        }
        mark = MPI_Wtime();
    }
    if (bad)
        fprintf(stderr, "mpiprof-known model-sends: rank %d: %s\n", rank, buf ? "wrong data" : "out of memory");
    double *all = gather_spent(&o, spent, rank, size);
    if (rank == 0) {
        /* Rank 0's messages leave one after the other; rank 1 takes each at
         * its arrival; the gather then brings every clock to the latest. */
        const struct prof_model *m = between(&o, 0, 1);
        double x = prof_model_time(m, (double)o.bytes);
        double link = 0, c0 = 0, c1 = 0, nlink = 0, n0 = 0, n1 = 0;
        for (long k = 0; k < o.calls; k++) {
            double s = link_send(m, &link, c0 + all[k], (double)o.bytes, &c0);
            c1 += all[o.calls + k];
            c1 = s + x > c1 ? s + x : c1;
            s = link_send(m, &nlink, n0 + d * o.m.cpu, (double)o.bytes, &n0);
            n1 = s + x > n1 ? s + x : n1;
        }
        expect_same("model-sends", &o, size, c0 > c1 ? c0 : c1, n0 > n1 ? n0 : n1);
    }
    free(all);
    free(spent);
    free(buf);
    return bad;
}

/* model-link's round from clock c (every rank's, after the barrier):
 * each rank r of the first half sends to r + half at c + t[r], through
 * the nodes' links; each ends as the model ends it (the receiver at the
 * arrival, the sender when injected, or after rendezvous at max(its
 * start, the posting) + T), the barrier then at the latest end plus its
 * cost. The round's end. */
static double link_round(const struct model_opts *o, int size, double c, const double *t, struct links *l)
{
    int half = size / 2;
    double latest = c, *ready = known_doubles(size);
    for (int r = 0; r < size; r++) {
        ready[r] = c + t[r];
        latest = ready[r] > latest ? ready[r] : latest;
    }
    links_order(l, ready, half);
    for (int i = 0; i < half; i++) {
        int a = l->order[i], b = a + half;
        const struct prof_model *m = between(o, a, b);
        double at, s = link_message(o, l, a, b, ready[a], &at), x = prof_model_time(m, (double)o->bytes);
        double sent = (double)o->bytes <= o->m.eager ? s + o->m.o + prof_model_wire(m, (double)o->bytes)
                                                      : (s > ready[b] ? s : ready[b]) + x;
        latest = at > latest ? at : latest;
        latest = sent > latest ? sent : latest;
    }
    free(ready);
    return latest + coll(o, PROF_MC_BARRIER, size, 0);
}

static int model_link(int argc, char **argv, int rank, int size)
{
    struct model_opts o;
    int rc = parse("model-link", argc, argv, rank, size, 1 << 20, &o);
    if (rc >= 0)
        return rc;
    int half = size / 2, bad = 0;
    double *spent = known_doubles(o.calls), d = o.ms * 1e-3, mark;
    char *buf = calloc((size_t)o.bytes + 1, 1);
    ready(&o);
    MPI_Barrier(MPI_COMM_WORLD);
    mark = MPI_Wtime();
    for (long k = 0; buf && k < o.calls; k++) {
        known_compute(d);
        buf[0] = (char)((k + rank) & 0x7f);
        spent[k] = since(&mark);
        if (rank < half)
            MPI_Send(buf, (int)o.bytes, MPI_CHAR, rank + half, 7, MPI_COMM_WORLD);
        else if (rank < 2 * half) {
            MPI_Recv(buf, (int)o.bytes, MPI_CHAR, rank - half, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (o.bytes > 0 && buf[0] != (char)((k + rank - half) & 0x7f))
                bad = 1;
        }
        MPI_Barrier(MPI_COMM_WORLD);
        mark = MPI_Wtime();
    }
    if (!buf || bad)
        fprintf(stderr, "mpiprof-known model-link: rank %d: %s\n", rank, buf ? "wrong data" : "out of memory");
    double *all = gather_spent(&o, spent, rank, size);
    if (rank == 0) {
        double *t = known_doubles(size), c = 0, n = 0;
        struct links l = links_new(size), nl = links_new(size);
        for (long k = 0; k < o.calls; k++) {
            for (int r = 0; r < size; r++)
                t[r] = all[r * o.calls + k];
            c = link_round(&o, size, c, t, &l);
            for (int r = 0; r < size; r++)
                t[r] = d * o.m.cpu;
            n = link_round(&o, size, n, t, &nl);
        }
        expect_same("model-link", &o, size, c, n);
        links_free(&l);
        links_free(&nl);
        free(t);
    }
    free(all);
    free(spent);
    free(buf);
    return bad || !buf;
}

/* model-rma's modes: who puts to whom, in which epochs. */
static const struct {
    const char *name;
} rmas[] = { { "pair" }, { "incast" }, { "pscw" }, { "lock" } };
enum { RMA_PAIR, RMA_INCAST, RMA_PSCW, RMA_LOCK };

/* An origin r's one-sided data (o->bytes) to target, ready to leave at t
 * (model_rma.c): its start on r's link (nic[r]: when it is free; between
 * nodes also its node's link out, l->out), *at when it is at the target,
 * *e when it has left. */
static double rma_send(const struct model_opts *o, struct links *l, double *nic, int r, int target, double t,
                       double *at, double *e)
{
    const struct prof_model *m = between(o, r, target);
    double b = (double)o->bytes, w = prof_model_wire(m, b), s = t > nic[r] ? t : nic[r];
    if (m != &o->m) {
        int n = o->node_of[r];
        s = s > l->out[n] ? s : l->out[n];
        l->out[n] = s + w;
    }
    *e = s + o->m.o + w;
    nic[r] = *e > s + m->g ? *e : s + m->g;
    *at = s + prof_model_time(m, b);
    return s;
}

/* An epoch's data to target (model_rma.c): in[k] the bytes and first[k]
 * the earliest start of their messages, k 0 from origins on its node and
 * 1 from other nodes'. */
struct rma_in {
    double in[2], first[2];
};

static void rma_in_add(const struct model_opts *o, struct rma_in *g, int r, int target, double s)
{
    int k = between(o, r, target) != &o->m;
    g->in[k] += (double)o->bytes;
    g->first[k] = s < g->first[k] ? s : g->first[k];
}

/* When g's bytes are in at target: those from its node through its own
 * link one after the other, first + T(their sum); those from other nodes
 * the same under the network between nodes, through its node's link in
 * (l->in). */
static double rma_in_done(const struct model_opts *o, struct links *l, int target, const struct rma_in *g)
{
    double node = g->in[0] > 0 ? g->first[0] + prof_model_time(&o->m, g->in[0]) : 0, net = 0;
    if (g->in[1] > 0) {
        double w = prof_model_wire(&o->net, g->in[1]);
        int n = o->node_of[target];
        net = g->first[1] + prof_model_time(&o->net, g->in[1]);
        net = net - w > l->in[n] ? net : l->in[n] + w;
        l->in[n] = net;
    }
    return node > net ? node : net;
}

/* The computation of rank r before epoch k: all[r * K + k], or dc (all
 * NULL). */
static double rma_spent(const struct model_opts *o, const double *all, double dc, int r, long k)
{
    return all ? all[r * o->calls + k] : dc;
}

/* model-rma in fence epochs (-m pair: rank 0 puts to rank 1; incast:
 * ranks 1.. put to rank 0): each epoch every rank computes, each origin
 * puts (o) and its data leaves at its fence, in the order the origins are
 * ready (rma_send), and comes in at the target (rma_in_done); every fence
 * ends at the latest of these, of the arrivals and of the clocks, plus
 * the fence's cost. */
static double fence_answer(const struct model_opts *o, int size, int incast, const double *all, double dc)
{
    int target = incast ? 0 : 1;
    double fence = coll(o, PROF_MC_BARRIER, size, 0), t = 0, at, e;
    double *nic = known_doubles(size), *ready = known_doubles(size);
    struct links l = links_new(size);
    for (long k = 0; k < o->calls; k++) {
        struct rma_in g = { { 0, 0 }, { HUGE_VAL, HUGE_VAL } };
        double latest = 0;
        for (int r = 0; r < size; r++) {
            int origin = incast ? r > 0 : r == 0;
            double c = t + rma_spent(o, all, dc, r, k) + (origin ? o->m.o : 0);
            latest = c > latest ? c : latest;
            ready[r] = origin ? c : HUGE_VAL;
        }
        links_order(&l, ready, size);
        for (int i = 0; i < size && ready[l.order[i]] < HUGE_VAL; i++) {
            int r = l.order[i];
            rma_in_add(o, &g, r, target, rma_send(o, &l, nic, r, target, ready[r], &at, &e));
            latest = at > latest ? at : latest;
        }
        double in = rma_in_done(o, &l, target, &g);
        t = (in > latest ? in : latest) + fence;
    }
    links_free(&l);
    free(nic);
    free(ready);
    return t;
}

/* model-rma -m pscw's answer: in each epoch rank 0 posts after its
 * computation (its clock at each origin T(0) later, between the two) and
 * waits; each origin, after its own, starts (when the post is there),
 * puts (o) and completes: its data leaves its link from s (rma_send), and
 * comes in at rank 0 (rma_in_done); the wait ends at the latest of these,
 * the complete when its data has left. Then MPI_Barrier. */
static double pscw_answer(const struct model_opts *o, int size, const double *all, double dc)
{
    double t = 0, at, *c = known_doubles(size), *ready = known_doubles(size), *nic = known_doubles(size);
    struct links l = links_new(size);
    for (long k = 0; k < o->calls; k++) {
        struct rma_in g = { { 0, 0 }, { HUGE_VAL, HUGE_VAL } };
        double post = t + rma_spent(o, all, dc, 0, k), latest = post;
        ready[0] = HUGE_VAL;
        for (int r = 1; r < size; r++) {
            double a = c[r] + rma_spent(o, all, dc, r, k), signal = post + prof_model_time(between(o, 0, r), 0);
            ready[r] = (a > signal ? a : signal) + o->m.o;
        }
        links_order(&l, ready, size);
        for (int i = 0; i + 1 < size; i++) {
            int r = l.order[i];
            rma_in_add(o, &g, r, 0, rma_send(o, &l, nic, r, 0, ready[r], &at, &c[r]));
            latest = at > latest ? at : latest;
        }
        double in = rma_in_done(o, &l, 0, &g);
        t = in > latest ? in : latest;
    }
    for (int r = 1; r < size; r++)
        t = c[r] > t ? c[r] : t;
    links_free(&l);
    free(c);
    free(ready);
    free(nic);
    return t + coll(o, PROF_MC_BARRIER, size, 0);
}

/* model-rma -m lock's answer: in each epoch every origin, after its
 * computation, locks rank 0's window (shared: T(0) between the two), puts
 * (o) and unlocks: its data leaves its link from s (rma_send), and comes
 * in through rank 0's own link after the data of the unlocks before (in
 * the order they are ready): at the later of s + T(bytes) and that link's
 * clock plus the bytes' wire time; each unlock ends no earlier than T(0)
 * after its start. Then MPI_Barrier: every rank at the latest, plus the
 * barrier's cost. */
static double lock_answer(const struct model_opts *o, int size, const double *all, double dc)
{
    double barrier = coll(o, PROF_MC_BARRIER, size, 0), t = 0, link = 0, at, e;
    double *ready = known_doubles(size), *nic = known_doubles(size);
    struct links l = links_new(size);
    for (long k = 0; k < o->calls; k++) {
        double latest = t + rma_spent(o, all, dc, 0, k);
        ready[0] = HUGE_VAL;
        for (int r = 1; r < size; r++)
            ready[r] = t + rma_spent(o, all, dc, r, k) + prof_model_time(between(o, r, 0), 0) + o->m.o;
        links_order(&l, ready, size);
        for (int i = 0; i + 1 < size; i++) {
            int r = l.order[i];
            const struct prof_model *m = between(o, r, 0);
            double floor = ready[r] + prof_model_time(m, 0), w = prof_model_wire(m, (double)o->bytes);
            rma_send(o, &l, nic, r, 0, ready[r], &at, &e);
            link = at > link + w ? at : link + w;
            latest = link > latest ? link : latest;
            latest = floor > latest ? floor : latest;
        }
        t = latest + barrier;
    }
    links_free(&l);
    free(ready);
    free(nic);
    return t;
}

static int model_rma(int argc, char **argv, int rank, int size)
{
    int mode = pick("mpiprof-known model-rma", "-m", rmas, sizeof rmas[0], 4, 0, &argc, &argv, rank);
    if (mode < 0)
        return 2;
    struct model_opts o;
    int rc = parse("model-rma [-m pair|incast|pscw|lock]", argc, argv, rank, size, 1 << 20, &o);
    if (rc >= 0)
        return rc;
    /* pair: rank 0 computes and puts to rank 1; incast: every rank
     * computes, and ranks 1.. put to rank 0, each to its own part, in
     * fence epochs; pscw: the same in PSCW epochs; lock: in shared-lock
     * epochs, each followed by MPI_Barrier. */
    int incast = mode != RMA_PAIR, pscw = mode == RMA_PSCW, lock = mode == RMA_LOCK;
    int origins = incast ? size - 1 : 1, origin = incast ? rank > 0 : rank == 0, target = incast ? 0 : 1;
    size_t room = (size_t)o.bytes * (size_t)(incast && rank == 0 ? origins : 1) + 1;
    MPI_Aint disp = incast ? (MPI_Aint)(rank - 1) * (MPI_Aint)o.bytes : 0;
    double *spent = known_doubles(o.calls), d = o.ms * 1e-3, mark;
    char *buf = calloc(room, 1), *src = calloc((size_t)o.bytes + 1, 1);
    int bad = !buf || !src;
    MPI_Win win;
    MPI_Group world, group = MPI_GROUP_NULL;
    MPI_Win_create(buf, bad ? 0 : (MPI_Aint)room, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    ready(&o);
    if (pscw) {         /* the target's group: the origins; an origin's: the target */
        int zero = 0;
        MPI_Comm_group(MPI_COMM_WORLD, &world);
        if (rank == target)
            MPI_Group_excl(world, 1, &zero, &group);
        else
            MPI_Group_incl(world, 1, &zero, &group);
        MPI_Group_free(&world);
        MPI_Barrier(MPI_COMM_WORLD);
    } else if (lock) {
        MPI_Barrier(MPI_COMM_WORLD);
    } else {
        MPI_Win_fence(0, win);
    }
    mark = MPI_Wtime();
    for (long k = 0; k < o.calls; k++) {
        if (origin || incast) {
            known_compute(d);
            if (src)
                src[0] = (char)(k & 0x7f);
        }
        spent[k] = since(&mark);
        if (pscw && rank == target)
            MPI_Win_post(group, 0, win);
        else if (pscw)
            MPI_Win_start(group, 0, win);
        else if (lock && origin)
            MPI_Win_lock(MPI_LOCK_SHARED, target, 0, win);
        if (origin && !bad)
            MPI_Put(src, (int)o.bytes, MPI_CHAR, target, disp, (int)o.bytes, MPI_CHAR, win);
        if (pscw && rank == target)
            MPI_Win_wait(win);
        else if (pscw)
            MPI_Win_complete(win);
        else if (lock && origin)
            MPI_Win_unlock(target, win);
        if (lock)
            MPI_Barrier(MPI_COMM_WORLD);
        else if (!pscw)
            MPI_Win_fence(0, win);
        mark = MPI_Wtime();
        for (int r = 0; rank == target && buf && o.bytes > 0 && r < origins; r++)
            if (buf[(size_t)r * (size_t)o.bytes] != (char)(k & 0x7f))
                bad = 1;
    }
    if (pscw) {
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Group_free(&group);
    }
    MPI_Win_free(&win);
    if (bad)
        fprintf(stderr, "mpiprof-known model-rma: rank %d: %s\n", rank, buf && src ? "wrong data" : "out of memory");
    double *all = gather_spent(&o, spent, rank, size);
    if (rank == 0 && pscw) {
        expect_same("model-rma", &o, size, pscw_answer(&o, size, all, 0), pscw_answer(&o, size, NULL, d * o.m.cpu));
    } else if (rank == 0 && lock) {
        expect_same("model-rma", &o, size, lock_answer(&o, size, all, 0), lock_answer(&o, size, NULL, d * o.m.cpu));
    } else if (rank == 0) {
        expect_same("model-rma", &o, size, fence_answer(&o, size, incast, all, 0),
                    fence_answer(&o, size, incast, NULL, d * o.m.cpu));
    }
    free(all);
    free(spent);
    free(buf);
    free(src);
    return bad;
}

/* model-colls: the collectives it can run, their shape for the model and
 * the largest volume of one process in them, in blocks of -s bytes
 * (PER_RANK: one block per process). */
enum { PER_RANK = -1 };
static const struct {
    const char *name;
    enum prof_model_coll shape;
    int blocks;
} colls[] = {
    { "barrier", PROF_MC_BARRIER, 0 },           { "bcast", PROF_MC_BCAST, 1 },
    { "reduce", PROF_MC_REDUCE, 1 },             { "allreduce", PROF_MC_ALLREDUCE, 1 },
    { "scan", PROF_MC_SCAN, 1 },                 { "gather", PROF_MC_GATHER, PER_RANK },
    { "allgather", PROF_MC_ALLGATHER, PER_RANK }, { "alltoall", PROF_MC_ALLTOALL, PER_RANK },
    { "reduce_scatter", PROF_MC_REDUCE_SCATTER, PER_RANK },
};
#define NCOLLS (int)(sizeof colls / sizeof colls[0])

static void run_coll(int which, char *a, char *b, int n)
{
    switch (colls[which].shape) {
    case PROF_MC_BARRIER:
        MPI_Barrier(MPI_COMM_WORLD);
        break;
    case PROF_MC_BCAST:
        MPI_Bcast(a, n, MPI_BYTE, 0, MPI_COMM_WORLD);
        break;
    case PROF_MC_REDUCE:
        MPI_Reduce(a, b, n, MPI_BYTE, MPI_BOR, 0, MPI_COMM_WORLD);
        break;
    case PROF_MC_ALLREDUCE:
        MPI_Allreduce(a, b, n, MPI_BYTE, MPI_BOR, MPI_COMM_WORLD);
        break;
    case PROF_MC_SCAN:
        MPI_Scan(a, b, n, MPI_BYTE, MPI_BOR, MPI_COMM_WORLD);
        break;
    case PROF_MC_GATHER:
        MPI_Gather(a, n, MPI_BYTE, b, n, MPI_BYTE, 0, MPI_COMM_WORLD);
        break;
    case PROF_MC_ALLGATHER:
        MPI_Allgather(a, n, MPI_BYTE, b, n, MPI_BYTE, MPI_COMM_WORLD);
        break;
    case PROF_MC_ALLTOALL:
        MPI_Alltoall(a, n, MPI_BYTE, b, n, MPI_BYTE, MPI_COMM_WORLD);
        break;
    default:
        MPI_Reduce_scatter_block(a, b, n, MPI_BYTE, MPI_BOR, MPI_COMM_WORLD);
    }
}

static int model_colls(int argc, char **argv, int rank, int size)
{
    if (argc >= 2 && strcmp(argv[1], "-h") == 0)
        return parse("model-colls -c COLLECTIVE", argc, argv, rank, size, 1 << 20, &(struct model_opts){ 0 });
    int which = pick("mpiprof-known model-colls", "-c", colls, sizeof colls[0], NCOLLS, -1, &argc, &argv, rank);
    if (which < 0)
        return 2;
    struct model_opts o;
    int rc = parse("model-colls", argc, argv, rank, size, 1 << 20, &o);
    if (rc >= 0)
        return rc;
    double *spent = known_doubles(o.calls), d = o.ms * 1e-3, mark;
    size_t room = (size_t)o.bytes * (size_t)size + 1;
    char *a = calloc(room, 1), *b = calloc(room, 1);
    int bad = !a || !b;
    ready(&o);
    MPI_Barrier(MPI_COMM_WORLD);
    mark = MPI_Wtime();
    for (long k = 0; !bad && k < o.calls; k++) {
        known_compute((rank + 1) * d);
        spent[k] = since(&mark);
        run_coll(which, a, b, (int)o.bytes);
        mark = MPI_Wtime();
    }
    if (bad)
        fprintf(stderr, "mpiprof-known model-colls: rank %d: out of memory\n", rank);
    double *all = gather_spent(&o, spent, rank, size);
    if (rank == 0) {
        double x = (double)o.bytes * (colls[which].blocks == PER_RANK ? size : colls[which].blocks);
        expect_critical("model-colls", &o, size, all, coll(&o, colls[which].shape, size, x));
    }
    free(all);
    free(spent);
    free(a);
    free(b);
    return bad;
}

/* MPI_Issend and its MPI_Wait. */
static int issend_wait(const void *buf, int count, MPI_Datatype type, int dst, int tag, MPI_Comm comm)
{
    MPI_Request req;
    int rc = MPI_Issend(buf, count, type, dst, tag, comm, &req);
    return rc == MPI_SUCCESS ? MPI_Wait(&req, MPI_STATUS_IGNORE) : rc;
}

/* model-sync's modes: the send each round makes. */
static const struct {
    const char *name;
    int (*send)(const void *, int, MPI_Datatype, int, int, MPI_Comm);
    int sync;           /* waits for its receive whatever its size */
} syncs[] = { { "ssend", MPI_Ssend, 1 }, { "issend", issend_wait, 1 }, { "send", MPI_Send, 0 } };

static int model_sync(int argc, char **argv, int rank, int size)
{
    int mode = pick("mpiprof-known model-sync", "-m", syncs, sizeof syncs[0], 3, 0, &argc, &argv, rank);
    if (mode < 0)
        return 2;
    struct model_opts o;
    int rc = parse("model-sync [-m ssend|issend|send]", argc, argv, rank, size, 8, &o);
    if (rc >= 0)
        return rc;
    /* spent[k]: before round k's call; spent[K]: after the last. */
    double *spent = known_doubles(o.calls + 1), d = o.ms * 1e-3, mark;
    char *buf = calloc((size_t)o.bytes + 1, 1);
    int bad = !buf;
    ready(&o);
    MPI_Barrier(MPI_COMM_WORLD);
    mark = MPI_Wtime();
    for (long k = 0; buf && rank < 2 && k < o.calls; k++) {
        if (rank == k % 2) {
            buf[0] = (char)(k & 0x7f);
            spent[k] = since(&mark);
            syncs[mode].send(buf, (int)o.bytes, MPI_CHAR, 1 - rank, 7, MPI_COMM_WORLD);
            mark = MPI_Wtime();
            known_compute(d);
        } else {
            known_compute(d);
            spent[k] = since(&mark);
            MPI_Recv(buf, (int)o.bytes, MPI_CHAR, 1 - rank, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            mark = MPI_Wtime();
            if (o.bytes > 0 && buf[0] != (char)(k & 0x7f))
                bad = 1;
        }
    }
    spent[o.calls] = since(&mark);
    if (bad)
        fprintf(stderr, "mpiprof-known model-sync: rank %d: %s\n", rank, buf ? "wrong data" : "out of memory");
    long n = o.calls + 1;
    double *all = gather_n(&o, spent, n, rank, size);
    if (rank == 0) {
        /* Round k: the sender's message starts at s on its link, the
         * receive is posted at r; a send that waits ends with its receive
         * at max(s, r) + T, one that does not when its bytes have left (its
         * receive at max(r, s + T)). The gather then makes every clock the
         * latest, after each rank's last computation. */
        double x = prof_model_time(&o.m, (double)o.bytes), dc = d * o.m.cpu;
        int waits = syncs[mode].sync || (double)o.bytes > o.m.eager;
        double c[2] = { 0, 0 }, link[2] = { 0, 0 }, nc[2] = { 0, 0 }, nlink[2] = { 0, 0 }, latest = 0, nlatest = 0;
        for (long k = 0; k < o.calls; k++) {
            int a = (int)(k % 2), b = 1 - a;
            double done, s = link_send(&o.m, &link[a], c[a] + all[a * n + k], (double)o.bytes, &done);
            double r = c[b] + all[b * n + k], both = (s > r ? s : r) + x;
            c[a] = waits ? both : done;
            c[b] = waits ? both : (r > s + x ? r : s + x);
            /* nominal: the sender sends at once, the receiver computed D
             * after its own send of the round before and D now */
            s = link_send(&o.m, &nlink[a], nc[a], (double)o.bytes, &done);
            r = nc[b] + (k > 0 ? 2 * dc : dc);
            both = (s > r ? s : r) + x;
            nc[a] = waits ? both : done;
            nc[b] = waits ? both : (r > s + x ? r : s + x);
        }
        for (int i = 0; i < 2; i++) {
            latest = c[i] + all[i * n + o.calls] > latest ? c[i] + all[i * n + o.calls] : latest;
            double tail = (o.calls - 1) % 2 == i ? dc : 0;
            nlatest = nc[i] + tail > nlatest ? nc[i] + tail : nlatest;
        }
        expect_same("model-sync", &o, size, latest, nlatest);
    }
    free(all);
    free(spent);
    free(buf);
    return bad;
}

/* model-lock: what each rank measured in a round, in this order; its
 * modes: every rank's lock exclusive, or the odd ranks' an
 * MPI_Win_lock_all epoch (shared, on every rank). */
enum { L_BEFORE, L_HELD, L_AFTER_OP, L_AFTER, L_N };
static const struct {
    const char *name;
} locks[] = { { "exclusive" }, { "lockall" } };

static int model_lock(int argc, char **argv, int rank, int size)
{
    int mode = pick("mpiprof-known model-lock", "-m", locks, sizeof locks[0], 2, 0, &argc, &argv, rank);
    if (mode < 0)
        return 2;
    int shared = mode && rank % 2;
    struct model_opts o;
    int rc = parse("model-lock [-m exclusive|lockall]", argc, argv, rank, size, -1, &o);
    if (rc >= 0)
        return rc;
    long n = o.calls * L_N;
    double *spent = known_doubles(n), *places = known_doubles(o.calls), d = o.ms * 1e-3, mark;
    int64_t *count, one = 1, got;
    MPI_Win win;
    MPI_Win_allocate(sizeof *count, sizeof *count, MPI_INFO_NULL, MPI_COMM_WORLD, &count, &win);
    *count = 0;
    ready(&o);
    MPI_Barrier(MPI_COMM_WORLD);
    mark = MPI_Wtime();
    for (long k = 0; k < o.calls; k++) {
        double *m = spent + k * L_N;
        m[L_BEFORE] = since(&mark);
        if (shared)
            MPI_Win_lock_all(0, win);
        else
            MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        mark = MPI_Wtime();
        known_compute(d);
        m[L_HELD] = since(&mark);
        MPI_Fetch_and_op(&one, &got, MPI_INT64_T, 0, 0, MPI_SUM, win);
        mark = MPI_Wtime();
        m[L_AFTER_OP] = since(&mark);
        if (shared)
            MPI_Win_unlock_all(win);
        else
            MPI_Win_unlock(0, win);
        mark = MPI_Wtime();
        places[k] = (double)(got - k * size);
        m[L_AFTER] = since(&mark);
        MPI_Barrier(MPI_COMM_WORLD);
        mark = MPI_Wtime();
    }
    MPI_Win_free(&win);
    double *all = gather_n(&o, spent, n, rank, size), *place = known_gather(places, (int)o.calls);
    int bad = 0;
    if (rank == 0) {
        /* Round k: the holders in their places; each one's lock granted
         * at the later of its lock's end and the previous release (a
         * shared lock: of an exclusive one; an exclusive lock: of any),
         * its release when its unlock's data (8 bytes) is at rank 0; then
         * the barrier. */
        double t0 = prof_model_time(&o.m, 0), x = prof_model_time(&o.m, sizeof one);
        double barrier = prof_model_coll_time(&o.m, PROF_MC_BARRIER, size, 0), t = 0, release = 0, excl = 0;
        int *order = malloc((size_t)size * sizeof *order);
        for (long k = 0; order && k < o.calls; k++) {
            double latest = 0;
            for (int r = 0; r < size; r++)
                order[r] = -1;
            for (int r = 0; r < size; r++) {
                double p = place[r * o.calls + k];
                if (p >= 0 && p < size && order[(int)p] < 0)
                    order[(int)p] = r;
            }
            for (int j = 0; j < size; j++) {
                if (order[j] < 0) {
                    bad = 1;
                    break;
                }
                const double *m = all + (order[j] * o.calls + k) * L_N;
                int mine_shared = mode && order[j] % 2;
                double granted = t + m[L_BEFORE] + t0, before = mine_shared ? excl : release;
                granted = granted > before ? granted : before;
                double end = granted + m[L_HELD] + o.m.o + m[L_AFTER_OP] + x;
                release = end > release ? end : release;
                if (!mine_shared)
                    excl = end > excl ? end : excl;
                latest = end + m[L_AFTER] > latest ? end + m[L_AFTER] : latest;
            }
            t = latest + barrier;
        }
        if (!order || bad)
            fprintf(stderr, "mpiprof-known model-lock: %s\n", order ? "the places in a round are wrong" : "out of memory");
        else
            expect_same("model-lock", &o, size, t, o.calls * (size * (d * o.m.cpu + o.m.o + x) + t0 + barrier));
        free(order);
    }
    free(all);
    free(place);
    free(places);
    free(spent);
    return bad;
}

const struct known_workload known_model_compute = {
    "model-compute", "rank i computes (i+1)*D ms before each MPI_Allreduce: modelled elapsed (--model)",
    model_compute
};
const struct known_workload known_model_icompute = {
    "model-icompute", "model-compute with MPI_Iallreduce and MPI_Wait: modelled elapsed (--model)", model_icompute
};

const struct known_workload known_model_pcompute = {
    "model-pcompute", "model-compute with a persistent MPI_Allreduce_init, MPI_Start and MPI_Wait (MPI-4.0): "
    "modelled elapsed (--model)", model_pcompute
};
const struct known_workload known_model_comm = {
    "model-comm", "pairs compute D ms and swap -s bytes with MPI_Sendrecv: modelled elapsed (--model)", model_comm
};
const struct known_workload known_model_sends = {
    "model-sends", "rank 0 computes D ms and sends -s bytes to rank 1 (MPI_Send), K times: modelled elapsed (--model)",
    model_sends
};
const struct known_workload known_model_link = {
    "model-link", "each rank of the first half computes D ms and sends -s bytes to its partner in the second half "
    "(MPI_Send, all at once), then MPI_Barrier, K times: modelled elapsed (--model, the nodes' links shared)",
    model_link
};
const struct known_workload known_model_rma = {
    "model-rma", "rank 0 computes D ms and puts -s bytes to rank 1 (-m incast: every rank computes, ranks 1.. put "
    "to rank 0) in each of K fence epochs (-m pscw, -m lock: the incast in PSCW or shared-lock epochs), each "
    "origin's bytes priced by where it and its target are: modelled elapsed (--model)", model_rma
};
const struct known_workload known_model_colls = {
    "model-colls", "-c COLLECTIVE: rank i computes (i+1)*D ms before each of K collectives of -s bytes a block: "
    "modelled elapsed (--model)", model_colls
};
const struct known_workload known_model_chain = {
    "model-chain", "a pipeline through the ranks, D ms per stage, then MPI_Barrier: modelled elapsed (--model)",
    model_chain
};
const struct known_workload known_model_sync = {
    "model-sync", "ranks 0 and 1 take turns: one sends -s bytes (MPI_Ssend, -m issend or -m send) and computes D ms, the "
    "other computes D ms and receives: modelled elapsed (--model)", model_sync
};
const struct known_workload known_model_lock = {
    "model-lock", "every rank in turn holds an exclusive lock on rank 0's window for D ms (-m lockall: the odd ranks "
    "an MPI_Win_lock_all epoch instead), then MPI_Barrier, K times: modelled elapsed (--model)", model_lock
};
