/* mpi4.c: MPI-4.0 calls with known counts and bytes for t_mpi4.sh (2 ranks).
 * Every MPI: one MPI_Send/MPI_Recv of 10 ints. With MPI_VERSION >= 4
 * (compiled only then): large-count calls (MPI_Send_c, MPI_Recv_c,
 * MPI_Gatherv_c, MPI_Type_size_c, MPI_Get_count_c), MPI_Isendrecv with a
 * receive posted larger than what arrives, MPI_Isendrecv_replace, a
 * persistent MPI_Bcast_init started 3 times and once more with an
 * MPI_Allreduce_init by MPI_Startall, a partitioned send and receive
 * run twice (MPI_Pready, MPI_Pready_range, MPI_Pready_list, MPI_Parrived)
 * and a session. Each rank checks what it received and prints one line. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int bad;

static void expect(int rank, const char *what, long got, long want)
{
    if (got != want) {
        printf("rank %d: %s: got %ld, expected %ld\n", rank, what, got, want);
        bad = 1;
    }
}

#if MPI_VERSION >= 4
static void mpi4(int rank)
{
    int peer = 1 - rank;
    MPI_Status st;

    /* Large counts: 2 x 100 doubles 0 -> 1 (800 bytes each). */
    double d[100];
    for (int k = 0; k < 2; k++) {
        if (rank == 0) {
            for (int i = 0; i < 100; i++)
                d[i] = k * 1000 + i;
            MPI_Send_c(d, (MPI_Count)100, MPI_DOUBLE, 1, 10 + k, MPI_COMM_WORLD);
        } else {
            MPI_Recv_c(d, (MPI_Count)100, MPI_DOUBLE, 0, 10 + k, MPI_COMM_WORLD, &st);
            expect(rank, "MPI_Recv_c data", (long)d[99], k * 1000 + 99);
            MPI_Count n;
            if (k == 0) {
                MPI_Get_count_c(&st, MPI_DOUBLE, &n);
                expect(rank, "MPI_Get_count_c", (long)n, 100);
            }
        }
    }
    /* MPI_Gatherv_c: rank r sends 3 (r + 1) ints to root 0. */
    int g[9], mine[6];
    MPI_Count gcounts[2] = { 3, 6 };
    MPI_Aint gdispls[2] = { 0, 3 };
    for (int i = 0; i < 6; i++)
        mine[i] = 100 * rank + i;
    MPI_Gatherv_c(mine, gcounts[rank], MPI_INT, g, gcounts, gdispls, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0)
        expect(rank, "MPI_Gatherv_c data", g[8], 105);
    MPI_Count size;
    MPI_Type_size_c(MPI_DOUBLE, &size);
    expect(rank, "MPI_Type_size_c", (long)size, 8);

    /* MPI_Isendrecv: 50 ints each way, receive posted for 60 (MPICH 4.0.2
     * leaves the request's status unset: no MPI_Get_count here). */
    int s[50], r[60];
    for (int i = 0; i < 50; i++)
        s[i] = 1000 * rank + i;
    MPI_Request req;
    MPI_Isendrecv(s, 50, MPI_INT, peer, 20, r, 60, MPI_INT, peer, 20, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    expect(rank, "MPI_Isendrecv data", r[49], 1000 * peer + 49);

    /* MPI_Isendrecv_replace: 20 doubles each way. */
    double x[20];
    for (int i = 0; i < 20; i++)
        x[i] = rank;
    MPI_Isendrecv_replace(x, 20, MPI_DOUBLE, peer, 21, peer, 21, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    expect(rank, "MPI_Isendrecv_replace data", (long)x[19], peer);

    /* A persistent broadcast of 64 ints from 0, started 3 times. */
    int b[64];
    MPI_Bcast_init(b, 64, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    for (int k = 0; k < 3; k++) {
        if (rank == 0)
            for (int i = 0; i < 64; i++)
                b[i] = 10 * k + i;
        MPI_Start(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        expect(rank, "MPI_Bcast_init data", b[63], 10 * k + 63);
    }
    /* Once more with a persistent MPI_Allreduce_init of 16 ints, both
     * started by one MPI_Startall. */
    int a[16], sum[16];
    MPI_Request both[2] = { req, MPI_REQUEST_NULL };
    for (int i = 0; i < 16; i++)
        a[i] = rank + i;
    MPI_Allreduce_init(a, sum, 16, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &both[1]);
    MPI_Startall(2, both);
    MPI_Waitall(2, both, MPI_STATUSES_IGNORE);
    expect(rank, "MPI_Allreduce_init data", sum[15], 31);
    MPI_Request_free(&both[0]);
    MPI_Request_free(&both[1]);

    /* Partitioned: 4 partitions of 8 ints 0 -> 1, twice. */
    int p[32];
    if (rank == 0)
        MPI_Psend_init(p, 4, (MPI_Count)8, MPI_INT, 1, 30, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    else
        MPI_Precv_init(p, 4, (MPI_Count)8, MPI_INT, 0, 30, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    for (int k = 0; k < 2; k++) {
        MPI_Start(&req);
        if (rank == 0) {
            for (int i = 0; i < 32; i++)
                p[i] = 100 * k + i;
            if (k == 0) {
                for (int part = 0; part < 4; part++)
                    MPI_Pready(part, req);
            } else {
                int rest[2] = { 2, 3 };
                MPI_Pready_range(0, 1, req);
                MPI_Pready_list(2, rest, req);
            }
        } else {
            int flag = 0;
            while (!flag)
                MPI_Parrived(req, 3, &flag);
        }
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        if (rank == 1)
            expect(rank, "partitioned data", p[31], 100 * k + 31);
    }
    MPI_Request_free(&req);

    /* A session beside the world model. */
    MPI_Session session;
    int npsets = 0;
    MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session);
    MPI_Session_get_num_psets(session, MPI_INFO_NULL, &npsets);
    if (npsets < 1)
        expect(rank, "MPI_Session_get_num_psets", npsets, 1);
    MPI_Session_finalize(&session);
}
#endif

int main(int argc, char **argv)
{
    int rank, size, v[10];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "mpi4: run on 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (rank == 0) {
        for (int i = 0; i < 10; i++)
            v[i] = i;
        MPI_Send(v, 10, MPI_INT, 1, 1, MPI_COMM_WORLD);
    } else {
        MPI_Recv(v, 10, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        expect(rank, "MPI_Recv data", v[9], 9);
    }
#if MPI_VERSION >= 4
    mpi4(rank);
    printf("rank %d: MPI %d.%d, MPI-4 part run: %s\n", rank, MPI_VERSION, MPI_SUBVERSION, bad ? "wrong" : "ok");
#else
    printf("rank %d: MPI %d.%d, MPI-4 part not compiled: %s\n", rank, MPI_VERSION, MPI_SUBVERSION,
           bad ? "wrong" : "ok");
#endif
    MPI_Finalize();
    return bad;
}
