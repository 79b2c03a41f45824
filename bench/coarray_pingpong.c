/* coarray_pingpong.c: the ping-pong section of mpiprof-coarray (EPCC
 * "Point-to-point"). A repetition is two legs: the first process of a
 * pair moves the data pattern to (put, send) or from (get) the second,
 * then the second to or from the first. Pairs: single (ranks 0 and P-1,
 * the others idle), multiple (rank i and i + P/2), crossing (as multiple,
 * the odd pairs starting from the upper rank).
 *
 * Patterns, as "count" blocks of "blksize" doubles "stride" apart:
 *   contig       1 block of ndata: one call
 *   many         ndata/B blocks of B back to back: one call per block
 *   strided      ndata/B blocks of B every S: one call of an MPI_Type_vector
 *   stridedmany  the same blocks, one call per block
 * Every process keeps its own values in src and receives its partner's
 * in dst; a one-sided window holds src then dst (MPI_Win_allocate). After
 * each measurement dst is checked: the partner's values in the blocks,
 * the sentinel -1 in the gaps. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "coarray.h"
#include "expect.h"

#define TAG_DATA 22
#define SENTINEL (-1.0)

enum pattern { CONTIG, MANY, STRIDED, STRIDEDMANY, NPATTERNS };
static const char *const pattern_names[] = { "contig", "many", "strided", "stridedmany" };

/* One measurement's data layout, and how the calls cover it. */
struct geom {
    long count, blksize, stride, ndata, nextent;
    long calls;         /* transfer calls per leg */
    long n, step;       /* elements of type per call, doubles between calls */
    MPI_Datatype type;  /* MPI_DOUBLE or the committed vector */
};

/* The pairs, form and operation being measured, and this process's part. */
struct pp {
    struct ca_run *r;
    int pairs;          /* CA_SINGLE, CA_MULTIPLE, CA_CROSSING */
    int form, get;      /* get: MPI_Get instead of MPI_Put (one-sided forms) */
    int partner;        /* -1: idle */
    int first;          /* this process moves data in the first leg */
    long ext;           /* doubles of src and of dst */
    double *src, *dst;
    MPI_Win win;
    struct ca_notify *nt;
};

/* The value of element j of process p's src: exact in a double. */
static double value(int p, long j)
{
    return (double)p * 4294967296.0 + (double)j + 1;
}

static void geom_make(struct geom *g, enum pattern p, long ndata, const struct ca_opts *o)
{
    long b = p == CONTIG ? ndata : o->blksize;
    *g = (struct geom){ ndata / b, b, p == STRIDED || p == STRIDEDMANY ? o->stride : b, ndata, 0,
                        ndata / b, b, 0, MPI_DOUBLE };
    g->step = g->stride;
    g->nextent = (g->count - 1) * g->stride + g->blksize;
    if (p == STRIDED) {
        MPI_Type_vector((int)g->count, (int)g->blksize, (int)g->stride, MPI_DOUBLE, &g->type);
        MPI_Type_commit(&g->type);
        g->calls = 1;
        g->n = 1;
    }
}

static void geom_free(struct geom *g)
{
    if (g->type != MPI_DOUBLE)
        MPI_Type_free(&g->type);
}

/* This process's transfer calls of one leg (it is the active one). */
static void transfer(struct pp *c, const struct geom *g)
{
    for (long i = 0; i < g->calls; i++) {
        long at = i * g->step;
        if (c->form == CA_P2P)
            MPI_Send(c->src + at, (int)g->n, g->type, c->partner, TAG_DATA, MPI_COMM_WORLD);
        else if (c->get)
            MPI_Get(c->dst + at, (int)g->n, g->type, c->partner, at, (int)g->n, g->type, c->win);
        else
            MPI_Put(c->src + at, (int)g->n, g->type, c->partner, c->ext + at, (int)g->n, g->type, c->win);
    }
}

static void receive(struct pp *c, const struct geom *g)
{
    for (long i = 0; i < g->calls; i++)
        MPI_Recv(c->dst + i * g->step, (int)g->n, g->type, c->partner, TAG_DATA, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
}

/* One leg; active: this process moves the data. p2p: the sender sends,
 * its partner receives; fence: the active processes transfer, then every
 * process calls MPI_Win_fence; lock: the active ones transfer, flush and
 * notify their partner, which waits for it. */
static void leg(struct pp *c, const struct geom *g, int active)
{
    if (c->form == CA_FENCE) {
        if (active)
            transfer(c, g);
        MPI_Win_fence(0, c->win);
    } else if (c->partner < 0) {
        return;
    } else if (c->form == CA_P2P) {
        if (active)
            transfer(c, g);
        else
            receive(c, g);
    } else if (active) {
        transfer(c, g);
        MPI_Win_flush(c->partner, c->win);
        ca_notify_post(c->nt, c->partner);
    } else {
        ca_notify_wait(c->nt, c->partner);
    }
}

/* Before a measurement: dst all sentinel, the window's epoch past it. */
static void open_measurement(struct pp *c, const struct geom *g)
{
    for (long j = 0; j < g->nextent; j++)
        c->dst[j] = SENTINEL;
    if (c->form == CA_FENCE)
        MPI_Win_fence(0, c->win);
    if (c->form == CA_LOCK)
        MPI_Win_sync(c->win);
    if (c->form != CA_FENCE)
        MPI_Barrier(MPI_COMM_WORLD);
}

/* dst against the partner's values: the wrong elements (the test hook
 * spoils dst[0] first). */
static long check(struct pp *c, const struct geom *g)
{
    if (c->form == CA_LOCK) {
        MPI_Barrier(MPI_COMM_WORLD);   /* every leg done */
        MPI_Win_sync(c->win);
    }
    if (c->partner < 0)
        return 0;
    if (c->r->corrupt)
        c->dst[0] = -c->dst[0];
    long bad = 0;
    for (long j = 0; j < g->nextent; j++) {
        int in_block = j % g->stride < g->blksize;
        bad += c->dst[j] != (in_block ? value(c->partner, j) : SENTINEL);
    }
    return bad;
}

/* BENCH_EXPECT: what one measurement ran on this process. A process with
 * a partner is active in one leg of each repetition and passive in the
 * other; a leg moves ndata doubles in g->calls calls. open_measurement
 * and check: a fence (fence form) or a barrier, the lock form's check one
 * more; every process calls the fence of every leg. */
static void tally(const struct pp *c, const struct geom *g, long reps)
{
    long calls = reps * g->calls;
    long long bytes = (long long)reps * g->ndata * (long long)sizeof(double);
    if (c->partner >= 0) {
        const char *fn = c->form == CA_P2P ? "MPI_Send" : c->get ? "MPI_Get" : "MPI_Put";
        bench_expect_add(fn, calls, c->get ? 0 : bytes, c->get ? bytes : 0);
        if (c->form == CA_P2P)
            bench_expect_add("MPI_Recv", calls, 0, bytes);
        if (c->form == CA_LOCK)
            ca_notify_tally(reps);
    }
    if (c->form == CA_FENCE)
        bench_expect_add("MPI_Win_fence", 1 + 2 * reps, 0, 0);
    else
        bench_expect_add("MPI_Barrier", c->form == CA_LOCK ? 2 : 1, 0, 0);
}

static void measure(struct pp *c, enum pattern p, long ndata)
{
    const struct ca_opts *o = c->r->o;
    struct geom g;
    geom_make(&g, p, ndata, o);
    long reps = ca_reps(o, ndata * (long)sizeof(double));
    open_measurement(c, &g);
    double t0 = MPI_Wtime();
    for (long i = 0; i < reps; i++) {
        leg(c, &g, c->partner >= 0 && c->first);
        leg(c, &g, c->partner >= 0 && !c->first);
    }
    double t = ca_max(MPI_Wtime() - t0), us = t / (2.0 * (double)reps) * 1e6;
    long bad = check(c, &g);
    tally(c, &g, reps);
    long errors = (long)ca_sum((double)bad);
    if (errors)
        c->r->failed = 1;
    if (c->r->rank == 0)
        printf("pingpong %-8s %-4s %-5s %-11s %7ld %7ld %7ld %8ld %8ld %7ld %12.3f %12.4f %6ld\n",
               ca_pairs_names[c->pairs], c->form == CA_P2P ? "send" : c->get ? "get" : "put",
               ca_form_names[c->form], pattern_names[p], g.count, g.blksize, g.stride, g.ndata, g.nextent, reps, us,
               us > 0 ? (double)ndata * sizeof(double) / us : 0, errors);
    geom_free(&g);
}

/* This process's partner (-1: idle) and whether it moves data first. */
static void pair_up(struct pp *c)
{
    int rank = c->r->rank, size = c->r->size, half = size / 2;
    if (c->pairs == CA_SINGLE) {
        c->partner = rank == 0 ? size - 1 : rank == size - 1 ? 0 : -1;
        c->first = rank == 0;
        return;
    }
    int lower = rank < half, pair = lower ? rank : rank - half;
    c->partner = lower ? rank + half : rank - half;
    c->first = c->pairs == CA_CROSSING && pair % 2 ? !lower : lower;
}

/* Every pattern at every size: contig from 1 double, the others from
 * one block, doubling up to -n. */
static void sweep(struct pp *c)
{
    const struct ca_opts *o = c->r->o;
    for (int p = 0; p < NPATTERNS; p++)
        for (long n = p == CONTIG ? 1 : o->blksize; n <= o->ndata_max; n *= 2)
            measure(c, (enum pattern)p, n);
}

/* src and dst for one form (a window for the one-sided ones), then the
 * sweeps: send for p2p, put and get for fence and lock. */
static void run_form(struct pp *c)
{
    size_t bytes = 2 * (size_t)c->ext * sizeof(double);
    double *base;
    if (c->form == CA_P2P)
        base = ca_alloc(bytes);
    else
        ca_win_allocate(bytes, sizeof(double), &base, &c->win);
    c->src = base;
    c->dst = base + c->ext;
    for (long j = 0; j < c->ext; j++)
        c->src[j] = value(c->r->rank, j);
    if (c->form == CA_LOCK) {
        MPI_Barrier(MPI_COMM_WORLD);   /* src written everywhere before anyone reads it */
        bench_expect_add("MPI_Barrier", 1, 0, 0);
        MPI_Win_lock_all(0, c->win);
    }
    for (c->get = 0; c->get <= (c->form != CA_P2P); c->get++)
        sweep(c);
    if (c->form == CA_LOCK)
        MPI_Win_unlock_all(c->win);
    if (c->form == CA_P2P)
        free(base);
    else
        MPI_Win_free(&c->win);
}

void ca_pingpong(struct ca_run *r)
{
    const struct ca_opts *o = r->o;
    struct ca_notify nt;
    struct pp c = { .r = r, .nt = &nt };
    c.ext = ca_extent(o);
    if (o->forms & 1u << CA_LOCK)
        ca_notify_create(&nt);
    for (c.pairs = 0; c.pairs < 3; c.pairs++) {
        if (!(o->pairs & 1u << c.pairs))
            continue;
        pair_up(&c);
        if (r->rank == 0)
            printf("# pingpong %s: %s; time_us per leg, mb_s = 8 ndata / time_us\n"
                   "# section pairs op form pattern count blksize stride ndata nextent reps time_us mb_s errors\n",
                   ca_pairs_names[c.pairs], c.pairs == CA_SINGLE ? "ranks 0 and P-1" :
                   c.pairs == CA_MULTIPLE ? "rank i with i + P/2" : "rank i with i + P/2, odd pairs reversed");
        for (c.form = 0; c.form < CA_NFORMS; c.form++)
            if (o->forms & 1u << c.form)
                run_form(&c);
    }
    if (o->forms & 1u << CA_LOCK)
        ca_notify_free(&nt);
}
