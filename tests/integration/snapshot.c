/* snapshot.c: a job that runs until it is killed, for t_snapshot.sh: each
 * rank makes MPI_Allreduce calls (one every millisecond or so) and every
 * 0.5 s appends "elapsed_s calls" (since MPI_Init returned) to
 * PREFIX.<rank>, flushed, so that the test knows what had been done when
 * the last snapshot was taken. Runs for SECONDS (argument 2), then
 * writes its last count and ends. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    double t0 = MPI_Wtime(), next = 0.5, limit = argc > 2 ? atof(argv[2]) : 60;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char path[4096];
    snprintf(path, sizeof path, "%s.%d", argc > 1 ? argv[1] : "snapshot", rank);
    FILE *f = fopen(path, "w");
    if (!f)
        MPI_Abort(MPI_COMM_WORLD, 1);
    long calls = 0;
    for (int over = 0; !over;) {
        double t = MPI_Wtime() - t0;
        int mine = t >= limit;       /* every rank stops after the same call */
        MPI_Allreduce(&mine, &over, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        calls++;
        if (t >= next) {
            fprintf(f, "%.3f %ld\n", t, calls);
            fflush(f);
            next += 0.5;
        }
        usleep(1000);
    }
    fprintf(f, "%.3f %ld\n", MPI_Wtime() - t0, calls);
    fclose(f);
    MPI_Finalize();
    return 0;
}
