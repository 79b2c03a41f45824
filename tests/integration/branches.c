/* branches.c: call sites for t_branches.sh (4 ranks). MPI_Send from two
 * functions, MPI_Recv through a recursion three levels deep, and receives
 * posted with MPI_ANY_SOURCE completed by MPI_Waitany. Every rank r:
 *   send_alpha: 3 x 10 ints to r+1 (tag 1)       send_beta: 1 x 20 ints to r-1 (tag 2)
 *   recv_down(3) -> recv_down(2) -> recv_down(1) -> MPI_Recv: the 3 + 1 messages above
 *   2 x MPI_Irecv(MPI_ANY_SOURCE, tag 3, 5 ints), MPI_Isend of 5 ints to r-1
 *   and to r+1, then 4 x MPI_Waitany.
 * Not optimised, so that each call is one call instruction (copies of a
 * call on one line are one branch: t_unroll.sh). */
#pragma GCC optimize("O0")
#include <stdio.h>
#include <mpi.h>

static volatile int sink;      /* keeps the recursion from being a tail call */
static int data[64];

static void __attribute__((noinline)) send_alpha(int to)
{
    MPI_Send(data, 10, MPI_INT, to, 1, MPI_COMM_WORLD);
    sink++;
}

static void __attribute__((noinline)) send_beta(int to)
{
    MPI_Send(data, 20, MPI_INT, to, 2, MPI_COMM_WORLD);
    sink++;
}

static void __attribute__((noinline)) recv_down(int level, int from, int tag, int n)
{
    if (level > 1)
        recv_down(level - 1, from, tag, n);
    else
        MPI_Recv(data + 32, n, MPI_INT, from, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    sink++;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int left = (rank + size - 1) % size, right = (rank + 1) % size;

    for (int i = 0; i < 3; i++)
        send_alpha(right);
    send_beta(left);
    for (int i = 0; i < 3; i++)
        recv_down(3, left, 1, 10);
    recv_down(3, right, 2, 20);

    MPI_Request rq[4];
    int in[2][5], out[5] = { rank, rank, rank, rank, rank };
    for (int i = 0; i < 2; i++)
        MPI_Irecv(in[i], 5, MPI_INT, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &rq[i]);
    int to[2] = { left, right };
    for (int i = 0; i < 2; i++)
        MPI_Isend(out, 5, MPI_INT, to[i], 3, MPI_COMM_WORLD, &rq[2 + i]);
    for (int i = 0; i < 4; i++) {
        int idx;
        MPI_Waitany(4, rq, &idx, MPI_STATUS_IGNORE);
    }
    if (rank == 0)
        printf("received from %d and %d\n", in[0][0] < in[1][0] ? in[0][0] : in[1][0],
               in[0][0] < in[1][0] ? in[1][0] : in[0][0]);
    MPI_Finalize();
    return 0;
}
