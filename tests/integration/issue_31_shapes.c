/* issue_31_shapes.c: the program shapes on which late-sender analysis once
 * hung or misreported (issue 31), each with its own answer. 3 or more
 * ranks; ranks 0, 1 and 2 take part (all of them in the ring).
 *
 *   ring       MPI_Sendrecv, then MPI_Sendrecv_replace, on rank 0 of a ring
 *              whose other ranks do MPI_Recv, compute, MPI_Send: the
 *              Sendrecv's send must go before its receive can complete.
 *   waitany    MPI_Waitany, then MPI_Waitsome, over [pending receive,
 *              synchronous send]: the partner sends its message only after
 *              a "go" that rank 0 sends once the call returned the send.
 *   anysource  an MPI_Irecv from rank 1 posted, then an MPI_ANY_SOURCE
 *              MPI_Recv that gets rank 2's late message (rank 1's message,
 *              early, is the Irecv's).
 *   pcontrol   receives posted and completed under MPI_Pcontrol(0), then a
 *              late message received under MPI_Pcontrol(1).
 *   probe      MPI_Probe of a late message, then the MPI_Recv of it.
 *
 * Every message carries its sender's CLOCK_MONOTONIC time at the send (the
 * same clock on every process of a node), so each rank works out the
 * late-sender wait of each receive itself: the part of the call that
 * waited (the receive, the probe, or the Wait variant that completed a
 * nonblocking receive) before its message was sent. It prints one line per
 * message received (the same with and without the profiler) and, last,
 * "truth rank=R site=FUNC late_s=X n=N" per function FUNC holding the MPI
 * call the profiler charges (the receive, the probe, or the posting
 * MPI_Irecv). Usage: issue_31_shapes [-d DELAY_MS] [SHAPE...] (default
 * delay 100 ms, all shapes). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <mpi.h>

#define NOINLINE __attribute__((noinline))

static int rank, size;
static double delay = 0.1;

struct msg {
    double sent;     /* the sender's clock at the send */
    int id, from;
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Compute (busy) for s seconds: a late sender is late because it works. */
static void work(double s)
{
    for (double end = now() + s; now() < end;)
        ;
}

/* --- the truth, per charged function ------------------------------------- */

#define SITES 16
static struct {
    const char *site;
    double late;
    int n;
} truth[SITES];

/* The late-sender wait of message m in a call that waited from t0 to t1,
 * charged to site. */
static void charge(const char *site, const struct msg *m, double t0, double t1)
{
    double late = m->sent - t0;
    late = late < 0 ? 0 : late > t1 - t0 ? t1 - t0 : late;
    int i = 0;
    while (i < SITES - 1 && truth[i].site && strcmp(truth[i].site, site) != 0)
        i++;
    truth[i].site = site;
    truth[i].late += late;
    truth[i].n++;
}

/* Message m received: charged, and the line every run prints alike. */
static void got(const char *site, const struct msg *m, double t0, double t1, const char *shape)
{
    charge(site, m, t0, t1);
    printf("%s: rank %d got message %d from rank %d\n", shape, rank, m->id, m->from);
}

static struct msg stamp(int id)
{
    return (struct msg){ now(), id, rank };
}

/* --- ring ------------------------------------------------------------------ */

NOINLINE void ring_sendrecv(struct msg *out, struct msg *in, int next, int prev, MPI_Status *st)
{
    MPI_Sendrecv(out, sizeof *out, MPI_BYTE, next, 1, in, sizeof *in, MPI_BYTE, prev, 1, MPI_COMM_WORLD, st);
}

NOINLINE void ring_sendrecv_replace(struct msg *m, int next, int prev, MPI_Status *st)
{
    MPI_Sendrecv_replace(m, sizeof *m, MPI_BYTE, next, 2, prev, 2, MPI_COMM_WORLD, st);
}

NOINLINE void ring_recv(struct msg *m, int prev, int tag)
{
    MPI_Recv(m, sizeof *m, MPI_BYTE, prev, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void ring(void)
{
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    struct msg in, m;
    MPI_Status st;
    double t0, t1;
    for (int tag = 1; tag <= 2; tag++) {
        if (rank == 0) {
            m = stamp(100 + tag);
            t0 = now();
            if (tag == 1)
                ring_sendrecv(&m, &in, next, prev, &st);
            else
                ring_sendrecv_replace(&m, next, prev, &st);
            t1 = now();
            if (tag == 2)
                in = m;
            got(tag == 1 ? "ring_sendrecv" : "ring_sendrecv_replace", &in, t0, t1, "ring");
        } else {
            t0 = now();
            ring_recv(&in, prev, tag);
            got("ring_recv", &in, t0, now(), "ring");
            work(delay);
            m = stamp(in.id);
            MPI_Send(&m, sizeof m, MPI_BYTE, next, tag, MPI_COMM_WORLD);
        }
    }
}

/* --- waitany / waitsome ---------------------------------------------------- */

NOINLINE void waitany_irecv(struct msg *m, MPI_Request *r)
{
    MPI_Irecv(m, sizeof *m, MPI_BYTE, 1, 11, MPI_COMM_WORLD, r);
}

static void waitany(void)
{
    for (int some = 0; some <= 1; some++) {
        if (rank == 0) {
            struct msg in, out = stamp(200 + some), go = stamp(210 + some);
            MPI_Request r[2];
            MPI_Status st[2];
            int index, count, which[2];
            waitany_irecv(&in, &r[0]);
            MPI_Issend(&out, sizeof out, MPI_BYTE, 1, 10, MPI_COMM_WORLD, &r[1]);
            if (some)
                MPI_Waitsome(2, r, &count, which, st);
            else
                MPI_Waitany(2, r, &index, st);
            if (some ? count != 1 || which[0] != 1 : index != 1) {
                fprintf(stderr, "waitany: the send must complete first\n");
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
            MPI_Send(&go, sizeof go, MPI_BYTE, 1, 12, MPI_COMM_WORLD);
            double t0 = now();
            MPI_Wait(&r[0], &st[0]);
            got("waitany_irecv", &in, t0, now(), "waitany");
        } else if (rank == 1) {
            struct msg a, go;
            MPI_Recv(&a, sizeof a, MPI_BYTE, 0, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Recv(&go, sizeof go, MPI_BYTE, 0, 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            printf("waitany: rank 1 got messages %d and %d\n", a.id, go.id);
            work(delay);
            struct msg m = stamp(220 + some);
            MPI_Send(&m, sizeof m, MPI_BYTE, 0, 11, MPI_COMM_WORLD);
        }
    }
}

/* --- anysource ------------------------------------------------------------- */

NOINLINE void anysource_irecv(struct msg *m, MPI_Request *r)
{
    MPI_Irecv(m, sizeof *m, MPI_BYTE, 1, 20, MPI_COMM_WORLD, r);
}

NOINLINE void anysource_recv(struct msg *m, MPI_Status *st)
{
    MPI_Recv(m, sizeof *m, MPI_BYTE, MPI_ANY_SOURCE, 20, MPI_COMM_WORLD, st);
}

static void anysource(void)
{
    if (rank == 0) {
        struct msg a, b;
        MPI_Request r;
        MPI_Status st;
        anysource_irecv(&a, &r);
        MPI_Barrier(MPI_COMM_WORLD);             /* the Irecv is posted: rank 1 sends */
        double t0 = now();
        anysource_recv(&b, &st);
        got("anysource_recv", &b, t0, now(), "anysource");
        t0 = now();
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        got("anysource_irecv", &a, t0, now(), "anysource");
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 1 || rank == 2) {
            work(rank == 2 ? delay : 0);
            struct msg m = stamp(300 + rank);
            MPI_Send(&m, sizeof m, MPI_BYTE, 0, 20, MPI_COMM_WORLD);
        }
    }
}

/* --- pcontrol -------------------------------------------------------------- */

NOINLINE void pcontrol_recv(struct msg *m)
{
    MPI_Recv(m, sizeof *m, MPI_BYTE, 1, 30, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void pcontrol(void)
{
    MPI_Pcontrol(0);
    if (rank == 0) {
        struct msg m[3];
        MPI_Request r[3];
        for (int i = 0; i < 3; i++)
            MPI_Irecv(&m[i], sizeof m[i], MPI_BYTE, 1, 30, MPI_COMM_WORLD, &r[i]);
        MPI_Waitall(3, r, MPI_STATUSES_IGNORE);
        for (int i = 0; i < 3; i++)
            printf("pcontrol: rank 0 got message %d from rank %d while stopped\n", m[i].id, m[i].from);
    } else if (rank == 1) {
        for (int i = 0; i < 3; i++) {
            struct msg m = stamp(400 + i);
            MPI_Send(&m, sizeof m, MPI_BYTE, 0, 30, MPI_COMM_WORLD);
        }
    }
    MPI_Pcontrol(1);
    if (rank == 0) {
        struct msg m;
        double t0 = now();
        pcontrol_recv(&m);
        got("pcontrol_recv", &m, t0, now(), "pcontrol");
    } else if (rank == 1) {
        work(delay);
        struct msg m = stamp(410);
        MPI_Send(&m, sizeof m, MPI_BYTE, 0, 30, MPI_COMM_WORLD);
    }
}

/* --- probe ----------------------------------------------------------------- */

NOINLINE void probe_probe(MPI_Status *st)
{
    MPI_Probe(1, 40, MPI_COMM_WORLD, st);
}

NOINLINE void probe_recv(struct msg *m)
{
    MPI_Recv(m, sizeof *m, MPI_BYTE, 1, 40, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void probe(void)
{
    if (rank == 0) {
        struct msg m;
        MPI_Status st;
        double t0 = now();
        probe_probe(&st);
        double t1 = now();
        probe_recv(&m);
        double t2 = now();
        charge("probe_probe", &m, t0, t1);
        got("probe_recv", &m, t1, t2, "probe");
    } else if (rank == 1) {
        work(delay);
        struct msg m = stamp(500);
        MPI_Send(&m, sizeof m, MPI_BYTE, 0, 40, MPI_COMM_WORLD);
    }
}

static const struct {
    const char *name;
    void (*run)(void);
} shapes[] = { { "ring", ring }, { "waitany", waitany }, { "anysource", anysource },
               { "pcontrol", pcontrol }, { "probe", probe } };

#define NSHAPES (int)(sizeof shapes / sizeof shapes[0])

int main(int argc, char **argv)
{
    int want[NSHAPES] = { 0 }, any = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 1; i < argc; i++) {
        int k = 0;
        if (strcmp(argv[i], "-d") == 0 && i + 1 < argc) {
            char *end;
            double ms = strtod(argv[++i], &end);
            if (*end || ms < 0 || ms > 10000) {
                if (rank == 0)
                    fprintf(stderr, "issue_31_shapes: -d '%s' is not a delay in 0..10000 ms\n", argv[i]);
                MPI_Finalize();
                return 2;
            }
            delay = ms / 1000;
            continue;
        }
        while (k < NSHAPES && strcmp(argv[i], shapes[k].name) != 0)
            k++;
        if (k == NSHAPES) {
            if (rank == 0)
                fprintf(stderr, "issue_31_shapes: unknown shape '%s' (ring waitany anysource pcontrol probe)\n",
                        argv[i]);
            MPI_Finalize();
            return 2;
        }
        want[k] = any = 1;
    }
    if (size < 3) {
        if (rank == 0)
            fprintf(stderr, "issue_31_shapes: needs 3 or more ranks\n");
        MPI_Finalize();
        return 2;
    }
    for (int k = 0; k < NSHAPES; k++)
        if (want[k] || !any) {
            MPI_Barrier(MPI_COMM_WORLD);
            shapes[k].run();
        }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < SITES; i++)
        if (truth[i].site)
            printf("truth rank=%d site=%s late_s=%.6f n=%d\n", rank, truth[i].site, truth[i].late, truth[i].n);
    MPI_Finalize();
    return 0;
}
