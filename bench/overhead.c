/* overhead.c: mpiprof-overhead, the time per call of a few MPI calls and of
 * the clock reads the profiler makes, in one 2-rank run. Run it unprofiled
 * and profiled and subtract (bench/overhead.sh does, interleaved, medians):
 * that difference is the profiler's added cost per wrapped call, and the
 * "floor" line (two reads of the profiler's clock) is the least it can be.
 * A benchmark, not a test: CI does not time it.
 *
 * Each measurement: a barrier, one untimed warm-up loop of N calls, then R
 * repetitions of [barrier, time a loop of N calls with CLOCK_MONOTONIC];
 * the median of the R per-call times is printed. Both ranks run every loop
 * at the same time; rank 0's times are printed.
 *
 * Normalisation of MPI_Send+MPI_Recv: a loop of N is N round trips of a
 * 1-byte message (rank 0: Send, Recv; rank 1: Recv, Send), and its time is
 * divided by 2N: the time per one-way message, i.e. per pair of one MPI_Send
 * on the sender and the MPI_Recv that matches it on the receiver. Profiled,
 * each one-way message has on its critical path the sender's work before
 * PMPI_Send and the receiver's work after PMPI_Recv returns (the rest hides
 * in the wait), i.e. about one wrapped call's added cost.
 *
 * The loops run 12 frames below main, so that a profiled run at stack depth
 * 5 walks a full stack, as it would in an application. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <libunwind.h>
#include <mpi.h>
#include "clock.h"      /* libprof's clock, linked in: rdtsc and the choice between clocks */
#include "intopts.h"

#define PROG "mpiprof-overhead"
#define DEFAULT_CALLS 10000
#define DEFAULT_REPS 21
#define MAX_CALLS 100000000L
#define MAX_REPS 1001L
#define STACK_LEVELS 12
#define TAG_PING 7
#define TAG_NEVER 8        /* no message ever carries it: Iprobe finds nothing */

struct opts {
    long calls;            /* -n: calls per repetition */
    long reps;             /* -r: repetitions */
};

/* One measurement: loop(n) makes n iterations of per_iter calls each. */
struct bench {
    const char *name;
    void (*loop)(long n);
    int per_iter;
};

static int rank, peer;
static volatile uint64_t sink;       /* results of the loops, so none is optimised away */
static volatile int keep_frames;     /* work after each nested call: no tail calls */

/* The clock libprof/core/clock.c chooses (the same code, linked in): the TSC
 * when it is invariant. */
static int uses_tsc(void)
{
    prof_clock_start(PROF_CLOCK_AUTO, 0);
    return prof_clock_tsc();
}

static __attribute__((noinline)) void loop_pingpong(long n)
{
    char byte = 1;
    for (long i = 0; i < n; i++) {
        if (rank == 0) {
            MPI_Send(&byte, 1, MPI_BYTE, peer, TAG_PING, MPI_COMM_WORLD);
            MPI_Recv(&byte, 1, MPI_BYTE, peer, TAG_PING, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&byte, 1, MPI_BYTE, peer, TAG_PING, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(&byte, 1, MPI_BYTE, peer, TAG_PING, MPI_COMM_WORLD);
        }
    }
}

/* A nonblocking exchange completed by one MPI_Waitall of its two requests. */
static __attribute__((noinline)) void loop_exchange(long n)
{
    char out = 1, in = 0;
    MPI_Request req[2];
    for (long i = 0; i < n; i++) {
        MPI_Irecv(&in, 1, MPI_BYTE, peer, TAG_PING, MPI_COMM_WORLD, &req[0]);
        MPI_Isend(&out, 1, MPI_BYTE, peer, TAG_PING, MPI_COMM_WORLD, &req[1]);
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    }
    sink = (uint64_t)in;
}

static __attribute__((noinline)) void loop_iprobe(long n)
{
    int flag, found = 0;
    for (long i = 0; i < n; i++) {
        MPI_Iprobe(peer, TAG_NEVER, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        found |= flag;
    }
    sink = (uint64_t)found;
}

static __attribute__((noinline)) void loop_comm_rank(long n)
{
    int r;
    uint64_t s = 0;
    for (long i = 0; i < n; i++) {
        MPI_Comm_rank(MPI_COMM_WORLD, &r);
        s += (uint64_t)r;
    }
    sink = s;
}

static __attribute__((noinline)) void loop_clock_gettime(long n)
{
    struct timespec ts;
    uint64_t s = 0;
    for (long i = 0; i < n; i++) {
        clock_gettime(CLOCK_MONOTONIC, &ts);
        s += (uint64_t)ts.tv_nsec;
    }
    sink = s;
}

#if defined(__x86_64__) || defined(__i386__)
static __attribute__((noinline)) void loop_rdtsc(long n)
{
    uint64_t s = 0;
    for (long i = 0; i < n; i++)
        s += __rdtsc();
    sink = s;
}
#endif

static __attribute__((noinline)) void loop_backtrace5(long n)
{
    void *bt[5];
    uint64_t s = 0;
    for (long i = 0; i < n; i++)
        s += (uint64_t)unw_backtrace(bt, 5);
    sink = s;
}

static const struct bench benches[] = {
    { "MPI_Send+MPI_Recv", loop_pingpong, 2 },
    { "MPI_Irecv+MPI_Isend+MPI_Waitall", loop_exchange, 3 },
    { "MPI_Iprobe", loop_iprobe, 1 },
    { "MPI_Comm_rank", loop_comm_rank, 1 },
#if defined(__x86_64__) || defined(__i386__)
    { "rdtsc", loop_rdtsc, 1 },
#endif
    { "clock_gettime", loop_clock_gettime, 1 },
    { "unw_backtrace_5", loop_backtrace5, 1 },
};
#define NBENCH (sizeof benches / sizeof benches[0])

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* measure: the median over o->reps repetitions of the time per call, ns. */
static __attribute__((noinline)) double measure(const struct bench *b, const struct opts *o, double *t)
{
    MPI_Barrier(MPI_COMM_WORLD);
    b->loop(o->calls);
    for (long r = 0; r < o->reps; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        uint64_t t0 = prof_clock_mono_ns();
        b->loop(o->calls);
        uint64_t t1 = prof_clock_mono_ns();
        t[r] = (double)(t1 - t0) / ((double)o->calls * b->per_iter);
    }
    qsort(t, (size_t)o->reps, sizeof *t, cmp_double);
    long m = o->reps / 2;
    return o->reps % 2 ? t[m] : (t[m - 1] + t[m]) / 2;
}

static void header(const struct opts *o)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(version, &len);
    version[strcspn(version, "\n")] = '\0';
    for (char *p = version; *p; p++)    /* MPICH's has tabs */
        if (*p == '\t')
            *p = ' ';
    const char *preload = getenv("LD_PRELOAD");
    int profiled = preload && strstr(preload, "mpiprof");
    const char *depth = getenv("MPIPROF_STACK_DEPTH");
    const char *clock = uses_tsc() ? "rdtsc" : "clock_gettime";

    printf("# " PROG ": time per call in ns, median of %ld repetitions of %ld calls after a warm-up\n",
           o->reps, o->calls);
    printf("# mpi=%s\n", version);
    if (profiled)
        printf("# profiled: LD_PRELOAD=%s MPIPROF_STACK_DEPTH=%s\n", preload, depth ? depth : "(default)");
    else
        printf("# profiled: no\n");
    printf("# MPI_Send+MPI_Recv: 1-byte ping-pong between ranks 0 and 1, N round trips / 2N:"
           " per one-way message (one MPI_Send + its matching MPI_Recv)\n");
    printf("# MPI_Iprobe: source 1, a tag never sent: no message pending\n");
    printf("# MPI_Comm_rank: MPI_COMM_WORLD\n");
    printf("# rdtsc, clock_gettime: one __rdtsc(), one clock_gettime(CLOCK_MONOTONIC)\n");
    printf("# unw_backtrace_5: libunwind unw_backtrace() of 5 frames (the depth-5 budget reference)\n");
    printf("# floor: two reads of the clock mpiprof uses here (%s): the least a profiled call adds\n", clock);
    printf("# name ns_per_call\n");
}

static int run_all(const struct opts *o)
{
    double *t = malloc((size_t)o->reps * sizeof *t);
    double result[NBENCH];
    if (!t) {
        fprintf(stderr, PROG ": out of memory\n");
        return 1;
    }
    for (size_t i = 0; i < NBENCH; i++)
        result[i] = measure(&benches[i], o, t);
    free(t);
    if (rank != 0)
        return 0;
    header(o);
    double clock_ns = 0;
    const char *clock = uses_tsc() ? "rdtsc" : "clock_gettime";
    for (size_t i = 0; i < NBENCH; i++) {
        printf("%s %.1f\n", benches[i].name, result[i]);
        if (strcmp(benches[i].name, clock) == 0)
            clock_ns = result[i];
    }
    printf("floor %.1f\n", 2 * clock_ns);
    fflush(stdout);
    return 0;
}

/* descend: run the measurements levels frames further down the stack. */
static __attribute__((noinline)) int descend(int levels, const struct opts *o)
{
    int rc = levels > 0 ? descend(levels - 1, o) : run_all(o);
    keep_frames++;
    return rc;
}

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: mpirun -np 2 " PROG " [-n N] [-r R]\n"
            "Time per call (ns) of a 1-byte MPI_Send+MPI_Recv ping-pong (per one-way\n"
            "message), MPI_Iprobe with no message pending, MPI_Comm_rank, and of the clock\n"
            "reads a profiler makes (rdtsc, clock_gettime, the two-read floor), and\n"
            "unw_backtrace of 5 frames. Run it with and without mpiprof and subtract;\n"
            "bench/overhead.sh does, interleaved.\n"
            "  -n N   calls per repetition, 1..%ld (default %d)\n"
            "  -r R   repetitions, the median is printed, 1..%ld (default %d)\n"
            "  -h     show this help and exit\n",
            MAX_CALLS, DEFAULT_CALLS, MAX_REPS, DEFAULT_REPS);
}

/* parse: 0 to run, 1 for -h, 2 on a bad command line (message in err). */
static int parse(int argc, char **argv, struct opts *o, char *err, size_t errlen)
{
    o->calls = DEFAULT_CALLS;
    o->reps = DEFAULT_REPS;
    const struct bench_intopt opts[] = {
        { 'n', 1, MAX_CALLS, &o->calls },
        { 'r', 1, MAX_REPS, &o->reps },
    };
    return bench_intopts_parse(PROG, argc, argv, opts, 2, err, errlen);
}

int main(int argc, char **argv)
{
    struct opts o;
    char err[256] = "";
    int size, rc;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    peer = 1 - rank;
    rc = parse(argc, argv, &o, err, sizeof err);
    if (rc == 0 && size != 2) {
        snprintf(err, sizeof err, PROG ": needs exactly 2 ranks, not %d", size);
        rc = 2;
    }
    if (rc == 1 && rank == 0)
        usage(stdout);
    if (rc == 2 && rank == 0)
        fprintf(stderr, "%s\n", err);
    if (rc == 0)
        rc = descend(STACK_LEVELS, &o);
    MPI_Finalize();
    return rc == 1 ? 0 : rc;
}
