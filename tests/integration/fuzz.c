/* fuzz.c: a fuzzer of legal MPI point-to-point programs (issue 31), for
 * t_fuzz.sh and bench/fuzz.sh: random schedules from seeds, run, every
 * message checked, and the late-sender time each receive should be
 * charged, to compare with the profiler's slt.txt.
 *
 *   mpirun -np N fuzz [-s SEED] [-n COUNT] [-d MAXDELAY_MS] [-k SHAPES] [-P] [-S] [-T] [-t] [-v]
 *
 * runs the schedules of seeds SEED .. SEED+COUNT-1 one after the other
 * (2 <= N <= 16 ranks; defaults -s 1 -n 1 -d 10).
 *   -d  the longest compute delay before a send (busy-wait on
 *       CLOCK_MONOTONIC, not sleep, so that a late sender is late)
 *   -k  only these shapes (comma list, below; a seed's schedules then differ)
 *   -P  no MPI_Pcontrol phases (the schedules otherwise the same)
 *   -S  every standard send synchronous (Ssend, Issend, Ssend_init;
 *       Sendrecv as Issend + Irecv + Waitall): the same output, or the
 *       schedules are not legal whatever the buffering (the fuzzer's bug)
 *   -T  MPI_THREAD_MULTIPLE: two lanes (threads) per rank, each running its
 *       own schedule of each seed on its own communicators (without that
 *       thread level the lanes run one after the other: the same output)
 *   -t  the truth of each evaluated receive too ("late rank=R s=SEED
 *       l=LANE id=ID site=FUNC via=CALL late_s=X wait_s=Y")
 *   -v  rank 0 prints each schedule on stderr, and each step as it starts
 *
 * Output (rank 0 prints every rank's lines after each schedule, as ranks
 * writing to one launcher cut each other's lines; sort it): per message
 * received, its identity and status, which do not depend on how
 * wildcards matched
 *   m s=SEED l=LANE id=ID to=RANK c=COMM from=SOURCE tag=TAG n=COUNT ok
 * ("BAD why" instead of ok: wrong data or status, or a message lost,
 * received twice, a receive not cancelled: the exit status is then 1);
 * per cancelled receive "cancel ... ok"; at the end, per rank and charged
 * site (the function of fuzz_ops.c that makes the call)
 *   truth rank=R site=FUNC late_s=X n=N
 * and "done rank=R schedules=N received=N".
 *
 * THE SCHEDULE (fuzz_gen.c). Every rank derives the whole schedule from
 * the seed with a private PRNG, then runs its part:
 *   schedule  = 5..8 steps
 *   step      = shape, then every rank's leftover requests completed, then
 *               PMPI_Barrier (unprofiled); on some steps some ranks call
 *               MPI_Pcontrol(0) before and MPI_Pcontrol(1) after
 *   shape     = generic | pool | anysrc | ring | waitany-send | persist | ready
 *   generic   = a sequence of 3..9 messages, each (source, destination,
 *               communicator: world, half (split), inter (between the
 *               halves) or self; count: 0, small, or 64-128 KiB;
 *               its own tag). Each rank's program is its part of the
 *               sequence, in order: a send is [delay] Send | Ssend | Bsend
 *               | Isend | Issend | Ibsend (Rsend | Irsend when a notice
 *               said the receive is posted); a receive is Recv | Probe +
 *               Recv | Iprobe loop + Recv | Mprobe + Mrecv | Improbe loop +
 *               Mrecv | Improbe loop + Imrecv | Irecv, naming the source
 *               and tag, MPI_ANY_SOURCE, or MPI_ANY_TAG; an Irecv may be
 *               posted earlier than its place; after any operation, a
 *               completion call (Wait, Test, Wait/Testall, Wait/Testany,
 *               Wait/Testsome) over some pending requests, sends and
 *               receives mixed, some not yet due; a message to oneself is
 *               receive-first, nonblocking-send-first, Bsend or Sendrecv;
 *               adjacent blocking send and Recv become Sendrecv or
 *               Sendrecv_replace; now and then an Irecv nothing matches,
 *               cancelled later (Cancel, Wait, Test_cancelled)
 *   pool      = k receives at one rank from MPI_ANY_SOURCE (and one tag or
 *               MPI_ANY_TAG) of k messages from any ranks, itself included
 *   anysrc    = an Irecv by exact source, then a receive from
 *               MPI_ANY_SOURCE of the same tag (which could also match the
 *               earlier one's message), the other sender often late
 *   ring      = a pass around a ring, each member Send-then-Recv,
 *               Recv-then-Send, Sendrecv or Sendrecv_replace
 *   waitany-send = A: Isend to B, Irecv from B, Waitany (Waitsome,
 *               Testany, Testsome) over both, a second message to B, then
 *               the receive completed; B: two receives, then its send
 *   persist   = Send_init/Ssend_init and Recv_init among 2-4 ranks, 2-4
 *               rounds of Start/Startall and a completion call, then free
 *   ready     = a receive posted (Irecv or Recv_init + Start), a notice to
 *               the sender, which then uses Rsend or Irsend
 *
 * WHY EACH IS LEGAL EVEN IF EVERY SEND WERE SYNCHRONOUS. Generic: in a
 * global sequence where each rank's blocking calls come in sequence
 * order, the first unmatched message always has both ends at it (all
 * earlier messages matched, so every call before it returns): by
 * induction all match. Posting a receive earlier only adds a match
 * (tags are unique, so it cannot take another message; MPI_ANY_TAG
 * receives are never posted early, and the messages from one source keep
 * their order); a completion call only waits for requests due (their
 * message is at or before its place), and Waitany/Waitsome/Testany/
 * Testsome ask for at most as many completions as they hold due requests.
 * Sendrecv joins two adjacent calls of a rank, posting both at the first
 * one's place. A message to oneself always has a nonblocking or buffered
 * side. Rsend comes after the sender received the notice that the
 * receiver sent after posting the receive. Pool: its receives are
 * consecutive at the receiver, so whichever message a receive takes, the
 * others still come; MPI_ANY_TAG only when the pool's are the only
 * messages to it there. Anysrc: the earlier Irecv is posted before the
 * wildcard receive, so it takes its sender's message and the wildcard
 * the other. Ring: a rank that posts its send first and one that posts
 * its receive first (a Sendrecv does both) break the cycle. Waitany-send:
 * the send completes once B's first receive matches it; B sends only
 * after A's second message. Persist: each round posts everything before
 * waiting. Steps are separated by a barrier, so no wildcard matches a
 * message of another step; a zero-byte message is the only one of its
 * envelope in its step, so it is known by its status.
 *
 * THE TRUTH (fuzz_truth.c), as the profiler defines late sender: a
 * receive's send-late time is clamp(send_start - wait_start, 0, wait_end -
 * wait_start), send_start when the sender's send call began (Send...,
 * Sendrecv(_replace), Start/Startall of a persistent send), [wait_start,
 * wait_end] the blocking call in which the receiver waited for it:
 * MPI_Recv, MPI_Sendrecv(_replace): that call, charged to it; MPI_Probe,
 * MPI_Mprobe: the probe, for the message it found, charged to it (the
 * MPI_Recv after a probe has its own interval, so about 0; MPI_Mrecv 0);
 * MPI_Irecv and MPI_Recv_init (started): the Wait, Waitall, Waitany or
 * Waitsome call that returned it completed, charged to the posting call
 * (the receives one call completed, in the order they were sent: each
 * from the send before it, so that they add up to the call's wait until
 * the last was sent, not overlap);
 * a receive completed by a Test variant, MPI_Iprobe, MPI_Improbe,
 * MPI_Imrecv: 0. Receives between MPI_Pcontrol(0) and (1) are not counted.
 * Timestamps are CLOCK_MONOTONIC, the same clock in every process of a
 * node; the send starts are gathered with PMPI_Allgatherv. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "fuzz.h"

#define BSEND_BYTES (32 << 20)    /* more than a step's buffered sends */

/* settle: the ranks reach MPI_Finalize together, after 20 ms in which
 * none makes progress. MPICH before 4.2 on ch4:ucx hangs in MPI_Finalize
 * across nodes when a rank closes its connections while its peer is still
 * in another MPI call (libprof/run/settle.c says why): fuzz's ranks end
 * unevenly (rank 0 writes the output, MPI_Buffer_detach waits for
 * buffered sends), and without this 1 of 30 runs of seeds 50..51 -S -T
 * hung on 2 simulated nodes, without the profiler. Unprofiled (PMPI), as
 * the steps' barriers. */
static void settle(void)
{
    struct timespec ts = { 0, 20 * 1000000L };
    PMPI_Barrier(MPI_COMM_WORLD);
    while (nanosleep(&ts, &ts) != 0)
        ;
}

struct opts {
    uint64_t first;
    long count;
    double max_delay_ms;
    int threads, verbose, no_pcontrol, detail;
    unsigned shapes;
};

static struct opts opt = { 1, 1, 10, 0, 0, 0, 0, ~0u };
static struct fz_gen_opts gopt;

/* The arguments; NULL if right, else the one-line complaint. */
static const char *parse(int argc, char **argv)
{
    static char why[200];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        char *end;
        if (strcmp(a, "-T") == 0) {
            opt.threads = 1;
            continue;
        }
        if (strcmp(a, "-v") == 0) {
            opt.verbose = 1;
            continue;
        }
        if (strcmp(a, "-S") == 0) {
            fz_sync = 1;
            continue;
        }
        if (strcmp(a, "-t") == 0) {
            opt.detail = 1;
            continue;
        }
        if (strcmp(a, "-P") == 0) {
            opt.no_pcontrol = 1;
            continue;
        }
        if (strcmp(a, "-s") && strcmp(a, "-n") && strcmp(a, "-d") && strcmp(a, "-k")) {
            snprintf(why, sizeof why, "unknown argument '%s' (usage: fuzz [-s SEED] [-n COUNT] [-d MAXDELAY_MS] [-k SHAPES] [-P] [-S] [-T] [-t] [-v])", a);
            return why;
        }
        if (i + 1 >= argc) {
            snprintf(why, sizeof why, "option %s needs a value", a);
            return why;
        }
        const char *v = argv[++i];
        if (a[1] == 'k') {
            if (!(opt.shapes = fz_shapes(v))) {
                snprintf(why, sizeof why, "-k: '%s' is not a list of shapes (%s)", v, fz_shape_names());
                return why;
            }
        } else if (a[1] == 's') {
            unsigned long long s = strtoull(v, &end, 10);
            if (!*v || *end || *v == '-' || s > (1ull << 62)) {
                snprintf(why, sizeof why, "-s: '%s' is not a seed (an integer from 0 to 2^62)", v);
                return why;
            }
            opt.first = s;
        } else if (a[1] == 'n') {
            long n = strtol(v, &end, 10);
            if (!*v || *end || n < 1 || n > 1000000) {
                snprintf(why, sizeof why, "-n: '%s' is not a count of schedules in 1..1000000", v);
                return why;
            }
            opt.count = n;
        } else {
            double d = strtod(v, &end);
            if (!*v || *end || !(d >= 0 && d <= 1000)) {
                snprintf(why, sizeof why, "-d: '%s' is not a delay in 0..1000 ms", v);
                return why;
            }
            opt.max_delay_ms = d;
        }
    }
    return NULL;
}

static void *run_lane(void *arg)
{
    struct fz_lane *L = arg;
    for (long i = 0; i < opt.count; i++) {
        L->seed = opt.first + (uint64_t)i;
        L->ordinal = (int)i;
        struct fz_sched *s = fz_generate(L->seed, L->lane, &gopt);
        if (!s) {
            fprintf(stderr, "fuzz: out of memory\n");
            abort();
        }
        if (opt.verbose && L->rank == 0)
            fz_describe(s, L->seed, L->lane, stderr);
        fz_run(L, s);
        fz_free(s);
        fz_flush(L);
    }
    return NULL;
}

/* The largest world rank of a parity: the leader of that half (the
 * halves are in reverse world order). */
static int leader(int parity, int np)
{
    int w = np - 1;
    if (w % 2 != parity)
        w--;
    return w;
}

int main(int argc, char **argv)
{
    int want = MPI_THREAD_SINGLE, provided, rank, np;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "-T") == 0)
            want = MPI_THREAD_MULTIPLE;
    MPI_Init_thread(&argc, &argv, want, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    const char *why = parse(argc, argv);
    char buf[80];
    if (!why && (np < 2 || np > FZ_MAX_RANKS)) {
        snprintf(buf, sizeof buf, "needs 2 to %d processes (got %d)", FZ_MAX_RANKS, np);
        why = buf;
    }
    if (why) {
        if (rank == 0)
            fprintf(stderr, "fuzz: %s\n", why);
        MPI_Finalize();
        return 2;
    }
    gopt = (struct fz_gen_opts){ np, (int)(opt.max_delay_ms * 1000), !opt.threads && !opt.no_pcontrol, opt.shapes };
    void *bsend = malloc(BSEND_BYTES);
    MPI_Buffer_attach(bsend, BSEND_BYTES);

    int lanes = opt.threads ? 2 : 1;
    struct fz_lane L[2];
    MPI_Comm half, inter;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, np - rank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, leader(1 - rank % 2, np), 77, &inter);
    for (int l = 0; l < lanes; l++) {
        L[l] = (struct fz_lane){ .lane = l, .rank = rank, .np = np, .verbose = opt.verbose,
                                 .detail = opt.detail, .first = opt.first };
        if (l == 0) {
            L[l].comm[FZ_WORLD] = MPI_COMM_WORLD;
            L[l].comm[FZ_HALF] = half;
            L[l].comm[FZ_INTER] = inter;
            L[l].comm[FZ_SELF] = MPI_COMM_SELF;
        } else {            /* a lane's own: no message of one lane can match the other's */
            MPI_Comm_dup(MPI_COMM_WORLD, &L[l].comm[FZ_WORLD]);
            MPI_Comm_dup(half, &L[l].comm[FZ_HALF]);
            MPI_Comm_dup(inter, &L[l].comm[FZ_INTER]);
            MPI_Comm_dup(MPI_COMM_SELF, &L[l].comm[FZ_SELF]);
        }
    }
    if (opt.threads && provided == MPI_THREAD_MULTIPLE) {
        pthread_t t[2];
        for (int l = 0; l < lanes; l++)
            pthread_create(&t[l], NULL, run_lane, &L[l]);
        for (int l = 0; l < lanes; l++)
            pthread_join(t[l], NULL);
    } else {
        if (opt.threads && rank == 0)
            fprintf(stderr, "fuzz: MPI_THREAD_MULTIPLE not provided (level %d): the lanes run one after the other\n",
                    provided);
        for (int l = 0; l < lanes; l++)
            run_lane(&L[l]);
    }

    struct fz_recs all = { 0 };
    long received = 0, bad = 0;
    for (int l = 0; l < lanes; l++) {
        fz_recs_merge(&all, &L[l].recs);
        received += L[l].received;
        bad += L[l].bad;
    }
    bad += fz_truth(&L[0], &all);
    fz_say(&L[0], "done rank=%d schedules=%ld received=%ld\n", rank, opt.count * lanes, received);
    fz_flush(&L[0]);
    for (int l = 1; l < lanes; l++)
        for (int c = 0; c < FZ_NCOMM; c++)
            MPI_Comm_free(&L[l].comm[c]);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
    int size;
    MPI_Buffer_detach(&bsend, &size);
    free(bsend);
    free(all.s);
    free(all.r);
    for (int l = 0; l < lanes; l++)
        free(L[l].out);
    settle();
    MPI_Finalize();
    return bad ? 1 : 0;
}
