/* coarray.c: mpiprof-coarray's command line, its checks of the process
 * count per section, and the helpers the sections share (grid,
 * notifications, neighbour syncs, repetitions, reductions). See
 * coarray.h and mpiprof-coarray(1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "coarray.h"
#include "expect.h"
#include "harness.h"
#include "intopts.h"

#define TAG_SYNC 21

static const char *const section_names[] = { "pingpong", "sync", "halo", NULL };
const char *const ca_pairs_names[] = { "single", "multiple", "crossing", NULL };
const char *const ca_form_names[] = { "p2p", "fence", "lock", NULL };

/* BENCH_EXPECT: every call of these is made by a pattern whose executions
 * the sections count, or next to its tally. Not claimed: MPI_Fetch_and_op
 * and MPI_Win_flush, which ca_notify_wait and the critical region call
 * until another process is done (as many times as the timing makes), and
 * the collectives of the reductions and checks (MPI_Allreduce). */
static const char *const claimed[] = { "MPI_Send", "MPI_Recv", "MPI_Put", "MPI_Get", "MPI_Accumulate", "MPI_Isend",
                                       "MPI_Irecv", "MPI_Waitall", "MPI_Win_fence", "MPI_Barrier", NULL };

static void usage(void)
{
    printf("Usage: mpirun -np P " CA_PROG " [-s SECTIONS] [-p PAIRS] [-f FORMS] [-n NDATA] [-b BLKSIZE]\n"
           "       [-t STRIDE] [-r REPS] [-m MAXNEIGH] [-d DELAY] [-i INNER] [-k OUTER] [-z SIZES]\n\n"
           "The EPCC Fortran coarray micro-benchmarks in MPI, double precision: ping-pong, synchronisation\n"
           "overhead and 3D halo swap, point-to-point (p2p) and one-sided (fence, lock).\n\n"
           "  -s SECTIONS  pingpong,sync,halo (default all three)\n"
           "  -p PAIRS     ping-pong pairs: single,multiple,crossing (default all three;\n"
           "               multiple and crossing need an even P of at least 4)\n"
           "  -f FORMS     p2p,fence,lock (default all three)\n"
           "  -n NDATA     largest ping-pong size in doubles, 1..4194304 (default 131072)\n"
           "  -b BLKSIZE   block of the many and strided patterns, doubles, a power of two 1..1048576 (default 8)\n"
           "  -t STRIDE    distance of strided blocks, doubles, BLKSIZE..2097152; 0 for 2 x BLKSIZE (default 0)\n"
           "  -r REPS      repetitions per measurement at most, 1..10000000 (default 1000)\n"
           "  -m MAXNEIGH  most neighbours of the random and ring syncs, 2..1024 (default 12)\n"
           "  -d DELAY     steps of the delay loop, 0..1000000000 (default 10000)\n"
           "  -i INNER     syncs per sample, 1..10000000 (default 200)\n"
           "  -k OUTER     samples per sync pattern, 1..100000 (default 10)\n"
           "  -z SIZES     halo sub-domain edges in cells, each 1..512, at most 16 (default 10,50,100,150)\n"
           "  -h           show this help and exit\n");
}

/* The process counts the sections need: 0, or 2 with one line in err. */
static int check_size(const struct ca_opts *o, int size, char *err, size_t errlen)
{
    if (size < 2) {
        snprintf(err, errlen, CA_PROG ": needs at least 2 processes (got %d)", size);
        return 2;
    }
    if ((o->sections & 1u << CA_PINGPONG) && (o->pairs & ~(1u << CA_SINGLE)) && (size % 2 || size < 4)) {
        snprintf(err, errlen, CA_PROG ": multiple and crossing ping-pong need an even number of processes, "
                 "at least 4 (got %d); use -p single", size);
        return 2;
    }
    if ((o->sections & 1u << CA_SYNC) && size % 2) {
        snprintf(err, errlen, CA_PROG ": the sync section needs an even number of processes (pairwise sync "
                 "pairs rank i with i + P/2; got %d)", size);
        return 2;
    }
    return 0;
}

/* The command line: 0 to run, 1 for -h, 2 with one line in err. */
static int parse(int argc, char **argv, int size, struct ca_opts *o, char *err, size_t errlen)
{
    *o = (struct ca_opts){ 7, 7, 7, 131072, 8, 0, 1000, 12, 10000, 200, 10, { 10, 50, 100, 150 }, 4 };
    const struct bench_intopt ints[] = {
        { 'n', 1, 1L << 22, &o->ndata_max }, { 'b', 1, 1L << 20, &o->blksize }, { 't', 0, 1L << 21, &o->stride },
        { 'r', 1, 10000000, &o->reps }, { 'm', 2, 1024, &o->maxneigh }, { 'd', 0, 1000000000, &o->delay },
        { 'i', 1, 10000000, &o->inner }, { 'k', 1, 100000, &o->outer },
    };
    const struct bench_wordopt words[] = {
        { 's', section_names, &o->sections }, { 'p', ca_pairs_names, &o->pairs }, { 'f', ca_form_names, &o->forms },
    };
    const struct bench_listopt lists[] = { { 'z', 1, 512, CA_MAX_HALO, o->halo, &o->n_halo } };
    const struct bench_optset set = { ints, 8, words, 3, lists, 1 };
    int rc = bench_optset_parse(CA_PROG, argc, argv, &set, err, errlen);
    if (rc)
        return rc;
    if (o->blksize & (o->blksize - 1)) {
        snprintf(err, errlen, CA_PROG ": -b: '%ld' is not a power of two", o->blksize);
        return 2;
    }
    if (o->stride == 0)
        o->stride = 2 * o->blksize;
    else if (o->stride < o->blksize) {
        snprintf(err, errlen, CA_PROG ": -t: stride %ld is less than the block size %ld", o->stride, o->blksize);
        return 2;
    }
    if (ca_extent(o) > CA_MAX_EXTENT) {
        snprintf(err, errlen, CA_PROG ": -n, -b, -t: the strided patterns span %ld doubles, more than %ld",
                 ca_extent(o), CA_MAX_EXTENT);
        return 2;
    }
    return check_size(o, size, err, errlen);
}

long ca_extent(const struct ca_opts *o)
{
    long top = 1;
    while (top * 2 <= o->ndata_max)
        top *= 2;
    long strided = (top / o->blksize - 1) * o->stride + o->blksize;
    return top >= o->blksize && strided > top ? strided : top;
}

void ca_grid_create(struct ca_grid *g)
{
    int size, periods[3] = { 1, 1, 1 };
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    memset(g->dims, 0, sizeof g->dims);
    MPI_Dims_create(size, 3, g->dims);
    MPI_Cart_create(MPI_COMM_WORLD, 3, g->dims, periods, 0, &g->cart);
    int rank;
    MPI_Comm_rank(g->cart, &rank);
    MPI_Cart_coords(g->cart, rank, 3, g->coords);
    for (int d = 0; d < 3; d++)
        MPI_Cart_shift(g->cart, d, 1, &g->nb[2 * d], &g->nb[2 * d + 1]);
}

void ca_grid_free(struct ca_grid *g)
{
    MPI_Comm_free(&g->cart);
}

void ca_win_allocate(size_t bytes, int disp_unit, void *base, MPI_Win *win)
{
    MPI_Win_allocate((MPI_Aint)((bytes + 63) / 64 * 64), disp_unit, MPI_INFO_NULL, MPI_COMM_WORLD, base, win);
}

void ca_notify_create(struct ca_notify *n)
{
    int size;
    MPI_Comm_rank(MPI_COMM_WORLD, &n->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    ca_win_allocate((size_t)size * sizeof(long), sizeof(long), &n->slot, &n->win);
    n->seen = ca_alloc((size_t)size * sizeof *n->seen);
    memset(n->slot, 0, (size_t)size * sizeof(long));
    memset(n->seen, 0, (size_t)size * sizeof *n->seen);
    MPI_Barrier(MPI_COMM_WORLD);   /* every counter is zero before anyone adds to one */
    bench_expect_add("MPI_Barrier", 1, 0, 0);
    MPI_Win_lock_all(0, n->win);
}

void ca_notify_post(struct ca_notify *n, int target)
{
    const long one = 1;
    MPI_Accumulate(&one, 1, MPI_LONG, target, n->rank, 1, MPI_LONG, MPI_SUM, n->win);
    MPI_Win_flush(target, n->win);
}

void ca_notify_wait(struct ca_notify *n, int source)
{
    long want = ++n->seen[source], got;
    do {
        MPI_Fetch_and_op(NULL, &got, MPI_LONG, n->rank, source, MPI_NO_OP, n->win);
        MPI_Win_flush(n->rank, n->win);
    } while (got < want);
}

void ca_notify_tally(long n)
{
    bench_expect_add("MPI_Accumulate", n, n * (long long)sizeof(long), 0);
}

void ca_notify_free(struct ca_notify *n)
{
    MPI_Win_unlock_all(n->win);
    MPI_Win_free(&n->win);
    free(n->seen);
}

void ca_sync_neighbours(int form, struct ca_notify *n, const int *nb, int count, MPI_Request *reqs,
                        MPI_Status *st)
{
    if (form == CA_P2P) {
        for (int i = 0; i < count; i++)
            MPI_Irecv(NULL, 0, MPI_BYTE, nb[i], TAG_SYNC, MPI_COMM_WORLD, &reqs[i]);
        for (int i = 0; i < count; i++)
            MPI_Isend(NULL, 0, MPI_BYTE, nb[i], TAG_SYNC, MPI_COMM_WORLD, &reqs[count + i]);
        MPI_Waitall(2 * count, reqs, st);
        return;
    }
    for (int i = 0; i < count; i++)
        ca_notify_post(n, nb[i]);
    for (int i = 0; i < count; i++)
        ca_notify_wait(n, nb[i]);
}

void ca_sync_neighbours_tally(int form, int count, long n)
{
    if (form != CA_P2P) {
        ca_notify_tally(n * count);
        return;
    }
    bench_expect_add("MPI_Irecv", n * count, 0, 0);
    bench_expect_add("MPI_Isend", n * count, 0, 0);
    bench_expect_add("MPI_Waitall", n, 0, 0);
}

long ca_reps(const struct ca_opts *o, long bytes)
{
    long r = bytes > 0 ? CA_VOLUME / bytes : o->reps;
    return r < 1 ? 1 : r > o->reps ? o->reps : r;
}

static double reduce(double v, MPI_Op op)
{
    double out;
    MPI_Allreduce(&v, &out, 1, MPI_DOUBLE, op, MPI_COMM_WORLD);
    return out;
}

double ca_max(double v)
{
    return reduce(v, MPI_MAX);
}

double ca_sum(double v)
{
    return reduce(v, MPI_SUM);
}

double ca_delay(long n)
{
    volatile double x = 1.0;
    for (long i = 0; i < n; i++)
        x = x * 0.999999 + 1e-6;
    return x;
}

void *ca_alloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    int ok = p != NULL, all;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all) {
        int rank;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        if (rank == 0)
            fprintf(stderr, CA_PROG ": out of memory for %zu bytes\n", n);
        MPI_Finalize();
        exit(2);
    }
    return p;
}

/* The words of set, comma-separated, into buf. */
static const char *words_of(unsigned set, const char *const *names, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int k = 0; names[k]; k++)
        if (set & 1u << k)
            at += (size_t)snprintf(buf + at, at < len ? len - at : 0, "%s%s", at ? "," : "", names[k]);
    return buf;
}

static void print_header(const struct ca_run *r)
{
    const struct ca_opts *o = r->o;
    char s[64], p[64], f[64];
    printf("# " CA_PROG ": %d processes, sections %s, pairs %s, forms %s\n", r->size,
           words_of(o->sections, section_names, s, sizeof s), words_of(o->pairs, ca_pairs_names, p, sizeof p),
           words_of(o->forms, ca_form_names, f, sizeof f));
    printf("# ndata 1..%ld, blksize %ld, stride %ld, reps %ld, maxneigh %ld, delay %ld, inner %ld, outer %ld, "
           "halo", o->ndata_max, o->blksize, o->stride, o->reps, o->maxneigh, o->delay, o->inner, o->outer);
    for (int i = 0; i < o->n_halo; i++)
        printf("%c%ld", i ? ',' : ' ', o->halo[i]);
    printf("\n");
}

/* The selected sections; the exit status: 1 if a check failed. */
static int run(struct ca_run *r)
{
    const struct ca_opts *o = r->o;
    if (r->rank == 0)
        print_header(r);
    if (o->sections & 1u << CA_PINGPONG)
        ca_pingpong(r);
    if (o->sections & 1u << CA_SYNC)
        ca_sync(r);
    if (o->sections & 1u << CA_HALO)
        ca_halo(r);
    int failed;
    MPI_Allreduce(&r->failed, &failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return failed ? 1 : 0;
}

int main(int argc, char **argv)
{
    struct ca_opts o;
    struct ca_run r = { &o, 0, 0, getenv(BENCH_CORRUPT_ENV) != NULL, 0 };
    char err[512];
    bench_expect_claim(claimed);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &r.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &r.size);
    int status = bench_parse_outcome(parse(argc, argv, r.size, &o, err, sizeof err), r.rank, err, usage);
    if (status < 0) {
        status = run(&r);
        bench_expect_print(CA_PROG, r.rank);
    }
    MPI_Finalize();
    return status;
}
