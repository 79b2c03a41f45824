/* slt.h: late-sender analysis by the stuttering method
 * (MPIPROF_EVAL_SLT; MPInside's "Late Senders"): every point-to-point send
 * first sends a small token, with the sender's call site, on the shadow of
 * its communicator (shadow.h), same destination and tag. A profiled receive
 * first waits until a token that its source and tag match has arrived (or
 * its data has: a token can be missing) -- that is its send-late time --
 * and then for its data: the transfer with a ready send. The application's
 * own calls are never changed: the data receive is posted as the program
 * posted it, when it posted it. Tokens are received into a queue per
 * communicator and matched to a completed receive by the source and tag of
 * its status (the earliest one of that source and tag, as MPI orders
 * messages), so a token never decides which message a receive gets.
 *
 * Evaluated (send-late measured): profiled MPI_Recv, MPI_Sendrecv,
 * MPI_Sendrecv_replace, MPI_Mprobe, and nonblocking or persistent receives
 * completed by a profiled MPI_Wait, Waitall, Waitany or Waitsome. Not
 * evaluated (counted): receives completed by a Test variant, MPI_Improbe,
 * receives whose request the profiler does not track, and receives on a
 * communicator without a shadow (created by MPI_Comm_idup, spawn, connect,
 * accept or join). */
#ifndef PROF_SLT_H
#define PROF_SLT_H

#include <mpi.h>
#include <stdint.h>

struct prof_call;
struct prof_slt_queue;
struct prof_shadow;

/* prof_slt_asked: 1 when late-sender analysis is on, on every rank (set
 * once at MPI_Init; its report). prof_slt_on: tokens are sent, for it or
 * for the model (model.h), whose clocks ride on them. */
extern int prof_slt_asked;
extern int prof_slt_on;

/* prof_slt_start_run: the shadows of MPI_COMM_WORLD and MPI_COMM_SELF
 * (collective over MPI_COMM_WORLD; MPI_Init, once prof_slt_on is agreed).
 * prof_slt_finish: at MPI_Finalize, let go of the token sends in flight. */
void prof_slt_start_run(void);
void prof_slt_finish(void);

/* slt= hooks (families.def): right before the PMPI call, profiled or not
 * (c->th NULL when not). Return 1 when they made the call (MPI_Recv). A
 * call whose arguments are wrong (a rank outside the communicator, a
 * negative count or tag, MPI_DATATYPE_NULL) sends no token and waits for
 * none: it fails, as the program made it, and the profiler makes no MPI
 * call that fails in its stead. */
int prof_slt_send(struct prof_call *c, MPI_Count count, MPI_Datatype type, int dst, int tag, MPI_Comm comm);
int prof_slt_recv(struct prof_call *c, void *buf, MPI_Count count, MPI_Datatype type, int src, int tag, MPI_Comm comm,
                  MPI_Status *status, MPI_Request *req);
int prof_slt_sendrecv(struct prof_call *c, MPI_Count scount, MPI_Datatype stype, int dst, int tag, MPI_Count rcount,
                      MPI_Datatype rtype, int src, int rtag, MPI_Comm comm);
int prof_slt_start1(struct prof_call *c, MPI_Request *req);
int prof_slt_start(struct prof_call *c, int n, MPI_Request *reqs);
int prof_slt_mprobe(struct prof_call *c, int src, int tag, MPI_Comm comm, int *flag);
int prof_slt_wait1(struct prof_call *c, MPI_Request *req, int *flag);
int prof_slt_wait(struct prof_call *c, int n, MPI_Request *reqs, int *index, int *flag, int *outcount);

/* after= hook of MPI_Sendrecv(_replace), MPI_Mprobe and MPI_Improbe: the
 * token of what arrived (or was matched) goes to c->slt_key and
 * c->slt_sent. */
void prof_slt_received(struct prof_call *c, MPI_Comm comm, int *flag, MPI_Status *status);

/* prof_token_isend: a token (key, sent clock) to dst with tag on comm, from
 * the pool (its send completes in the background); prof_token_recv: the
 * sent clock of the token from src with tag (blocking; < 0 on failure).
 * The model's one-sided epochs exchange clocks with them (model_rma.c). */
void prof_token_isend(MPI_Comm comm, int dst, int tag, uint64_t key, double sent);
double prof_token_recv(MPI_Comm comm, int src, int tag);

/* prof_slt_queue_free: a shadow's tokens and its posted token receive
 * (shadow.c, before freeing it). */
void prof_slt_queue_free(struct prof_shadow *s);

/* prof_slt_pop: the token of a message that arrived from src with tag on
 * comm (its status): the sender's call-site key, or 0 when unknown; *sent
 * gets the sender's modelled clock at the send (< 0: unknown). */
uint64_t prof_slt_pop(MPI_Comm comm, int src, int tag, double *sent);

/* prof_slt_peek: the sender's modelled clock in the token of the message
 * a probe found (src and tag of its status), left queued for its receive;
 * < 0 when unknown. */
double prof_slt_peek(MPI_Comm comm, int src, int tag);

/* after= hook of the communicator-creating calls (family comm.create):
 * their new communicator gets a shadow when late sender is on. */
void prof_comm_created(struct prof_call *c, MPI_Comm *newcomm);

#endif
