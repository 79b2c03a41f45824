/* pingpong-ref.c: a minimal hand-written ping-pong, the reference that
 * bench/latency-compare.sh sets against mpiprof-mpi1's PingPong: 2 ranks,
 * 2 warm-up round trips, a barrier, then n round trips of x bytes
 * (arguments: x, default 1; n, default 1000). Rank 0 prints the one-way
 * time, half the round trip, in microseconds: "t[usec] <value>".
 *
 * A third argument adds to every message a second one of TOKEN bytes on a
 * duplicate of MPI_COMM_WORLD, as late sender's token (the profiler's
 * libprof/link/tokens.c), to measure what that costs where it is sent:
 *   before      sent (MPI_Isend) before the message; the receiver takes
 *               tokens and its message with MPI_Waitany over an
 *               MPI_ANY_SOURCE, MPI_ANY_TAG receive of the tokens and its
 *               own until its own completes, as the profiler does
 *   after       sent after the message; the receiver the same
 *   after-wait  sent after; the receiver waits for it after its message
 *   none        no second message (the default)
 * (mpiprof(1): what the analyses cost between nodes). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>

#define TOKEN 64

enum order { NONE, BEFORE, AFTER, AFTER_WAIT };

static MPI_Comm shadow;
static MPI_Request tok_out = MPI_REQUEST_NULL, tok_in = MPI_REQUEST_NULL;
static char out[TOKEN], in[TOKEN];
static long tokens;      /* received */

static void post_token_recv(void)
{
    if (tok_in == MPI_REQUEST_NULL)
        MPI_Irecv(in, TOKEN, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, shadow, &tok_in);
}

static void token_wait(void)
{
    post_token_recv();
    MPI_Wait(&tok_in, MPI_STATUS_IGNORE);
    tokens++;
}

static void send_token(int peer)
{
    MPI_Wait(&tok_out, MPI_STATUS_IGNORE);
    MPI_Isend(out, TOKEN, MPI_BYTE, peer, 1, shadow, &tok_out);
}

static void send(enum order o, char *buf, int x, int peer)
{
    if (o == BEFORE)
        send_token(peer);
    MPI_Send(buf, x, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
    if (o == AFTER || o == AFTER_WAIT)
        send_token(peer);
}

static void recv(enum order o, char *buf, int x, int peer)
{
    switch (o) {
    case NONE:
        MPI_Recv(buf, x, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        break;
    case BEFORE:
    case AFTER: {
        MPI_Request r[2];
        int idx = 0;
        MPI_Irecv(buf, x, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &r[1]);
        do {
            post_token_recv();
            r[0] = tok_in;
            MPI_Waitany(2, r, &idx, MPI_STATUS_IGNORE);
            if (idx == 0) {
                tok_in = MPI_REQUEST_NULL;
                tokens++;
            }
        } while (idx != 1);
        break;
    }
    case AFTER_WAIT:
        MPI_Recv(buf, x, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        token_wait();
        break;
    }
}

int main(int argc, char **argv)
{
    static const char *const orders[] = { "none", "before", "after", "after-wait" };
    int rank, size, o = NONE;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_dup(MPI_COMM_WORLD, &shadow);
    int x = argc > 1 ? atoi(argv[1]) : 1;
    long n = argc > 2 ? atol(argv[2]) : 1000;
    if (argc > 3)
        for (o = AFTER_WAIT; o >= NONE && strcmp(argv[3], orders[o]) != 0; o--)
            ;
    char *buf = calloc(x > 0 ? (size_t)x : 1, 1);
    if (size != 2 || x < 0 || n < 1 || o < NONE || !buf) {
        if (rank == 0)
            fprintf(stderr, "pingpong-ref: run on 2 ranks: pingpong-ref [bytes [round-trips "
                            "[none|before|after|after-wait]]]\n");
        MPI_Finalize();
        return 2;
    }
    int peer = 1 - rank;
    double t0 = 0;
    for (long i = -2; i < n; i++) {
        if (i == 0) {
            MPI_Barrier(MPI_COMM_WORLD);
            t0 = MPI_Wtime();
        }
        if (rank == 0) {
            send((enum order)o, buf, x, peer);
            recv((enum order)o, buf, x, peer);
        } else {
            recv((enum order)o, buf, x, peer);
            send((enum order)o, buf, x, peer);
        }
    }
    double t_us = (MPI_Wtime() - t0) / (double)n / 2 * 1e6;
    if (rank == 0)
        printf("t[usec] %.3f\n", t_us);
    /* The tokens still to come (one a message), the last one out, and the
     * receive of one more that none will match. */
    while (o != NONE && tokens < n + 2)
        token_wait();
    MPI_Wait(&tok_out, MPI_STATUS_IGNORE);
    if (tok_in != MPI_REQUEST_NULL) {
        MPI_Cancel(&tok_in);
        MPI_Wait(&tok_in, MPI_STATUS_IGNORE);
    }
    MPI_Comm_free(&shadow);
    free(buf);
    MPI_Finalize();
    return 0;
}
