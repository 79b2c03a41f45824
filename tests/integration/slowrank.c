/* slowrank.c: rank 0 sleeps 0.5 s before one MPI_Sendrecv ring at a single
 * call site, so rank 1 (which receives from rank 0) spends the most time
 * there; for t_sites.sh (sites.txt must name rank 1 as max_rank). */
#include <time.h>
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, out, in = -1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0)
        nanosleep(&(struct timespec){ .tv_sec = 0, .tv_nsec = 500000000 }, NULL);
    out = rank;
    MPI_Sendrecv(&out, 1, MPI_INT, (rank + 1) % size, 0, &in, 1, MPI_INT, (rank + size - 1) % size, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return in == (rank + size - 1) % size ? 0 : 1;
}
