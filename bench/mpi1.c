/* mpi1.c: mpiprof-mpi1, the IMB-MPI1 suite (Intel MPI Benchmarks 3.0 guide,
 * sections 3, 5, 6, 7) as a program whose tables compare with IMB-MPI1's:
 * the list of the 13 benchmarks, and for each selected one, each process
 * count and each message length: warm-up, barriers, the timed loop, the
 * reduction of the times and one table row.
 *
 * MPI calls per process besides the patterns (so that a profile of a run
 * can be checked exactly; idle processes run only these):
 *   start: MPI_Comm_dup, 1 or 2 MPI_Bcast (the command line);
 *   per benchmark and process count: MPI_Comm_split, MPI_Comm_free (active),
 *     MPI_Gather + MPI_Scatter (agreeing that the buffers were allocated);
 *   per message length: 2 MPI_Barrier on MY_COMM (active), MPI_Gather (the
 *     times); with -time also 2 MPI_Barrier (active), one more pattern
 *     execution (active), MPI_Gather + MPI_Scatter;
 *   pattern executions: 2 warm-up at the largest length, then the
 *     repetitions of each length;
 *   end: MPI_Comm_free (the duplicate). */
#include <stdint.h>
#include <stdlib.h>
#include "expect.h"
#include "mpi1.h"

#define PROG "mpiprof-mpi1"
#define MAX_NPROCS_STEPS 40
#define OVERALL_VOL (40L * 1048576)    /* the guide's samples: 40 MiB (not 4) */

enum mpi1_class { SINGLE, PARALLEL, COLLECTIVE };

/* One benchmark: its class, element size (4: MPI_FLOAT reductions; lengths
 * 0 < x < 4 are left out), throughput factor n_msg (0: no throughput), time
 * divisor (PingPong reports half the round trip), and buffer sizes in units
 * of x: send x (s1 + sq Q), receive x (r1 + rq Q) for Q processes;
 * what one execution calls on an active process, for BENCH_EXPECT. */
struct mpi1_bench {
    const char *name;
    enum mpi1_class cls;
    long unit;
    int n_msg, time_div, no_bytes;
    int s1, sq, r1, rq;
    mpi1_kernel *kernel;
    const struct bench_expect_calls *calls;
};

/* BENCH_EXPECT (expect.h): the point-to-point patterns and Allreduce, whose
 * functions nothing else in the program calls. The other collectives claim
 * nothing: the harness calls theirs too (MPI_Bcast, MPI_Gather,
 * MPI_Scatter, MPI_Barrier), or their bytes follow the rotating root. */
static const char *const claimed[] = { "MPI_Send", "MPI_Recv", "MPI_Isend", "MPI_Wait", "MPI_Waitall",
                                       "MPI_Sendrecv", "MPI_Allreduce", NULL };
static const struct bench_expect_calls pingpong_calls[] = {
    { "MPI_Send", 1, 1, 0 }, { "MPI_Recv", 1, 0, 1 }, { NULL, 0, 0, 0 } };
static const struct bench_expect_calls pingping_calls[] = {
    { "MPI_Isend", 1, 1, 0 }, { "MPI_Recv", 1, 0, 1 }, { "MPI_Wait", 1, 0, 0 }, { NULL, 0, 0, 0 } };
static const struct bench_expect_calls sendrecv_calls[] = { { "MPI_Sendrecv", 1, 1, 1 }, { NULL, 0, 0, 0 } };
static const struct bench_expect_calls exchange_calls[] = {
    { "MPI_Isend", 2, 2, 0 }, { "MPI_Recv", 2, 0, 2 }, { "MPI_Waitall", 1, 0, 0 }, { NULL, 0, 0, 0 } };
static const struct bench_expect_calls allreduce_calls[] = { { "MPI_Allreduce", 1, 1, 1 }, { NULL, 0, 0, 0 } };

static const struct mpi1_bench benches[] = {
    /* name             class       unit n_msg div no_bytes s1 sq r1 rq kernel  calls */
    { "PingPong",        SINGLE,     1, 1, 2, 0, 1, 0, 1, 0, mpi1_pingpong, pingpong_calls },
    { "PingPing",        SINGLE,     1, 1, 1, 0, 1, 0, 1, 0, mpi1_pingping, pingping_calls },
    { "Sendrecv",        PARALLEL,   1, 2, 1, 0, 1, 0, 1, 0, mpi1_sendrecv, sendrecv_calls },
    { "Exchange",        PARALLEL,   1, 4, 1, 0, 1, 0, 2, 0, mpi1_exchange, exchange_calls },
    { "Bcast",           COLLECTIVE, 1, 0, 1, 0, 1, 0, 1, 0, mpi1_bcast, NULL },
    { "Allgather",       COLLECTIVE, 1, 0, 1, 0, 1, 0, 0, 1, mpi1_allgather, NULL },
    { "Allgatherv",      COLLECTIVE, 1, 0, 1, 0, 1, 0, 0, 1, mpi1_allgatherv, NULL },
    { "Alltoall",        COLLECTIVE, 1, 0, 1, 0, 0, 1, 0, 1, mpi1_alltoall, NULL },
    { "Alltoallv",       COLLECTIVE, 1, 0, 1, 0, 0, 1, 0, 1, mpi1_alltoallv, NULL },
    { "Reduce",          COLLECTIVE, 4, 0, 1, 0, 1, 0, 1, 0, mpi1_reduce, NULL },
    { "Reduce_scatter",  COLLECTIVE, 4, 0, 1, 0, 1, 0, 1, 0, mpi1_reduce_scatter, NULL },
    { "Allreduce",       COLLECTIVE, 4, 0, 1, 0, 1, 0, 1, 0, mpi1_allreduce, allreduce_calls },
    { "Barrier",         COLLECTIVE, 1, 0, 1, 1, 0, 0, 0, 0, mpi1_barrier, NULL },
};
#define N_BENCHES (sizeof benches / sizeof benches[0])

static const char *names[N_BENCHES + 1];   /* filled from benches[] in main */

static const struct bench_suite suite = {
    .prog = PROG,
    .title = "MPI-1 part",
    .names = names,
    .msgspersample = 1000,
    .overall_vol = OVERALL_VOL,
    .minmsglog = 0,
    .maxmsglog = 22,
    .header = bench_byte_float_header,
};

/* need: the buffer bytes of length x on q processes; 0 when a count or a
 * displacement would not fit an int. */
static int need(const struct mpi1_bench *b, long x, int q, size_t *s, size_t *r)
{
    uint64_t sb = (uint64_t)x * (uint64_t)(b->s1 + b->sq * q);
    uint64_t rb = (uint64_t)x * (uint64_t)(b->r1 + b->rq * q);
    *s = (size_t)sb;
    *r = (size_t)rb;
    return sb <= INT32_MAX && rb <= INT32_MAX;
}

/* runnable: the lengths of lens that fit -mem and int counts, in place;
 * rank 0 notes each one left out. Returns how many remain. */
static int runnable(const struct bench_run *r, const struct mpi1_bench *b, int q, long *lens, int n)
{
    double cap = r->opt.mem_gib > 0 ? r->opt.mem_gib * 1073741824.0 : -1;
    int kept = 0;
    for (int i = 0; i < n; i++) {
        size_t s, rb;
        if (!need(b, lens[i], q, &s, &rb))
            bench_print_note(r, "%ld bytes: not run, a count would exceed 2^31-1 bytes", lens[i]);
        else if (cap >= 0 && (double)(s + rb) > cap)
            bench_print_note(r, "%ld bytes: not run, needs %zu bytes of buffers per process, more than -mem %g GiB",
                             lens[i], s + rb, r->opt.mem_gib);
        else
            lens[kept++] = lens[i];
    }
    return kept;
}

/* The -time probe: one execution of the pattern. */
struct probe {
    const struct mpi1_bench *b;
    struct mpi1_ctx *c;
    long x;
};

static void probe_run(void *arg)
{
    struct probe *p = arg;
    bench_expect_run(p->b->calls, p->x, 1);
    p->b->kernel(p->c, p->x, 1);
}

/* alloc_ctx: MY_COMM's buffers for the largest length; 0 when out of memory. */
static int alloc_ctx(struct mpi1_ctx *c, const struct mpi1_bench *b, long xmax)
{
    size_t s, r;
    need(b, xmax, c->size, &s, &r);
    c->sbuf = malloc(s ? s : 1);
    c->rbuf = malloc(r ? r : 1);
    c->counts = malloc((size_t)c->size * sizeof *c->counts);
    c->displs = malloc((size_t)c->size * sizeof *c->displs);
    if (!c->sbuf || !c->rbuf || !c->counts || !c->displs)
        return 0;
    bench_buf_fill(c->sbuf, s, c->rank);
    return 1;
}

static void free_ctx(struct mpi1_ctx *c)
{
    free(c->sbuf);
    free(c->rbuf);
    free(c->counts);
    free(c->displs);
}

/* run_table: benchmark b on groups of q processes: one table. */
static void run_table(struct bench_run *r, const struct mpi1_bench *b, int q, long *lens, int n,
                      struct bench_stat *rows)
{
    struct bench_group g;
    struct mpi1_ctx c = { .run = r, .check = r->opt.check };
    struct bench_layout l = { .n_msg = b->n_msg, .no_bytes = b->no_bytes };
    long xmax = 0;

    bench_group_create(r, q, r->opt.multi >= 0, &g);
    l.t_single = b->cls == SINGLE && g.n_groups == 1;
    bench_print_title(r, &g, b->name);
    n = runnable(r, b, q, lens, n);
    for (int i = 0; i < n; i++)
        xmax = lens[i] > xmax ? lens[i] : xmax;
    c.comm = g.comm;
    c.rank = g.rank;
    c.size = q;
    int ok = g.comm == MPI_COMM_NULL || alloc_ctx(&c, b, xmax);
    if (!bench_world_min(r, ok)) {
        bench_print_note(r, "not run: cannot allocate the buffers of %ld bytes on some process", xmax);
        n = 0;
    }
    if (n > 0)
        bench_print_columns(r, &l);
    if (n > 0 && g.comm != MPI_COMM_NULL) {
        bench_expect_run(b->calls, xmax, BENCH_N_WARMUP);
        b->kernel(&c, xmax, BENCH_N_WARMUP);
    }
    for (int i = 0; i < n; i++) {
        long x = lens[i], reps = bench_reps(r, x), bad = 0;
        double t_us = 0;
        struct probe p = { b, &c, x };
        reps = bench_time_cap(r, &g, reps, probe_run, &p);
        double tail[2] = { -1, -1 };
        struct bench_reps_times rt;
        bench_barriers(&g);
        if (g.comm != MPI_COMM_NULL)
            bench_expect_run(b->calls, x, reps);
        if (g.comm != MPI_COMM_NULL && r->opt.percentiles) {
            /* each execution timed alone; the PingPong divisor applies to each */
            bench_reps_begin(r, &rt, reps);
            double t0 = MPI_Wtime();
            for (c.i0 = 0; c.i0 < reps; c.i0++) {
                double ti = bench_rep_start(&rt);
                bad += b->kernel(&c, x, 1);
                bench_rep_done(&rt, ti);
            }
            c.i0 = 0;
            t_us = (MPI_Wtime() - t0) / (double)reps / b->time_div * 1e6;
            for (long k = 0; k < rt.n; k++)
                rt.t[k] /= b->time_div;
            bench_tail(&rt, tail);
        } else if (g.comm != MPI_COMM_NULL) {
            double t0 = MPI_Wtime();
            bad = b->kernel(&c, x, reps);
            t_us = (MPI_Wtime() - t0) / (double)reps / b->time_div * 1e6;
        }
        struct bench_mine m = { t_us, (double)bad, { tail[0], tail[1] }, 0, 0 };
        int nrows = bench_stats(r, &g, &m, rows, r->wsize);
        for (int k = 0; k < nrows; k++)
            bench_print_row(r, &l, x, reps, &rows[k]);
    }
    if (g.comm != MPI_COMM_NULL)
        free_ctx(&c);
    bench_group_free(&g);
}

/* run_bench: benchmark which at every process count: 2 for single transfer, else the
 * -npmin sequence. */
static void run_bench(struct bench_run *r, int which, long *lens, struct bench_stat *rows)
{
    const struct mpi1_bench *b = &benches[which];
    int qs[MAX_NPROCS_STEPS], nq = bench_counts(r, b->cls == SINGLE, b->name, qs);
    for (int k = 0; k < nq; k++) {
        int n;
        if (b->no_bytes) {
            lens[0] = 0;
            n = 1;
        } else {
            n = bench_lengths(&r->opt, b->unit, lens);
        }
        run_table(r, b, qs[k], lens, n, rows);
    }
}

int main(int argc, char **argv)
{
    for (size_t i = 0; i < N_BENCHES; i++)
        names[i] = benches[i].name;
    bench_expect_claim(claimed);
    return bench_main(&suite, argc, argv, run_bench);
}
