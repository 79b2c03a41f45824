/* slt.h: late-sender analysis by the stuttering method
 * (MPIPROF_EVAL_SLT; MPInside's "Late Senders"): every point-to-point send
 * first sends a small token, with the sender's call site, on the shadow of
 * its communicator (shadow.h), same destination and tag. The token of a
 * message is the one the receive that matched that message takes, however
 * the receive was posted; the receive's send-late time is the part of its
 * blocking call that passed before the token arrived.
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
 * arrived when its receive completes leaves a place in the queue, dropped
 * when it comes.
 *
 * Evaluated (send-late measured), the waiting call being: MPI_Recv,
 * MPI_Sendrecv(_replace), MPI_Probe and MPI_Mprobe for themselves; a
 * nonblocking or persistent receive, the MPI_Wait, Waitall, Waitany or
 * Waitsome that completed it. Not evaluated (counted): receives completed
 * by a Test variant or MPI_Improbe, whose position was ambiguous, whose
 * token had not arrived, or on a communicator without a shadow (made by
 * MPI_Comm_idup, spawn, connect, accept or join). */
#ifndef PROF_SLT_H
#define PROF_SLT_H

#include <mpi.h>
#include <stdint.h>

#include "thread.h"

struct prof_call;
struct prof_slt_queue;
struct prof_shadow;

/* prof_slt_asked: 1 when late-sender analysis is on, on every rank (set
 * once at MPI_Init; its report). prof_slt_on: tokens are sent, for it or
 * for the model (model.h), whose clocks ride on them. */
extern int prof_slt_asked;
extern int prof_slt_on;

/* The module (prof_mod_slt, slt.c) starts when prof_slt_on: it makes the
 * shadows of MPI_COMM_WORLD and MPI_COMM_SELF (collective over
 * MPI_COMM_WORLD), stands around the point-to-point calls (around.h: its
 * hooks run on every call, profiled or not; a call whose arguments are
 * wrong, a rank outside the communicator, a negative count or tag,
 * MPI_DATATYPE_NULL, sends no token and waits for none: it fails as the
 * program made it), notes the receives posted and the persistent requests
 * described (recv_posted, p2p_init), keeps every record key for the
 * partners' sending sites, and at MPI_Finalize lets go of the token sends
 * in flight. */

/* slt.txt (slt_report.c): only when late sender was asked for; and the
 * module's report steps there (module.h: columns, figures, named). */
struct prof_writer;
struct prof_report_ctx;
struct prof_rank_data;
struct prof_branch;
extern const struct prof_writer prof_report_slt;
void prof_slt_columns(struct prof_report_ctx *ctx);
void prof_slt_figures(struct prof_report_ctx *ctx, struct prof_rank_data *rd, uint64_t t_end);
void prof_slt_named(struct prof_branch *v, int n);

/* What a token carries: the sender's call site (its record key, 0 if
 * unknown), the sender's modelled clock at the send (model.h; < 0 if
 * unknown), the sender's time at the send as it travels (nodes.h:
 * prof_sync_out) with the clock it is on (prof_sync_node), the reply the sender's model waits for
 * (model_reply.c: its tag plus 1; 0: none), the cause the sender passes
 * on, whether the send was a synchronous one (waits.h), and the sender's
 * node (prof_sync_from). */
struct prof_token {
    uint64_t key;
    double sent;
    uint64_t at;
    uint64_t node;
    uint64_t reply;
    struct prof_cause cause;
    int32_t sync;          /* a synchronous send's (wait states, late receiver): 1 blocking, 2 nonblocking */
    int32_t from;
    uint64_t mark;         /* wait states: a time on the sender's clock (an epoch's last one-sided call);
                              a nonblocking synchronous send's notice id */
};

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

/* The module's handlers of the waits (slt_account.c; events.h). */
struct prof_ev_wait;
void prof_slt_msg_waited(const struct prof_ev_wait *ev);
void prof_slt_reqs_waited(const struct prof_ev_wait *ev);
void prof_slt_msg_matched(const struct prof_ev_wait *ev);

/* prof_slt_partner_ids (slt_partners.c, the module's named step): collective
 * over comm (ranks as in the partners' ranks); set each partner's brid to
 * the id of the branch that sent it (from the record key its tokens
 * carried), asking the partner's rank. Returns 0, or -1 when out of memory
 * (ids stay 0). */
int prof_slt_partner_ids(MPI_Comm comm, struct prof_branch *v, int n);

/* prof_slt_queue_free: a shadow's tokens, its posted token receive, and
 * its notes of pending receives (shadow.c, before freeing it). */
void prof_slt_queue_free(struct prof_shadow *s);

#endif
