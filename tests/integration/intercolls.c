/* intercolls.c: every blocking collective on an intercommunicator whose
 * groups differ in size (4 processes: group A = world rank 0, group B =
 * world ranks 1-3), with MPI_INT data whose results are checked, so that
 * the volume rules of mpiprof-report(5) for intercommunicators can be
 * asserted against the MPI standard's definitions (t_intercolls.sh).
 * Roots: A's process for Bcast, Gather and Scatter (MPI_ROOT there,
 * root 0 in B); B's rank 0 for Reduce, Gatherv and Scatterv (MPI_ROOT,
 * MPI_PROC_NULL for B's others). Prints one line per rank. */
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>

static int bad;
#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "rank %d: check failed: %s\n", wrank, #cond); bad = 1; } } while (0)

int main(int argc, char **argv)
{
    int wrank, wsize;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    if (wsize != 4) {
        if (wrank == 0)
            fprintf(stderr, "intercolls: run on 4 processes\n");
        MPI_Finalize();
        return 2;
    }
    int inA = wrank == 0, rank;
    MPI_Comm local, inter;
    MPI_Comm_split(MPI_COMM_WORLD, inA, wrank, &local);
    MPI_Comm_rank(local, &rank);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, inA ? 1 : 0, 7, &inter);
    int remote;
    MPI_Comm_remote_size(inter, &remote);
    int s[8], r[24], counts[3], displs[3], rcounts[3], rdispls[3];
    MPI_Datatype types[3] = { MPI_INT, MPI_INT, MPI_INT };
    for (int i = 0; i < 8; i++)
        s[i] = 100 * wrank + i;

    /* Bcast of 5 ints from A */
    for (int i = 0; i < 5; i++)
        r[i] = inA ? s[i] : -1;
    MPI_Bcast(r, 5, MPI_INT, inA ? MPI_ROOT : 0, inter);
    for (int i = 0; !inA && i < 5; i++)
        CHECK(r[i] == i);

    /* Reduce of 4 ints from A to B's rank 0 */
    r[0] = -1;
    MPI_Reduce(s, r, 4, MPI_INT, MPI_SUM, inA ? 0 : rank == 0 ? MPI_ROOT : MPI_PROC_NULL, inter);
    if (!inA && rank == 0)
        CHECK(r[0] == 0 && r[3] == 3);

    /* Allreduce of 3 ints: each group gets the other's sum */
    MPI_Allreduce(s, r, 3, MPI_INT, MPI_SUM, inter);
    CHECK(r[0] == (inA ? 100 + 200 + 300 : 0));

    /* Reduce_scatter: A's recvcounts {6}, B's {1, 2, 3}; 6 ints a side */
    int a6[1] = { 6 }, b123[3] = { 1, 2, 3 };
    MPI_Reduce_scatter(s, r, inA ? a6 : b123, MPI_INT, MPI_SUM, inter);
    CHECK(r[0] == (inA ? 600 : b123[0] * 0 + (rank == 0 ? 0 : rank == 1 ? 1 : 3)));

    /* Reduce_scatter_block: A 6 x 1, B 2 x 3 */
    MPI_Reduce_scatter_block(s, r, inA ? 6 : 2, MPI_INT, MPI_SUM, inter);
    CHECK(r[0] == (inA ? 600 : 2 * rank));

    /* Gather of 2 ints from each of B to A */
    MPI_Gather(s, 2, MPI_INT, r, 2, MPI_INT, inA ? MPI_ROOT : 0, inter);
    if (inA)
        CHECK(r[0] == 100 && r[5] == 301);

    /* Gatherv of 3 ints from A to B's rank 0 */
    counts[0] = 3;
    displs[0] = 0;
    MPI_Gatherv(s, 3, MPI_INT, r, counts, displs, MPI_INT, inA ? 0 : rank == 0 ? MPI_ROOT : MPI_PROC_NULL, inter);
    if (!inA && rank == 0)
        CHECK(r[2] == 2);

    /* Scatter of 2 ints to each of B from A */
    MPI_Scatter(s, 2, MPI_INT, r, 2, MPI_INT, inA ? MPI_ROOT : 0, inter);
    if (!inA)
        CHECK(r[0] == 2 * rank && r[1] == 2 * rank + 1);

    /* Scatterv of 4 ints to A from B's rank 0 */
    counts[0] = 4;
    MPI_Scatterv(s, counts, displs, MPI_INT, r, 4, MPI_INT, inA ? 0 : rank == 0 ? MPI_ROOT : MPI_PROC_NULL, inter);
    if (inA)
        CHECK(r[3] == 103);

    /* Allgather of 2 ints each */
    MPI_Allgather(s, 2, MPI_INT, r, 2, MPI_INT, inter);
    CHECK(r[0] == (inA ? 100 : 0));

    /* Allgatherv: B's rank j sends j + 1 ints, A sends 2 */
    for (int i = 0; i < 3; i++) {
        rcounts[i] = inA ? i + 1 : 2;
        rdispls[i] = inA ? i * (i + 1) / 2 : 0;
    }
    MPI_Allgatherv(s, inA ? 2 : rank + 1, MPI_INT, r, rcounts, rdispls, MPI_INT, inter);
    CHECK(r[inA ? 5 : 1] == (inA ? 302 : 1));

    /* Alltoall of 1 int per remote process */
    MPI_Alltoall(s, 1, MPI_INT, r, 1, MPI_INT, inter);
    CHECK(r[0] == (inA ? 100 + 0 : rank));

    /* Alltoallv: A sends 1 to each of B and gets 2 from each; B sends 2, gets 1 */
    for (int i = 0; i < 3; i++) {
        counts[i] = inA ? 1 : 2;
        displs[i] = i * counts[i];
        rcounts[i] = inA ? 2 : 1;
        rdispls[i] = i * rcounts[i];
    }
    MPI_Alltoallv(s, counts, displs, MPI_INT, r, rcounts, rdispls, MPI_INT, inter);
    CHECK(r[inA ? 4 : 0] == (inA ? 300 : rank));

    /* Alltoallw of 1 int per remote process (byte displacements) */
    for (int i = 0; i < 3; i++) {
        counts[i] = rcounts[i] = 1;
        displs[i] = rdispls[i] = i * (int)sizeof(int);
    }
    MPI_Alltoallw(s, counts, displs, types, r, rcounts, rdispls, types, inter);
    CHECK(r[0] == (inA ? 100 : rank));

    MPI_Barrier(inter);
    printf("intercolls: rank %d (%s, %d remote) %s\n", wrank, inA ? "A" : "B", remote, bad ? "FAILED" : "ok");
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
    MPI_Finalize();
    return bad;
}
