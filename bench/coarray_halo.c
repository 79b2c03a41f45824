/* coarray_halo.c: the halo section of mpiprof-coarray (EPCC "Halo"): each
 * process owns an n x n x n sub-domain of the periodic 3D grid (struct
 * ca_grid) with a halo one cell wide, and a swap fills the six face halos
 * from the neighbours' boundary layers (MPI_Type_create_subarray on both
 * sides):
 *   p2p    6 MPI_Irecv, 6 MPI_Isend, MPI_Waitall
 *   fence  MPI_Win_fence, 6 MPI_Put into the neighbours' halos, MPI_Win_fence
 *   lock   neighbour sync (they are done with their halos), 6 MPI_Put,
 *          MPI_Win_flush_all, neighbour sync (the halos are complete)
 * Cell (x, y, z) of the global grid holds owner + P (x + X (y + Y z)),
 * owner its process: before each swap the halos are set to -1, after it
 * every halo cell is checked against that formula, its owner found from
 * the grid coordinates (MPI_Cart_rank), not from the neighbour list. */
#include <stdio.h>
#include <stdlib.h>
#include "coarray.h"
#include "expect.h"

#define TAG_HALO 23
#define SENTINEL (-1.0)

struct halo {
    struct ca_run *r;
    struct ca_grid g;
    struct ca_notify *nt;
    int form;
    long n, m;                  /* cells per edge, without and with the halo */
    double *a;                  /* m^3 cells, x slowest */
    MPI_Win win;
    MPI_Datatype face[6], halo[6];  /* boundary layer and halo of side f: dimension f/2, up if f odd */
    int owner[6];               /* the process whose cells the halo of side f holds */
    MPI_Request reqs[12];
    MPI_Status st[12];
};

static double cell_value(const struct halo *h, int owner, long x, long y, long z)
{
    long X = h->g.dims[0] * h->n, Y = h->g.dims[1] * h->n;
    return owner + (double)h->r->size * (double)(x + X * (y + Y * z));
}

/* Global coordinate of local index i (0 .. m-1) in dimension d, wrapped. */
static long global(const struct halo *h, int d, long i)
{
    long size = h->g.dims[d] * h->n;
    return ((h->g.coords[d] * h->n + i - 1) % size + size) % size;
}

static long at(const struct halo *h, long i, long j, long k)
{
    return (i * h->m + j) * h->m + k;
}

/* The cells of side f's layer (halo: the one outside the interior) as
 * index ranges lo[d]..hi[d]. */
static void layer(const struct halo *h, int f, int halo, long lo[3], long hi[3])
{
    for (int d = 0; d < 3; d++) {
        lo[d] = 1;
        hi[d] = h->n;
    }
    int d = f / 2;
    lo[d] = hi[d] = f % 2 ? (halo ? h->n + 1 : h->n) : (halo ? 0 : 1);
}

static void types(struct halo *h)
{
    int sizes[3] = { (int)h->m, (int)h->m, (int)h->m };
    for (int f = 0; f < 6; f++)
        for (int halo = 0; halo < 2; halo++) {
            long lo[3], hi[3];
            int sub[3], start[3];
            layer(h, f, halo, lo, hi);
            for (int d = 0; d < 3; d++) {
                sub[d] = (int)(hi[d] - lo[d] + 1);
                start[d] = (int)lo[d];
            }
            MPI_Datatype *t = halo ? &h->halo[f] : &h->face[f];
            MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, t);
            MPI_Type_commit(t);
        }
}

/* The interior from the formula, the halos (everything else) -1; the
 * owners of the halos from the grid coordinates. */
static void fill(struct halo *h)
{
    for (long i = 0; i < h->m; i++)
        for (long j = 0; j < h->m; j++)
            for (long k = 0; k < h->m; k++) {
                int inside = i >= 1 && i <= h->n && j >= 1 && j <= h->n && k >= 1 && k <= h->n;
                h->a[at(h, i, j, k)] = inside ? cell_value(h, h->r->rank, global(h, 0, i), global(h, 1, j),
                                                           global(h, 2, k)) : SENTINEL;
            }
    for (int f = 0; f < 6; f++) {
        int c[3] = { h->g.coords[0], h->g.coords[1], h->g.coords[2] }, d = f / 2;
        c[d] = (c[d] + (f % 2 ? 1 : -1) + h->g.dims[d]) % h->g.dims[d];
        MPI_Cart_rank(h->g.cart, c, &h->owner[f]);
    }
}

/* Set the halos to -1 (reset) or count the halo cells that differ from
 * the formula (the test hook spoils one cell first). */
static long halos(struct halo *h, int reset)
{
    long bad = 0;
    if (!reset && h->r->corrupt)
        h->a[at(h, 0, 1, 1)] += 0.5;
    for (int f = 0; f < 6; f++) {
        long lo[3], hi[3];
        layer(h, f, 1, lo, hi);
        for (long i = lo[0]; i <= hi[0]; i++)
            for (long j = lo[1]; j <= hi[1]; j++)
                for (long k = lo[2]; k <= hi[2]; k++) {
                    double *v = &h->a[at(h, i, j, k)];
                    if (reset)
                        *v = SENTINEL;
                    else
                        bad += *v != cell_value(h, h->owner[f], global(h, 0, i), global(h, 1, j), global(h, 2, k));
                }
    }
    return bad;
}

static void put_faces(struct halo *h)
{
    for (int f = 0; f < 6; f++)
        MPI_Put(h->a, 1, h->face[f], h->g.nb[f], 0, 1, h->halo[f ^ 1], h->win);
}

static void swap(struct halo *h)
{
    if (h->form == CA_P2P) {
        for (int f = 0; f < 6; f++)
            MPI_Irecv(h->a, 1, h->halo[f], h->g.nb[f], TAG_HALO + (f ^ 1), MPI_COMM_WORLD, &h->reqs[f]);
        for (int f = 0; f < 6; f++)
            MPI_Isend(h->a, 1, h->face[f], h->g.nb[f], TAG_HALO + f, MPI_COMM_WORLD, &h->reqs[6 + f]);
        MPI_Waitall(12, h->reqs, h->st);
    } else if (h->form == CA_FENCE) {
        MPI_Win_fence(0, h->win);
        put_faces(h);
        MPI_Win_fence(0, h->win);
    } else {
        MPI_Win_sync(h->win);
        ca_sync_neighbours(CA_LOCK, h->nt, h->g.nb, 6, h->reqs, h->st);
        put_faces(h);
        MPI_Win_flush_all(h->win);
        ca_sync_neighbours(CA_LOCK, h->nt, h->g.nb, 6, h->reqs, h->st);
        MPI_Win_sync(h->win);
    }
}

/* BENCH_EXPECT: what one swap calls in each form, in units of a face's
 * bytes; the lock form's two neighbour syncs come on top. */
static const struct bench_expect_calls p2p_calls[] = {
    { "MPI_Irecv", 6, 0, 6 }, { "MPI_Isend", 6, 6, 0 }, { "MPI_Waitall", 1, 0, 0 }, { NULL, 0, 0, 0 } };
static const struct bench_expect_calls fence_calls[] = {
    { "MPI_Win_fence", 2, 0, 0 }, { "MPI_Put", 6, 6, 0 }, { NULL, 0, 0, 0 } };
static const struct bench_expect_calls lock_calls[] = { { "MPI_Put", 6, 6, 0 }, { NULL, 0, 0, 0 } };
static const struct bench_expect_calls *const swap_calls[CA_NFORMS] = { p2p_calls, fence_calls, lock_calls };

static void tally(const struct halo *h, long reps)
{
    bench_expect_run(swap_calls[h->form], h->n * h->n * (long)sizeof(double), reps);
    if (h->form == CA_LOCK)
        ca_sync_neighbours_tally(CA_LOCK, 6, 2 * reps);
}

static void measure(struct halo *h)
{
    long bytes = 6 * h->n * h->n * (long)sizeof(double), reps = ca_reps(h->r->o, bytes), bad = 0;
    size_t cells = (size_t)(h->m * h->m * h->m);
    if (h->form == CA_P2P)
        h->a = ca_alloc(cells * sizeof(double));
    else
        ca_win_allocate(cells * sizeof(double), sizeof(double), &h->a, &h->win);
    fill(h);
    if (h->form == CA_LOCK)
        MPI_Win_lock_all(0, h->win);
    double total = 0;
    for (long i = 0; i < reps; i++) {
        halos(h, 1);
        double t = MPI_Wtime();
        swap(h);
        total += MPI_Wtime() - t;
        bad += halos(h, 0);
    }
    tally(h, reps);
    if (h->form == CA_LOCK)
        MPI_Win_unlock_all(h->win);
    if (h->form == CA_P2P)
        free(h->a);
    else
        MPI_Win_free(&h->win);
    double us = ca_max(total) / (double)reps * 1e6;
    long errors = (long)ca_sum((double)bad);
    if (errors)
        h->r->failed = 1;
    if (h->r->rank == 0)
        printf("halo     %-5s %5ld %dx%dx%d %7ld %9ld %12.3f %12.4f %8ld\n", ca_form_names[h->form], h->n, h->g.dims[0],
               h->g.dims[1], h->g.dims[2], reps, bytes, us, us > 0 ? (double)bytes / us : 0, errors);
}

void ca_halo(struct ca_run *r)
{
    const struct ca_opts *o = r->o;
    struct ca_notify nt;
    struct halo h = { .r = r, .nt = &nt };
    ca_grid_create(&h.g);
    if (o->forms & 1u << CA_LOCK)
        ca_notify_create(&nt);
    if (r->rank == 0)
        printf("# halo: periodic %dx%dx%d grid of n x n x n sub-domains, halo 1 cell; bytes per process per swap; "
               "time_us per swap (the slowest process); mb_s = bytes / time_us\n"
               "# section form n dims reps bytes time_us mb_s errors\n", h.g.dims[0], h.g.dims[1], h.g.dims[2]);
    for (int i = 0; i < o->n_halo; i++) {
        h.n = o->halo[i];
        h.m = h.n + 2;
        types(&h);
        for (h.form = 0; h.form < CA_NFORMS; h.form++)
            if (o->forms & 1u << h.form)
                measure(&h);
        for (int f = 0; f < 6; f++) {
            MPI_Type_free(&h.face[f]);
            MPI_Type_free(&h.halo[f]);
        }
    }
    if (o->forms & 1u << CA_LOCK)
        ca_notify_free(&nt);
    ca_grid_free(&h.g);
}
