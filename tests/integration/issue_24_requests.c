/* issue_24_requests.c: request-map shapes of issue 24 (2 ranks, partner
 * 1 - rank). t_requests.sh runs it and checks exact counts.
 *
 *   poll N     N exchanges (MPI_Isend + MPI_Irecv polled with MPI_Testall),
 *              then 10 completed by MPI_Waitall
 *   shared N   per iteration 3 small MPI_Isend at once (Open MPI may return
 *              one shared complete request for each), one MPI_Waitall; the
 *              partner posts 3 MPI_Irecv and MPI_Waitall
 *   persist N  4 persistent sends and 4 receives; per iteration only the
 *              ones of index i % 4 are started, MPI_Waitall over all 8
 *   threads N  MPI_THREAD_MULTIPLE, 2 threads, each N exchanges completed
 *              by MPI_Waitall (exit 77 without MPI_THREAD_MULTIPLE)
 *   freed N    N persistent receives and sends of 2 ints, each started
 *              once, waited, freed; then N exchanges of 1 int (MPI_Isend,
 *              MPI_Irecv, MPI_Waitall), which may get the freed handles
 *   truncate N MPI_ERRORS_RETURN; per iteration MPI_Waitall over a receive
 *              of 1 int that gets 2 (MPI_ERR_TRUNCATE), a receive of 1 int
 *              and sends of 2 and 1 ints: MPI_ERR_IN_STATUS, the others
 *              complete (MPI_SUCCESS) or stay pending (MPI_ERR_PENDING, as
 *              MPICH leaves them), then a second MPI_Waitall completes
 *              those; prints "truncate: ok" when the MPI behaved so */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int peer, n;

static void poll(void)
{
    int s = 1, r = 0;
    for (int i = 0; i < n; i++) {
        MPI_Request q[2];
        int flag = 0;
        MPI_Irecv(&r, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, &q[0]);
        MPI_Isend(&s, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, &q[1]);
        while (!flag)
            MPI_Testall(2, q, &flag, MPI_STATUSES_IGNORE);
    }
    for (int i = 0; i < 10; i++) {
        MPI_Request q[2];
        MPI_Irecv(&r, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, &q[0]);
        MPI_Isend(&s, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, &q[1]);
        MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
    }
}

static void shared(int rank)
{
    int v[3] = { 1, 2, 3 };
    for (int i = 0; i < n; i++) {
        MPI_Request q[3];
        for (int k = 0; k < 3; k++) {
            if (rank == 0)
                MPI_Isend(&v[k], 1, MPI_INT, peer, k, MPI_COMM_WORLD, &q[k]);
            else
                MPI_Irecv(&v[k], 1, MPI_INT, peer, k, MPI_COMM_WORLD, &q[k]);
        }
        MPI_Waitall(3, q, MPI_STATUSES_IGNORE);
    }
}

static void persist(void)
{
    int s[4] = { 0 }, r[4];
    MPI_Request q[8];
    for (int k = 0; k < 4; k++) {
        MPI_Recv_init(&r[k], 1, MPI_INT, peer, k, MPI_COMM_WORLD, &q[k]);
        MPI_Send_init(&s[k], 1, MPI_INT, peer, k, MPI_COMM_WORLD, &q[4 + k]);
    }
    for (int i = 0; i < n; i++) {
        MPI_Start(&q[i % 4]);
        MPI_Start(&q[4 + i % 4]);
        MPI_Waitall(8, q, MPI_STATUSES_IGNORE);
    }
    for (int k = 0; k < 8; k++)
        MPI_Request_free(&q[k]);
}

static void *exchange(void *arg)
{
    int tag = (int)(size_t)arg, s = tag, r;
    for (int i = 0; i < n; i++) {
        MPI_Request q[2];
        MPI_Irecv(&r, 1, MPI_INT, peer, tag, MPI_COMM_WORLD, &q[0]);
        MPI_Isend(&s, 1, MPI_INT, peer, tag, MPI_COMM_WORLD, &q[1]);
        MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
    }
    return NULL;
}

static void freed(void)
{
    int s[2] = { 1, 2 }, r[2];
    for (int i = 0; i < n; i++) {
        MPI_Request q[2];
        MPI_Recv_init(r, 2, MPI_INT, peer, 0, MPI_COMM_WORLD, &q[0]);
        MPI_Send_init(s, 2, MPI_INT, peer, 0, MPI_COMM_WORLD, &q[1]);
        MPI_Startall(2, q);
        MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
        MPI_Request_free(&q[0]);
        MPI_Request_free(&q[1]);
    }
    exchange((void *)(size_t)1);
}

static void truncate(int rank)
{
    int s[2] = { 1, 2 }, r[2], bad = 0;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int i = 0; i < n; i++) {
        MPI_Request q[4];
        MPI_Status st[4];
        MPI_Irecv(&r[0], 1, MPI_INT, peer, 0, MPI_COMM_WORLD, &q[0]);
        MPI_Irecv(&r[1], 1, MPI_INT, peer, 1, MPI_COMM_WORLD, &q[1]);
        MPI_Isend(s, 2, MPI_INT, peer, 0, MPI_COMM_WORLD, &q[2]);
        MPI_Isend(s, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, &q[3]);
        if (MPI_Waitall(4, q, st) != MPI_ERR_IN_STATUS || st[0].MPI_ERROR == MPI_SUCCESS ||
            q[0] != MPI_REQUEST_NULL)
            bad = 1;
        for (int k = 1; k < 4; k++)
            if (st[k].MPI_ERROR != MPI_SUCCESS && st[k].MPI_ERROR != MPI_ERR_PENDING)
                bad = 1;
        if (MPI_Waitall(4, q, MPI_STATUSES_IGNORE) != MPI_SUCCESS)
            bad = 1;
    }
    printf("%d truncate: %s\n", rank, bad ? "unexpected MPI behaviour" : "ok");
}

int main(int argc, char **argv)
{
    int provided, rank, size;
    const char *mode = argc > 1 ? argv[1] : "";
    int threads = strcmp(mode, "threads") == 0;
    n = argc > 2 ? atoi(argv[2]) : 100;
    MPI_Init_thread(&argc, &argv, threads ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "issue_24_requests: run with 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    peer = 1 - rank;
    if (threads && provided < MPI_THREAD_MULTIPLE) {
        MPI_Finalize();
        return 77;
    }
    if (strcmp(mode, "poll") == 0) {
        poll();
    } else if (strcmp(mode, "shared") == 0) {
        shared(rank);
    } else if (strcmp(mode, "persist") == 0) {
        persist();
    } else if (threads) {
        pthread_t t[2];
        for (int k = 0; k < 2; k++)
            pthread_create(&t[k], NULL, exchange, (void *)(size_t)(k + 10));
        for (int k = 0; k < 2; k++)
            pthread_join(t[k], NULL);
    } else if (strcmp(mode, "freed") == 0) {
        freed();
    } else if (strcmp(mode, "truncate") == 0) {
        truncate(rank);
    } else {
        if (rank == 0)
            fprintf(stderr, "usage: issue_24_requests poll|shared|persist|threads|freed|truncate N\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Finalize();
    return 0;
}
