/* reportmix.c: the known mix of t_report.sh (mpiprof-report). 10
 * iterations of a ring MPI_Sendrecv, an MPI_Allreduce and an MPI_Barrier,
 * each at its own line. With an argument D (milliseconds), rank 0 sleeps
 * D ms before each MPI_Barrier, so every other rank waits there about
 * 10 x D ms longer: the only call site whose time changes. */
#include <stdlib.h>
#include <time.h>
#include <mpi.h>

#define ITERATIONS 10

int main(int argc, char **argv)
{
    int rank, size, out, in = -1, sum = 0;
    long delay_ms;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    delay_ms = argc > 1 ? strtol(argv[1], NULL, 10) : 0;
    for (int i = 0; i < ITERATIONS; i++) {
        out = rank + i;
        MPI_Sendrecv(&out, 1, MPI_INT, (rank + 1) % size, 0, &in, 1, MPI_INT, (rank + size - 1) % size, 0,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Allreduce(&in, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        if (rank == 0 && delay_ms > 0)
            nanosleep(&(struct timespec){ .tv_sec = delay_ms / 1000, .tv_nsec = delay_ms % 1000 * 1000000 }, NULL);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return sum == size * (size - 1) / 2 + size * (ITERATIONS - 1) ? 0 : 1;
}
