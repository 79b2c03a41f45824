/* model.h: "what if" runs on virtual clocks (MPIPROF_MODEL; MPInside's
 * modelling). Each rank keeps a modelled clock that starts at 0 when
 * MPI_Init returns and advances by the measured time between MPI calls
 * (compute) times the cpu factor, and through each MPI call by what the
 * model says that call would take:
 *   - a point-to-point send: its messages go through the process's link
 *     one at a time (model_nic.c: eager, rendezvous and synchronous
 *     sends, overheads and gaps);
 *   - a receive, where it completes (MPI_Recv, MPI_Sendrecv, or the
 *     Wait/Test call that completes it): max(its clock, the sender's clock
 *     at the send + T(size)); the sender's clock rides on the late-sender
 *     token (slt.h). A receive whose token is not known takes its real time;
 *   - a blocking collective and MPI_Win_fence: the latest modelled arrival
 *     of the communicator plus the collective's modelled cost (model.c),
 *     agreed by one PMPI_Allreduce right after the call returns, inside
 *     its measured time; a nonblocking collective: nothing at its start,
 *     and the same where it completes (a PMPI_Iallreduce posted at its
 *     start agrees the clocks; posting and completing it is the
 *     profiler's own time, profiler_s, as is any other work after a
 *     call's end: the next call's compute starts after it);
 *   - a probe that finds a message: as a receive of it (the token is peeked
 *     at, or popped by MPI_Mprobe); one that finds none: nothing;
 *   - one-sided data and epochs: by their bytes and partners, and where
 *     those are (model_rma.c);
 *   - everything else (MPI-IO, local calls): its real time.
 * T(size) = o + lat + size / bw + o, or o + the measured table's time of
 * size + o (table=; its bw the table's two largest sizes'); perfect: 0.
 * Cold code: only with a model. */
#ifndef PROF_MODEL_H
#define PROF_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include <mpi.h>

struct prof_call;

/* The shapes of collective the model costs (mpiprof(1) has the table), and
 * PROF_MC_P2P, one message, for a measured table's curves. */
enum prof_model_coll {
    PROF_MC_BARRIER, PROF_MC_BCAST, PROF_MC_REDUCE, PROF_MC_ALLREDUCE, PROF_MC_SCAN, PROF_MC_GATHER,
    PROF_MC_ALLGATHER, PROF_MC_ALLTOALL, PROF_MC_REDUCE_SCATTER, PROF_MC_NEIGHBOR, PROF_MC_P2P
};

/* A measured table (table=FILE, written by mpiprof-calibrate): curves of
 * time against bytes, each of one shape measured on p processes (a
 * collective's bytes: the largest volume of one process in the call; a
 * message's: its size), read between and beyond their points as straight
 * lines. */
#define PROF_MODEL_POINTS 64
#define PROF_MODEL_CURVES 32
struct prof_model_curve {
    int shape;         /* enum prof_model_coll */
    int p;
    int n;             /* points, bytes increasing */
    double x[PROF_MODEL_POINTS], t[PROF_MODEL_POINTS];     /* bytes, seconds */
    double tail;       /* seconds per byte past the last point (prof_model_tail) */
};
struct prof_model_table {
    int n;
    struct prof_model_curve c[PROF_MODEL_CURVES];
    double gap;        /* its row "gap 2 BYTES USEC": seconds a message in a burst (0: none) */
    double sum;        /* of every number in it: the ranks compare it */
};

struct prof_model {
    int perfect;       /* latency 0, bandwidth infinite */
    double lat;        /* L: seconds */
    double bw;         /* bytes per second (the gap per byte G is 1 / bw) */
    double cpu;        /* compute time factor */
    double o;          /* the overhead of a message at each end, seconds */
    double g;          /* the gap between the starts of two messages of one sender, seconds
                        * (g=, else the table's gap row, else 0) */
    double eager;      /* the largest message a blocking send completes without its receive (bytes) */
    const struct prof_model_table *table;      /* table=: measured times (lat its time of 0 bytes, bw its
                                                  * two largest sizes'); else NULL */
    char path[200];    /* table='s file */
    /* Where the ranks are. The figures above price a message between two
     * ranks of one node; with a network between nodes (net: netlat= and
     * netbw=, or nettable=, read as lat=, bw= and table=), a message
     * between ranks of two nodes is priced by net_lat, net_bw and
     * net_table. The nodes: the real ones (host names, nodes 0), or
     * nodes=N with ppn=K ranks each (0: as many as the ranks need) placed
     * in blocks or cyclically (place=). */
    int net;
    double net_lat, net_bw, net_g;     /* net_g: netg=, the net table's gap, else g */
    const struct prof_model_table *net_table;
    char net_path[200];
    int nodes, ppn, place;
};
enum { PROF_PLACE_BLOCK, PROF_PLACE_CYCLIC };
#define PROF_MODEL_EAGER 65536     /* eager= by default */

/* 1 when a model is in force, on every rank (set once at MPI_Init, by the
 * module's start: MPIPROF_MODEL the same everywhere). */
extern int prof_model_on;
extern struct prof_model prof_model;

/* prof_model_parse: "perfect", "perfect+F", "perfect,cpu=F",
 * "lat=US,bw=MBS[,cpu=F][,o=US][,g=US][,eager=BYTES]" or
 * "table=FILE[,cpu=F][,o=US][,g=US][,eager=BYTES]", and after either of
 * the last two a network between nodes, "netlat=US,netbw=MBS" or
 * "nettable=FILE", with a placement "nodes=N[,ppn=K][,place=block|cyclic]"
 * (items in any order, names in any letter case; FILE is read, and kept
 * until the next parse of a table). 0 and *m set, or -1 and
 * prof_model_why() says why when it knows ("" else).
 * prof_model_place: whether m's placement fits size ranks (every node
 * holds one at least, and all of them fit): 0 and, unless node_of is
 * NULL, each rank's node in node_of[size] (m's nodes 0, the real nodes:
 * nothing to fill); else -1 and prof_model_why() says why.
 * prof_model_spread: how many nodes n ranks are on (world ranks ranks[n],
 * or 0..n-1 when ranks is NULL; node_of[size] each world rank's node, 0
 * to size - 1; a rank or node out of range is left out), and in *most
 * the most on one; 0 when none is, or without memory.
 * prof_model_net_of: the model of a message between two nodes (m with
 * the network's figures; m itself without a network). */
int prof_model_parse(const char *text, struct prof_model *m);
const char *prof_model_why(void);
int prof_model_place(const struct prof_model *m, int size, int *node_of);
int prof_model_spread(const int *node_of, int size, const int *ranks, int n, int *most);
void prof_model_net_of(const struct prof_model *m, struct prof_model *net);
/* The placement in force (model.c, once the modules started): how many
 * nodes (1 without a network between nodes) and the most ranks on one
 * (model.txt's model line); prof_model_between: the model of a message
 * between the ranks a and b of MPI_COMM_WORLD (the network between nodes
 * when their nodes differ; inside a node when they do not, or when one of
 * them is not known, -1); prof_model_net: the model of a message between
 * two nodes (prof_model's without a placement). */
extern int prof_model_nnodes, prof_model_ppn;
const struct prof_model *prof_model_between(int a, int b);
const struct prof_model *prof_model_net(void);
/* prof_model_world: the MPI_COMM_WORLD rank of peer in comm when the
 * placement needs it (a network between nodes), else -1. */
int prof_model_world(MPI_Comm comm, int peer);
/* prof_model_time: T(bytes) = o + lat + bytes/bw + o under m, or o + the
 * table's time of bytes + o, one message from its sender's call to its
 * receiver's (0 when perfect); prof_model_wire: bytes/bw, the time its
 * bytes hold the sender's link (a table's latency, a protocol's
 * handshakes included, does not);
 * prof_model_log2: the rounds of a tree over p processes, ceil(log2 p).
 * The workloads of mpiprof-known work out their answers with them too. */
double prof_model_time(const struct prof_model *m, double bytes);
double prof_model_wire(const struct prof_model *m, double bytes);
unsigned prof_model_log2(int p);
/* prof_model_coll_time: a collective of shape k on p processes whose
 * largest volume of one process is x bytes, under m: the faster of the
 * algorithms a library would use for it (0 when perfect or p < 2); with a
 * table that measured shape k, its time of x bytes on the measured p
 * nearest below (else above) times what the algorithms give for p over
 * what they give for that p. */
double prof_model_coll_time(const struct prof_model *m, enum prof_model_coll k, int p, double x);
/* prof_model_coll_placed: the same collective on p processes spread over
 * n nodes, q of them at most on one: on one node (n < 2), as above under
 * m; across nodes, as the libraries' node-aware algorithms run it, inside
 * the nodes under m (q processes, or their share q/p of the volume) and
 * between them under net, one process a node (mpiprof(1) has the table):
 *   barrier: 2 barrier(q) + barrier_net(n); bcast: bcast_net(n, x) +
 *   bcast(q, x); reduce: reduce(q, x) + reduce_net(n, x); allreduce and
 *   scan: reduce(q, x) + allreduce_net(n, x) (scan_net) + bcast(q, x);
 *   gather: gather(q, xq/p) + gather_net(n, x); allgather: gather(q, xq/p)
 *   + allgather_net(n, x) + bcast(q, x); reduce-scatter: reduce(q, x) +
 *   reduce_scatter_net(n, x) + gather(q, xq/p); alltoall: alltoall(q,
 *   xq/p) + alltoall_net(n, xq) (a node's data through its one link);
 *   neighbours: T_net(x). *between (unless NULL): the part between the
 *   nodes (0 on one). */
double prof_model_coll_placed(const struct prof_model *m, const struct prof_model *net, enum prof_model_coll k,
                              int p, int n, int q, double x, double *between);
/* prof_model_text: the model in force, spelt out ("lat=1.5us,bw=1000MB/s,cpu=1"). */
void prof_model_text(char *buf, size_t size);

/* prof_model_now: a profiled call's modelled start (before the PMPI call:
 * what a token carries). The module (prof_mod_model, model.c) takes the
 * events of each call (events.h), in this order: coll_enter and
 * coll_leave (a blocking collective agrees its end with the others), then
 * call_end (t1 its real end; by default the call takes its real time),
 * then icoll_started, call_volume, p2p_end, req_done, msg_arrived and
 * rma_call move the call's modelled end; call_done moves the clock to it.
 * prof_model_free (communication that costs nothing by itself) and
 * prof_model_arrival (a message of bytes from world rank src, -1 not
 * known, sent at modelled time sent completed here; sent < 0: not known;
 * priced by where the two ranks are: prof_model_between) are for
 * model_rma.c. */
double prof_model_now(const struct prof_call *c);
/* prof_model_inject: a message of bytes sent now by c (profiled or not,
 * from the late-sender hooks, or an epoch's one-sided data) to world rank
 * dst (-1: not known, priced as inside a node): when it starts on the
 * link, the clock its token carries, and *injected (unless NULL) when it
 * has left (model_nic.c); prof_model_sent: the modelled end
 * of the point-to-point call c, from the messages it injected (its
 * p2p_end; req the request of a nonblocking send, else MPI_REQUEST_NULL). */
double prof_model_inject(const struct prof_call *c, uint64_t bytes, int dst, double *injected);
/* A node's one link to the network between nodes (model_link.c), shared
 * by its ranks: prof_model_link_start, once the placement is known
 * (node_of: each world rank's node; collective over prof_run.comm);
 * prof_model_link_out: the start, from t on, of w seconds on the wire
 * out of this rank's node (the earliest free, reserved);
 * prof_model_link_in: the end, from t on, of w seconds on the wire into
 * it; prof_model_link_end: at MPI_Finalize (collective): how far the link
 * moved this rank's messages on, in all (seconds). Thread safe. */
void prof_model_link_start(const int *node_of);
double prof_model_link_out(double t, double w);
double prof_model_link_in(double t, double w);
double prof_model_link_end(void);
void prof_model_sent(struct prof_call *c, MPI_Request req);
void prof_model_free(struct prof_call *c);
void prof_model_arrival(struct prof_call *c, double sent, uint64_t bytes, int src);
/* prof_model_waited: how far partners' clocks (arrivals, collectives'
 * latest starts) have moved this process's clock on since MPI_Init. */
double prof_model_waited(void);

/* Sends that wait for their receive (model_reply.c): MPI_Ssend, MPI_Issend
 * (the call that completes its request waits) and MPI_Send of more than
 * eager bytes, on the communicator's reply shadow (shadow.h; a
 * communicator without one, an inter-communicator or one with processes
 * outside MPI_COMM_WORLD, is not answered); the model rides on the tokens
 * (tokens.h: prof_model_rider, which the model's start registers).
 * prof_model_send: the token's clock of a message
 * of bytes that c sends now to dst (prof_model_inject's), *id the reply its
 * token asks for when c waits for its receive (0: none; reply the
 * communicator's reply shadow); its p2p_end makes it ready
 * (prof_model_reply_ready), or for an MPI_Issend pending on its request
 * (prof_model_reply_pending) until the call fn that completes the request
 * ends at end (prof_model_reply_done, from req_done). The receive
 * that takes the token answers it with its posting clock
 * (prof_model_reply: to src on the reply shadow). prof_model_reply_poll
 * (before a call's start is read, never inside a call's modelled time):
 * the replies come since move the clock; th: the calling thread, whose
 * profiler_s takes the time when the poll is outside a call's real time
 * (else NULL);
 * prof_model_reply_finish: at MPI_Finalize, collective over all.
 * prof_model_delay: the clock moves on by d, time of fn. */
struct prof_model_reply;
struct prof_thread;
double prof_model_send(const struct prof_call *c, uint64_t bytes, MPI_Comm reply, int dst, uint64_t *id);
struct prof_model_reply *prof_model_reply_want(MPI_Comm reply, int dst, double s, double x, uint64_t *id);
void prof_model_reply_ready(struct prof_model_reply *r, int fn, double end);
void prof_model_reply_pending(struct prof_model_reply *r, MPI_Request user);
void prof_model_reply_done(int fn, MPI_Request user, double end);
void prof_model_reply(MPI_Comm reply, int src, uint64_t id, double posted);
void prof_model_reply_poll(struct prof_thread *th);
void prof_model_reply_finish(MPI_Comm all);
void prof_model_delay(int fn, double d);
struct prof_rider;
extern const struct prof_rider prof_model_rider;

/* One-sided epochs (model_rma.c): prof_model_epoch takes the epoch event
 * (MPI_Win_post, start, complete, and wait and test, on every call: c->th
 * NULL when not profiled); prof_model_rma_data: a put, get or accumulate
 * of the origin's bytes on win; prof_model_rma_epoch: the modelled end of
 * the epoch calls, the locks and the flushes (k: their enum
 * prof_rma_kind; fences are agreed as collectives), from their rma_call
 * event; each target's bytes priced by where it is (prof_model_between).
 * prof_model_transfer: T(bytes). prof_model_locks: the
 * lock window made (start 1, when the model starts) or freed (0, at
 * MPI_Finalize), collective over MPI_COMM_WORLD. prof_model_rma_attach
 * (the model's start): each window's state, made with its shadow (its
 * number agreed there; shadow.h: prof_shadow_attach).
 * prof_model_fence: at an MPI_Win_fence's start (coll_enter; collective
 * over shadow, the window's), when the epoch's data is at its targets as
 * far as this process sees: its own bytes there, and the bytes put to it
 * in (< 0: none); the fence's agreement takes it. */
struct prof_ev_epoch;
void prof_model_epoch(const struct prof_ev_epoch *ev);
void prof_model_rma_data(struct prof_call *c, MPI_Win win, int target, uint64_t bytes);
double prof_model_fence(const struct prof_call *c, MPI_Win win, MPI_Comm shadow);
void prof_model_rma_epoch(struct prof_call *c, MPI_Win win, int k, int target, int lock);
void prof_model_locks(int start);
void prof_model_rma_attach(void);
double prof_model_transfer(uint64_t bytes);

/* prof_model_finish: at MPI_Finalize, the modelled elapsed time (seconds)
 * up to t_end, and the modelled MPI time and compute time. */
void prof_model_finish(uint64_t t_end, double *elapsed, double *mpi, double *compute);
/* prof_model_fn_time: the modelled time of this process's calls of fn.
 * prof_model_transfers: the transfers this process completed, priced
 * inside a node and between nodes (each message at its receiver, each
 * collective's cost split into its parts inside and between the nodes). */
double prof_model_fn_time(int fn);
void prof_model_transfers(double *node, double *net);
/* model_report.c: model.txt (the module's writer) and the module's figures
 * step (module.h; collective). */
struct prof_report_ctx;
struct prof_rank_data;
struct prof_writer;
extern const struct prof_writer prof_report_model;
void prof_model_figures(struct prof_report_ctx *ctx, struct prof_rank_data *rd, uint64_t t_end);

#endif
