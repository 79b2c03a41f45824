/* known.c: mpiprof-known WORKLOAD [options]: dispatch, the compute stand-in
 * and the expected-answer line (known.h). */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <mpi.h>
#include "known.h"

static const struct known_workload *const workloads[] = {
    &known_late_sender, &known_late_receiver, &known_late_senders, &known_late_waitall, &known_late_exchange,
    &known_imbalance,
    &known_model_compute, &known_model_icompute, &known_model_pcompute, &known_model_comm, &known_model_sends, &known_model_link,
    &known_model_rma, &known_model_colls, &known_model_chain, &known_model_sync, &known_model_lock,
    &known_waits, &known_rma, &known_io,
};
#define NWORKLOADS (int)(sizeof workloads / sizeof workloads[0])

double known_t0;

double known_compute(double seconds)
{
    double t0 = MPI_Wtime();
    struct timespec ts = { (time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9) };
    while (nanosleep(&ts, &ts) != 0)
        ;
    return MPI_Wtime() - t0;
}

static void *zeroed(long n, size_t size)
{
    void *v = calloc(n > 0 ? (size_t)n : 1, size);
    if (!v) {
        fprintf(stderr, "mpiprof-known: out of memory for %ld values\n", n);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return v;
}

double *known_doubles(long n)
{
    return zeroed(n, sizeof(double));
}

int *known_ints(long n)
{
    return zeroed(n, sizeof(int));
}

double *known_gather(const double *mine, int n)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double *all = rank == 0 ? known_doubles((long)size * n) : NULL;
    MPI_Gather(mine, n, MPI_DOUBLE, all, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    return all;
}

void known_line(const char *name, long calls, double delay, const char *file, const char *column)
{
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    printf("expect=%s ranks=%d calls=%ld delay_s=%.6f file=%s column=%s", name, size, calls, delay, file, column);
}

void known_list(const char *key, int n, const int *ids, const double *values)
{
    printf(" %s=", key);
    for (int i = 0; i < n; i++) {
        if (i)
            putchar(',');
        if (ids)
            printf("%d:", ids[i]);
        printf("%.6f", values[i]);
    }
}

void known_end(void)
{
    putchar('\n');
    fflush(stdout);
}

static void usage(FILE *f)
{
    fprintf(f, "Usage: mpirun -np N mpiprof-known WORKLOAD [options] (-h after WORKLOAD for its options)\n");
    for (int i = 0; i < NWORKLOADS; i++)
        fprintf(f, "  %-12s %s\n", workloads[i]->name, workloads[i]->summary);
}

int main(int argc, char **argv)
{
    int rank, size, rc = 2;
    MPI_Init(&argc, &argv);
    known_t0 = MPI_Wtime();
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const struct known_workload *w = NULL;
    for (int i = 0; argc > 1 && i < NWORKLOADS; i++)
        if (strcmp(argv[1], workloads[i]->name) == 0)
            w = workloads[i];
    if (w) {
        rc = w->run(argc - 1, argv + 1, rank, size);
    } else if (argc > 1 && strcmp(argv[1], "-h") == 0) {
        if (rank == 0)
            usage(stdout);
        rc = 0;
    } else if (rank == 0) {
        if (argc > 1)
            fprintf(stderr, "mpiprof-known: unknown workload '%s'\n", argv[1]);
        else
            fprintf(stderr, "mpiprof-known: no workload given\n");
        usage(stderr);
    }
    MPI_Finalize();
    return rc;
}
