/* model.c: virtual clocks (see model.h). One clock per process, under a
 * lock: with several threads calling MPI their calls share one timeline. */
#include <pthread.h>
#include <time.h>
#include "lock.h"
#include "prof.h"

int prof_model_on;

static struct {
    pthread_mutex_t lock;
    double now;              /* the modelled clock at the last call's end (s) */
    uint64_t last;           /* the real clock then (ticks) */
    double sec_per_tick;
    double mpi, compute;     /* modelled time inside MPI calls and between them */
    double fn[PROF_FN_COUNT];
} clk = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* --- the clock ------------------------------------------------------------- */

/* T(bytes): one message's modelled time. */
static double transfer(uint64_t bytes)
{
    return prof_model.perfect ? 0 : prof_model.lat + (double)bytes / prof_model.bw;
}

/* Seconds per tick of the profiler's clock, measured over 20 ms (the
 * profiler's own ratio is known only at the end of the run). */
static double calibrate(void)
{
    if (!prof_clock_use_tsc)
        return 1e-9;
    struct timespec ts = { 0, 20000000 };
    uint64_t m0 = prof_clock_mono_ns(), t0 = prof_clock();
    while (nanosleep(&ts, &ts) != 0)
        ;
    uint64_t m1 = prof_clock_mono_ns(), t1 = prof_clock();
    return t1 > t0 ? (double)(m1 - m0) * 1e-9 / (double)(t1 - t0) : 1e-9;
}

void prof_model_start(void)
{
    double spt = calibrate();
    prof_lock(&clk.lock);
    clk.sec_per_tick = spt;
    clk.last = prof_clock();
    clk.now = 0;
    prof_unlock(&clk.lock);
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

void prof_model_begin(struct prof_call *c, uint64_t t1)
{
    c->m_begin = prof_model_now(c);
    c->m_t1 = t1;
    c->m_real = (double)(t1 - c->t0) * clk.sec_per_tick;
    c->m_end = c->m_begin + c->m_real;
    c->m_bytes = 0;
}

void prof_model_free(struct prof_call *c)
{
    c->m_end = c->m_begin;
}

void prof_model_arrival(struct prof_call *c, double sent, uint64_t bytes)
{
    double at = sent >= 0 ? sent + transfer(bytes) : c->m_begin + c->m_real;
    if (at > c->m_end)
        c->m_end = at;
}

void prof_model_volume(struct prof_call *c, uint64_t bytes)
{
    c->m_bytes = bytes;
}

void prof_model_sync(struct prof_call *c, MPI_Comm comm)
{
    c->m_comm = comm;
}

static unsigned log2_ceil(int p)
{
    unsigned k = 0;
    while ((1 << k) < p)
        k++;
    return k;
}

/* A collective's modelled cost on p processes when the largest volume of
 * one process is bytes: tree algorithms for the broadcast-like ones, two
 * trees for allreduce, p - 1 exchanges of a p-th each for the rest. */
static double coll_cost(int fn, int p, uint64_t bytes)
{
    if (prof_model.perfect || p < 2)
        return 0;
    switch (fn) {
    case FN_MPI_Barrier:
    case FN_MPI_Win_fence:
        return log2_ceil(p) * transfer(0);
    case FN_MPI_Bcast:
    case FN_MPI_Reduce:
    case FN_MPI_Scan:
    case FN_MPI_Exscan:
        return log2_ceil(p) * transfer(bytes);
    case FN_MPI_Allreduce:
        return 2 * log2_ceil(p) * transfer(bytes);
    default:
        return (p - 1) * transfer(bytes / (uint64_t)p);
    }
}

/* The latest modelled start and the largest volume over comm's processes. */
static void agree(struct prof_call *c)
{
    double mine[2] = { c->m_begin, (double)c->m_bytes }, all[2];
    int p = 0;
    if (PMPI_Comm_size(c->m_comm, &p) != MPI_SUCCESS ||
        PMPI_Allreduce(mine, all, 2, MPI_DOUBLE, MPI_MAX, c->m_comm) != MPI_SUCCESS)
        return;
    c->m_end = all[0] + coll_cost(c->fn, p, (uint64_t)all[1]);
}

void prof_model_end(struct prof_call *c)
{
    if (prof_fn_coll[c->fn] == 2 && c->m_comm != MPI_COMM_NULL)
        agree(c);
    prof_lock(&clk.lock);
    double before = compute_before(c->t0);
    if (c->m_end < c->m_begin)
        c->m_end = c->m_begin;
    clk.compute += before;
    clk.mpi += c->m_end - c->m_begin;
    clk.fn[c->fn] += c->m_end - c->m_begin;
    clk.now = c->m_end > clk.now + before ? c->m_end : clk.now + before;
    clk.last = c->m_t1;
    prof_unlock(&clk.lock);
}

void prof_model_finish(uint64_t t_end, double *elapsed, double *mpi, double *compute)
{
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
