/* nodeinfo.c: what a rank sees of its simulated node (nodes.sh), for
 * t_nodes.sh. Each rank prints one line
 *
 *   rank R host H proc P mono T env E
 *
 * H its gethostname, P its MPI_Get_processor_name, T its CLOCK_MONOTONIC
 * (seconds) read right after an MPI_Barrier, E the value of the variable
 * named by argv[1] ("-" when unset). Then rank 0 and rank size/2 (on
 * another node when the ranks fill node0 first) ping-pong 1 byte
 * PINGS times (argv[2], default 1000), and so do rank 0 and rank 1 when
 * there are more than two ranks (the same node at 2 ranks a node); rank 0
 * prints "pingpong A B us U" per pair, U the median of 11 batches' one-way
 * time in microseconds, and checks every byte. With argv[3] PEER and
 * argv[4] MIB: then rank 0 sends rank PEER MIB messages of 1 MiB, checked
 * there, and PEER prints "bulk 0 PEER MiB MIB". Exits 1 on a wrong byte. */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BATCHES 11

static double mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* pingpong: ranks a and b exchange 1 byte pings times per batch; rank a
 * returns the median one-way time (s), others 0. Returns -1 on a wrong byte. */
static double pingpong(int rank, int a, int b, int pings)
{
    double t[BATCHES];
    unsigned char c;
    int bad = 0;

    if (rank != a && rank != b)
        return 0;
    for (int k = 0; k < BATCHES; k++) {
        double t0 = mono();
        for (int i = 0; i < pings; i++) {
            c = (unsigned char)(i + k);
            if (rank == a) {
                MPI_Send(&c, 1, MPI_BYTE, b, 0, MPI_COMM_WORLD);
                MPI_Recv(&c, 1, MPI_BYTE, b, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(&c, 1, MPI_BYTE, a, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(&c, 1, MPI_BYTE, a, 0, MPI_COMM_WORLD);
            }
            bad |= c != (unsigned char)(i + k);
        }
        t[k] = (mono() - t0) / (2.0 * pings);
    }
    qsort(t, BATCHES, sizeof t[0], cmp);
    return bad ? -1 : t[BATCHES / 2];
}

/* bulk: rank 0 sends peer mib messages of 1 MiB; peer checks them.
 * Returns 1 on a wrong byte. */
static int bulk(int rank, int peer, int mib)
{
    enum { MIB = 1 << 20 };
    unsigned char *b = malloc(MIB);
    int bad = 0;

    if (!b || (rank != 0 && rank != peer) || peer == 0) {
        free(b);
        return !b;
    }
    for (int m = 0; m < mib; m++) {
        if (rank == 0) {
            for (int i = 0; i < MIB; i++)
                b[i] = (unsigned char)(i * 7 + m);
            MPI_Send(b, MIB, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
        } else {
            MPI_Recv(b, MIB, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            for (int i = 0; i < MIB; i++)
                bad |= b[i] != (unsigned char)(i * 7 + m);
        }
    }
    if (rank == peer && !bad)
        printf("bulk 0 %d MiB %d\n", peer, mib);
    free(b);
    return bad;
}

int main(int argc, char **argv)
{
    char host[256], proc[MPI_MAX_PROCESSOR_NAME];
    int rank, size, len, pings = argc > 2 ? atoi(argv[2]) : 1000, bad = 0;
    const char *env = argc > 1 ? getenv(argv[1]) : NULL;
    double t;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (gethostname(host, sizeof host) != 0)
        strcpy(host, "-");
    MPI_Get_processor_name(proc, &len);
    MPI_Barrier(MPI_COMM_WORLD);
    t = mono();
    printf("rank %d host %s proc %s mono %.6f env %s\n", rank, host, proc, t, env && *env ? env : "-");
    fflush(stdout);

    int pairs[2][2] = { { 0, size / 2 }, { 0, 1 } };
    for (int p = 0; p < (size > 2 ? 2 : 1) && size > 1; p++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double us = pingpong(rank, pairs[p][0], pairs[p][1], pings);
        if (us < 0)
            bad = 1;
        else if (rank == 0)
            printf("pingpong %d %d us %.2f\n", pairs[p][0], pairs[p][1], us * 1e6);
    }
    if (argc > 4)
        bad |= bulk(rank, atoi(argv[3]), atoi(argv[4]));
    fflush(stdout);
    if (bad)
        fprintf(stderr, "nodeinfo: rank %d: a byte came back wrong\n", rank);
    MPI_Finalize();
    return bad;
}
