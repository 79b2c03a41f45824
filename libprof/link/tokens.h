/* tokens.h: the tokens of the point-to-point messages, by the stuttering
 * method (MPInside's): every point-to-point send first sends a small
 * token, with the sender's call site and its time, on the shadow of its
 * communicator (shadow.h), same destination and tag. The token of a
 * message is the one the receive that matched that message takes, however
 * the receive was posted; the part of the receive's blocking call that
 * passed before the token was sent is its send-late time (late sender,
 * analysis/slt.h). Other analyses ride on the tokens (struct prof_rider:
 * the model's clocks, wait states' causes) and exchange their own tokens
 * through the pool (prof_token_isend, ...).
 *
 * The safety rule: the profiler never blocks where the call it stands in
 * for would not. A hook that waits for a token has first posted everything
 * the program's call posts (both halves of a Sendrecv), and it waits by
 * polling the real operation and the tokens together, so it returns exactly
 * when the program's call would; the program's call is then made and
 * returns at once. Tokens are never waited for.
 *
 * Which token: messages from one sender with one tag on one communicator
 * arrive, and their tokens too, in the order they were sent (MPI's
 * non-overtaking rule), and receives that matched messages of the same
 * source and tag matched them in the order they were posted. So every
 * receive posted on a communicator with a shadow, profiled or not
 * (MPI_Pcontrol(0), MPIPROF_FUNCTIONS), is noted in posting order, and when
 * one completes with source S and tag T, its token is the (k+1)-th token of
 * (S, T) not yet taken, k being the receives posted before it that hold
 * messages of (S, T) and have not yet taken theirs. Where k cannot be told
 * (an earlier receive with a wildcard is still pending) the receive is not
 * evaluated, and its token is taken once k is known. A token that has not
 * arrived when its receive completes leaves a place in the queue: the
 * receive is evaluated when the token comes (prof_tokens_later) if it was
 * an MPI_Recv or the one receive a Wait variant completed, late sender is
 * the only analysis on the tokens, and the thread that received takes the
 * token in; else the token is dropped when it comes.
 *
 * Where the token goes: before its message (riders' answers are waited
 * for when the receive completes), or, with MPIPROF_TEST_TOKEN=after and
 * late sender alone, after the message of an MPI_Send (Bsend, Ssend,
 * Rsend, Isend, ...) or MPI_Isendrecv, stamped when the send began, so
 * that its cost is not in the message's way.
 *
 * Evaluated (send-late measured), the waiting call being: MPI_Recv,
 * MPI_Sendrecv(_replace), MPI_Probe and MPI_Mprobe for themselves; a
 * nonblocking or persistent receive, the MPI_Wait, Waitall, Waitany or
 * Waitsome that completed it. Not evaluated (counted): receives completed
 * by a Test variant or MPI_Improbe, whose position was ambiguous, whose
 * token had not arrived, or on a communicator without a shadow (made by
 * MPI_Comm_idup, spawn, connect, accept or join). What the receive learned
 * goes in its call's sender (prof.h: struct prof_sender), which the core
 * reports to the analyses (events.h: msg_waited, reqs_waited). */
#ifndef PROF_TOKENS_H
#define PROF_TOKENS_H

#include <mpi.h>
#include <stdint.h>

#include "thread.h"

struct prof_call;
struct prof_token_queue;
struct prof_shadow;

/* What a token carries: the sender's call site (its record key, 0 if
 * unknown), the sender's modelled clock at the send (the model's; < 0 if
 * unknown), the sender's time at the send as it travels (nodes.h:
 * prof_sync_out) with the clock it is on (prof_sync_node), the reply the
 * sender's model waits for (its tag plus 1; 0: none), the cause the sender
 * passes on, whether the send waits for its receive (wait states), and the
 * sender's node (prof_sync_from). */
struct prof_token {
    uint64_t key;
    double sent;
    uint64_t at;
    uint64_t node;
    uint64_t reply;
    struct prof_cause cause;
    int32_t sync;          /* a send that waits for its receive (wait states, late receiver): a notice id in mark */
    int32_t from;
    uint64_t mark;         /* wait states: a time on the sender's clock (an epoch's last one-sided call);
                              the notice id of a send that waits for its receive */
};

/* What a receive's posting noted for the riders: the model's clock then
 * (< 0: none), and for wait states this process's clock then and the
 * cause its posting call passed on. */
struct prof_posting {
    double clock;
    uint64_t at;
    struct prof_cause cause;
};

/* A rider: an analysis whose own figures travel in the tokens. It calls
 * prof_tokens_ride in its module's start (modules.c starts it before the
 * tokens' module); every hook may be NULL, and runs with the tokens' lock
 * held except send and posted.
 * send: the token t (its key and clock set) of a send of bytes (0: not
 * known) by the call c to dst, whose answer goes on reply (the
 * communicator's reply shadow, or MPI_COMM_NULL); posted: a receive's
 * posting by c, in p; taken: the receive posted as p on comm took t from
 * src (reply: comm's reply shadow). order: the rider wants the core's
 * sender.wrong (a receive that took a message sent after one still to be
 * taken). late: the rider's figures take late sender's in (wait states:
 * late sender is on with it). */
struct prof_rider {
    void (*send)(const struct prof_call *c, uint64_t bytes, MPI_Comm reply, int dst, struct prof_token *t);
    void (*posted)(const struct prof_call *c, struct prof_posting *p);
    void (*taken)(const struct prof_posting *p, MPI_Comm comm, MPI_Comm reply, int src, struct prof_token *t);
    int order, late;
};

/* A receive evaluated after it completed, when its token came: what late
 * sender gave it with its sending site and send-late time not known, to
 * be moved (prof_tokens_later): rec, the record of its late-sender
 * figures, its wait there (its part of the completion call's time, p2p.c);
 * arr, the record that counts its message (NULL: none on this thread),
 * with bytes and ticks to the partner world; call, the completion call's
 * record (a Wait variant's; NULL: a blocking receive's, whose wait is its
 * call's); whether its wait and its message went to the others' partner
 * bucket (record.h), where they stay. */
struct prof_record;
#define PROF_LATER_SENDS 16
struct prof_later {
    struct prof_record *rec, *arr, *call;
    int world;
    uint64_t wait, bytes, ticks;
    int rec_others, arr_others;
    int sends;             /* on one receive of a completion call: the partners of the sends it completed, */
    struct {               /* n each, each given send_wait of the call (p2p.c); 0 on the others */
        int world, n;
    } send[PROF_LATER_SENDS];
    uint64_t send_wait;
};

/* found: the token of the receive l came (eval 1), sent by the site key,
 * late its send-late time (ticks, within wait), or it never will (eval 0);
 * wait its part of the call's time and sent each of l's sends' part:
 * l->wait and l->send_wait unless the parts of the call were made anew
 * from its receives' send-late times, as p2p.c makes them when the
 * tokens are there (eval 0 is told only then); on the thread that
 * received, with the tokens' lock held. */
typedef void (*prof_later_fn)(const struct prof_later *l, int eval, uint64_t key, uint64_t late, uint64_t wait,
                              uint64_t sent);

/* prof_tokens_ride: rider r's hooks run from now on (at most
 * PROF_RIDERS_MAX riders); prof_tokens_want: an analysis that reads only
 * the figures the tokens give (late sender), found its receives evaluated
 * late. Either turns the tokens on (prof_mod_tokens, at MPI_Init);
 * prof_tokens_wanted: whether one did. prof_tokens_late: whether a rider
 * takes late sender in. prof_tokens_later: receive id (a sender's later)
 * gave l's figures, to move when its token comes. */
#define PROF_RIDERS_MAX 4
void prof_tokens_ride(const struct prof_rider *r);
void prof_tokens_want(prof_later_fn found);
void prof_tokens_later(uint64_t id, const struct prof_later *l);
int prof_tokens_wanted(void);
int prof_tokens_late(void);

/* prof_token_sent_at: when the sender of t sent it, on this process's
 * clock: from the sender's time, on this node (one clock) or on the nodes'
 * common timeline (nodes.h), so that a receiver that was descheduled while
 * the token arrived (more processes than cores) does not count that as the
 * sender's lateness; else arrived, when it arrived here (MPInside's
 * stuttering method). It was sent before it arrived: the clock
 * condition, and the drift of its node, which it tells when it was sent
 * after since, the start of the call that waited for it (nodes.h:
 * prof_sync_token). */
uint64_t prof_token_sent_at(const struct prof_token *t, uint64_t arrived, uint64_t since);

/* prof_token_send_cause: a token carrying cause and mark to dst with tag on
 * comm (the pool's; its send completes in the background);
 * prof_token_recv_cause: receive one from src with tag (blocking) for a
 * call that began waiting at since, its cause in *cause and when it was
 * sent in *sent (prof_token_sent_at, its arrival the time now);
 * prof_token_recv_full: the token as it came. 0, or -1 on failure. */
void prof_token_send_cause(MPI_Comm comm, int dst, int tag, const struct prof_cause *cause, uint64_t mark);
int prof_token_recv_cause(MPI_Comm comm, int src, int tag, uint64_t since, struct prof_cause *cause, uint64_t *sent);
int prof_token_recv_full(MPI_Comm comm, int src, int tag, struct prof_token *t);

/* prof_token_isend: a token (key, sent clock) to dst with tag on comm, from
 * the pool (its send completes in the background); prof_token_recv: the
 * sent clock of the token from src with tag (blocking; < 0 on failure),
 * and its key in *key (unless NULL; 0 on failure). The model's one-sided
 * epochs exchange clocks with them (model_rma.c). */
void prof_token_isend(MPI_Comm comm, int dst, int tag, uint64_t key, double sent);
double prof_token_recv(MPI_Comm comm, int src, int tag, uint64_t *key);

/* prof_tokens_queue_free: a shadow's tokens, its posted token receive, and
 * its notes of pending receives (shadow.c, before freeing it); when tokens
 * are still to come to it, its queue and communicator are kept until they
 * came or MPI_Finalize (s->comm is then MPI_COMM_NULL). */
void prof_tokens_queue_free(struct prof_shadow *s);

/* The module (prof_mod_tokens, tokens.c) starts when an analysis wants
 * the tokens: it makes the shadows of MPI_COMM_WORLD and MPI_COMM_SELF
 * (collective over MPI_COMM_WORLD), stands around the point-to-point calls
 * (around.h: its hooks run on every call, profiled or not; a call whose
 * arguments are wrong, a rank outside the communicator, a negative count
 * or tag, MPI_DATATYPE_NULL, sends no token and waits for none: it fails
 * as the program made it), notes the receives posted and the persistent
 * requests described (recv_posted, p2p_init), and at MPI_Finalize lets go
 * of the token sends in flight. */

#endif
