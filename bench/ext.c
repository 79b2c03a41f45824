/* ext.c: mpiprof-ext, the IMB-EXT suite (Intel MPI Benchmarks 3.0 guide,
 * sections 4.2.2.2, 4.2.3, 5.2.3.1, 5.2.8.2) on the harness of
 * mpiprof-mpi1: one-sided Unidir_Put, Unidir_Get, Bidir_Put, Bidir_Get
 * (2 active processes), Accumulate (MPI_FLOAT, MPI_SUM into rank 0) and
 * Window (MPI_Win_create, MPI_Win_fence, a put of one byte to itself,
 * MPI_Win_fence, MPI_Win_free), with their Multi- versions.
 *
 * Every benchmark but Window runs in two modes, each a table: AGGREGATE
 * (M = n_sample transfers, then one MPI_Win_fence; MSGSPERSAMPLE 1000) and
 * NON-AGGREGATE (each transfer followed by MPI_Win_fence; MSGS_NONAGGR
 * 100); Window has one table (MSGS_NONAGGR). Transfer i of a sample goes
 * to the disjoint section [i x, (i + 1) x) of the target's window and
 * comes from the same section of the origin's buffer; Get results go to
 * that section of the origin's result buffer.
 *
 * MPI calls per process besides the patterns (so that a profile of a run
 * can be checked exactly; idle processes run only the harness's calls):
 *   start: MPI_Comm_dup, 1 or 2 MPI_Bcast (the command line);
 *   per benchmark, process count and mode: MPI_Comm_split, MPI_Comm_free
 *     (active), MPI_Gather + MPI_Scatter (buffers allocated); the table's
 *     window (Window too; active): 2 MPI_Comm_set_errhandler around
 *     MPI_Win_create over the window buffer, MPI_Gather + MPI_Scatter (it
 *     was made everywhere), MPI_Win_fence (the epoch of 5.2.3.1), at the
 *     end MPI_Win_free;
 *   per message length: 2 MPI_Barrier (active), MPI_Gather (the times);
 *     with -time, 2 more MPI_Barrier and one more sample (n = 1); with
 *     -check, before the sample, MPI_Win_fence (after the window's memory
 *     is set again; not timed);
 *   samples: one warm-up sample of n = N_WARMUP transfers at the largest
 *     length, then one sample of n = #repetitions per length; a sample in
 *     AGGREGATE mode is MPI_Win_fence, 2 MPI_Barrier, n transfers (by the
 *     active origins), MPI_Win_fence; in NON-AGGREGATE mode 2 MPI_Barrier,
 *     then n times a transfer and MPI_Win_fence (the barriers of the
 *     warm-up too);
 *   end: MPI_Comm_free (the duplicate). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "expect.h"
#include "harness.h"

#define PROG "mpiprof-ext"
#define MAX_NPROCS_STEPS 40
#define MSGSPERSAMPLE 1000
#define MSGS_NONAGGR 100
#define OVERALL_VOL (40L * 1048576)

enum ext_op { PUT, GET, ACC, WINDOW };
enum ext_who { ORIGIN0, ORIGIN1, BOTH, ALL };   /* who transfers: rank 0 (to 1), rank 1 (from 0), both, all (to 0) */

struct ext_bench {
    const char *name;
    enum ext_op op;
    enum ext_who who;
    int single;     /* 2 active processes (single transfer) */
    int n_msg;      /* throughput factor (0: none) */
    int unit;       /* element bytes: 4 for MPI_FLOAT (lengths 0 < x < 4 left out) */
    const struct bench_expect_calls *calls;   /* one transfer, for BENCH_EXPECT */
};

/* BENCH_EXPECT (expect.h): the transfers and every window call, none of
 * which the harness makes: sample() and window_sample() tally theirs
 * before their timed part, run_table the table's window. A transfer moves
 * x rounded down to whole elements (Accumulate's count is x / 4 floats). */
static const char *const claimed[] = { "MPI_Put", "MPI_Get", "MPI_Accumulate", "MPI_Win_fence",
                                       "MPI_Win_create", "MPI_Win_free", NULL };
static const struct bench_expect_calls put_calls[] = { { "MPI_Put", 1, 1, 0 }, { NULL, 0, 0, 0 } };
static const struct bench_expect_calls get_calls[] = { { "MPI_Get", 1, 0, 1 }, { NULL, 0, 0, 0 } };
static const struct bench_expect_calls acc_calls[] = { { "MPI_Accumulate", 1, 1, 0 }, { NULL, 0, 0, 0 } };
static const struct bench_expect_calls fence_calls[] = { { "MPI_Win_fence", 1, 0, 0 }, { NULL, 0, 0, 0 } };
/* one Window repetition but its put (x > 0 only, of 1 byte) */
static const struct bench_expect_calls window_calls[] = {
    { "MPI_Win_create", 1, 0, 0 }, { "MPI_Win_fence", 2, 0, 0 }, { "MPI_Win_free", 1, 0, 0 }, { NULL, 0, 0, 0 } };

static const struct ext_bench benches[] = {
    /* name         op      who      single n_msg unit calls */
    { "Unidir_Put", PUT,    ORIGIN0, 1,     1,    1,   put_calls },
    { "Unidir_Get", GET,    ORIGIN1, 1,     1,    1,   get_calls },
    { "Bidir_Put",  PUT,    BOTH,    1,     1,    1,   put_calls },
    { "Bidir_Get",  GET,    BOTH,    1,     1,    1,   get_calls },
    { "Accumulate", ACC,    ALL,     0,     0,    4,   acc_calls },
    { "Window",     WINDOW, ALL,     0,     0,    1,   window_calls },
};
#define N_BENCHES (sizeof benches / sizeof benches[0])

static const char *names[N_BENCHES + 1];

static const struct bench_suite suite = {
    .prog = PROG,
    .title = "MPI-2 part (one-sided, IMB-EXT)",
    .names = names,
    .msgspersample = MSGSPERSAMPLE,
    .msgs_nonaggr = MSGS_NONAGGR,
    .overall_vol = OVERALL_VOL,
    .minmsglog = 0,
    .maxmsglog = 22,
    .header = bench_byte_float_header,
};

/* One table: a benchmark, its mode and its group's buffers and window. */
struct ext_ctx {
    const struct bench_run *run;
    const struct ext_bench *b;
    MPI_Comm comm;
    int rank, size;
    int aggregate;
    char *sbuf;         /* the origin's data: this rank's pattern */
    char *wbuf;         /* the window's memory */
    char *rbuf;         /* Get results */
    size_t bytes;       /* of each buffer */
    MPI_Win win;
    struct bench_reps_times rt;   /* -percentiles: each non-aggregate transfer's time */
};

/* Whether this rank issues transfers, and to whom. */
static int origin(const struct ext_ctx *c, int *target)
{
    switch (c->b->who) {
    case ORIGIN0: *target = 1; return c->rank == 0;
    case ORIGIN1: *target = 0; return c->rank == 1;
    case BOTH: *target = 1 - c->rank; return 1;
    default: *target = 0; return 1;
    }
}

/* Transfer i of x bytes to or from target. */
static void transfer(struct ext_ctx *c, int target, long x, long i)
{
    MPI_Aint at = (MPI_Aint)(i * x);
    switch (c->b->op) {
    case PUT:
        MPI_Put(c->sbuf + at, (int)x, MPI_BYTE, target, at, (int)x, MPI_BYTE, c->win);
        break;
    case GET:
        MPI_Get(c->rbuf + at, (int)x, MPI_BYTE, target, at, (int)x, MPI_BYTE, c->win);
        break;
    default:
        MPI_Accumulate(c->sbuf + at, (int)(x / 4), MPI_FLOAT, target, at, (int)(x / 4), MPI_FLOAT, MPI_SUM, c->win);
    }
}

/* -check, before a sample: the window's memory holds this rank's pattern
 * (zeros for Accumulate), Get results are cleared; then a fence. */
static void check_prepare(struct ext_ctx *c, long x, long n)
{
    size_t len = (size_t)(x * n);
    if (c->b->op == ACC)
        memset(c->wbuf, 0, len);
    else
        bench_buf_fill(c->wbuf, len, c->rank);
    memset(c->rbuf, 0, len);
    MPI_Win_fence(0, c->win);
}

/* -check, after a sample: the bytes that differ from what the transfers
 * should have left, as defects. */
static long check_result(struct ext_ctx *c, long x, long n)
{
    int target, from = 1 - c->rank, sends = origin(c, &target);
    long bad = 0;
    for (long i = 0; i < n; i++) {
        size_t at = (size_t)(i * x);
        if (c->b->op == GET && sends)
            bad += bench_buf_check(c->run, c->rbuf + at, (size_t)x, target, at);
        else if (c->b->op == PUT && (c->b->who == BOTH || c->rank == 1))
            bad += bench_buf_check(c->run, c->wbuf + at, (size_t)x, from, at);
        else if (c->b->op == ACC && c->rank == 0)
            bad += bench_sum_check(c->run, (float *)(c->wbuf + at), x / 4, c->size, (long)at / 4);
    }
    return bad;
}

/* One sample of n transfers of x bytes (5.2.8.2); its time per transfer in
 * *t (seconds). Returns the defects with -check. */
static long sample(struct ext_ctx *c, long x, long n, int check, double *t)
{
    int target, sends = origin(c, &target);
    bench_expect_run(fence_calls, 0, check + (c->aggregate ? 2 : n));
    if (sends)
        bench_expect_run(c->b->calls, x / c->b->unit * c->b->unit, n);
    if (check)
        check_prepare(c, x, n);
    if (c->aggregate)
        MPI_Win_fence(0, c->win);
    for (int i = 0; i < BENCH_N_BARR; i++)
        MPI_Barrier(c->comm);
    double t0 = MPI_Wtime();
    if (c->aggregate) {
        for (long i = 0; sends && i < n; i++)
            transfer(c, target, x, i);
        MPI_Win_fence(0, c->win);
    } else {
        for (long i = 0; i < n; i++) {
            double ti = bench_rep_start(&c->rt);
            if (sends)
                transfer(c, target, x, i);
            MPI_Win_fence(0, c->win);
            bench_rep_done(&c->rt, ti);
        }
    }
    *t = (MPI_Wtime() - t0) / (double)n;
    return check ? check_result(c, x, n) : 0;
}

/* Window (4.2.3.6): n times a window of x bytes created, fenced, given a
 * one-byte put from its own process when x > 0, fenced and freed. */
static long window_sample(struct ext_ctx *c, long x, long n, int check, double *t)
{
    (void)check;
    bench_expect_run(c->b->calls, 0, n);
    if (x > 0)
        bench_expect_run(put_calls, 1, n);
    for (int i = 0; i < BENCH_N_BARR; i++)
        MPI_Barrier(c->comm);
    double t0 = MPI_Wtime();
    for (long i = 0; i < n; i++) {
        MPI_Win win;
        double ti = bench_rep_start(&c->rt);
        MPI_Win_create(c->wbuf, (MPI_Aint)x, 1, MPI_INFO_NULL, c->comm, &win);
        MPI_Win_fence(0, win);
        if (x > 0)
            MPI_Put(c->sbuf, 1, MPI_BYTE, c->rank, 0, 1, MPI_BYTE, win);
        MPI_Win_fence(0, win);
        MPI_Win_free(&win);
        bench_rep_done(&c->rt, ti);
    }
    *t = (MPI_Wtime() - t0) / (double)n;
    return 0;
}

static long run_sample(struct ext_ctx *c, long x, long n, int check, double *t)
{
    return c->b->op == WINDOW ? window_sample(c, x, n, check, t) : sample(c, x, n, check, t);
}

/* The -time probe: one transfer. */
struct probe {
    struct ext_ctx *c;
    long x;
};

static void probe_run(void *arg)
{
    struct probe *p = arg;
    double t;
    run_sample(p->c, p->x, 1, 0, &t);
}

static long reps_of(const struct bench_run *r, const struct ext_ctx *c, long x)
{
    return bench_reps_of(r, x, c->aggregate ? MSGSPERSAMPLE : MSGS_NONAGGR);
}

/* runnable: the lengths of lens whose buffers fit an int count and -mem
 * (three buffers of #repetitions x bytes), in place; the rest noted.
 * *bytes gets the largest buffer needed. */
static int runnable(const struct bench_run *r, const struct ext_ctx *c, long *lens, int n, size_t *bytes)
{
    double cap = r->opt.mem_gib > 0 ? r->opt.mem_gib * 1073741824.0 : -1;
    int kept = 0;
    *bytes = 1;
    for (int i = 0; i < n; i++) {
        long x = lens[i], reps = reps_of(r, c, x);
        uint64_t need = (uint64_t)x * (uint64_t)(reps > BENCH_N_WARMUP ? reps : BENCH_N_WARMUP);
        if (x > INT32_MAX)
            bench_print_note(r, "%ld bytes: not run, a count would exceed 2^31-1 bytes", x);
        else if (cap >= 0 && 3.0 * (double)need > cap)
            bench_print_note(r, "%ld bytes: not run, needs %.0f bytes of buffers per process, more than -mem %g GiB",
                             x, 3.0 * (double)need, r->opt.mem_gib);
        else {
            lens[kept++] = x;
            if (need > *bytes)
                *bytes = (size_t)need;
        }
    }
    return kept;
}

static int alloc_ctx(struct ext_ctx *c)
{
    c->sbuf = malloc(c->bytes);
    c->wbuf = malloc(c->bytes);
    c->rbuf = malloc(c->bytes);
    if (!c->sbuf || !c->wbuf || !c->rbuf)
        return 0;
    /* every page touched now: none is first written inside a timed sample */
    bench_buf_fill(c->sbuf, c->bytes, c->rank);
    bench_buf_fill(c->wbuf, c->bytes, c->rank);
    memset(c->rbuf, 0, c->bytes);
    return 1;
}

static void free_ctx(struct ext_ctx *c)
{
    free(c->sbuf);
    free(c->wbuf);
    free(c->rbuf);
}

/* make_window: the table's window over the window buffer (5.2.3.1); 0 when
 * MPI_Win_create fails (the error returned, not fatal, on MY_COMM). */
static int make_window(struct ext_ctx *c)
{
    bench_expect_add("MPI_Win_create", 1, 0, 0);
    MPI_Comm_set_errhandler(c->comm, MPI_ERRORS_RETURN);
    int rc = MPI_Win_create(c->wbuf, (MPI_Aint)c->bytes, 1, MPI_INFO_NULL, c->comm, &c->win);
    MPI_Comm_set_errhandler(c->comm, MPI_ERRORS_ARE_FATAL);
    if (rc != MPI_SUCCESS)
        c->win = MPI_WIN_NULL;
    return rc == MPI_SUCCESS;
}

/* run_table: benchmark b in one mode on groups of q processes. */
static void run_table(struct bench_run *r, const struct ext_bench *b, int q, int aggregate, long *lens, int n,
                      struct bench_stat *rows)
{
    struct bench_group g;
    struct ext_ctx c = { .run = r, .b = b, .aggregate = aggregate, .win = MPI_WIN_NULL };
    struct bench_layout l = { .n_msg = b->n_msg, .no_defects = b->op == WINDOW };
    long xmax = 0;

    bench_group_create(r, q, r->opt.multi >= 0, &g);
    l.t_single = b->single && g.n_groups == 1;
    bench_print_title(r, &g, b->name);
    if (b->op != WINDOW)
        bench_print_mode(r, aggregate ? "AGGREGATE" : "NON-AGGREGATE");
    n = runnable(r, &c, lens, n, &c.bytes);
    for (int i = 0; i < n; i++)
        xmax = lens[i] > xmax ? lens[i] : xmax;
    c.comm = g.comm;
    c.rank = g.rank;
    c.size = q;
    int ok = g.comm == MPI_COMM_NULL || alloc_ctx(&c);
    if (!bench_world_min(r, ok)) {
        bench_print_note(r, "not run: cannot allocate the buffers of %zu bytes on some process", c.bytes);
        n = 0;
    }
    if (n > 0 && !bench_world_min(r, g.comm == MPI_COMM_NULL || make_window(&c))) {
        bench_print_note(r, "not run: MPI_Win_create failed on some process (Open MPI 4.1 cannot make a window "
                            "of one process with its default osc component: run with --mca osc ^rdma)");
        n = 0;
    }
    if (n > 0)
        bench_print_columns(r, &l);
    if (n > 0 && g.comm != MPI_COMM_NULL) {
        double t;
        bench_expect_run(fence_calls, 0, 1);
        MPI_Win_fence(0, c.win);
        run_sample(&c, xmax, BENCH_N_WARMUP, 0, &t);
    }
    for (int i = 0; i < n; i++) {
        long x = lens[i], reps = reps_of(r, &c, x), bad = 0;
        double t = 0;
        struct probe p = { &c, x };
        reps = bench_time_cap(r, &g, reps, probe_run, &p);
        double tail[2];
        bench_reps_begin(r, &c.rt, reps);
        if (g.comm != MPI_COMM_NULL)
            bad = run_sample(&c, x, reps, r->opt.check, &t);
        bench_tail(&c.rt, tail);
        struct bench_mine m = { t * 1e6, (double)bad, { tail[0], tail[1] }, 0, 0 };
        int nrows = bench_stats(r, &g, &m, rows, r->wsize);
        for (int k = 0; k < nrows; k++)
            bench_print_row(r, &l, x, reps, &rows[k]);
    }
    if (c.win != MPI_WIN_NULL) {
        bench_expect_add("MPI_Win_free", 1, 0, 0);
        MPI_Win_free(&c.win);
    }
    if (g.comm != MPI_COMM_NULL)
        free_ctx(&c);
    bench_group_free(&g);
}

/* run_bench: benchmark which at every process count (2 for single
 * transfer), each mode. */
static void run_bench(struct bench_run *r, int which, long *lens, struct bench_stat *rows)
{
    const struct ext_bench *b = &benches[which];
    int qs[MAX_NPROCS_STEPS], nq = bench_counts(r, b->single, b->name, qs);
    for (int k = 0; k < nq; k++)
        for (int aggregate = b->op != WINDOW; aggregate >= 0; aggregate--)
            run_table(r, b, qs[k], aggregate, lens, bench_lengths(&r->opt, b->unit, lens), rows);
}

int main(int argc, char **argv)
{
    for (size_t i = 0; i < N_BENCHES; i++)
        names[i] = benches[i].name;
    bench_expect_claim(claimed);
    return bench_main(&suite, argc, argv, run_bench);
}
