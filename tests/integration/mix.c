/* mix.c: a known mix of MPI calls whose counts and volumes t_mix.sh checks
 * exactly (run on 4 ranks; any P >= 2 works). Prints a checksum of all data
 * received, identical with and without the profiler. With an argument, each
 * rank writes the one count that depends on timing (MPI_Testsome calls) to
 * ARG.<rank>. */
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>

static double checksum;

static void add(const void *buf, int nbytes)
{
    const unsigned char *p = buf;
    for (int i = 0; i < nbytes; i++)
        checksum += (double)p[i] * (i % 7 + 1);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    static char bytes[10000], in[10000];
    for (int i = 0; i < 10000; i++)
        bytes[i] = (char)(rank * 31 + i);

    /* 1. Ring of blocking sends of 1, 100, 10000 bytes and 7 ints. */
    int sizes[3] = { 1, 100, 10000 };
    for (int k = 0; k < 3; k++) {
        if (rank == 0)
            MPI_Send(bytes, sizes[k], MPI_BYTE, right, k, MPI_COMM_WORLD);
        MPI_Recv(in, sizes[k], MPI_BYTE, left, k, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        add(in, sizes[k]);
        if (rank != 0)
            MPI_Send(bytes, sizes[k], MPI_BYTE, right, k, MPI_COMM_WORLD);
    }
    int seven[7] = { rank, 1, 2, 3, 4, 5, 6 }, seven_in[7];
    if (rank == 0)
        MPI_Send(seven, 7, MPI_INT, right, 3, MPI_COMM_WORLD);
    MPI_Recv(seven_in, 7, MPI_INT, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    add(seven_in, sizeof seven_in);
    if (rank != 0)
        MPI_Send(seven, 7, MPI_INT, right, 3, MPI_COMM_WORLD);

    /* 2. Wildcard receives on rank 0 of 8 ints from every other rank (any
     * source; the tag keeps later messages from matching). */
    int eight[8], eight_in[8];
    for (int i = 0; i < 8; i++)
        eight[i] = rank * 100 + i;
    if (rank == 0) {
        for (int i = 1; i < size; i++) {
            MPI_Status st;
            MPI_Recv(eight_in, 8, MPI_INT, MPI_ANY_SOURCE, 50, MPI_COMM_WORLD, &st);
            add(eight_in, sizeof eight_in);
        }
    } else {
        MPI_Send(eight, 8, MPI_INT, 0, 50, MPI_COMM_WORLD);
    }

    /* 3. Isend/Irecv of 16 doubles both ways, completed by Waitall. */
    double d16[2][16], d16_in[2][16];
    for (int i = 0; i < 16; i++)
        d16[0][i] = d16[1][i] = rank + i * 0.5;
    MPI_Request rq[4];
    MPI_Irecv(d16_in[0], 16, MPI_DOUBLE, left, 10, MPI_COMM_WORLD, &rq[0]);
    MPI_Irecv(d16_in[1], 16, MPI_DOUBLE, right, 11, MPI_COMM_WORLD, &rq[1]);
    MPI_Isend(d16[0], 16, MPI_DOUBLE, right, 10, MPI_COMM_WORLD, &rq[2]);
    MPI_Isend(d16[1], 16, MPI_DOUBLE, left, 11, MPI_COMM_WORLD, &rq[3]);
    MPI_Waitall(4, rq, MPI_STATUSES_IGNORE);
    add(d16_in, sizeof d16_in);

    /* 4. Three ints each way, completed one at a time by Waitany. */
    int t3[3] = { rank, rank + 1, rank + 2 }, t3_in[2][3];
    MPI_Irecv(t3_in[0], 3, MPI_INT, left, 5, MPI_COMM_WORLD, &rq[0]);
    MPI_Irecv(t3_in[1], 3, MPI_INT, right, 6, MPI_COMM_WORLD, &rq[1]);
    MPI_Isend(t3, 3, MPI_INT, right, 5, MPI_COMM_WORLD, &rq[2]);
    MPI_Isend(t3, 3, MPI_INT, left, 6, MPI_COMM_WORLD, &rq[3]);
    for (int i = 0; i < 4; i++) {
        int idx;
        MPI_Waitany(4, rq, &idx, MPI_STATUS_IGNORE);
    }
    add(t3_in, sizeof t3_in);

    /* 5. Ten ints to the right, completed by a Testsome loop. */
    int ten[10], ten_in[10], done = 0, testsome = 0;
    for (int i = 0; i < 10; i++)
        ten[i] = rank ^ i;
    MPI_Irecv(ten_in, 10, MPI_INT, left, 7, MPI_COMM_WORLD, &rq[0]);
    MPI_Isend(ten, 10, MPI_INT, right, 7, MPI_COMM_WORLD, &rq[1]);
    while (done < 2) {
        int outcount, idx[2];
        MPI_Testsome(2, rq, &outcount, idx, MPI_STATUSES_IGNORE);
        testsome++;
        if (outcount != MPI_UNDEFINED)
            done += outcount;
    }
    add(ten_in, sizeof ten_in);

    /* 6. Persistent requests: 6 ints, started three times. */
    int six[6] = { 6, 5, 4, 3, 2, rank }, six_in[6];
    MPI_Request pr[2];
    MPI_Recv_init(six_in, 6, MPI_INT, left, 8, MPI_COMM_WORLD, &pr[0]);
    MPI_Send_init(six, 6, MPI_INT, right, 8, MPI_COMM_WORLD, &pr[1]);
    for (int it = 0; it < 3; it++) {
        MPI_Start(&pr[0]);
        MPI_Start(&pr[1]);
        MPI_Waitall(2, pr, MPI_STATUSES_IGNORE);
        add(six_in, sizeof six_in);
        six[0]++;
    }
    MPI_Request_free(&pr[0]);
    MPI_Request_free(&pr[1]);

    /* 7. Sendrecv: 32 ints around the ring. */
    int s32[32], s32_in[32];
    for (int i = 0; i < 32; i++)
        s32[i] = rank * i;
    MPI_Sendrecv(s32, 32, MPI_INT, right, 9, s32_in, 32, MPI_INT, left, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    add(s32_in, sizeof s32_in);

    /* 8. Probe: rank 1 sends 5 ints to rank 0, which probes first. */
    int five[5] = { 5, 4, 3, 2, 1 }, five_in[5];
    if (rank == 1)
        MPI_Send(five, 5, MPI_INT, 0, 99, MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Status st;
        int n;
        MPI_Probe(1, 99, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_INT, &n);
        MPI_Recv(five_in, n, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        add(five_in, sizeof five_in);
    }

    /* 9. Collectives on MPI_COMM_WORLD. */
    int b100[100];
    for (int i = 0; i < 100; i++)
        b100[i] = rank == 0 ? i * 3 : -1;
    MPI_Bcast(b100, 100, MPI_INT, 0, MPI_COMM_WORLD);
    add(b100, sizeof b100);

    double r10[10], r10_out[10];
    for (int i = 0; i < 10; i++)
        r10[i] = rank + i;
    MPI_Reduce(r10, r10_out, 10, MPI_DOUBLE, MPI_SUM, 1, MPI_COMM_WORLD);
    if (rank == 1)
        add(r10_out, sizeof r10_out);

    int a4[4] = { rank, 1, 2, 3 }, a4_out[4];
    MPI_Allreduce(a4, a4_out, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    add(a4_out, sizeof a4_out);

    int *counts = malloc(size * sizeof *counts), *displs = malloc(size * sizeof *displs);
    int *rcounts = malloc(size * sizeof *rcounts), *rdispls = malloc(size * sizeof *rdispls);
    int total = 0;
    for (int j = 0; j < size; j++) {
        counts[j] = j + 1;
        displs[j] = total;
        total += j + 1;
    }
    int *gv = malloc(total * sizeof *gv), mine[64];
    for (int i = 0; i <= rank; i++)
        mine[i] = rank * 10 + i;
    MPI_Allgatherv(mine, rank + 1, MPI_INT, gv, counts, displs, MPI_INT, MPI_COMM_WORLD);
    add(gv, total * (int)sizeof *gv);

    for (int j = 0; j < size; j++) {
        rcounts[j] = rank + 1;
        rdispls[j] = j * (rank + 1);
    }
    int *av = malloc(size * (rank + 1) * sizeof *av), *src = malloc(total * sizeof *src);
    for (int i = 0; i < total; i++)
        src[i] = rank * 1000 + i;
    MPI_Alltoallv(src, counts, displs, MPI_INT, av, rcounts, rdispls, MPI_INT, MPI_COMM_WORLD);
    add(av, size * (rank + 1) * (int)sizeof *av);

    MPI_Barrier(MPI_COMM_WORLD);

    /* 10. A split communicator: even and odd ranks. */
    MPI_Comm half;
    int hrank, one = rank, sum;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Comm_rank(half, &hrank);
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, half);
    add(&sum, sizeof sum);
    MPI_Comm_free(&half);

    /* Every rank's checksum to rank 0, which prints them. */
    double *all = malloc(size * sizeof *all);
    MPI_Gather(&checksum, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0)
        for (int i = 0; i < size; i++)
            printf("rank %d checksum %.1f\n", i, all[i]);

    if (argc > 1) {
        char path[4096];
        snprintf(path, sizeof path, "%s.%d", argv[1], rank);
        FILE *f = fopen(path, "w");
        if (f) {
            fprintf(f, "MPI_Testsome %d\n", testsome);
            fclose(f);
        }
    }
    free(counts); free(displs); free(rcounts); free(rdispls);
    free(gv); free(av); free(src); free(all);
    MPI_Finalize();
    return 0;
}
