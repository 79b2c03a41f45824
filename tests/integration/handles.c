/* handles.c: communicator and datatype handles for t_handles.sh (2 ranks).
 *
 * Part 1 (issue 24 item 5): 10 times, rank 0 posts MPI_Irecv(MPI_ANY_SOURCE)
 * on a duplicate of MPI_COMM_WORLD, creates and frees a datatype and a
 * communicator, then MPI_Wait; rank 1 sends. The wildcard's partner (rank 1)
 * must survive those unrelated frees: MPI_Irecv and MPI_Wait have partner 1
 * x 10 on rank 0.
 *
 * Part 2 (item 6): 6 times, MPI_Comm_split of MPI_COMM_WORLD with the rank
 * order reversed every other time (the freed handle is typically given to
 * the next communicator); each rank MPI_Isend's one int to rank 0 of the new
 * communicator, whose rank 0 MPI_Recv's from ranks 0 and 1; MPI_Waitall;
 * MPI_Comm_free. Every rank's MPI_Isend and MPI_Waitall then have partners
 * 0 x 3 and 1 x 3 (world ranks), and its MPI_Recv partners 0 x 3 and 1 x 3,
 * 3 times each of them, only if no map outlived its communicator. */
#include <stdio.h>
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, v = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "handles: needs 2 ranks\n");
        MPI_Finalize();
        return 1;
    }

    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    long sum = 0;
    for (int i = 0; i < 10; i++) {
        if (rank == 0) {
            MPI_Request req;
            MPI_Datatype t;
            MPI_Comm tmp;
            MPI_Irecv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 5, dup, &req);
            MPI_Type_contiguous(2, MPI_INT, &t);
            MPI_Type_commit(&t);
            MPI_Type_free(&t);
            MPI_Comm_dup(MPI_COMM_SELF, &tmp);
            MPI_Comm_free(&tmp);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            sum += v;
        } else {
            v = 100 + i;
            MPI_Send(&v, 1, MPI_INT, 0, 5, dup);
        }
    }
    MPI_Comm_free(&dup);

    for (int i = 0; i < 6; i++) {
        MPI_Comm c;
        int crank, out = rank * 10 + i, in[2];
        MPI_Request req;
        MPI_Comm_split(MPI_COMM_WORLD, 0, i % 2 ? -rank : rank, &c);
        MPI_Comm_rank(c, &crank);
        MPI_Isend(&out, 1, MPI_INT, 0, 6, c, &req);
        if (crank == 0) {
            MPI_Recv(&in[0], 1, MPI_INT, 0, 6, c, MPI_STATUS_IGNORE);
            MPI_Recv(&in[1], 1, MPI_INT, 1, 6, c, MPI_STATUS_IGNORE);
            sum += in[0] + in[1];
        }
        MPI_Waitall(1, &req, MPI_STATUSES_IGNORE);
        MPI_Comm_free(&c);
    }
    printf("rank %d sum %ld\n", rank, sum);
    MPI_Finalize();
    return 0;
}
