/* colls.c: every collective once or twice with known counts (MPI_INT, 4
 * bytes) on 4 ranks, for t_colls.sh, which checks each rank's bytes_sent
 * and bytes_recv against the volume rules of mpiprof-report(5). Prints a
 * checksum of everything received. */
#include <stdio.h>
#include <mpi.h>

#define P 4
static int a[64], b[64];
static long sum;

static void add(const int *v, int n)
{
    for (int i = 0; i < n; i++)
        sum += v[i] * (i + 1);
}

int main(int argc, char **argv)
{
    int r, size, c1[P], d1[P], cr[P], dr[P], cz[P], dz[P];
    MPI_Request q;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != P) {
        if (r == 0)
            fprintf(stderr, "colls: run on %d ranks\n", P);
        MPI_Finalize();
        return 2;
    }
    for (int i = 0; i < 64; i++)
        a[i] = r * 64 + i;
    for (int j = 0, o = 0; j < P; j++) {
        c1[j] = j + 1;            /* j+1 ints to/from rank j */
        d1[j] = o;
        o += j + 1;
        cr[j] = r + 1;            /* r+1 ints to/from every rank */
        dr[j] = j * (r + 1);
        cz[j] = 4;                /* 4 bytes each, for Alltoallw */
        dz[j] = 0;
    }
    MPI_Datatype tz[P] = { MPI_INT, MPI_INT, MPI_INT, MPI_INT };
    int wz[P], wr[P];
    for (int j = 0; j < P; j++) {
        wz[j] = d1[j] * 4;
        wr[j] = dr[j] * 4;
        cz[j] = c1[j];
        dz[j] = r + 1;
    }

    MPI_Bcast(a, 10, MPI_INT, 1, MPI_COMM_WORLD); add(a, 10);
    MPI_Reduce(a, b, 3, MPI_INT, MPI_SUM, 2, MPI_COMM_WORLD); if (r == 2) add(b, 3);
    MPI_Allreduce(a, b, 5, MPI_INT, MPI_SUM, MPI_COMM_WORLD); add(b, 5);
    MPI_Scan(a, b, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD); add(b, 2);
    MPI_Exscan(a, b, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD); if (r > 0) add(b, 2);
    MPI_Reduce_scatter(a, b, c1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); add(b, r + 1);
    MPI_Reduce_scatter_block(a, b, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD); add(b, 2);
    MPI_Gather(a, 3, MPI_INT, b, 3, MPI_INT, 0, MPI_COMM_WORLD); if (r == 0) add(b, 12);
    if (r == 3)
        MPI_Gather(MPI_IN_PLACE, 3, MPI_INT, a, 3, MPI_INT, 3, MPI_COMM_WORLD);
    else
        MPI_Gather(a, 3, MPI_INT, NULL, 0, MPI_DATATYPE_NULL, 3, MPI_COMM_WORLD);
    MPI_Gatherv(a, r + 1, MPI_INT, b, c1, d1, MPI_INT, 1, MPI_COMM_WORLD); if (r == 1) add(b, 10);
    MPI_Scatter(a, 2, MPI_INT, b, 2, MPI_INT, 0, MPI_COMM_WORLD); add(b, 2);
    MPI_Scatterv(a, c1, d1, MPI_INT, b, r + 1, MPI_INT, 2, MPI_COMM_WORLD); add(b, r + 1);
    MPI_Allgather(a, 2, MPI_INT, b, 2, MPI_INT, MPI_COMM_WORLD); add(b, 8);
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, b, 2, MPI_INT, MPI_COMM_WORLD); add(b, 8);
    MPI_Allgatherv(a, r + 1, MPI_INT, b, c1, d1, MPI_INT, MPI_COMM_WORLD); add(b, 10);
    MPI_Alltoall(a, 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD); add(b, 4);
    MPI_Alltoallv(a, c1, d1, MPI_INT, b, cr, dr, MPI_INT, MPI_COMM_WORLD); add(b, 4 * (r + 1));
    MPI_Alltoallw(a, cz, wz, tz, b, dz, wr, tz, MPI_COMM_WORLD); add(b, 4 * (r + 1));
    MPI_Ibcast(a, 10, MPI_INT, 0, MPI_COMM_WORLD, &q); MPI_Wait(&q, MPI_STATUS_IGNORE); add(a, 10);
    MPI_Iallreduce(a, b, 5, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q); MPI_Wait(&q, MPI_STATUS_IGNORE); add(b, 5);
    MPI_Barrier(MPI_COMM_WORLD);

    /* A periodic ring: two neighbours each. */
    MPI_Comm ring;
    int dims[1] = { P }, periods[1] = { 1 };
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
    MPI_Neighbor_allgather(a, 1, MPI_INT, b, 1, MPI_INT, ring); add(b, 2);
    MPI_Neighbor_alltoall(a, 1, MPI_INT, b, 1, MPI_INT, ring); add(b, 2);
    MPI_Comm_free(&ring);

    long all[P];
    MPI_Gather(&sum, 1, MPI_LONG, all, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    if (r == 0)
        for (int i = 0; i < P; i++)
            printf("rank %d sum %ld\n", i, all[i]);
    MPI_Finalize();
    return 0;
}
