/* threads.c: MPI_THREAD_MULTIPLE for t_threads.sh (2 ranks). Each rank runs
 * 4 threads at once; thread t (1..4) has its own communicator (a duplicate
 * of MPI_COMM_WORLD) and exchanges 5*t messages of t ints with the other
 * rank: rank 0 sends then receives, rank 1 receives then sends. So thread t
 * calls MPI_Send and MPI_Recv 5*t times each, 20*t*t bytes each way. The
 * main thread calls MPI_Comm_rank, MPI_Comm_size, 4 x MPI_Comm_dup, 4 x
 * MPI_Comm_free and 1 x MPI_Barrier. The threads exit before MPI_Finalize,
 * or with the argument "keep" after it (they wait on a barrier). */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <mpi.h>

#define NTHREADS 4

static int rank;
static MPI_Comm comms[NTHREADS + 1];
static long sums[NTHREADS + 1];
static int keep;                                 /* threads live until after MPI_Finalize */
static pthread_barrier_t work_done, finalized;

static void *worker(void *arg)
{
    int t = (int)(long)arg, out[NTHREADS], in[NTHREADS];
    for (int i = 0; i < 5 * t; i++) {
        for (int k = 0; k < t; k++)
            out[k] = rank * 1000 + t * 100 + i + k;
        if (rank == 0) {
            MPI_Send(out, t, MPI_INT, 1, t, comms[t]);
            MPI_Recv(in, t, MPI_INT, 1, t, comms[t], MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(in, t, MPI_INT, 0, t, comms[t], MPI_STATUS_IGNORE);
            MPI_Send(out, t, MPI_INT, 0, t, comms[t]);
        }
        for (int k = 0; k < t; k++)
            sums[t] += in[k];
    }
    if (keep) {
        pthread_barrier_wait(&work_done);
        pthread_barrier_wait(&finalized);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, size;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (provided < MPI_THREAD_MULTIPLE || size != 2) {
        if (rank == 0)
            fprintf(stderr, "threads: needs MPI_THREAD_MULTIPLE (got %d) and 2 ranks (got %d)\n", provided, size);
        MPI_Finalize();
        return 77;
    }
    pthread_t th[NTHREADS + 1];
    keep = argc > 1 && strcmp(argv[1], "keep") == 0;
    pthread_barrier_init(&work_done, NULL, NTHREADS + 1);
    pthread_barrier_init(&finalized, NULL, NTHREADS + 1);
    for (int t = 1; t <= NTHREADS; t++)
        MPI_Comm_dup(MPI_COMM_WORLD, &comms[t]);
    for (int t = 1; t <= NTHREADS; t++)
        pthread_create(&th[t], NULL, worker, (void *)(long)t);
    if (keep)
        pthread_barrier_wait(&work_done);
    for (int t = 1; !keep && t <= NTHREADS; t++)
        pthread_join(th[t], NULL);
    for (int t = 1; t <= NTHREADS; t++)
        MPI_Comm_free(&comms[t]);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        for (int t = 1; t <= NTHREADS; t++)
            printf("thread %d sum %ld\n", t, sums[t]);
    MPI_Finalize();
    if (keep) {
        pthread_barrier_wait(&finalized);
        for (int t = 1; t <= NTHREADS; t++)
            pthread_join(th[t], NULL);
    }
    return 0;
}
