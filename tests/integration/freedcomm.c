/* freedcomm.c: a communicator freed while the tokens of its messages are
 * still on their way (t_slt.sh). K rounds: both ranks duplicate
 * MPI_COMM_WORLD, rank 0 sends 3 messages to rank 1 on the duplicate and
 * computes D ms before freeing it, rank 1 receives them and frees it at
 * once. Rank 1 prints its time in MPI_Comm_free, the known answer being
 * about none: a profiler that waited at the freeing for tokens sent after
 * their messages (as in batches) would wait out rank 0's D ms each round.
 * Arguments: K (default 10), D (default 20). 2 or more ranks; the others
 * only duplicate and free. */
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>

static void compute(double s)
{
    double t = MPI_Wtime();
    while (MPI_Wtime() - t < s)
        ;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, bad = 0, k = argc > 1 ? atoi(argv[1]) : 10;
    double d = (argc > 2 ? atoi(argv[2]) : 20) * 1e-3, freeing = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int r = 0; r < k; r++) {
        MPI_Comm c;
        MPI_Comm_dup(MPI_COMM_WORLD, &c);
        for (int i = 0; i < 3; i++) {
            int v = r * 3 + i;
            if (rank == 0)
                MPI_Send(&v, 1, MPI_INT, 1, i, c);
            if (rank == 1) {
                MPI_Recv(&v, 1, MPI_INT, 0, i, c, MPI_STATUS_IGNORE);
                bad |= v != r * 3 + i;
            }
        }
        if (rank == 0)
            compute(d);
        double t = MPI_Wtime();
        MPI_Comm_free(&c);
        freeing += MPI_Wtime() - t;
    }
    if (rank == 1)
        printf("freedcomm rounds=%d delay_s=%.6f comm_free_s=%.6f%s\n", k, d, freeing, bad ? " WRONG" : "");
    MPI_Finalize();
    return bad;
}
