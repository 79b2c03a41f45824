/* threads.c: mpiprof-threads, memory and MPI_Finalize time of a task code
 * that runs each task on a fresh thread making one MPI call (issue 24 item
 * 7). MPI_THREAD_MULTIPLE; T threads (-t) are created and joined K (-k) at a
 * time, each calling MPI_Comm_size once. Rank 0 prints VmRSS and VmHWM
 * (/proc/self/status) before MPI_Finalize and the time MPI_Finalize took.
 * Run it unprofiled and profiled (LD_PRELOAD of two builds) and compare. A
 * benchmark, not a test. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <mpi.h>
#include "intopts.h"

#define PROG "mpiprof-threads"
#define MAX_BATCH 64

static void *task(void *arg)
{
    int n;
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    *(int *)arg = n;
    return NULL;
}

static long status_kb(const char *field)
{
    char line[256];
    long kb = -1;
    FILE *f = fopen("/proc/self/status", "r");
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, field, strlen(field)) == 0)
            sscanf(line + strlen(field), " %ld", &kb);
    if (f)
        fclose(f);
    return kb;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    long nthreads = 5000, batch = 4;
    const struct bench_intopt opts[] = { { 't', 1, 1000000L, &nthreads }, { 'k', 1, MAX_BATCH, &batch } };
    char err[256];
    int provided, rank;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int rc = bench_intopts_parse(PROG, argc, argv, opts, 2, err, sizeof err);
    if (rc != 0 || provided < MPI_THREAD_MULTIPLE) {
        if (rank == 0)
            fprintf(rc == 1 ? stdout : stderr, "%s\n",
                    rc == 1 ? "usage: " PROG " [-t THREADS] [-k AT_ONCE]"
                    : rc == 2 ? err : PROG ": needs MPI_THREAD_MULTIPLE");
        MPI_Finalize();
        return rc == 1 ? 0 : 2;
    }
    pthread_t th[MAX_BATCH];
    int out[MAX_BATCH];
    for (long done = 0; done < nthreads; done += batch) {
        long k = nthreads - done < batch ? nthreads - done : batch;
        for (long i = 0; i < k; i++)
            pthread_create(&th[i], NULL, task, &out[i]);
        for (long i = 0; i < k; i++)
            pthread_join(th[i], NULL);
    }
    long rss = status_kb("VmRSS:"), hwm = status_kb("VmHWM:");
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = now_s();
    MPI_Finalize();
    if (rank == 0)
        printf("%s: %ld threads: VmRSS %ld kB VmHWM %ld kB before MPI_Finalize; MPI_Finalize %.3f s\n",
               PROG, nthreads, rss, hwm, now_s() - t0);
    return 0;
}
