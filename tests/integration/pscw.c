/* pscw.c: one-sided epochs, for the model's tests (t_model.sh). Ranks in
 * pairs (2i origin, 2i+1 target; an odd last rank only takes part in the
 * passive part): K rounds (argv[1], default 6) in which the origin computes
 * D ms (argv[2], default 20; a sleep) and puts into its target inside
 * MPI_Win_start/MPI_Win_complete, while the target exposes its window with
 * MPI_Win_post and MPI_Win_wait (odd rounds: MPI_Win_test until done).
 * Then every rank gets from its neighbour under MPI_Win_lock/MPI_Win_unlock,
 * and under MPI_Win_lock_all with MPI_Win_flush. The data is not checked
 * here (rmaio.c checks one-sided data; MPICH 4.0.2 ch4:ucx on the test
 * machine did not deliver these puts to the target's memory, with or
 * without the profiler). stdout: one line per rank, the epochs it took
 * part in; stderr, rank 0: "compute_s=S", the largest origin's total
 * computation (measured). */
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <mpi.h>

static double compute(double s)
{
    double t0 = MPI_Wtime();
    struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };
    while (nanosleep(&ts, &ts) != 0)
        ;
    return MPI_Wtime() - t0;
}

int main(int argc, char **argv)
{
    int rank, size, *mem;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int rounds = argc > 1 ? atoi(argv[1]) : 6;
    double d = (argc > 2 ? atoi(argv[2]) : 20) * 1e-3, spent = 0, most = 0;
    MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    *mem = -1;
    MPI_Group world, partner;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int other = rank ^ 1, paired = other < size;
    if (paired)
        MPI_Group_incl(world, 1, &other, &partner);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int k = 0; paired && k < rounds; k++) {
        if (rank % 2 == 0) {
            int v = k * 100 + rank;
            spent += compute(d);
            MPI_Win_start(partner, 0, win);
            MPI_Put(&v, 1, MPI_INT, other, 0, 1, MPI_INT, win);
            MPI_Win_complete(win);
        } else {
            MPI_Win_post(partner, 0, win);
            if (k % 2) {
                int flag = 0;
                while (!flag)
                    MPI_Win_test(win, &flag);
            } else {
                MPI_Win_wait(win);
            }
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    int next = (rank + 1) % size, got = -2, all = -2;
    MPI_Win_lock(MPI_LOCK_SHARED, next, 0, win);
    MPI_Get(&got, 1, MPI_INT, next, 0, 1, MPI_INT, win);
    MPI_Win_unlock(next, win);
    MPI_Win_lock_all(0, win);
    MPI_Get(&all, 1, MPI_INT, next, 0, 1, MPI_INT, win);
    MPI_Win_flush(next, win);
    MPI_Win_unlock_all(win);
    MPI_Reduce(&spent, &most, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    printf("pscw: rank %d ok, %d rounds as %s, lock and lock_all on rank %d\n", rank, paired ? rounds : 0,
           rank % 2 ? "target" : "origin", next);
    if (rank == 0)
        fprintf(stderr, "compute_s=%.6f\n", most);
    if (paired)
        MPI_Group_free(&partner);
    MPI_Group_free(&world);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
