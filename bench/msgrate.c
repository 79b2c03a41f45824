/* msgrate.c: mpiprof-msgrate, the Sandia "real-world" message rate
 * benchmark in MPI (the msgrate README): sustained rate of small messages
 * with a cold cache, sending and receiving at once, with several peers.
 *
 * Peers: with P processes, ppn per node and npeers peers, the peer list
 * holds the npeers/2 "lower" peers (rank - k*ppn) then the "higher" ones
 * (rank + k*ppn), modulo P; a process sends to send_peer[npeers-1-j] while
 * it receives from recv_peer[j], so that in step j every message has its
 * receive (recv_peer differs from send_peer for odd npeers: one more lower
 * peer). Each kernel runs niters iterations of nmsgs messages of nbytes per
 * peer; before each, the cache is invalidated (an int array of -c bytes
 * walked with a[i] = a[i-1] + 1) and the send buffer written.
 *
 *   single    the first P/2 ranks each send nmsgs messages to rank + P/2,
 *             which receives them (MPI_Isend or MPI_Irecv, MPI_Waitall)
 *   pair      per peer j: nmsgs MPI_Irecv, nmsgs MPI_Isend, MPI_Waitall
 *   prepost   receives for the next iteration are posted at the end of
 *             each (and before the first, timed); per iteration: all
 *             sends, one MPI_Waitall of sends and receives, the next
 *             receives; after the last, the final sends (timed)
 *   allstart  all receives and sends of every peer, one MPI_Waitall
 *
 * Each iteration starts with MPI_Barrier (after the cache walk) and is
 * timed alone. Rates count every message a process handles, sent and
 * received: per process, its messages over the mean time of the processes;
 * aggregate, the per-process rate times the processes taking part.
 *
 * BENCH_EXPECT (expect.h): the kernels and main make every call of
 * MPI_Isend, MPI_Irecv, MPI_Waitall, MPI_Barrier and MPI_Allreduce, so a
 * kernel's rounds (what it posted, struct posted) give its tally, counted
 * after its timed parts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
#include "expect.h"
#include "intopts.h"

#define PROG "mpiprof-msgrate"
#define TAG 17

static const char *const claimed[] = { "MPI_Isend", "MPI_Irecv", "MPI_Waitall", "MPI_Barrier", "MPI_Allreduce",
                                       NULL };

struct opts {
    long npeers, niters, nmsgs, nbytes, cache, ppn;
    int machine;
    unsigned kernels;          /* bit k: kernel k of the table below */
};

struct run {
    const struct opts *o;
    int rank, size;
    int *send_peer, *recv_peer;
    char *sbuf, *rbuf;
    int *cache;
    MPI_Request *reqs;
};

/* The cache walk, then the send buffer written (it is touched right before
 * the sends in an application). */
static void invalidate(struct run *r, size_t send_bytes)
{
    long n = r->o->cache / (long)sizeof(int);
    if (n > 0) {
        r->cache[0] = 1;
        for (long i = 1; i < n; i++)
            r->cache[i] = r->cache[i - 1] + 1;
    }
    memset(r->sbuf, r->cache && n > 0 ? r->cache[n - 1] & 0xff : 1, send_bytes);
}

static char *at(char *buf, const struct opts *o, long peer, long k)
{
    return buf + (size_t)(peer * o->nmsgs + k) * (size_t)o->nbytes;
}

/* Post the receives (or sends) of peer index j into reqs from n on. */
static int post(struct run *r, int sends, long j, int n)
{
    const struct opts *o = r->o;
    for (long k = 0; k < o->nmsgs; k++) {
        if (sends)
            MPI_Isend(at(r->sbuf, o, j, k), (int)o->nbytes, MPI_CHAR, r->send_peer[o->npeers - 1 - j], TAG,
                      MPI_COMM_WORLD, &r->reqs[n++]);
        else
            MPI_Irecv(at(r->rbuf, o, j, k), (int)o->nbytes, MPI_CHAR, r->recv_peer[j], TAG, MPI_COMM_WORLD,
                      &r->reqs[n++]);
    }
    return n;
}

/* What a kernel posted on this process: rounds of one MPI_Barrier, sends
 * MPI_Isend and recvs MPI_Irecv of nbytes, and waits MPI_Waitall. */
struct posted {
    long rounds, sends, recvs, waits;
};

/* The kernels: the time this process spent in the timed parts, and *p
 * what it posted (the messages it handled are the sends and receives). */
static double single(struct run *r, struct posted *p)
{
    const struct opts *o = r->o;
    int half = r->size / 2, sender = r->rank < half;
    int peer = sender ? r->rank + half : r->rank - half;
    double total = 0;
    for (long i = 0; i < o->niters; i++) {
        invalidate(r, (size_t)(o->nmsgs * o->nbytes));
        MPI_Barrier(MPI_COMM_WORLD);
        double t = MPI_Wtime();
        for (long k = 0; k < o->nmsgs; k++) {
            if (sender)
                MPI_Isend(at(r->sbuf, o, 0, k), (int)o->nbytes, MPI_CHAR, peer, TAG, MPI_COMM_WORLD, &r->reqs[k]);
            else
                MPI_Irecv(at(r->rbuf, o, 0, k), (int)o->nbytes, MPI_CHAR, peer, TAG, MPI_COMM_WORLD, &r->reqs[k]);
        }
        MPI_Waitall((int)o->nmsgs, r->reqs, MPI_STATUSES_IGNORE);
        total += MPI_Wtime() - t;
    }
    *p = (struct posted){ o->niters, sender ? o->nmsgs : 0, sender ? 0 : o->nmsgs, 1 };
    return total;
}

/* pair (wait per peer) and allstart (one wait for all peers). */
static double both_ways(struct run *r, struct posted *p, int wait_per_peer)
{
    const struct opts *o = r->o;
    double total = 0;
    for (long i = 0; i < o->niters; i++) {
        invalidate(r, (size_t)(o->npeers * o->nmsgs * o->nbytes));
        MPI_Barrier(MPI_COMM_WORLD);
        double t = MPI_Wtime();
        int n = 0;
        for (long j = 0; j < o->npeers; j++) {
            n = post(r, 0, j, n);
            n = post(r, 1, j, n);
            if (wait_per_peer || j == o->npeers - 1) {
                MPI_Waitall(n, r->reqs, MPI_STATUSES_IGNORE);
                n = 0;
            }
        }
        total += MPI_Wtime() - t;
    }
    *p = (struct posted){ o->niters, o->npeers * o->nmsgs, o->npeers * o->nmsgs, wait_per_peer ? o->npeers : 1 };
    return total;
}

static double pair(struct run *r, struct posted *p)
{
    return both_ways(r, p, 1);
}

static double allstart(struct run *r, struct posted *p)
{
    return both_ways(r, p, 0);
}

static int post_all(struct run *r, int sends, int n)
{
    for (long j = 0; j < r->o->npeers; j++)
        n = post(r, sends, j, n);
    return n;
}

static double prepost(struct run *r, struct posted *p)
{
    const struct opts *o = r->o;
    int per = (int)(o->npeers * o->nmsgs);  /* reqs: the sends, then the receives, posted ahead */
    double t = MPI_Wtime(), total;
    post_all(r, 0, per);
    total = MPI_Wtime() - t;
    for (long i = 0; i < o->niters; i++) {
        invalidate(r, (size_t)per * (size_t)o->nbytes);
        MPI_Barrier(MPI_COMM_WORLD);
        t = MPI_Wtime();
        post_all(r, 1, 0);
        MPI_Waitall(2 * per, r->reqs, MPI_STATUSES_IGNORE);
        post_all(r, 0, per);
        total += MPI_Wtime() - t;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    t = MPI_Wtime();
    post_all(r, 1, 0);
    MPI_Waitall(2 * per, r->reqs, MPI_STATUSES_IGNORE);
    total += MPI_Wtime() - t;
    /* the receives posted first and the final sends: one more round */
    *p = (struct posted){ o->niters + 1, (long)per, (long)per, 1 };
    return total;
}

static const struct kernel {
    const char *name, *title;
    double (*run)(struct run *r, struct posted *p);
} kernels[] = {
    { "single", "single direction", single },
    { "pair", "pair-based", pair },
    { "prepost", "pre-posted", prepost },
    { "allstart", "all-start", allstart },
};
#define NKERNELS (int)(sizeof kernels / sizeof kernels[0])

/* BENCH_EXPECT: what a kernel posted, and the MPI_Allreduce of its time. */
static void tally(const struct posted *p, long nbytes)
{
    bench_expect_add("MPI_Isend", p->rounds * p->sends, (long long)p->rounds * p->sends * nbytes, 0);
    bench_expect_add("MPI_Irecv", p->rounds * p->recvs, 0, (long long)p->rounds * p->recvs * nbytes);
    bench_expect_add("MPI_Waitall", p->rounds * p->waits, 0, 0);
    bench_expect_add("MPI_Barrier", p->rounds, 0, 0);
    bench_expect_add("MPI_Allreduce", 1, sizeof(double), sizeof(double));
}

/* "-t LIST": the kernels named, comma-separated; 0 if one is unknown. */
static unsigned parse_kernels(const char *list, char *err, size_t errlen)
{
    unsigned set = 0;
    char buf[256], *save = NULL;
    snprintf(buf, sizeof buf, "%s", list);
    for (char *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        int k = 0;
        while (k < NKERNELS && strcmp(w, kernels[k].name) != 0)
            k++;
        if (k == NKERNELS) {
            snprintf(err, errlen, PROG ": -t: '%s' is not a kernel (single, pair, prepost, allstart)", w);
            return 0;
        }
        set |= 1u << k;
    }
    if (!set)
        snprintf(err, errlen, PROG ": -t: no kernel named");
    return set;
}

static void usage(void)
{
    printf("Usage: mpirun -np P " PROG " [-p NPEERS] [-i NITERS] [-m NMSGS] [-s NBYTES] [-c CACHE] [-n PPN] [-o]\n"
           "       [-t single,pair,prepost,allstart]\n\n"
           "Sandia message rate: messages per second with a cold cache, several peers, sending and\n"
           "receiving at once. P must be even and P/PPN (the nodes) larger than NPEERS.\n\n"
           "  -p NPEERS  peers per process, 1..1024 (default 6)\n"
           "  -i NITERS  iterations per kernel, 1..10000000 (default 4096)\n"
           "  -m NMSGS   messages per peer per iteration, 1..1000000 (default 128)\n"
           "  -s NBYTES  bytes per message, 0..16777216 (default 8)\n"
           "  -c CACHE   bytes of the array walked before each iteration, 0..1073741824 (default 16777216)\n"
           "  -n PPN     processes per node: peers are PPN ranks apart, 1..65536 (default 1)\n"
           "  -o         one machine-readable line per kernel\n"
           "  -t LIST    kernels to run (default all four)\n"
           "  -h         show this help and exit\n");
}

/* The command line: 0 to run, 1 for -h, 2 with one line in err. -o and
 * -t are taken out before the integer options. */
static int parse(int argc, char **argv, int size, struct opts *o, char *err, size_t errlen)
{
    *o = (struct opts){ 6, 4096, 128, 8, 16L << 20, 1, 0, (1u << NKERNELS) - 1 };
    char **args = malloc(((size_t)argc + 1) * sizeof *args);
    int n = 0, rc = 0;
    if (!args) {
        snprintf(err, errlen, PROG ": out of memory");
        return 2;
    }
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0) {
            o->machine = 1;
        } else if (i > 0 && strcmp(argv[i], "-t") == 0) {
            if (i + 1 == argc) {
                snprintf(err, errlen, PROG ": option -t needs a value (try -h)");
                rc = 2;
                break;
            }
            if (!(o->kernels = parse_kernels(argv[++i], err, errlen))) {
                rc = 2;
                break;
            }
        } else {
            args[n++] = argv[i];
        }
    }
    args[n] = NULL;
    const struct bench_intopt opts[] = {
        { 'p', 1, 1024, &o->npeers }, { 'i', 1, 10000000, &o->niters }, { 'm', 1, 1000000, &o->nmsgs },
        { 's', 0, 1 << 24, &o->nbytes }, { 'c', 0, 1L << 30, &o->cache }, { 'n', 1, 65536, &o->ppn },
    };
    if (rc == 0)
        rc = bench_intopts_parse(PROG, n, args, opts, 6, err, errlen);
    free(args);
    if (rc == 0 && size % 2 != 0) {
        snprintf(err, errlen, PROG ": needs an even number of processes (got %d)", size);
        rc = 2;
    } else if (rc == 0 && size % o->ppn != 0) {
        snprintf(err, errlen, PROG ": %d processes are not whole nodes of -n %ld", size, o->ppn);
        rc = 2;
    } else if (rc == 0 && size / o->ppn <= o->npeers) {
        long need = (o->npeers + 1) * o->ppn;
        if (need % 2)
            need += o->ppn;
        snprintf(err, errlen, PROG ": %ld peers need at least %ld nodes of -n %ld processes: run at least %ld "
                 "processes (got %d)", o->npeers, o->npeers + 1, o->ppn, need, size);
        rc = 2;
    }
    return rc;
}

/* The peers of the README: lower ones first, then higher; odd npeers: one
 * more lower peer to receive from. */
static void peers(struct run *r)
{
    long np = r->o->npeers, P = r->size, ppn = r->o->ppn, half = np / 2;
    for (long i = 0; i < np; i++) {
        long up = i < half ? i - half : i - half + 1;
        r->send_peer[i] = (int)(((r->rank + (up % P) * ppn) % P + P) % P);
        long down = np % 2 == 0 ? up : (i < half + 1 ? i - half - 1 : i - half);
        r->recv_peer[i] = (int)(((r->rank + (down % P) * ppn) % P + P) % P);
    }
}

int main(int argc, char **argv)
{
    struct opts o;
    struct run r = { &o, 0, 0, NULL, NULL, NULL, NULL, NULL, NULL };
    char err[512];
    bench_expect_claim(claimed);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &r.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &r.size);
    int status = bench_parse_outcome(parse(argc, argv, r.size, &o, err, sizeof err), r.rank, err, usage);
    if (status >= 0) {
        MPI_Finalize();
        return status;
    }
    size_t per = (size_t)o.npeers * (size_t)o.nmsgs;
    r.send_peer = malloc((size_t)o.npeers * sizeof *r.send_peer);
    r.recv_peer = malloc((size_t)o.npeers * sizeof *r.recv_peer);
    r.sbuf = malloc(per * (size_t)o.nbytes + 1);
    r.rbuf = malloc(per * (size_t)o.nbytes + 1);
    r.cache = malloc((size_t)o.cache + sizeof(int));
    r.reqs = malloc(2 * per * sizeof *r.reqs);
    int ok = r.send_peer && r.recv_peer && r.sbuf && r.rbuf && r.cache && r.reqs, all_ok;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all_ok) {
        if (r.rank == 0)
            fprintf(stderr, PROG ": out of memory for %zu messages of %ld bytes per peer set\n", per, o.nbytes);
        MPI_Finalize();
        return 2;
    }
    bench_expect_add("MPI_Allreduce", 1, sizeof ok, sizeof ok);
    peers(&r);
    if (r.rank == 0 && !o.machine)
        printf("# " PROG ": %d processes, %ld peers, %ld iterations, %ld messages of %ld bytes per peer, "
               "cache %ld bytes, %ld processes per node\n", r.size, o.npeers, o.niters, o.nmsgs, o.nbytes, o.cache,
               o.ppn);
    for (int k = 0; k < NKERNELS; k++) {
        if (!(o.kernels & (1u << k)))
            continue;
        struct posted p;
        double mine = kernels[k].run(&r, &p), sum = 0;
        MPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        tally(&p, o.nbytes);
        long msgs = p.rounds * (p.sends + p.recvs);
        double mean = sum / r.size, rate = mean > 0 ? msgs / mean : 0, aggregate = rate * r.size;
        if (r.rank != 0)
            continue;
        if (o.machine)
            printf("test=%s ranks=%d npeers=%ld niters=%ld nmsgs=%ld nbytes=%ld cache=%ld ppn=%ld msgs=%ld "
                   "time_s=%.6f rate=%.2f aggregate=%.2f\n", kernels[k].name, r.size, o.npeers, o.niters, o.nmsgs,
                   o.nbytes, o.cache, o.ppn, msgs, mean, rate, aggregate);
        else
            printf("%-16s %14.2f msgs/s per process %16.2f msgs/s aggregate (%ld messages per process, %.6f s)\n",
                   kernels[k].title, rate, aggregate, msgs, mean);
        fflush(stdout);
    }
    free(r.send_peer);
    free(r.recv_peer);
    free(r.sbuf);
    free(r.rbuf);
    free(r.cache);
    free(r.reqs);
    bench_expect_print(PROG, r.rank);
    MPI_Finalize();
    return 0;
}
