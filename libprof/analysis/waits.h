/* waits.h: wait states and who caused them (MPIPROF_EVAL_WAITS; mpiprof
 * --waits), a module (module.h) measured live with tokens and each
 * process's own clock, as the late sender is (slt.h):
 *
 *   barrier, nxn       a blocking MPI_Barrier or all-to-all collective
 *                      (Allreduce, Allgather(v), Alltoall(v/w),
 *                      Reduce_scatter(_block)): a barrier before it (as
 *                      collective wait, collwait.h), then one small
 *                      reduction that names the rank that came last;
 *   fence              MPI_Win_fence, the same on the window's shadow;
 *   late_post, early_wait, late_complete
 *                      active-target epochs (waits_rma.c);
 *   lock_contention    an MPI_Win_lock epoch's MPI_Win_lock or
 *                      MPI_Win_unlock waiting for the release of a lock
 *                      another process held (waits_lock.c);
 *   late_broadcast     Bcast, Scatter(v): the root sends each other rank a
 *                      token as it arrives; a rank's wait is the part of
 *                      its call before the root's token was sent;
 *   early_reduce       Reduce, Gather(v): each other rank sends the root a
 *                      token as it arrives; the root's wait is the part of
 *                      its call before the last one was sent;
 *   early_scan         Scan, Exscan: rank r waits for rank r - 1's token,
 *                      sent once r - 1 arrived and had its own from r - 2:
 *                      the part of its call before the lower ranks came;
 *   late_sender        a receive's send-late time (slt.h), the cause riding
 *                      on late sender's token;
 *   wrong_order        the same while a message its sender sent before was
 *                      there, not received (late sender, wrong order);
 *   late_receiver      a synchronous send waiting for its receive to be
 *                      posted, charged to the sender's site and the
 *                      receiver's cause, worked out by the sender from a
 *                      notice of the posting: within the call that waited
 *                      (MPI_Ssend itself; for MPI_Issend the call that
 *                      completed its request; waits_sync.c); a standard
 *                      send above the MPI's eager limit (eager.h: a
 *                      rendezvous) the same.
 *
 * At most one small message per rank per rooted collective, on the
 * communicator's reply shadow (shadow.h: no receive of the program or of
 * late sender can take it). A nonblocking collective's wait is measured in
 * the call that completes it and classed as its blocking form: the rooted
 * ones' tokens are sent at the start; the all-to-all shapes reduce their
 * start times in a nonblocking reduction, the scans in a nonblocking
 * scan (on one node).
 *
 * Who caused it: every token carries a cause (thread.h, struct prof_cause):
 * the late rank's code region, the compute between its previous profiled
 * MPI call site and the late call's site. When the late rank's last wait
 * was longer than the time since it ended, it passes on the cause of that
 * wait instead, so that a chain of waits is charged to the region where it
 * began. Every wait is charged on the waiting rank to
 * (class, its call site, cause); at MPI_Finalize the causes' call sites are
 * named by their ranks and rank 0 writes waits.txt (waits_report.c), one
 * row per class and causing region, most waiting caused first. */
#ifndef PROF_WAITS_H
#define PROF_WAITS_H

#include <stdint.h>
#include <mpi.h>
#include "thread.h"

/* 1 when wait states started, on every rank (set once at MPI_Init, before
 * late sender starts: the switch turns late sender on too, as a rider of
 * the tokens that takes it in, tokens.h). */
extern int prof_waits_on;

/* prof_waits_carried: the cause a point-to-point send at the call site
 * key (record key; 0: not profiled) of this thread passes on in its token
 * (tokens.h), as a collective's token does. */
struct prof_cause prof_waits_carried(uint64_t key);

/* prof_waits_charge_rank: a wait of class cls another process, rank
 * waiter (of MPI_COMM_WORLD; < 0: not known), had at its call site key
 * (its record key), worked out here: ticks caused by cause (a synchronous
 * send waiting for this process to post its receive; a lock's next holder
 * that read the releases before this process wrote its own). */
void prof_waits_charge_rank(int cls, int waiter, uint64_t key, const struct prof_cause *cause, uint64_t ticks);

/* The tags of the wait states' tokens (shadow.h: PROF_TAGS_WAITS, 32 of
 * them): 0 to 4 above it (waits.c), 16 to 18 (waits_rma.c), 24
 * (waits_sync.c). */

/* prof_waits_charge: a wait of ticks in this thread's call at site key, of
 * class cls, caused by cause (waits.c). */
void prof_waits_charge(int cls, uint64_t key, const struct prof_cause *cause, uint64_t ticks);

/* Sends whose sender learns when their receive was posted (waits_sync.c):
 * MPI_Ssend, MPI_Issend, and MPI_Send and MPI_Isend above the MPI's eager
 * limit (eager.h: a rendezvous, which waits for the receive).
 * prof_waits_sync_start (at
 * the module's start): wait states ride on the tokens (tokens.h), which
 * carry the causes, the synchronous sends' starts and notice ids;
 * prof_waits_sync_sent, from a send's p2p_end: its request, or for a
 * blocking send its own site key and end t1 (it completes itself); the
 * call that completed a request, from req_done (its site key and end t1;
 * prof_waits_sync_done); prof_waits_sync_poll: after each profiled call,
 * the notices come since; prof_waits_sync_finish: at MPI_Finalize,
 * collective over all. */
struct prof_ev_p2p;
struct prof_ev_req;
void prof_waits_sync_start(void);
void prof_waits_sync_sent(const struct prof_ev_p2p *ev, uint64_t key, uint64_t t1);
void prof_waits_sync_done(const struct prof_ev_req *ev, uint64_t key, uint64_t t1);
void prof_waits_sync_poll(void);
void prof_waits_sync_finish(MPI_Comm all);

/* The one-sided epochs (waits_rma.c): the module's epoch and rma_call
 * handlers; prof_waits_win_attach (at the module's start): each window's
 * state, made with its shadow and freed with it (shadow.h:
 * prof_shadow_attach). */
struct prof_ev_epoch;
struct prof_ev_rma;
void prof_waits_epoch(const struct prof_ev_epoch *ev);
void prof_waits_rma_call(const struct prof_ev_rma *ev);
void prof_waits_win_attach(void);

/* Passive target (waits_lock.c): the lock window, made (start 1, when wait
 * states start; collective over MPI_COMM_WORLD) and freed (0, at
 * MPI_Finalize); a window's locks, made with its state (collective over
 * comm; NULL when a process of it lacks memory: lacks on this one) and
 * freed with it; MPI_Win_lock's and MPI_Win_unlock's epoch events. */
struct prof_waits_locks;
void prof_waits_lock_window(int start);
struct prof_waits_locks *prof_waits_locks_new(MPI_Comm comm, int lacks);
void prof_waits_locks_free(struct prof_waits_locks *l);
void prof_waits_locked(struct prof_waits_locks *l, const struct prof_ev_epoch *ev);
void prof_waits_unlocked(struct prof_waits_locks *l, const struct prof_ev_epoch *ev);

/* The classes, in waits.txt's order. */
#define PROF_WAIT_CLASSES(X) \
    X(late_sender) X(wrong_order) X(late_receiver) X(barrier) X(nxn) X(fence) X(late_post) X(early_wait) \
    X(late_complete) X(lock_contention) X(late_broadcast) X(early_reduce) X(early_scan)
#define PROF_WAIT_ENUM(c) PROF_WAIT_##c,
enum prof_wait_class { PROF_WAIT_CLASSES(PROF_WAIT_ENUM) PROF_WAIT_NCLASSES };
#undef PROF_WAIT_ENUM

/* One wait charged: the class, the waiting rank and call site (record key
 * on that rank; at MPI_Finalize its branch id) and the cause. */
struct prof_wait_charge {
    int cls;
    int32_t waiter;                  /* the waiting rank (of MPI_COMM_WORLD), */
    uint64_t key;
    int32_t brid;
    int32_t cause_rank;
    uint64_t cause_from, cause_to;   /* record keys on cause_rank, */
    int32_t from_id, to_id;          /* their branch ids at MPI_Finalize (0: MPI_Init; -1: unknown) */
    uint64_t ticks, n;
};

/* The module's report steps (waits_report.c), over the charges of this
 * rank (v, n; cold). */
struct prof_branch;
struct prof_report_ctx;
struct prof_rank_data;
struct prof_writer;
void prof_waits_named(struct prof_wait_charge **v, int n, struct prof_branch *br, int nbr);
int prof_waits_agree(struct prof_wait_charge **v, int n, double sec_per_tick);
extern const struct prof_writer prof_report_waits;

#endif
