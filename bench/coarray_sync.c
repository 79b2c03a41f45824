/* coarray_sync.c: the synchronisation section of mpiprof-coarray (EPCC
 * "Synchronisation"): the overhead of a sync as the time of a delay loop
 * followed by the sync minus the time of the delay loop alone, "outer"
 * samples of "inner" iterations of each. The loop alone is fixed work, so
 * its fastest sample is its cost (a process descheduled in one sample
 * would otherwise make the overhead negative); with the sync, the mean of
 * the samples. Both are then means over the processes.
 *
 *   all        every process: MPI_Barrier (p2p), MPI_Win_fence (fence),
 *              a notification to and from every other process (lock)
 *   pairwise   rank i with i + P/2 (mod P)
 *   ring N     rank +-1 .. +-N/2 (mod P), N = 2, 4, ... min(-m, P-2)
 *   random N   the same on a ring of the ranks randomly permuted (the
 *              same permutation on every process: a fixed seed)
 *   grid3d     the 6 neighbours of the periodic 3D grid (P >= 8)
 *   lock       MPI_Win_lock exclusive on rank 0, MPI_Win_unlock (lock)
 *   critical   a critical region behind a ticket lock on rank 0: take a
 *              ticket (MPI_Fetch_and_op MPI_SUM), poll the ticket served
 *              (MPI_Fetch_and_op MPI_NO_OP) until it is ours, inside read,
 *              increment and write a counter (MPI_Get, MPI_Put), then
 *              serve the next ticket (MPI_Accumulate MPI_SUM), each
 *              flushed; the counter must end at P x outer x inner (lock)
 * The neighbour syncs are zero-byte messages (p2p) or notifications (lock),
 * ca_sync_neighbours. */
#include <stdio.h>
#include <stdlib.h>
#include "coarray.h"
#include "expect.h"

enum kind { ALL, NEIGHBOURS, LOCK0, CRITICAL };

/* One sync pattern in one form, and what it needs. */
struct sy {
    struct ca_run *r;
    enum kind kind;
    int form;
    int *nb, count;         /* NEIGHBOURS (and ALL in the lock form) */
    MPI_Request *reqs;
    MPI_Status *st;
    struct ca_notify *nt;
    MPI_Win win;            /* fence, LOCK0, CRITICAL */
    long *cell;             /* CRITICAL: rank 0's next ticket, ticket served, counter */
};

/* The critical region: a ticket lock on rank 0 (cell[0] the next
 * ticket, cell[1] the ticket served), fetch-and-add atomics throughout
 * (Open MPI 4.1's osc/rdma crashes in MPI_Compare_and_swap on the calling
 * process's own window). */
static void critical(struct sy *s)
{
    const long one = 1;
    long ticket, served, counter;
    MPI_Fetch_and_op(&one, &ticket, MPI_LONG, 0, 0, MPI_SUM, s->win);
    MPI_Win_flush(0, s->win);
    do {
        MPI_Fetch_and_op(NULL, &served, MPI_LONG, 0, 1, MPI_NO_OP, s->win);
        MPI_Win_flush(0, s->win);
    } while (served != ticket);
    MPI_Get(&counter, 1, MPI_LONG, 0, 2, 1, MPI_LONG, s->win);
    MPI_Win_flush(0, s->win);
    counter++;
    MPI_Put(&counter, 1, MPI_LONG, 0, 2, 1, MPI_LONG, s->win);
    MPI_Win_flush(0, s->win);
    MPI_Accumulate(&one, 1, MPI_LONG, 0, 1, 1, MPI_LONG, MPI_SUM, s->win);
    MPI_Win_flush(0, s->win);
}

static void sync_once(struct sy *s)
{
    switch (s->kind) {
    case ALL:
        if (s->form == CA_P2P)
            MPI_Barrier(MPI_COMM_WORLD);
        else if (s->form == CA_FENCE)
            MPI_Win_fence(0, s->win);
        else
            ca_sync_neighbours(CA_LOCK, s->nt, s->nb, s->count, s->reqs, s->st);
        break;
    case NEIGHBOURS:
        ca_sync_neighbours(s->form, s->nt, s->nb, s->count, s->reqs, s->st);
        break;
    case LOCK0:
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, s->win);
        MPI_Win_unlock(0, s->win);
        break;
    case CRITICAL:
        critical(s);
        break;
    }
}

/* The window a pattern needs, before its samples, and after them. */
static void setup(struct sy *s)
{
    s->win = MPI_WIN_NULL;
    if (s->kind == ALL && s->form == CA_FENCE) {
        void *base;
        ca_win_allocate(0, 1, &base, &s->win);
        MPI_Win_fence(0, s->win);
        bench_expect_add("MPI_Win_fence", 1, 0, 0);
    } else if (s->kind == LOCK0 || s->kind == CRITICAL) {
        ca_win_allocate(s->r->rank == 0 ? 3 * sizeof(long) : 0, sizeof(long), &s->cell, &s->win);
        if (s->r->rank == 0)
            s->cell[0] = s->cell[1] = s->cell[2] = 0;
        MPI_Barrier(MPI_COMM_WORLD);
        bench_expect_add("MPI_Barrier", 1, 0, 0);
        if (s->kind == CRITICAL)
            MPI_Win_lock_all(0, s->win);
    }
}

/* CRITICAL: the counter must count every entry; 1 if it does not. */
static int teardown(struct sy *s, long entries)
{
    int bad = 0;
    if (s->kind == CRITICAL) {
        MPI_Barrier(MPI_COMM_WORLD);   /* every entry flushed */
        bench_expect_add("MPI_Barrier", 1, 0, 0);
        MPI_Win_sync(s->win);
        long want = entries * s->r->size;
        if (s->r->rank == 0 && s->cell[2] != want) {
            fprintf(stderr, CA_PROG ": critical: the counter is %ld after %ld entries (mutual exclusion "
                    "broken)\n", s->cell[2], want);
            bad = 1;
        }
        MPI_Win_unlock_all(s->win);
    }
    if (s->win != MPI_WIN_NULL)
        MPI_Win_free(&s->win);
    return bad;
}

/* BENCH_EXPECT: the samples' barriers and reps syncs (sync_once). */
static void tally(const struct sy *s, long reps)
{
    const long long word = sizeof(long);
    bench_expect_add("MPI_Barrier", 2 * s->r->o->outer, 0, 0);
    if (s->kind == ALL && s->form == CA_P2P)
        bench_expect_add("MPI_Barrier", reps, 0, 0);
    else if (s->kind == ALL && s->form == CA_FENCE)
        bench_expect_add("MPI_Win_fence", reps, 0, 0);
    else if (s->kind == ALL || s->kind == NEIGHBOURS)
        ca_sync_neighbours_tally(s->form, s->count, reps);
    else if (s->kind == CRITICAL) {
        /* a long each: the ticket served, the counter read and written */
        bench_expect_add("MPI_Accumulate", reps, reps * word, 0);
        bench_expect_add("MPI_Get", reps, 0, reps * word);
        bench_expect_add("MPI_Put", reps, reps * word, 0);
    }
}

static void measure(struct sy *s, const char *name)
{
    const struct ca_opts *o = s->r->o;
    double delay = -1, with_sync = 0;
    setup(s);
    for (long k = 0; k < o->outer; k++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t = MPI_Wtime();
        for (long i = 0; i < o->inner; i++)
            ca_delay(o->delay);
        t = MPI_Wtime() - t;
        if (delay < 0 || t < delay)
            delay = t;
        MPI_Barrier(MPI_COMM_WORLD);
        t = MPI_Wtime();
        for (long i = 0; i < o->inner; i++) {
            ca_delay(o->delay);
            sync_once(s);
        }
        with_sync += MPI_Wtime() - t;
    }
    long reps = o->outer * o->inner;
    tally(s, reps);
    s->r->failed |= teardown(s, reps);
    double per_process = 1e6 / s->r->size;
    delay = ca_sum(delay) * per_process / (double)o->inner;
    with_sync = ca_sum(with_sync) * per_process / (double)reps;
    int neighbours = s->kind == LOCK0 || s->kind == CRITICAL ? 1 : s->kind == ALL ? s->r->size - 1 : s->count;
    if (s->r->rank == 0)
        printf("sync     %-9s %-5s %5d %9ld %11.3f %11.3f %11.3f\n", name, ca_form_names[s->form], neighbours, reps,
               delay, with_sync, with_sync - delay);
}

/* The pattern in each selected form of forms (a mask of 1 << form). */
static void each_form(struct sy *s, const char *name, unsigned forms)
{
    for (s->form = 0; s->form < CA_NFORMS; s->form++)
        if (forms & s->r->o->forms & 1u << s->form)
            measure(s, name);
}

/* Neighbours of a ring of order[] (ranks): +-1 .. +-n/2 from this rank's
 * place. */
static void ring(struct sy *s, const int *order, int n)
{
    int size = s->r->size, at = 0;
    while (order[at] != s->r->rank)
        at++;
    s->count = 0;
    for (int k = 1; k <= n / 2; k++) {
        s->nb[s->count++] = order[(at + k) % size];
        s->nb[s->count++] = order[(at - k + size) % size];
    }
}

/* A permutation of the ranks, the same on every process (a fixed LCG). */
static void shuffle(int *order, int size)
{
    unsigned long x = 19;
    for (int i = 0; i < size; i++)
        order[i] = i;
    for (int i = size - 1; i > 0; i--) {
        x = x * 6364136223846793005UL + 1442695040888963407UL;
        int j = (int)((x >> 33) % (unsigned long)(i + 1)), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
}

static void neighbour_patterns(struct sy *s, int *order, int *shuffled)
{
    const struct ca_opts *o = s->r->o;
    int size = s->r->size;
    unsigned p2p_lock = 1u << CA_P2P | 1u << CA_LOCK;
    s->kind = NEIGHBOURS;
    s->nb[0] = (s->r->rank + size / 2) % size;
    s->count = 1;
    each_form(s, "pairwise", p2p_lock);
    for (int n = 2; n <= o->maxneigh && n <= size - 2; n += 2) {
        char name[32];
        ring(s, order, n);
        snprintf(name, sizeof name, "ring%d", n);
        each_form(s, name, p2p_lock);
        ring(s, shuffled, n);
        snprintf(name, sizeof name, "random%d", n);
        each_form(s, name, p2p_lock);
    }
    if (size >= 8) {
        struct ca_grid g;
        ca_grid_create(&g);
        s->count = 6;
        for (int i = 0; i < 6; i++)
            s->nb[i] = g.nb[i];
        each_form(s, "grid3d", p2p_lock);
        ca_grid_free(&g);
    } else if (s->r->rank == 0) {
        printf("# sync grid3d: needs at least 8 processes\n");
    }
}

void ca_sync(struct ca_run *r)
{
    const struct ca_opts *o = r->o;
    int size = r->size, nmax = size > 6 ? size : 6;
    struct ca_notify nt;
    struct sy s = { .r = r, .nt = &nt };
    s.nb = ca_alloc((size_t)nmax * sizeof *s.nb);
    s.reqs = ca_alloc(2 * (size_t)nmax * sizeof *s.reqs);
    s.st = ca_alloc(2 * (size_t)nmax * sizeof *s.st);
    int *order = ca_alloc((size_t)size * sizeof *order), *shuffled = ca_alloc((size_t)size * sizeof *shuffled);
    for (int i = 0; i < size; i++)
        order[i] = i;
    shuffle(shuffled, size);
    if (o->forms & 1u << CA_LOCK)
        ca_notify_create(&nt);
    if (r->rank == 0)
        printf("# sync: delay loop of %ld steps; per sync, means over the processes: delay_us the loop alone "
               "(fastest sample), time_us loop and sync, overhead_us the difference\n"
               "# section pattern form neighbours reps delay_us time_us overhead_us\n", o->delay);
    s.kind = ALL;
    for (s.count = 0; s.count < size - 1; s.count++)
        s.nb[s.count] = (r->rank + s.count + 1) % size;
    each_form(&s, "all", 1u << CA_P2P | 1u << CA_FENCE | 1u << CA_LOCK);
    neighbour_patterns(&s, order, shuffled);
    s.kind = LOCK0;
    each_form(&s, "lock", 1u << CA_LOCK);
    s.kind = CRITICAL;
    each_form(&s, "critical", 1u << CA_LOCK);
    if (o->forms & 1u << CA_LOCK)
        ca_notify_free(&nt);
    free(s.nb);
    free(s.reqs);
    free(s.st);
    free(order);
    free(shuffled);
}
