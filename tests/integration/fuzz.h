/* fuzz.h: the schedules of the fuzzer (fuzz.c explains their grammar and
 * why each is legal): messages, operations and steps; the generator
 * (fuzz_gen.c), the executor (fuzz_run.c), the calls whose branches the
 * profiler charges (fuzz_ops.c) and the late-sender truth (fuzz_truth.c). */
#ifndef FUZZ_H
#define FUZZ_H
#include <stdint.h>
#include <stdio.h>
#include <mpi.h>

#define FZ_MAX_RANKS 16     /* the schedules name ranks in bit masks and small arrays */
#define FZ_SET_MAX 40       /* requests of one rank in one step */
#define FZ_TAG_NEVER 30000  /* no message carries it: the cancelled receives' tag */

/* The communicators of a lane: MPI_COMM_WORLD (or a duplicate of it for a
 * second lane), the halves (split by parity, in reverse rank order), the
 * intercommunicator between the halves, and MPI_COMM_SELF. */
enum fz_comm { FZ_WORLD, FZ_HALF, FZ_INTER, FZ_SELF, FZ_NCOMM };

struct fz_msg {
    int comm;            /* enum fz_comm */
    int src, dst;        /* world ranks */
    int tag;
    int count;           /* ints; 0 for a zero-byte message, else at least 4 (the header) */
};

/* What a receive names: a communicator, a source (a rank in it, or
 * MPI_ANY_SOURCE) and a tag (or MPI_ANY_TAG). */
struct fz_spec {
    int comm, src, tag;
};

enum fz_kind {
    K_DELAY,        /* busy-wait us microseconds */
    K_SEND,         /* blocking send of msg in mode M_SEND..M_RSEND */
    K_ISEND,        /* nonblocking send of msg into slot, mode M_ISEND..M_IRSEND */
    K_RECV,         /* blocking receive of spec, mode F_* (the form) */
    K_IRECV,        /* MPI_Irecv of spec into slot */
    K_IMRECV,       /* MPI_Improbe of spec until found, then MPI_Imrecv into slot */
    K_SENDRECV,     /* MPI_Sendrecv of msg with a receive of spec (mode 1: _replace) */
    K_COMPLETE,     /* completion call mode H_* over set: at least k completions */
    K_CANCEL_POST,  /* MPI_Irecv of spec (tag FZ_TAG_NEVER) into slot */
    K_CANCEL,       /* MPI_Cancel, MPI_Wait and MPI_Test_cancelled of slot */
    K_SEND_INIT,    /* persistent send of msg's channel into slot (mode 1: Ssend_init) */
    K_RECV_INIT,    /* persistent receive of spec into slot */
    K_START,        /* MPI_Start of each of set in order, msgs the messages of its send slots */
    K_STARTALL,     /* MPI_Startall of set, msgs as for K_START */
    K_FREE,         /* MPI_Request_free of each of set */
};

enum fz_mode { M_SEND, M_SSEND, M_BSEND, M_RSEND, M_ISEND, M_ISSEND, M_IBSEND, M_IRSEND };
enum fz_form { F_RECV, F_PROBE, F_IPROBE, F_MPROBE, F_IMPROBE };
enum fz_how { H_WAIT, H_TEST, H_WAITALL, H_TESTALL, H_WAITANY, H_TESTANY, H_WAITSOME, H_TESTSOME };

struct fz_op {
    unsigned char kind, mode;
    short slot;
    int msg;                        /* message index in the step: the one sent */
    int rmsg;                       /* a receive: the message meant, -1 if any of a pool */
    int us;                         /* K_DELAY */
    struct fz_spec spec;
    int k, n;                       /* K_COMPLETE: completions wanted; set size */
    short set[FZ_SET_MAX];
    unsigned char due[FZ_SET_MAX];  /* K_COMPLETE: the request completes without this rank's later calls */
    int msgs[FZ_SET_MAX];           /* K_START(ALL): message of each send slot, -1 for a receive */
};

struct fz_step {
    const char *shape;
    int nmsg, first_id;             /* message ids first_id .. first_id + nmsg - 1 */
    struct fz_msg *msg;
    unsigned off;                   /* bit r: rank r runs this step between MPI_Pcontrol(0) and (1) */
    int maxcount;                   /* the largest message: every receive buffer holds it */
    int nslot[FZ_MAX_RANKS];
    int nops[FZ_MAX_RANKS], capops[FZ_MAX_RANKS];
    struct fz_op *ops[FZ_MAX_RANKS];
};

struct fz_sched {
    int nstep, nmsg;
    struct fz_step *step;
};

struct fz_gen_opts {
    int np;
    int max_delay_us;
    int pcontrol;                   /* steps may stop collecting (not with threads: Pcontrol is per process) */
    unsigned shapes;                /* bit i: shape i may be chosen (fz_shapes) */
};

/* fz_shapes: the mask of a comma list of shape names, 0 if one is
 * unknown; fz_shape_names: all of them, comma-separated. */
unsigned fz_shapes(const char *list);
const char *fz_shape_names(void);

/* fz_generate: the schedule of a seed and lane, the same on every rank.
 * NULL without memory. fz_free releases it. */
struct fz_sched *fz_generate(uint64_t seed, int lane, const struct fz_gen_opts *o);
void fz_free(struct fz_sched *s);
/* fz_describe: the schedule, one line per step and rank, on f. */
void fz_describe(const struct fz_sched *s, uint64_t seed, int lane, FILE *f);

/* A world rank's rank in a communicator of enum fz_comm (for FZ_INTER its
 * rank in the remote group, as the other half addresses it). */
int fz_comm_rank(int comm, int world, int np);

/* The charged sites: one function of fuzz_ops.c each. */
enum fz_site {
    S_RECV, S_IRECV, S_SENDRECV, S_SENDRECV_REPLACE, S_PROBE, S_IPROBE, S_MPROBE, S_IMPROBE,
    S_MRECV, S_IMRECV, S_RECV_INIT, S_NSITE
};
extern const char *const fz_site_name[S_NSITE];

/* What the truth needs: when each message's send began, and the interval
 * and site of each receive (eval 0: not waited for, its late time is 0). */
struct fz_srec {
    uint64_t key;
    int64_t t_ns;
};
struct fz_rrec {
    uint64_t key;
    int64_t t0_ns, t1_ns;
    short site;
    char eval;
    signed char via;                /* the completion call (H_*) that measured it, -1: the call itself */
};
struct fz_recs {
    struct fz_srec *s;
    struct fz_rrec *r;
    size_t ns, nr, caps, capr;
};
struct fz_lane;
uint64_t fz_key(int ordinal, int lane, int id);
void fz_add_send(struct fz_recs *R, uint64_t key, int64_t t_ns);
void fz_add_recv(struct fz_recs *R, uint64_t key, int site, int64_t t0, int64_t t1, int eval, int via);
void fz_recs_merge(struct fz_recs *into, struct fz_recs *from);
/* fz_truth: gathers every rank's send starts (PMPI, on MPI_COMM_WORLD;
 * collective) and says this rank's "truth" lines in lane L (of MPI_COMM_WORLD). Returns the number of
 * receives whose send start is missing (a bug of the fuzzer). */
long fz_truth(struct fz_lane *L, struct fz_recs *R);

/* One lane: a thread of a rank running schedules on its own communicators. */
struct fz_lane {
    int lane, rank, np;
    MPI_Comm comm[FZ_NCOMM];
    uint64_t seed;                  /* the schedule running */
    int ordinal;                    /* its position in the run (keys of the truth) */
    struct fz_recs recs;
    long received, bad;
    int verbose;                    /* rank 0 says on stderr which step starts */
    int detail;                     /* fz_truth: a line per receive too */
    uint64_t first;                 /* the run's first seed (ordinal 0) */
    char *out;                      /* lines not yet printed */
    size_t out_n, out_cap;
};
/* fz_say: a line (printf format) of this lane's output; fz_flush: every
 * rank's lines so far printed by rank 0 (collective on the lane's world). */
void fz_say(struct fz_lane *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void fz_flush(struct fz_lane *L);
/* fz_sync: every standard-mode send made synchronous (MPI_Ssend,
 * MPI_Issend, MPI_Ssend_init; MPI_Sendrecv as Issend + Irecv + Waitall):
 * a schedule that hangs then is not legal (fuzz -S). */
extern int fz_sync;
/* fz_run: this rank's part of schedule s; 0 if all data checked. */
int fz_run(struct fz_lane *L, const struct fz_sched *s);

int64_t fz_now_ns(void);

/* fuzz_ops.c */
extern int fz_rc;
void op_send(const int *b, int n, int dst, int tag, MPI_Comm c);
void op_ssend(const int *b, int n, int dst, int tag, MPI_Comm c);
void op_bsend(const int *b, int n, int dst, int tag, MPI_Comm c);
void op_rsend(const int *b, int n, int dst, int tag, MPI_Comm c);
void op_isend(const int *b, int n, int dst, int tag, MPI_Comm c, MPI_Request *r);
void op_issend(const int *b, int n, int dst, int tag, MPI_Comm c, MPI_Request *r);
void op_ibsend(const int *b, int n, int dst, int tag, MPI_Comm c, MPI_Request *r);
void op_irsend(const int *b, int n, int dst, int tag, MPI_Comm c, MPI_Request *r);
void op_recv(int *b, int n, int src, int tag, MPI_Comm c, MPI_Status *st);
void op_irecv(int *b, int n, int src, int tag, MPI_Comm c, MPI_Request *r);
void op_irecv_cancel(int *b, int n, int src, int tag, MPI_Comm c, MPI_Request *r);
void op_sendrecv(const int *sb, int sn, int dst, int stag, int *rb, int rn, int src, int rtag, MPI_Comm c,
                 MPI_Status *st);
void op_sendrecv_replace(int *b, int n, int dst, int stag, int src, int rtag, MPI_Comm c, MPI_Status *st);
void op_probe(int src, int tag, MPI_Comm c, MPI_Status *st);
void op_iprobe(int src, int tag, MPI_Comm c, int *flag, MPI_Status *st);
void op_mprobe(int src, int tag, MPI_Comm c, MPI_Message *m, MPI_Status *st);
void op_improbe(int src, int tag, MPI_Comm c, int *flag, MPI_Message *m, MPI_Status *st);
void op_mrecv(int *b, int n, MPI_Message *m, MPI_Status *st);
void op_imrecv(int *b, int n, MPI_Message *m, MPI_Request *r);
void op_send_init(const int *b, int n, int dst, int tag, MPI_Comm c, MPI_Request *r);
void op_ssend_init(const int *b, int n, int dst, int tag, MPI_Comm c, MPI_Request *r);
void op_recv_init(int *b, int n, int src, int tag, MPI_Comm c, MPI_Request *r);
void op_start(MPI_Request *r);
void op_startall(int n, MPI_Request *r);
void op_request_free(MPI_Request *r);
void op_wait(MPI_Request *r, MPI_Status *st);
void op_test(MPI_Request *r, int *flag, MPI_Status *st);
void op_waitall(int n, MPI_Request *r, MPI_Status *st);
void op_testall(int n, MPI_Request *r, int *flag, MPI_Status *st);
void op_waitany(int n, MPI_Request *r, int *idx, MPI_Status *st);
void op_testany(int n, MPI_Request *r, int *idx, int *flag, MPI_Status *st);
void op_waitsome(int n, MPI_Request *r, int *out, int *idx, MPI_Status *st);
void op_testsome(int n, MPI_Request *r, int *out, int *idx, MPI_Status *st);
void op_cancel(MPI_Request *r);
void op_test_cancelled(const MPI_Status *st, int *flag);
void op_pcontrol(int level);

#endif
