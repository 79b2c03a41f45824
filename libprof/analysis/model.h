/* model.h: "what if" runs on virtual clocks (MPIPROF_MODEL; MPInside's
 * modelling). Each rank keeps a modelled clock that starts at 0 when
 * MPI_Init returns and advances by the measured time between MPI calls
 * (compute) times the cpu factor, and through each MPI call by what the
 * model says that call would take:
 *   - a point-to-point send or a nonblocking start: nothing (a synchronous
 *     send under lat/bw: T(size), as if its receive were posted);
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
 *   - one-sided epochs by their partners (model_rma.c);
 *   - everything else (MPI-IO, puts and gets, local calls): its real time.
 * T(size) = lat + size / bw; perfect: 0. Cold code: only with a model. */
#ifndef PROF_MODEL_H
#define PROF_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include <mpi.h>

struct prof_call;

struct prof_model {
    int perfect;       /* latency 0, bandwidth infinite */
    double lat;        /* seconds */
    double bw;         /* bytes per second */
    double cpu;        /* compute time factor */
};

/* 1 when a model is in force, on every rank (set once at MPI_Init, by the
 * module's start: MPIPROF_MODEL the same everywhere). */
extern int prof_model_on;
extern struct prof_model prof_model;

/* prof_model_parse: "perfect", "perfect+F", "perfect,cpu=F" or
 * "lat=US,bw=MBS[,cpu=F]" (items in any order, any letter case). 0 and *m
 * set, or -1. */
int prof_model_parse(const char *text, struct prof_model *m);
/* prof_model_time: T(bytes) = lat + bytes/bw under m (0 when perfect);
 * prof_model_log2: the rounds of a tree over p processes, ceil(log2 p).
 * The workloads of mpiprof-known work out their answers with them too. */
double prof_model_time(const struct prof_model *m, double bytes);
unsigned prof_model_log2(int p);
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
 * prof_model_arrival (a message sent at modelled time sent of bytes
 * completed here; sent < 0: not known) are for model_rma.c. */
double prof_model_now(const struct prof_call *c);
void prof_model_free(struct prof_call *c);
void prof_model_arrival(struct prof_call *c, double sent, uint64_t bytes);

/* One-sided epochs (model_rma.c): prof_model_epoch takes the epoch event
 * (MPI_Win_post, start, complete, and wait and test, on every call: c->th
 * NULL when not profiled); prof_model_rma_epoch: the modelled end of
 * these, the locks and the flushes (k: their enum prof_rma_kind; fences
 * are agreed as collectives), from their rma_call event.
 * prof_model_transfer: T(bytes). */
struct prof_pscw;
struct prof_ev_epoch;
void prof_model_epoch(const struct prof_ev_epoch *ev);
void prof_model_rma_epoch(struct prof_call *c, int k);
void prof_model_pscw_free(struct prof_pscw *p);
double prof_model_transfer(uint64_t bytes);

/* prof_model_finish: at MPI_Finalize, the modelled elapsed time (seconds)
 * up to t_end, and the modelled MPI time and compute time. */
void prof_model_finish(uint64_t t_end, double *elapsed, double *mpi, double *compute);
/* prof_model_fn_time: the modelled time of this process's calls of fn. */
double prof_model_fn_time(int fn);
/* model_report.c: model.txt (the module's writer) and the module's figures
 * step (module.h; collective). */
struct prof_report_ctx;
struct prof_rank_data;
struct prof_writer;
extern const struct prof_writer prof_report_model;
void prof_model_figures(struct prof_report_ctx *ctx, struct prof_rank_data *rd, uint64_t t_end);

#endif
