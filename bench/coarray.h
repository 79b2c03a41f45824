/* coarray.h: mpiprof-coarray, the EPCC Fortran coarray micro-benchmarks
 * (ping-pong, synchronisation, 3D halo swap) expressed with MPI, each
 * pattern in a point-to-point form and one-sided forms. Shared by
 * coarray.c (command line, helpers), coarray_pingpong.c, coarray_sync.c
 * and coarray_halo.c. Nothing here is hot but the transfers themselves. */
#ifndef BENCH_COARRAY_H
#define BENCH_COARRAY_H

#include <mpi.h>

#define CA_PROG "mpiprof-coarray"
#define CA_MAX_HALO 16           /* -z: at most this many sub-domain sizes */
#define CA_VOLUME (64L << 20)    /* bytes per measurement before repetitions are cut (ca_reps) */
#define CA_MAX_EXTENT (1L << 25) /* doubles of a ping-pong extent (256 MiB, twice per process) */

/* Bits of ca_opts.sections, .pairs and .forms: the words of -s, -p, -f. */
enum ca_section { CA_PINGPONG, CA_SYNC, CA_HALO };
enum ca_pairs { CA_SINGLE, CA_MULTIPLE, CA_CROSSING };
/* p2p: MPI_Send/MPI_Recv (zero-byte messages to synchronise, MPI_Barrier
 * for all); fence: MPI_Put/MPI_Get closed by MPI_Win_fence; lock:
 * MPI_Put/MPI_Get in an MPI_Win_lock_all epoch, MPI_Win_flush, then a
 * notification (struct ca_notify). */
enum ca_form { CA_P2P, CA_FENCE, CA_LOCK, CA_NFORMS };

extern const char *const ca_form_names[];   /* the words of -f, NULL-terminated */
extern const char *const ca_pairs_names[];  /* the words of -p, NULL-terminated */

struct ca_opts {
    unsigned sections, pairs, forms;
    long ndata_max;     /* -n: ping-pong sizes 1, 2, 4, ... up to ndata_max doubles */
    long blksize;       /* -b: block of the many and strided patterns, doubles (a power of two) */
    long stride;        /* -t: distance of strided blocks, doubles; 0: 2 * blksize */
    long reps;          /* -r: repetitions per measurement, at most */
    long maxneigh;      /* -m: most neighbours of the random and ring syncs */
    long delay;         /* -d: iterations of the delay loop */
    long inner, outer;  /* -i, -k: syncs per sample, samples */
    long halo[CA_MAX_HALO];   /* -z: sub-domain edges, cells */
    int n_halo;
};

/* One run: options, this process, and whether a check failed. */
struct ca_run {
    const struct ca_opts *o;
    int rank, size;
    int corrupt;    /* BENCH_CHECK_CORRUPT set: checks must see one wrong value each (test hook) */
    int failed;     /* a check failed: exit status 1 */
};

/* The 3D periodic grid of MPI_Dims_create and MPI_Cart_create (no
 * reordering, so grid ranks are world ranks); nb[2d] and nb[2d+1] the
 * neighbours down and up in dimension d (MPI_Cart_shift). */
struct ca_grid {
    MPI_Comm cart;
    int dims[3], coords[3];
    int nb[6];
};
void ca_grid_create(struct ca_grid *g);
void ca_grid_free(struct ca_grid *g);

/* One-sided notification, the "sync images" of the lock form: every
 * process has one counter per process in a window (MPI_Win_allocate,
 * MPI_Win_lock_all); ca_notify_post adds 1 to target's counter of this
 * process (MPI_Accumulate, MPI_Win_flush); ca_notify_wait waits until this
 * process's counter of source has grown by one more than before
 * (MPI_Fetch_and_op with MPI_NO_OP on itself, polled). Counting per
 * source keeps a neighbour that is one sync ahead from being taken for
 * another. Create and free are collective over MPI_COMM_WORLD. */
struct ca_notify {
    MPI_Win win;
    long *slot;     /* the window: slot[s], notifications from s */
    long *seen;     /* notifications from s consumed */
    int rank;
};
void ca_notify_create(struct ca_notify *n);
void ca_notify_post(struct ca_notify *n, int target);
void ca_notify_wait(struct ca_notify *n, int source);
void ca_notify_free(struct ca_notify *n);

/* BENCH_EXPECT (expect.h): ca_notify_tally, n notifications posted (one
 * MPI_Accumulate of a long each); ca_sync_neighbours_tally, n calls of
 * ca_sync_neighbours with count neighbours in form. Called after the timed
 * parts; nothing is tallied without BENCH_EXPECT. */
void ca_notify_tally(long n);
void ca_sync_neighbours_tally(int form, int count, long n);

/* ca_sync_neighbours: every process of nb (count, repeats allowed) learns
 * that this one got here, and this one waits for each: zero-byte
 * MPI_Irecv/MPI_Isend and MPI_Waitall (p2p; reqs and st room for 2 count:
 * real statuses, as gcc 12 misreads MPICH's MPI_STATUSES_IGNORE), or
 * ca_notify_post to each then ca_notify_wait for each (lock). The
 * neighbour lists must be symmetric (b in a's list as often as a in b's). */
void ca_sync_neighbours(int form, struct ca_notify *n, const int *nb, int count, MPI_Request *reqs,
                        MPI_Status *st);

/* ca_extent: the doubles the ping-pong's largest pattern spans (its
 * largest size is the largest power of two up to -n). */
long ca_extent(const struct ca_opts *o);

/* ca_win_allocate: MPI_Win_allocate over MPI_COMM_WORLD of at least
 * bytes (rounded up to 64: MPICH 4.0.2 places the next process's memory
 * 8 bytes off when a size is not a multiple of 16, so its puts land one
 * double low), displacement unit disp_unit; *base gets the memory.
 * Collective. */
void ca_win_allocate(size_t bytes, int disp_unit, void *base, MPI_Win *win);

/* ca_reps: repetitions of a measurement moving bytes per repetition:
 * max(1, min(-r, CA_VOLUME / bytes)). */
long ca_reps(const struct ca_opts *o, long bytes);

/* The largest and the sum over all processes (MPI_Allreduce). */
double ca_max(double v);
double ca_sum(double v);

/* ca_delay: the delay loop of the synchronisation benchmark, n steps of
 * dependent floating-point work the compiler cannot remove. */
double ca_delay(long n);

/* ca_alloc: n bytes, or exit with status 2 after a message when there is
 * no memory on some process (collective). */
void *ca_alloc(size_t n);

/* The sections; world rank 0 prints. */
void ca_pingpong(struct ca_run *r);
void ca_sync(struct ca_run *r);
void ca_halo(struct ca_run *r);

#endif
