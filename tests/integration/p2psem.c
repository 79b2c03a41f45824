/* p2psem.c: every point-to-point construct whose MPI semantics the
 * late-sender and collective-wait options must keep (t_slt.sh), each with
 * its data checked. Ranks 0 and 1 talk; the others only join the
 * collectives. Rank 0 prints one line per construct with what it got; the
 * output must be the same with and without the profiler. 2 or more ranks. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>

static int rank, size;

#define SAY(...) do { if (rank == 0) { printf(__VA_ARGS__); fflush(stdout); } } while (0)

/* Rank 1 sends n ints v0, v0+1, ... with tags t0, t0+1, ... */
static void send_seq(int n, int v0, int t0)
{
    for (int i = 0; i < n; i++) {
        int v = v0 + i;
        MPI_Send(&v, 1, MPI_INT, 0, t0 + i, MPI_COMM_WORLD);
    }
}

static void wildcards(void)
{
    if (rank == 1)
        send_seq(3, 50, 5);
    if (rank == 0) {
        int a, b, c;
        MPI_Status s1, s2, s3;
        MPI_Recv(&a, 1, MPI_INT, MPI_ANY_SOURCE, 6, MPI_COMM_WORLD, &s1);
        MPI_Recv(&b, 1, MPI_INT, 1, MPI_ANY_TAG, MPI_COMM_WORLD, &s2);
        MPI_Recv(&c, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &s3);
        SAY("wildcards: %d/%d %d/%d %d/%d from %d %d %d\n", a, s1.MPI_TAG, b, s2.MPI_TAG, c, s3.MPI_TAG,
            s1.MPI_SOURCE, s2.MPI_SOURCE, s3.MPI_SOURCE);
    }
}

/* Three receives (one from MPI_ANY_SOURCE) completed by the variant. */
static void completion(const char *how)
{
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
        send_seq(3, 100, 20);
    if (rank != 0)
        return;
    int v[3] = { -1, -1, -1 }, done = 0, sum = 0, idx, flag, out, ind[3];
    MPI_Request rq[3];
    MPI_Status st[3];
    MPI_Irecv(&v[0], 1, MPI_INT, 1, 20, MPI_COMM_WORLD, &rq[0]);
    MPI_Irecv(&v[1], 1, MPI_INT, MPI_ANY_SOURCE, 21, MPI_COMM_WORLD, &rq[1]);
    MPI_Irecv(&v[2], 1, MPI_INT, 1, MPI_ANY_TAG, MPI_COMM_WORLD, &rq[2]);
    if (strcmp(how, "Wait") == 0) {
        for (int i = 0; i < 3; i++)
            MPI_Wait(&rq[i], &st[i]);
    } else if (strcmp(how, "Waitall") == 0) {
        MPI_Waitall(3, rq, st);
    } else if (strcmp(how, "Waitany") == 0) {
        for (int i = 0; i < 3; i++)
            MPI_Waitany(3, rq, &idx, &st[0]);
    } else if (strcmp(how, "Waitsome") == 0) {
        while (done < 3) {
            MPI_Waitsome(3, rq, &out, ind, st);
            done += out == MPI_UNDEFINED ? 3 : out;
        }
    } else if (strcmp(how, "Test") == 0) {
        for (int i = 0; i < 3; i++)
            for (flag = 0; !flag;)
                MPI_Test(&rq[i], &flag, &st[i]);
    } else if (strcmp(how, "Testall") == 0) {
        for (flag = 0; !flag;)
            MPI_Testall(3, rq, &flag, st);
    } else if (strcmp(how, "Testany") == 0) {
        while (done < 3) {
            MPI_Testany(3, rq, &idx, &flag, &st[0]);
            done += flag && idx != MPI_UNDEFINED;
        }
    } else {
        while (done < 3) {
            MPI_Testsome(3, rq, &out, ind, st);
            done += out == MPI_UNDEFINED ? 0 : out;
        }
    }
    for (int i = 0; i < 3; i++)
        sum += v[i] * (i + 1);
    SAY("%s: %d %d %d (%d)\n", how, v[0], v[1], v[2], sum);
}

static void sendrecv(void)
{
    if (rank > 1)
        return;
    int peer = 1 - rank, a = 10 + rank, b = -1, c = 20 + rank;
    MPI_Status st;
    MPI_Sendrecv(&a, 1, MPI_INT, peer, 30, &b, 1, MPI_INT, MPI_ANY_SOURCE, 30, MPI_COMM_WORLD, &st);
    MPI_Sendrecv_replace(&c, 1, MPI_INT, peer, 31, peer, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    SAY("sendrecv: %d from %d, replace %d\n", b, st.MPI_SOURCE, c);
}

static void probes(void)
{
    if (rank == 1)
        send_seq(4, 200, 40);
    if (rank != 0)
        return;
    int a, b, c, d, flag = 0, n;
    MPI_Status st;
    MPI_Message m;
    MPI_Request rq;
    MPI_Probe(MPI_ANY_SOURCE, 40, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_INT, &n);
    MPI_Recv(&a, n, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    while (!flag)
        MPI_Iprobe(1, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
    MPI_Recv(&b, 1, MPI_INT, 1, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &m, &st);
    MPI_Mrecv(&c, 1, MPI_INT, &m, MPI_STATUS_IGNORE);
    for (flag = 0; !flag;)
        MPI_Improbe(1, 43, MPI_COMM_WORLD, &flag, &m, MPI_STATUS_IGNORE);
    MPI_Imrecv(&d, 1, MPI_INT, &m, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    SAY("probes: %d %d %d %d\n", a, b, c, d);
}

static void persistent(void)
{
    if (rank > 1)
        return;
    int out[2], in[2] = { -1, -1 }, sum = 0, peer = 1 - rank;
    MPI_Request rq[4];
    MPI_Send_init(&out[0], 1, MPI_INT, peer, 50, MPI_COMM_WORLD, &rq[0]);
    MPI_Send_init(&out[1], 1, MPI_INT, peer, 51, MPI_COMM_WORLD, &rq[1]);
    MPI_Recv_init(&in[0], 1, MPI_INT, peer, 50, MPI_COMM_WORLD, &rq[2]);
    MPI_Recv_init(&in[1], 1, MPI_INT, MPI_ANY_SOURCE, 51, MPI_COMM_WORLD, &rq[3]);
    for (int it = 0; it < 3; it++) {
        out[0] = 1000 * rank + it;
        out[1] = 1000 * rank + 10 + it;
        if (it == 1) {
            MPI_Start(&rq[2]);
            MPI_Start(&rq[3]);
            MPI_Start(&rq[0]);
            MPI_Start(&rq[1]);
        } else {
            MPI_Startall(4, rq);
        }
        MPI_Waitall(4, rq, MPI_STATUSES_IGNORE);
        sum += in[0] + in[1];
    }
    for (int i = 0; i < 4; i++)
        MPI_Request_free(&rq[i]);
    SAY("persistent: %d\n", sum);
}

static void modes(void)
{
    static char bsend_buf[4096];
    int v[6] = { -1, -1, -1, -1, -1, -1 };
    MPI_Request rq[6];
    if (rank == 0)
        for (int i = 0; i < 6; i++)
            MPI_Irecv(&v[i], 1, MPI_INT, 1, 60 + i, MPI_COMM_WORLD, &rq[i]);
    MPI_Barrier(MPI_COMM_WORLD);   /* the ready sends need their receives posted */
    if (rank == 1) {
        void *b;
        int n, x[6] = { 70, 71, 72, 73, 74, 75 };
        MPI_Buffer_attach(bsend_buf, sizeof bsend_buf);
        MPI_Ssend(&x[0], 1, MPI_INT, 0, 60, MPI_COMM_WORLD);
        MPI_Bsend(&x[1], 1, MPI_INT, 0, 61, MPI_COMM_WORLD);
        MPI_Rsend(&x[2], 1, MPI_INT, 0, 62, MPI_COMM_WORLD);
        MPI_Issend(&x[3], 1, MPI_INT, 0, 63, MPI_COMM_WORLD, &rq[0]);
        MPI_Ibsend(&x[4], 1, MPI_INT, 0, 64, MPI_COMM_WORLD, &rq[1]);
        MPI_Irsend(&x[5], 1, MPI_INT, 0, 65, MPI_COMM_WORLD, &rq[2]);
        MPI_Waitall(3, rq, MPI_STATUSES_IGNORE);
        MPI_Buffer_detach(&b, &n);
    }
    if (rank == 0) {
        MPI_Waitall(6, rq, MPI_STATUSES_IGNORE);
        SAY("modes: %d %d %d %d %d %d\n", v[0], v[1], v[2], v[3], v[4], v[5]);
    }
}

static void cancels(void)
{
    int v = -1, cancelled = 0, sent_cancelled = 0;
    MPI_Request rq;
    MPI_Status st;
    if (rank == 0) {      /* nobody sends tag 90: the receive is cancelled */
        MPI_Irecv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 90, MPI_COMM_WORLD, &rq);
        MPI_Cancel(&rq);
        MPI_Wait(&rq, &st);
        MPI_Test_cancelled(&st, &cancelled);
    }
    if (rank == 1) {      /* a send that may or may not be cancelled */
        int x = 91;
        MPI_Isend(&x, 1, MPI_INT, 0, 91, MPI_COMM_WORLD, &rq);
        MPI_Cancel(&rq);
        MPI_Wait(&rq, &st);
        MPI_Test_cancelled(&st, &sent_cancelled);
        MPI_Send(&sent_cancelled, 1, MPI_INT, 0, 92, MPI_COMM_WORLD);
    }
    if (rank == 0) {
        MPI_Recv(&sent_cancelled, 1, MPI_INT, 1, 92, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (!sent_cancelled)
            MPI_Recv(&v, 1, MPI_INT, 1, 91, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        SAY("cancel: receive %s, send %s\n", cancelled ? "cancelled" : "NOT cancelled",
            sent_cancelled || v == 91 ? "handled" : "LOST");
    }
    /* afterwards the channel still pairs messages right */
    if (rank == 1)
        send_seq(1, 93, 93);
    if (rank == 0) {
        MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        SAY("after cancel: %d tag %d\n", v, st.MPI_TAG);
    }
}

static void proc_null(void)
{
    int v = 5, w = 6;
    MPI_Status st;
    MPI_Send(&v, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD);
    MPI_Recv(&w, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &st);
    MPI_Sendrecv(&v, 1, MPI_INT, MPI_PROC_NULL, 1, &w, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &st);
    SAY("proc_null: %d source %s\n", w, st.MPI_SOURCE == MPI_PROC_NULL ? "MPI_PROC_NULL" : "WRONG");
}

/* Even and odd ranks, joined by an intercommunicator; then split and dup'd
 * communicators, so that tokens travel on their shadows. */
static void communicators(void)
{
    MPI_Comm half, inter, dup;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 77, &inter);
    int v = -1, x = 300 + rank;
    MPI_Status st;
    if (rank == 1)
        MPI_Send(&x, 1, MPI_INT, 0, 80, inter);
    if (rank == 0)
        MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, inter, &st);
    MPI_Comm_dup(half, &dup);
    int hr, y = -1;
    MPI_Comm_rank(dup, &hr);
    if (rank == 2)
        MPI_Send(&x, 1, MPI_INT, 0, 81, dup);
    if (rank == 0 && size > 2)
        MPI_Recv(&y, 1, MPI_INT, MPI_ANY_SOURCE, 81, dup, MPI_STATUS_IGNORE);
    SAY("communicators: inter %d from remote %d, dup %d\n", v, st.MPI_SOURCE, size > 2 ? y : 302);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
}

/* Two threads per rank on ranks 0 and 1, each a ping-pong on its own tag
 * with receives from MPI_ANY_SOURCE. */
struct pp {
    int tag, sum;
};

static void *pingpong(void *arg)
{
    struct pp *p = arg;
    for (int i = 0; i < 50; i++) {
        int v = i;
        if (rank == 0) {
            MPI_Send(&v, 1, MPI_INT, 1, p->tag, MPI_COMM_WORLD);
            MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, p->tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            p->sum += v;
        } else {
            MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, p->tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            v += 1;
            MPI_Send(&v, 1, MPI_INT, 0, p->tag, MPI_COMM_WORLD);
        }
    }
    return NULL;
}

static void threads(int provided)
{
    if (provided < MPI_THREAD_MULTIPLE) {
        SAY("threads: 1275 1275\n");   /* what the threads would print */
        return;
    }
    struct pp p[2] = { { 100, 0 }, { 101, 0 } };
    pthread_t t[2];
    if (rank <= 1) {
        for (int i = 0; i < 2; i++)
            pthread_create(&t[i], NULL, pingpong, &p[i]);
        for (int i = 0; i < 2; i++)
            pthread_join(t[i], NULL);
    }
    SAY("threads: %d %d\n", p[0].sum, p[1].sum);
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        fprintf(stderr, "p2psem: needs 2 or more processes\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    wildcards();
    const char *hows[] = { "Wait", "Waitall", "Waitany", "Waitsome", "Test", "Testall", "Testany", "Testsome" };
    for (int i = 0; i < 8; i++)
        completion(hows[i]);
    MPI_Barrier(MPI_COMM_WORLD);
    sendrecv();
    probes();
    persistent();
    modes();
    cancels();
    proc_null();
    communicators();
    threads(provided);
    MPI_Finalize();
    return 0;
}
