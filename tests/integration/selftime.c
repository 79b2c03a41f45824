/* selftime.c: a program that times its own MPI calls (issue 33 item 1),
 * so that a report's compute_s and per-function times can be held
 * against the program's own view under every option (t_selftime.sh).
 *
 * Usage: selftime DIR ROUNDS MS. Each of ROUNDS rounds, rank i:
 * computes (i + 1) x MS ms, MPI_Allreduce of one double; rank 0 computes
 * 2 x MS ms more (a late root), MPI_Bcast of 256 KiB from rank 0; rank 0
 * computes 3 x MS ms more, MPI_Reduce of one double to rank 0 (the
 * others leave at once: a clock exchange that held them until the root
 * came would show here); a ring MPI_Sendrecv of 256 KiB; MPI_Iallreduce, MS / 2 ms of compute, MPI_Wait;
 * MPI_Barrier. Every MPI call between MPI_Init and MPI_Finalize is timed
 * with MPI_Wtime; each rank writes DIR/self.RANK: "compute SECONDS", then
 * "FUNCTION CALLS SECONDS" per function (no MPI call after the clock
 * stops, so the profiler's elapsed time is the program's). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <mpi.h>

enum { ALLREDUCE, BCAST, REDUCE, SENDRECV, IALLREDUCE, WAIT, BARRIER, COMM_RANK, COMM_SIZE, NFN };
static const char *const names[NFN] = { "MPI_Allreduce", "MPI_Bcast", "MPI_Reduce", "MPI_Sendrecv",
                                        "MPI_Iallreduce", "MPI_Wait", "MPI_Barrier", "MPI_Comm_rank",
                                        "MPI_Comm_size" };
static double spent[NFN];
static long calls[NFN];

/* TIMED(fn, call): the call, its time added to fn's. */
#define TIMED(fn, call)                        \
    do {                                       \
        double t_ = MPI_Wtime();               \
        call;                                  \
        spent[fn] += MPI_Wtime() - t_;         \
        calls[fn]++;                           \
    } while (0)

static void compute(double ms)
{
    struct timespec ts = { (time_t)(ms / 1000), (long)((ms - 1000 * (long)(ms / 1000)) * 1e6) };
    while (nanosleep(&ts, &ts) != 0)
        ;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    double t_start = MPI_Wtime();
    int rank, size;
    TIMED(COMM_RANK, MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    TIMED(COMM_SIZE, MPI_Comm_size(MPI_COMM_WORLD, &size));
    if (argc != 4) {
        if (rank == 0)
            fprintf(stderr, "usage: selftime DIR ROUNDS MS\n");
        MPI_Finalize();
        return 2;
    }
    int rounds = atoi(argv[2]), n = 1 << 15;
    double ms = atof(argv[3]), x = rank, y;
    double *buf = calloc((size_t)n, sizeof *buf), *in = calloc((size_t)n, sizeof *in);
    if (!buf || !in)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (int r = 0; r < rounds; r++) {
        MPI_Request req;
        compute((rank + 1) * ms);
        TIMED(ALLREDUCE, MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
        if (rank == 0)
            compute(2 * ms);
        TIMED(BCAST, MPI_Bcast(buf, n, MPI_DOUBLE, 0, MPI_COMM_WORLD));
        if (rank == 0)
            compute(3 * ms);
        TIMED(REDUCE, MPI_Reduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD));
        TIMED(SENDRECV, MPI_Sendrecv(buf, n, MPI_DOUBLE, (rank + 1) % size, 1, in, n, MPI_DOUBLE,
                                     (rank + size - 1) % size, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        TIMED(IALLREDUCE, MPI_Iallreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req));
        compute(ms / 2);
        TIMED(WAIT, MPI_Wait(&req, MPI_STATUS_IGNORE));
        TIMED(BARRIER, MPI_Barrier(MPI_COMM_WORLD));
    }
    double elapsed = MPI_Wtime() - t_start, mpi = 0;
    for (int f = 0; f < NFN; f++)
        mpi += spent[f];
    char path[4096];
    snprintf(path, sizeof path, "%s/self.%d", argv[1], rank);
    FILE *out = fopen(path, "w");
    if (!out) {
        perror(path);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    fprintf(out, "compute %.9f\n", elapsed - mpi);
    for (int f = 0; f < NFN; f++)
        fprintf(out, "%s %ld %.9f\n", names[f], calls[f], spent[f]);
    fclose(out);
    free(buf);
    free(in);
    MPI_Finalize();
    return 0;
}
