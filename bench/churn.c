/* churn.c: mpiprof-churn, workloads for the profiler's memory bound
 * (issue 22 item 6; bench/churn.sh runs them unprofiled and profiled and
 * compares the resident sets). Each rank repeats one thing -n times:
 *
 *   calls     MPI_Comm_rank from one call site
 *   comms     MPI_Comm_dup of MPI_COMM_WORLD, one MPI_Send/MPI_Recv to
 *             itself on the duplicate (its rank map in use), MPI_Comm_free
 *   types     MPI_Type_vector, MPI_Type_commit, one MPI_Send/MPI_Recv to
 *             itself of one element of it (its size cached), MPI_Type_free
 *   requests  MPI_Irecv and MPI_Isend to itself, MPI_Waitall
 *
 * -w picks the workload. The answer is the resident set: the profiler's
 * share (profiled minus plain) must not depend on -n. Rank 0 prints the
 * workload, n and its own VmHWM from /proc/self/status before
 * MPI_Finalize. A benchmark, not a test: not installed. */
#include <stdio.h>
#include <string.h>
#include <mpi.h>
#include "intopts.h"

#define PROG "mpiprof-churn"

static const char *const workloads[] = { "calls", "comms", "types", "requests", NULL };

static int rank;

static void one_message(MPI_Datatype type, void *sbuf, void *rbuf, MPI_Comm comm)
{
    MPI_Request req;
    MPI_Irecv(rbuf, 1, type, rank, 5, comm, &req);
    MPI_Send(sbuf, 1, type, rank, 5, comm);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
}

static void churn(unsigned which, long n)
{
    int v[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, w[8], r;
    for (long i = 0; i < n; i++) {
        if (which == 1u << 0) {
            MPI_Comm_rank(MPI_COMM_WORLD, &r);
        } else if (which == 1u << 1) {
            MPI_Comm c;
            MPI_Comm_dup(MPI_COMM_WORLD, &c);
            one_message(MPI_INT, v, w, c);
            MPI_Comm_free(&c);
        } else if (which == 1u << 2) {
            MPI_Datatype t;
            MPI_Type_vector(4, 1, 2, MPI_INT, &t);
            MPI_Type_commit(&t);
            one_message(t, v, w, MPI_COMM_WORLD);
            MPI_Type_free(&t);
        } else {
            MPI_Request req[2];
            MPI_Irecv(w, 8, MPI_INT, rank, 6, MPI_COMM_WORLD, &req[0]);
            MPI_Isend(v, 8, MPI_INT, rank, 6, MPI_COMM_WORLD, &req[1]);
            MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
        }
    }
}

/* This process's peak resident set, KiB (VmHWM), or -1. */
static long vmhwm_kib(void)
{
    char line[256];
    long kib = -1;
    FILE *f = fopen("/proc/self/status", "r");
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "VmHWM:", 6) == 0)
            sscanf(line + 6, "%ld", &kib);
    if (f)
        fclose(f);
    return kib;
}

static void usage(void)
{
    printf("usage: %s [-w calls|comms|types|requests] [-n REPETITIONS]\n", PROG);
}

int main(int argc, char **argv)
{
    long n = 10000;
    unsigned which = 1u << 0;
    const struct bench_intopt ints[] = { { 'n', 1, 1000000000L, &n } };
    const struct bench_wordopt words[] = { { 'w', workloads, &which } };
    const struct bench_optset set = { ints, 1, words, 1, NULL, 0 };
    char err[256];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int status = bench_parse_outcome(bench_optset_parse(PROG, argc, argv, &set, err, sizeof err), rank, err, usage);
    if (status < 0 && (which & (which - 1))) {
        if (rank == 0)
            fprintf(stderr, "%s: -w takes one workload\n", PROG);
        status = 2;
    }
    if (status >= 0) {
        MPI_Finalize();
        return status;
    }
    churn(which, n);
    int k = 0;
    while (!(which & 1u << k))
        k++;
    if (rank == 0)
        printf("%s %ld vmhwm_kib %ld\n", workloads[k], n, vmhwm_kib());
    MPI_Finalize();
    return 0;
}
