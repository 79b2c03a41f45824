/* mpiio.c: mpiprof-io, the IMB-IO suite (Intel MPI Benchmarks 3.0 guide,
 * sections 4.2.2.2, 4.2.4, 4.2.5, 5.2.3.2, 5.2.3.4, 5.2.8.2) on the
 * harness of mpiprof-mpi1: S_, P_ and C_ Write and Read with individual
 * file pointers (indv), explicit offsets (expl), the shared file pointer
 * (shared; C_: ordered) and private files (priv, P_ only), Open_Close,
 * and the nonblocking I- variants (start, CPU_Exploit, finish; t_ovrl,
 * t_pure, t_CPU, overlap), with their Multi- versions.
 *
 * An elementary action moves x bytes: S_ benchmarks run on one process
 * (its own file, MPI_COMM_SELF); P_ and C_ split x among the Q processes
 * in contiguous portions of 4-byte units (the first x/4 mod Q processes
 * one unit more, the last portion cut at x), action i of a sample putting
 * process j's portion at i x + start(j) of the common file (indv: through
 * a file view of one block at start(j) in every x bytes; shared: wherever
 * the pointer is; priv: at i portion(j) of the process's own file). Writes
 * run in two modes, each a table: AGGREGATE (n actions, then
 * MPI_File_sync; MSGSPERSAMPLE 50) and NON-AGGREGATE (each action followed
 * by MPI_File_sync; MSGS_NONAGGR 10); reads one table (50). OVERALL_VOL is
 * 16 MiB, lengths 0, 1, ..., 2^24.
 *
 * Files: DIR/mpiprof_io_out (-dir DIR, default .), "_g<group>" appended
 * with -multi, "_<rank>" for private files; each deleted before its table
 * (MPI_File_delete) and unlinked as soon as every process has it open, so
 * that no run leaves it behind, even one killed in the middle; until then,
 * an exit, signal (SIGINT, SIGTERM, SIGHUP, SIGABRT, SIGSEGV, SIGBUS) or
 * file error handler removes it. Open_Close's file goes with
 * MPI_MODE_DELETE_ON_CLOSE on its last close.
 *
 * MPI calls per process besides the harness's (mpiprof-mpi1(1)), per
 * table in which the process is active: MPI_File_delete (the file's first
 * process), MPI_Barrier on the file's communicator, MPI_File_open,
 * MPI_File_set_errhandler, MPI_Barrier (then unlink), MPI_Gather +
 * MPI_Scatter (opened everywhere), MPI_File_close; then the file is
 * filled as far as the table's largest sample reaches, so that no timed
 * write extends it (MPI_File_set_view, MPI_File_write_at in pieces of at
 * most 1 MiB, MPI_File_sync, MPI_Barrier, MPI_File_sync); per length
 * MPI_File_set_view (which also rewinds the file pointers), 2 MPI_Barrier
 * (MY_COMM), the n actions and, for writes, the MPI_File_sync calls of the
 * mode. With -check, writes are read back after each sample
 * (MPI_File_sync, MPI_Barrier, MPI_File_sync, MPI_File_set_view,
 * MPI_File_read_at; P_Write_shared: the first process reads the whole
 * sample). Open_Close: per sample MPI_File_open, MPI_File_write of one
 * byte, MPI_File_close (MPI_MODE_DELETE_ON_CLOSE on the last). */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "expect.h"
#include "files.h"
#include "harness.h"

#define PROG "mpiprof-io"
#define MAX_NPROCS_STEPS 40
#define MSGSPERSAMPLE 50
#define MSGS_NONAGGR 10
#define OVERALL_VOL (16L * 1048576)
#define FILL_CHUNK (1L << 20)
#define UNIT 4              /* portions are whole 4-byte units */

enum io_cls { SINGLE, PARALLEL, COLLECTIVE, OPENCLOSE };
enum io_pos { INDV, EXPL, SHARED, PRIV };

struct io_bench {
    const char *name;
    enum io_cls cls;
    int write;
    enum io_pos pos;
    int nb;         /* the nonblocking I- variant (4.2.5) */
};

static const struct io_bench benches[] = {
    { "S_Write_indv", SINGLE, 1, INDV, 0 },       { "S_Read_indv", SINGLE, 0, INDV, 0 },
    { "S_Write_expl", SINGLE, 1, EXPL, 0 },       { "S_Read_expl", SINGLE, 0, EXPL, 0 },
    { "P_Write_indv", PARALLEL, 1, INDV, 0 },     { "P_Read_indv", PARALLEL, 0, INDV, 0 },
    { "P_Write_expl", PARALLEL, 1, EXPL, 0 },     { "P_Read_expl", PARALLEL, 0, EXPL, 0 },
    { "P_Write_shared", PARALLEL, 1, SHARED, 0 }, { "P_Read_shared", PARALLEL, 0, SHARED, 0 },
    { "P_Write_priv", PARALLEL, 1, PRIV, 0 },     { "P_Read_priv", PARALLEL, 0, PRIV, 0 },
    { "C_Write_indv", COLLECTIVE, 1, INDV, 0 },   { "C_Read_indv", COLLECTIVE, 0, INDV, 0 },
    { "C_Write_expl", COLLECTIVE, 1, EXPL, 0 },   { "C_Read_expl", COLLECTIVE, 0, EXPL, 0 },
    { "C_Write_shared", COLLECTIVE, 1, SHARED, 0 }, { "C_Read_shared", COLLECTIVE, 0, SHARED, 0 },
    { "Open_Close", OPENCLOSE, 0, EXPL, 0 },
    { "S_IWrite_indv", SINGLE, 1, INDV, 1 },       { "S_IRead_indv", SINGLE, 0, INDV, 1 },
    { "S_IWrite_expl", SINGLE, 1, EXPL, 1 },       { "S_IRead_expl", SINGLE, 0, EXPL, 1 },
    { "P_IWrite_indv", PARALLEL, 1, INDV, 1 },     { "P_IRead_indv", PARALLEL, 0, INDV, 1 },
    { "P_IWrite_expl", PARALLEL, 1, EXPL, 1 },     { "P_IRead_expl", PARALLEL, 0, EXPL, 1 },
    { "P_IWrite_shared", PARALLEL, 1, SHARED, 1 }, { "P_IRead_shared", PARALLEL, 0, SHARED, 1 },
    { "P_IWrite_priv", PARALLEL, 1, PRIV, 1 },     { "P_IRead_priv", PARALLEL, 0, PRIV, 1 },
    { "C_IWrite_indv", COLLECTIVE, 1, INDV, 1 },   { "C_IRead_indv", COLLECTIVE, 0, INDV, 1 },
    { "C_IWrite_expl", COLLECTIVE, 1, EXPL, 1 },   { "C_IRead_expl", COLLECTIVE, 0, EXPL, 1 },
    { "C_IWrite_shared", COLLECTIVE, 1, SHARED, 1 }, { "C_IRead_shared", COLLECTIVE, 0, SHARED, 1 },
};
#define N_BENCHES (sizeof benches / sizeof benches[0])

/* BENCH_EXPECT (expect.h): the blocking accesses and MPI_File_sync, which
 * the harness never calls; each call of them tallies where it is made,
 * untimed (sample() before its clock starts, the -check reads, the fill of
 * the table's file, Open_Close's writes); the I- variants' t_pure samples
 * call them too. Their starts and finishes (19 functions more, with
 * MPI_Wait) are not claimed: beyond expect.c's limit, and too slow
 * (CPU_Exploit) for a quick check to cover. */
static const char *const claimed[] = {
    "MPI_File_write", "MPI_File_read", "MPI_File_write_at", "MPI_File_read_at", "MPI_File_write_shared",
    "MPI_File_read_shared", "MPI_File_write_all", "MPI_File_read_all", "MPI_File_write_at_all",
    "MPI_File_read_at_all", "MPI_File_write_ordered", "MPI_File_read_ordered", "MPI_File_sync", NULL };

/* The function of a blocking action (access_at): [write][pos][coll]. */
static const char *const access_fn[2][4][2] = {
    { [INDV] = { "MPI_File_read", "MPI_File_read_all" }, [EXPL] = { "MPI_File_read_at", "MPI_File_read_at_all" },
      [SHARED] = { "MPI_File_read_shared", "MPI_File_read_ordered" }, [PRIV] = { "MPI_File_read", NULL } },
    { [INDV] = { "MPI_File_write", "MPI_File_write_all" }, [EXPL] = { "MPI_File_write_at", "MPI_File_write_at_all" },
      [SHARED] = { "MPI_File_write_shared", "MPI_File_write_ordered" }, [PRIV] = { "MPI_File_write", NULL } },
};

/* expect_io: n calls of fn moving len bytes each, written or read. */
static void expect_io(const char *fn, int write, long n, long long len)
{
    bench_expect_add(fn, n, write ? n * len : 0, write ? 0 : n * len);
}

static const char *names[N_BENCHES + 1];

static const char *const header[] = {
    "MPI_Datatype                   : MPI_BYTE",
    "etype and filetype             : MPI_BYTE (indv: one block of each process in every x bytes)",
    NULL,
};

static const struct bench_suite suite = {
    .prog = PROG,
    .title = "MPI-IO part",
    .names = names,
    .msgspersample = MSGSPERSAMPLE,
    .msgs_nonaggr = MSGS_NONAGGR,
    .overall_vol = OVERALL_VOL,
    .minmsglog = 0,
    .maxmsglog = 24,
    .header = header,
    .npmin = 1,
    .has_dir = 1,
};

/* A failed open: one message per process. */
static void open_failed(const char *name, int rc)
{
    char why[MPI_MAX_ERROR_STRING];
    int len;
    MPI_Error_string(rc, why, &len);
    fprintf(stderr, PROG ": cannot open '%s': %s\n", name, why);
}

/* ---- one table ------------------------------------------------------------ */

struct io_ctx {
    const struct bench_run *run;
    const struct io_bench *b;
    MPI_Comm comm;          /* MY_COMM */
    MPI_Comm fcomm;         /* the file's: MPI_COMM_SELF for S_ and priv */
    int rank, size;         /* in MY_COMM */
    int aggregate;
    int coll;               /* collective calls (C_) */
    MPI_File fh;
    char *buf;              /* this process's portion: its pattern (writes) or what was read */
    size_t bytes;           /* of buf */
    char *scratch;          /* -check: a sample read back */
    long x, start, len;     /* this length: x, this process's portion */
    MPI_Datatype view;
    struct bench_reps_times rt;   /* -percentiles: each action's time (not aggregate writes) */
};

/* The portion of x for process j of q: [*start, *start + *len). */
static void portion(long x, int j, int q, long *start, long *len)
{
    long units = (x + UNIT - 1) / UNIT, base = units / q, extra = units % q;
    long first = j * base + (j < extra ? j : extra), n = base + (j < extra);
    *start = first * UNIT > x ? x : first * UNIT;
    long end = (first + n) * UNIT > x ? x : (first + n) * UNIT;
    *len = end - *start;
}

/* Where action i of this process starts in its file (bytes). */
static MPI_Offset offset_of(const struct io_ctx *c, long i)
{
    if (c->b->pos == PRIV || c->b->cls == SINGLE)
        return (MPI_Offset)i * c->len;
    return (MPI_Offset)i * c->x + c->start;
}

static void access_at(struct io_ctx *c, long i)
{
    MPI_Status st;
    void *p = c->buf;
    int n = (int)c->len;
    MPI_Offset at = offset_of(c, i);
    if (c->b->write) {
        switch (c->b->pos) {
        case EXPL: (c->coll ? MPI_File_write_at_all : MPI_File_write_at)(c->fh, at, p, n, MPI_BYTE, &st); break;
        case SHARED: (c->coll ? MPI_File_write_ordered : MPI_File_write_shared)(c->fh, p, n, MPI_BYTE, &st); break;
        default: (c->coll ? MPI_File_write_all : MPI_File_write)(c->fh, p, n, MPI_BYTE, &st);
        }
    } else {
        switch (c->b->pos) {
        case EXPL: (c->coll ? MPI_File_read_at_all : MPI_File_read_at)(c->fh, at, p, n, MPI_BYTE, &st); break;
        case SHARED: (c->coll ? MPI_File_read_ordered : MPI_File_read_shared)(c->fh, p, n, MPI_BYTE, &st); break;
        default: (c->coll ? MPI_File_read_all : MPI_File_read)(c->fh, p, n, MPI_BYTE, &st);
        }
    }
}

/* The nonblocking form of action i (4.2.5): started, and finished (an
 * MPI_Wait, or the _end half of a split collective). */
static void start_at(struct io_ctx *c, long i, MPI_Request *rq)
{
    void *p = c->buf;
    int n = (int)c->len;
    MPI_Offset at = offset_of(c, i);
    if (c->b->write && c->coll) {
        switch (c->b->pos) {
        case EXPL: MPI_File_write_at_all_begin(c->fh, at, p, n, MPI_BYTE); break;
        case SHARED: MPI_File_write_ordered_begin(c->fh, p, n, MPI_BYTE); break;
        default: MPI_File_write_all_begin(c->fh, p, n, MPI_BYTE);
        }
    } else if (c->b->write) {
        switch (c->b->pos) {
        case EXPL: MPI_File_iwrite_at(c->fh, at, p, n, MPI_BYTE, rq); break;
        case SHARED: MPI_File_iwrite_shared(c->fh, p, n, MPI_BYTE, rq); break;
        default: MPI_File_iwrite(c->fh, p, n, MPI_BYTE, rq);
        }
    } else if (c->coll) {
        switch (c->b->pos) {
        case EXPL: MPI_File_read_at_all_begin(c->fh, at, p, n, MPI_BYTE); break;
        case SHARED: MPI_File_read_ordered_begin(c->fh, p, n, MPI_BYTE); break;
        default: MPI_File_read_all_begin(c->fh, p, n, MPI_BYTE);
        }
    } else {
        switch (c->b->pos) {
        case EXPL: MPI_File_iread_at(c->fh, at, p, n, MPI_BYTE, rq); break;
        case SHARED: MPI_File_iread_shared(c->fh, p, n, MPI_BYTE, rq); break;
        default: MPI_File_iread(c->fh, p, n, MPI_BYTE, rq);
        }
    }
}

static void finish(struct io_ctx *c, MPI_Request *rq)
{
    MPI_Status st;
    if (!c->coll) {
        MPI_Wait(rq, &st);
        return;
    }
    if (c->b->write) {
        switch (c->b->pos) {
        case EXPL: MPI_File_write_at_all_end(c->fh, c->buf, &st); break;
        case SHARED: MPI_File_write_ordered_end(c->fh, c->buf, &st); break;
        default: MPI_File_write_all_end(c->fh, c->buf, &st);
        }
    } else {
        switch (c->b->pos) {
        case EXPL: MPI_File_read_at_all_end(c->fh, c->buf, &st); break;
        case SHARED: MPI_File_read_ordered_end(c->fh, c->buf, &st); break;
        default: MPI_File_read_all_end(c->fh, c->buf, &st);
        }
    }
}

/* ---- CPU_Exploit (4.2.5.1) ------------------------------------------------ */

#define CPU_N 100              /* a 100 x 100 matrix times a vector */
#define TARGET_CPU_SECS 0.01   /* per nonblocking action */

static struct {
    double a[CPU_N][CPU_N], x[CPU_N], y[CPU_N];
    long products;             /* matrix-vector products per call */
    double mflops, t_us;       /* the rate measured, and one call's time undisturbed */
} cpu;

static void cpu_products(long n)
{
    for (long r = 0; r < n; r++)
        for (int i = 0; i < CPU_N; i++) {
            double sum = 0;
            for (int j = 0; j < CPU_N; j++)
                sum += cpu.a[i][j] * cpu.x[j];
            cpu.y[i] = sum;
            cpu.x[i] = 1.0 + 1e-9 * sum;   /* the next product depends on this one */
        }
}

/* Once per process: the Mflop/s rate, the products that take about
 * TARGET_CPU_SECS, and the time of that many, undisturbed (t_CPU). */
static void cpu_calibrate(void)
{
    if (cpu.products)
        return;
    for (int i = 0; i < CPU_N; i++) {
        cpu.x[i] = 1;
        for (int j = 0; j < CPU_N; j++)
            cpu.a[i][j] = 1.0 / (i + j + 1);
    }
    long n = 1;
    double t = 0;
    while (t < 0.05 && n < (1L << 40)) {
        n *= 2;
        double t0 = MPI_Wtime();
        cpu_products(n);
        t = MPI_Wtime() - t0;
    }
    cpu.mflops = 2.0 * CPU_N * CPU_N * (double)n / t / 1e6;
    cpu.products = (long)(TARGET_CPU_SECS / t * (double)n);
    cpu.products = cpu.products > 0 ? cpu.products : 1;
    double t0 = MPI_Wtime();
    cpu_products(cpu.products);
    cpu.t_us = (MPI_Wtime() - t0) * 1e6;
}

/* The file view of length x (5.2.3.4); it also rewinds the file pointers. */
static void set_view(struct io_ctx *c, int plain)
{
    if (c->view != MPI_DATATYPE_NULL)
        MPI_Type_free(&c->view);
    MPI_Datatype filetype = MPI_BYTE;
    if (!plain && c->b->pos == INDV && c->b->cls != SINGLE && c->len > 0) {
        MPI_Datatype block;
        int bl = (int)c->len;
        MPI_Aint disp = (MPI_Aint)c->start;
        MPI_Datatype t = MPI_BYTE;
        MPI_Type_create_struct(1, &bl, &disp, &t, &block);
        MPI_Type_create_resized(block, 0, (MPI_Aint)c->x, &c->view);
        MPI_Type_commit(&c->view);
        MPI_Type_free(&block);
        filetype = c->view;
    }
    MPI_File_set_view(c->fh, 0, MPI_BYTE, filetype, "native", MPI_INFO_NULL);
}

/* Byte o of the table's file, up to total, holds byte o of process 0's
 * pattern: what the reads read, and what the writes overwrite, so that no
 * timed write pays for extending the file (block allocation, a metadata
 * commit in each sync); IMB 2021's writes overwrite too, the sample its
 * iteration policy writes untimed before timing each length. */
static void fill_file(struct io_ctx *c, MPI_Offset total)
{
    long start, len;
    int frank, fsize;
    MPI_Comm_rank(c->fcomm, &frank);
    MPI_Comm_size(c->fcomm, &fsize);
    portion((long)total, frank, fsize, &start, &len);
    char *piece = malloc(FILL_CHUNK);
    if (!piece) {
        fprintf(stderr, PROG ": out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    set_view(c, 1);
    for (long done = 0; done < len; done += FILL_CHUNK) {
        long n = len - done < FILL_CHUNK ? len - done : FILL_CHUNK, at = start + done;
        MPI_Status st;
        bench_buf_fill_at(piece, (size_t)n, 0, (size_t)at);
        expect_io("MPI_File_write_at", 1, 1, n);
        MPI_File_write_at(c->fh, at, piece, (int)n, MPI_BYTE, &st);
    }
    free(piece);
    bench_expect_add("MPI_File_sync", 2, 0, 0);
    MPI_File_sync(c->fh);
    MPI_Barrier(c->fcomm);
    MPI_File_sync(c->fh);
}

/* -check of P_Read_shared: a block read from wherever the shared pointer
 * was is a piece of the file's pattern; find its offset from its first
 * whole float (blocks under 4 bytes are not checked). */
static long check_shared_read(const struct io_ctx *c)
{
    for (long s = 0; s < UNIT && s + UNIT <= c->len; s++) {
        float v;
        memcpy(&v, c->buf + s, sizeof v);
        long k = lrintf(v - 0.1f), o = k * UNIT - s;
        int same = o >= 0;
        for (long j = 0; same && j < c->len; j++) {
            unsigned char want;
            bench_buf_fill_at(&want, 1, 0, (size_t)(o + j));
            same = (unsigned char)c->buf[j] == want;
        }
        if (same)
            return bench_buf_check(c->run, c->buf, (size_t)c->len, 0, (size_t)o);
    }
    return c->len < UNIT ? 0 : c->len;
}

/* -check of a read: what action i read. */
static long check_read(const struct io_ctx *c, long i)
{
    if (c->b->pos == SHARED && !c->coll)
        return check_shared_read(c);
    return bench_buf_check(c->run, c->buf, (size_t)c->len, 0, (size_t)offset_of(c, i));
}

/* -check of P_Write_shared, on the file's first process: the n x bytes
 * written are n blocks of every process, each its pattern, in any order. */
static long check_shared_write(struct io_ctx *c, long n)
{
    long bad = 0, total = n * c->x, *seen = calloc((size_t)c->size, sizeof *seen);
    MPI_Status st;
    expect_io("MPI_File_read_at", 0, 1, total);
    MPI_File_read_at(c->fh, 0, c->scratch, (int)total, MPI_BYTE, &st);
    if (c->run->corrupt && total > 0)
        c->scratch[0] ^= (char)0xff;    /* the test hook of bench_buf_check */
    for (long at = 0; seen && at < total;) {
        int who = -1;
        long len = 0;
        for (int j = 0; j < c->size && who < 0; j++) {
            long sj, lj, k = 0;
            portion(c->x, j, c->size, &sj, &lj);
            for (; lj > 0 && at + lj <= total && k < lj; k++) {
                unsigned char want;
                bench_buf_fill_at(&want, 1, j, (size_t)k);
                if ((unsigned char)c->scratch[at + k] != want)
                    break;
            }
            if (lj > 0 && k == lj)
                who = j, len = lj;
        }
        if (who < 0) {
            bad += total - at;
            break;
        }
        seen[who]++;
        at += len;
    }
    for (int j = 0; seen && j < c->size; j++) {
        long sj, lj;
        portion(c->x, j, c->size, &sj, &lj);
        bad += labs((lj > 0 ? n : 0) - seen[j]) * lj;
    }
    free(seen);
    return seen ? bad : total;
}

/* -check of a write sample: read back (after sync, barrier, sync) what
 * this process wrote, or with P_Write_shared the whole sample. */
static long check_write(struct io_ctx *c, long n)
{
    long bad = 0;
    MPI_Status st;
    bench_expect_add("MPI_File_sync", 2, 0, 0);
    MPI_File_sync(c->fh);
    MPI_Barrier(c->fcomm);
    MPI_File_sync(c->fh);
    set_view(c, 1);
    if (c->b->pos == SHARED && !c->coll) {
        int frank;
        MPI_Comm_rank(c->fcomm, &frank);
        return frank == 0 ? check_shared_write(c, n) : 0;
    }
    expect_io("MPI_File_read_at", 0, n, c->len);
    for (long i = 0; i < n; i++) {
        MPI_File_read_at(c->fh, offset_of(c, i), c->scratch, (int)c->len, MPI_BYTE, &st);
        bad += bench_buf_check(c->run, c->scratch, (size_t)c->len, c->rank, 0);
    }
    return bad;
}

/* One sample of n actions of length x (5.2.8.2): its time per action in
 * *t (seconds); the defects with -check. nb: each action nonblocking
 * (4.2.5): started, CPU_Exploit, finished (t_ovrl); writes then sync
 * once, as in AGGREGATE mode. */
static long sample(struct io_ctx *c, long n, int nb, int check, double *t)
{
    long bad = 0;
    int sync_each = c->b->write && !c->aggregate && !nb, alone = nb || !c->b->write || !c->aggregate;
    if (!nb)
        expect_io(access_fn[c->b->write][c->b->pos][c->coll], c->b->write, n, c->len);
    if (c->b->write)
        bench_expect_add("MPI_File_sync", sync_each ? n : 1, 0, 0);
    set_view(c, 0);
    for (int i = 0; i < BENCH_N_BARR; i++)
        MPI_Barrier(c->comm);
    double t0 = MPI_Wtime();
    for (long i = 0; i < n; i++) {
        double ti = bench_rep_start(&c->rt);
        if (nb) {
            MPI_Request rq = MPI_REQUEST_NULL;
            start_at(c, i, &rq);
            cpu_products(cpu.products);
            finish(c, &rq);
        } else {
            access_at(c, i);
        }
        if (sync_each)
            MPI_File_sync(c->fh);
        if (alone)
            bench_rep_done(&c->rt, ti);
        if (check && !c->b->write)
            bad += check_read(c, i);
    }
    if (c->b->write && !sync_each)
        MPI_File_sync(c->fh);
    *t = (MPI_Wtime() - t0) / (double)n;
    if (check && c->b->write)
        bad += check_write(c, n);
    return bad;
}

/* Open_Close (4.2.4.10): n times the file opened on MY_COMM, one byte
 * written, closed. */
static void open_close(struct io_ctx *c, const char *name, long n, double *t)
{
    char one = 0;
    MPI_Status st;
    expect_io("MPI_File_write", 1, n, 1);
    for (int i = 0; i < BENCH_N_BARR; i++)
        MPI_Barrier(c->comm);
    double t0 = MPI_Wtime();
    for (long i = 0; i < n; i++) {
        MPI_File fh;
        double ti = bench_rep_start(&c->rt);
        int mode = MPI_MODE_CREATE | MPI_MODE_RDWR | (i == n - 1 ? MPI_MODE_DELETE_ON_CLOSE : 0);
        int rc = MPI_File_open(c->comm, name, mode, MPI_INFO_NULL, &fh);
        if (rc != MPI_SUCCESS) {
            open_failed(name, rc);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        bench_files_watch(fh);
        MPI_File_write(fh, &one, 1, MPI_BYTE, &st);
        MPI_File_close(&fh);
        bench_rep_done(&c->rt, ti);
    }
    *t = (MPI_Wtime() - t0) / (double)n;
}

/* The -time probe: one action. */
struct probe {
    struct io_ctx *c;
    const char *name;
};

static void probe_run(void *arg)
{
    struct probe *p = arg;
    double t;
    if (p->c->b->cls == OPENCLOSE)
        open_close(p->c, p->name, 1, &t);
    else
        sample(p->c, 1, p->c->b->nb, 0, &t);
}

static long reps_of(const struct bench_run *r, const struct io_ctx *c, long x)
{
    int fewer = c->b->cls == OPENCLOSE || (c->b->write && !c->aggregate);
    return bench_reps_of(r, x, fewer ? MSGS_NONAGGR : MSGSPERSAMPLE);
}

/* The file name of this process in group g (5.2.3.2). */
static void file_name(const struct bench_run *r, const struct io_ctx *c, const struct bench_group *g, char *out,
                      size_t size)
{
    int n = snprintf(out, size, "%s/mpiprof_io_out", r->opt.dir[0] ? r->opt.dir : ".");
    if (g->n_groups > 1)
        n += snprintf(out + n, size - (size_t)n, "_g%d", g->group);
    if (c->b->pos == PRIV)
        snprintf(out + n, size - (size_t)n, "_%d", c->rank);
}

/* The needs of a table: lengths that fit an int count and -mem (the
 * buffer, and with -check the sample read back) stay in lens, the rest are
 * noted; *xmax the largest length kept, *sample its largest sample
 * (#repetitions x), *file the file bytes the samples reach. */
static int runnable(const struct bench_run *r, const struct io_ctx *c, long *lens, int n, long *xmax,
                    long *sample, MPI_Offset *file)
{
    double cap = r->opt.mem_gib > 0 ? r->opt.mem_gib * 1073741824.0 : -1;
    int kept = 0;
    *xmax = *sample = 0;
    *file = 0;
    for (int i = 0; i < n; i++) {
        long x = lens[i], reps = reps_of(r, c, x), start, len;
        portion(x, c->rank, c->size, &start, &len);
        double need = (double)x * (r->opt.check ? (double)reps + 1 : 1);
        if ((double)reps * (double)x > (double)INT32_MAX)
            bench_print_note(r, "%ld bytes: not run, a sample would exceed 2^31-1 bytes", x);
        else if (cap >= 0 && need > cap)
            bench_print_note(r, "%ld bytes: not run, needs %.0f bytes of buffers per process, more than -mem %g GiB",
                             x, need, r->opt.mem_gib);
        else {
            lens[kept++] = x;
            *xmax = x > *xmax ? x : *xmax;
            *sample = reps * x > *sample ? reps * x : *sample;
            MPI_Offset f = (MPI_Offset)reps * (c->b->cls == SINGLE ? x : c->b->pos == PRIV ? len : x);
            *file = f > *file ? f : *file;
        }
    }
    return kept;
}

/* Open the table's file: deleted first, then opened on the file's
 * communicator. 0 when the open failed somewhere (said once). */
static int open_file(struct io_ctx *c, const char *name)
{
    int frank, rc = MPI_SUCCESS;
    MPI_Comm_rank(c->fcomm, &frank);
    bench_files_keep(name);
    bench_files_about(name);
    if (frank == 0)
        MPI_File_delete(name, MPI_INFO_NULL);    /* no such file: fine */
    MPI_Barrier(c->fcomm);
    rc = MPI_File_open(c->fcomm, name, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &c->fh);
    if (rc == MPI_SUCCESS) {
        /* Every process has it open: its name can go now, so that not even
         * a SIGKILL leaves the file behind (the data lives until the close). */
        bench_files_watch(c->fh);
        MPI_Barrier(c->fcomm);
        if (frank == 0)
            unlink(name);
        bench_files_drop(name);
        return 1;
    }
    open_failed(name, rc);
    c->fh = MPI_FILE_NULL;
    bench_files_drop(name);
    return 0;
}

/* run_table: benchmark b (in one mode, for writes) on groups of q processes. */
static void run_table(struct bench_run *r, const struct io_bench *b, int q, int aggregate, long *lens, int n,
                      struct bench_stat *rows)
{
    struct bench_group g;
    struct io_ctx c = { .run = r, .b = b, .aggregate = aggregate, .coll = b->cls == COLLECTIVE,
                        .fh = MPI_FILE_NULL, .view = MPI_DATATYPE_NULL };
    struct bench_layout l = { .n_msg = b->cls == OPENCLOSE || b->nb ? 0 : 1, .no_bytes = b->cls == OPENCLOSE,
                              .no_defects = b->cls == OPENCLOSE, .overlap = b->nb };
    long xmax, most;
    MPI_Offset file;
    char name[4096];

    bench_group_create(r, q, r->opt.multi >= 0, &g);
    l.t_single = b->cls == SINGLE && g.n_groups == 1;
    bench_print_title(r, &g, b->name);
    if (b->write)
        bench_print_mode(r, aggregate ? "AGGREGATE" : "NON-AGGREGATE");
    if (b->nb && g.comm != MPI_COMM_NULL)
        cpu_calibrate();
    if (b->nb && r->out)
        bench_print_note(r, "CPU_Exploit: %d x %d matrix times a vector, %.0f Mflop/s, t_CPU %.2f usec (rank 0)",
                         CPU_N, CPU_N, cpu.mflops, cpu.t_us);
    c.comm = g.comm;
    c.rank = g.rank;
    c.size = q;
    c.fcomm = b->cls == SINGLE || b->pos == PRIV ? MPI_COMM_SELF : g.comm;
    if (b->cls == OPENCLOSE) {
        lens[0] = 0;
        n = 1;
    }
    n = runnable(r, &c, lens, n, &xmax, &most, &file);
    int ok = 1;
    if (g.comm != MPI_COMM_NULL) {
        c.buf = malloc((size_t)xmax + 1);
        c.scratch = r->opt.check ? malloc((size_t)most + 1) : NULL;
        ok = c.buf && (!r->opt.check || c.scratch);
    }
    if (!bench_world_min(r, ok)) {
        bench_print_note(r, "not run: cannot allocate the buffers of %ld bytes on some process", most);
        n = 0;
    }
    if (g.comm != MPI_COMM_NULL) {
        file_name(r, &c, &g, name, sizeof name);
        if (b->cls == OPENCLOSE) {
            bench_files_keep(name);
            bench_files_about(name);
        }
    }
    if (n > 0 && b->cls != OPENCLOSE && !bench_world_min(r, g.comm == MPI_COMM_NULL || open_file(&c, name))) {
        bench_print_note(r, "not run: the file could not be opened on some process");
        n = 0;
    }
    if (n > 0 && g.comm != MPI_COMM_NULL && b->cls != OPENCLOSE)
        fill_file(&c, file);
    if (n > 0)
        bench_print_columns(r, &l);
    for (int i = 0; i < n; i++) {
        long x = lens[i], reps = reps_of(r, &c, x), bad = 0;
        double t = 0;
        struct probe p = { &c, name };
        if (g.comm != MPI_COMM_NULL) {
            c.x = x;
            portion(x, b->cls == SINGLE ? 0 : c.rank, b->cls == SINGLE ? 1 : q, &c.start, &c.len);
            if (b->write)
                bench_buf_fill(c.buf, (size_t)c.len, c.rank);
        }
        reps = bench_time_cap(r, &g, reps, probe_run, &p);
        struct bench_mine m = { 0, 0, { -1, -1 }, 0, cpu.t_us };
        if (g.comm != MPI_COMM_NULL && b->nb) {
            bad = sample(&c, reps, 0, 0, &t);    /* t_pure: the blocking action, aggregate */
            m.pure_us = t * 1e6;
        }
        bench_reps_begin(r, &c.rt, reps);
        if (g.comm != MPI_COMM_NULL && b->cls == OPENCLOSE)
            open_close(&c, name, reps, &t);
        else if (g.comm != MPI_COMM_NULL)
            bad = sample(&c, reps, b->nb, r->opt.check, &t);
        bench_tail(&c.rt, m.tail_us);
        m.t_us = t * 1e6;
        m.defects = (double)bad;
        int nrows = bench_stats(r, &g, &m, rows, r->wsize);
        for (int k = 0; k < nrows; k++)
            bench_print_row(r, &l, x, reps, &rows[k]);
    }
    if (c.fh != MPI_FILE_NULL)
        MPI_File_close(&c.fh);
    if (g.comm != MPI_COMM_NULL)
        bench_files_drop(name);
    if (c.view != MPI_DATATYPE_NULL)
        MPI_Type_free(&c.view);
    free(c.buf);
    free(c.scratch);
    bench_group_free(&g);
}

/* run_bench: benchmark which at every process count (S_: 1), each mode. */
static void run_bench(struct bench_run *r, int which, long *lens, struct bench_stat *rows)
{
    bench_files_guard(PROG);
    const struct io_bench *b = &benches[which];
    int qs[MAX_NPROCS_STEPS], nq = b->cls == SINGLE ? 1 : bench_nprocs(r, qs);
    if (b->cls == SINGLE)
        qs[0] = 1;
    for (int k = 0; k < nq; k++)
        for (int aggregate = b->write; aggregate >= (b->nb ? b->write : 0); aggregate--)
            run_table(r, b, qs[k], aggregate, lens, bench_lengths(&r->opt, 1, lens), rows);
}

int main(int argc, char **argv)
{
    for (size_t i = 0; i < N_BENCHES; i++)
        names[i] = benches[i].name;
    bench_expect_claim(claimed);
    return bench_main(&suite, argc, argv, run_bench);
}
