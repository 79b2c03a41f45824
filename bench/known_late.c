/* known_late.c: the late-sender workloads of mpiprof-known (known.h). Each
 * message carries its round number, checked on arrival.
 *   late-sender    rank 0 computes D ms before each of K sends to rank 1,
 *                  which receives at once: rank 1's send-late is K x D.
 *   late-receiver  rank 1 computes D ms before each of K receives from
 *                  rank 0, which sends at once: no send-late anywhere.
 *   late-senders   ranks 1..S (S = min(3, P - 1)) each send rank 0 K
 *                  messages, sender i after computing i x D ms, one sender at
 *                  a time; rank 0 receives from MPI_ANY_SOURCE (-m waitany:
 *                  MPI_Irecv + MPI_Waitany; -m recv: MPI_Recv): its
 *                  send-late with partner i is K x i x D.
 *   late-waitall   rank 0 posts two MPI_Irecv from rank 1 and waits for
 *                  both in one MPI_Waitall; rank 1 sends the first after
 *                  D ms and the second 3 x D ms later, K times: rank 0's
 *                  send-late is K x 4 x D, the wait until the last was sent
 *                  (counted once, not once per request: K x 5 x D).
 *   late-exchange  ranks 0 and 1 exchange a message each way (MPI_Irecv,
 *                  MPI_Isend, one MPI_Waitall), rank 1 after computing D
 *                  ms, K times: rank 0's send-late is K x D, its
 *                  receive's whole wait (not the part of the call its
 *                  send would leave it), rank 1's 0.
 * The answers are worked out from how long each computation actually took
 * (a sleep wakes up late on a loaded node); the formula's figures follow as
 * nominal=. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
#include "intopts.h"
#include "known.h"

/* -k CALLS -d MS, and for late-senders -m waitany|recv. */
struct late_opts {
    long calls, ms;
    int waitany;
};

static int parse(const char *name, int argc, char **argv, int rank, int size, int with_mode, struct late_opts *o)
{
    char err[256], prog[64];
    o->calls = 10;
    o->ms = 20;
    o->waitany = 1;
    snprintf(prog, sizeof prog, "mpiprof-known %s", name);
    /* -m takes a word: take it out before the integer options. */
    int n = 0;
    char *args[64];
    const char *mode = NULL;
    for (int i = 0; i < argc && n < 63; i++) {
        if (with_mode && strcmp(argv[i], "-m") == 0 && i + 1 < argc)
            mode = argv[++i];
        else
            args[n++] = argv[i];
    }
    args[n] = NULL;
    const struct bench_intopt opts[] = { { 'k', 1, 1000000, &o->calls }, { 'd', 0, 10000, &o->ms } };
    int rc = bench_intopts_parse(prog, n, args, opts, 2, err, sizeof err);
    if (rc == 0 && mode && strcmp(mode, "waitany") != 0 && strcmp(mode, "recv") != 0) {
        snprintf(err, sizeof err, "%s: -m: '%s' is not waitany or recv", prog, mode);
        rc = 2;
    }
    if (rc == 0 && size < 2) {
        snprintf(err, sizeof err, "%s: needs at least 2 processes (got %d)", prog, size);
        rc = 2;
    }
    if (rc != 0) {
        if (rank == 0 && rc == 1)
            printf("Usage: mpiprof-known %s [-k CALLS (default 10)] [-d MS (0..10000, default 20)]%s\n", name,
                   with_mode ? " [-m waitany|recv (default waitany)]" : "");
        else if (rank == 0)
            fprintf(stderr, "%s\n", err);
        return rc == 1 ? 0 : 2;
    }
    o->waitany = !mode || strcmp(mode, "waitany") == 0;
    return -1;
}

/* One message of round k from src to dst; the receiver checks it. The
 * computation's time is added to *spent. */
static int pass(int src, int dst, int rank, long k, double delay_before_send, double delay_before_recv,
                double *spent)
{
    int v = (int)k;
    if (rank == src) {
        *spent += known_compute(delay_before_send);
        MPI_Send(&v, 1, MPI_INT, dst, 7, MPI_COMM_WORLD);
    } else if (rank == dst) {
        *spent += known_compute(delay_before_recv);
        v = -1;
        MPI_Recv(&v, 1, MPI_INT, src, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (v != (int)k) {
            fprintf(stderr, "mpiprof-known: rank %d got %d from rank %d, expected %ld\n", rank, v, src, k);
            return 1;
        }
    }
    return 0;
}

/* The expected line of late-sender, late-receiver and late-waitall: the
 * waiter's send-late is what the sender spent computing before its sends
 * (spent, at each rank; by the formula: nominal), 0 elsewhere. */
static void expect_late(const char *name, const struct late_opts *o, double spent, int sender, int waiter,
                        double nominal)
{
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double *all = known_gather(&spent, 1);
    if (!all)
        return;
    double late = all[sender];
    for (int r = 0; r < size; r++)
        all[r] = r == waiter ? late : 0;
    known_line(name, o->calls, o->ms * 1e-3, "summary.txt", "send_late_s");
    known_list("values", size, NULL, all);
    for (int r = 0; r < size; r++)
        all[r] = r == waiter ? nominal : 0;
    known_list("nominal", size, NULL, all);
    known_end();
    free(all);
}

static int late_sender(int argc, char **argv, int rank, int size)
{
    struct late_opts o;
    int rc = parse("late-sender", argc, argv, rank, size, 0, &o);
    if (rc >= 0)
        return rc;
    double d = o.ms * 1e-3, spent = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    for (long k = 0; k < o.calls && rc <= 0; k++)
        rc = pass(0, 1, rank, k, d, 0, &spent);
    expect_late("late-sender", &o, spent, 0, 1, o.calls * d);
    return rc > 0;
}

static int late_receiver(int argc, char **argv, int rank, int size)
{
    struct late_opts o;
    int rc = parse("late-receiver", argc, argv, rank, size, 0, &o);
    if (rc >= 0)
        return rc;
    double spent = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    for (long k = 0; k < o.calls && rc <= 0; k++)
        rc = pass(0, 1, rank, k, 0, o.ms * 1e-3, &spent);
    expect_late("late-receiver", &o, 0, 0, 1, 0);
    return rc > 0;
}

static int late_senders(int argc, char **argv, int rank, int size)
{
    struct late_opts o;
    int rc = parse("late-senders", argc, argv, rank, size, 1, &o);
    if (rc >= 0)
        return rc;
    double d = o.ms * 1e-3, spent = 0;
    int senders = size - 1 < 3 ? size - 1 : 3, bad = 0;
    for (long k = 0; k < o.calls; k++)
        for (int i = 1; i <= senders; i++) {
            int v = (int)k, from = -1;
            MPI_Barrier(MPI_COMM_WORLD);
            if (rank == i) {
                spent += known_compute(i * d);
                MPI_Send(&v, 1, MPI_INT, 0, i, MPI_COMM_WORLD);
            } else if (rank == 0) {
                MPI_Status st;
                v = -1;
                if (o.waitany) {
                    MPI_Request req;
                    int index;
                    MPI_Irecv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &req);
                    MPI_Waitany(1, &req, &index, &st);
                } else {
                    MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
                }
                from = st.MPI_SOURCE;
                if (v != (int)k || from != i || st.MPI_TAG != i)
                    bad = 1;
            }
        }
    if (bad)
        fprintf(stderr, "mpiprof-known late-senders: rank 0 got a message out of order\n");
    double *all = known_gather(&spent, 1);
    if (rank == 0) {
        int ids[3];
        double nominal[3];
        for (int i = 1; i <= senders; i++) {
            ids[i - 1] = i;
            nominal[i - 1] = o.calls * i * d;
        }
        known_line("late-senders", o.calls, d, "partners.txt", "send_late_s");
        printf(" rank=0");
        known_list("partners", senders, ids, all + 1);
        known_list("nominal", senders, ids, nominal);
        known_end();
        free(all);
    }
    return bad;
}

static int late_waitall(int argc, char **argv, int rank, int size)
{
    struct late_opts o;
    int rc = parse("late-waitall", argc, argv, rank, size, 0, &o);
    if (rc >= 0)
        return rc;
    double d = o.ms * 1e-3, spent = 0;
    int bad = 0;
    for (long k = 0; k < o.calls; k++) {
        int v[2] = { (int)k, (int)k };
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 1) {
            spent += known_compute(d);
            MPI_Send(&v[0], 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
            spent += known_compute(3 * d);
            MPI_Send(&v[1], 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
        } else if (rank == 0) {
            MPI_Request req[2];
            v[0] = v[1] = -1;
            MPI_Irecv(&v[0], 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &req[0]);
            MPI_Irecv(&v[1], 1, MPI_INT, 1, 2, MPI_COMM_WORLD, &req[1]);
            MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
            bad |= v[0] != (int)k || v[1] != (int)k;
        }
    }
    if (bad)
        fprintf(stderr, "mpiprof-known late-waitall: rank 0 got a message of another round\n");
    expect_late("late-waitall", &o, spent, 1, 0, o.calls * 4 * d);
    return bad;
}

static int late_exchange(int argc, char **argv, int rank, int size)
{
    struct late_opts o;
    int rc = parse("late-exchange", argc, argv, rank, size, 0, &o);
    if (rc >= 0)
        return rc;
    double d = o.ms * 1e-3, spent = 0;
    int bad = 0;
    for (long k = 0; k < o.calls; k++) {
        int in = -1, out = (int)k;
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank > 1)
            continue;
        MPI_Request req[2];
        if (rank == 1)
            spent += known_compute(d);
        MPI_Irecv(&in, 1, MPI_INT, 1 - rank, 3, MPI_COMM_WORLD, &req[0]);
        MPI_Isend(&out, 1, MPI_INT, 1 - rank, 3, MPI_COMM_WORLD, &req[1]);
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
        bad |= in != (int)k;
    }
    if (bad)
        fprintf(stderr, "mpiprof-known late-exchange: rank %d got a message of another round\n", rank);
    expect_late("late-exchange", &o, spent, 1, 0, o.calls * d);
    return bad;
}

const struct known_workload known_late_sender = {
    "late-sender", "rank 0 computes D ms before each send to rank 1: send-late K*D on rank 1", late_sender
};
const struct known_workload known_late_receiver = {
    "late-receiver", "rank 1 computes D ms before each receive from rank 0: no send-late", late_receiver
};
const struct known_workload known_late_senders = {
    "late-senders", "ranks 1..3 send to rank 0 (MPI_ANY_SOURCE) after i*D ms: send-late K*i*D per partner",
    late_senders
};
const struct known_workload known_late_waitall = {
    "late-waitall", "rank 1 sends rank 0's two MPI_Irecv, D then 3*D ms later, one MPI_Waitall: send-late K*4*D on rank 0",
    late_waitall
};
const struct known_workload known_late_exchange = {
    "late-exchange", "ranks 0 and 1 exchange (MPI_Irecv, MPI_Isend, MPI_Waitall), rank 1 after D ms: send-late K*D on rank 0",
    late_exchange
};
