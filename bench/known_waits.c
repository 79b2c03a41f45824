/* known_waits.c: mpiprof-known waits -c CLASS [-k CALLS] [-d MS]: one rank
 * computes MS milliseconds before each of CALLS collectives of one wait
 * class (waits.h), between an MPI_Comm_rank and the collective, so that
 * the others wait for it there and the cause is that rank's region between
 * the two call sites:
 *
 *   barrier  MPI_Barrier, the last rank late: the others wait (barrier);
 *   nxn      MPI_Allreduce, the last rank late (nxn);
 *   bcast    MPI_Bcast from rank 0, rank 0 late: every other rank waits
 *            (late_broadcast);
 *   reduce   MPI_Reduce to rank 0, the last rank late: rank 0 waits
 *            (early_reduce);
 *   scan     MPI_Scan, rank 0 late: every other rank waits (early_scan);
 *   fence    MPI_Win_fence on a window of every rank, the last rank late:
 *            the others wait (fence);
 *   order    rank 0 sends rank 1 a message (tag 1), computes MS ms, sends
 *            another (tag 2); rank 1 receives the second first: it waits
 *            for it while the first is there (wrong_order), caused by rank
 *            0's region between its two sends;
 *   ibcast   MPI_Ibcast from rank 0 and MPI_Wait, rank 0 late: every
 *            other rank waits in its MPI_Wait (late_broadcast);
 *   iallreduce  MPI_Iallreduce and MPI_Wait, the last rank late (nxn);
 *   iscan    MPI_Iscan and MPI_Wait, rank 0 late: every other rank waits
 *            (early_scan);
 *   pbcast, pallreduce  the persistent MPI_Bcast_init and
 *            MPI_Allreduce_init (MPI-4.0), made before the rounds, then
 *            MPI_Start and MPI_Wait each round, late as ibcast and
 *            iallreduce;
 *   latepost, earlywait, latecomplete
 *            active-target epochs on a window of every rank, rank 0 the
 *            target of ranks 1.. (MPI_Win_post and MPI_Win_wait against
 *            MPI_Win_start, MPI_Put, MPI_Win_complete): latepost, rank 0
 *            computes before its post and the origins wait (late_post);
 *            earlywait, the last rank computes between its start and its
 *            put and rank 0 waits (early_wait); latecomplete, the last
 *            rank computes between its put and its complete (late_complete);
 *   lock     passive target on a window of every rank: rank 1 locks rank
 *            0's exclusively, puts one long, flushes, and computes MS ms
 *            after an MPI_Barrier before its MPI_Win_unlock, while every
 *            other rank (rank 0 too), after the barrier, locks it (the
 *            even ranks exclusively, the odd ones shared), puts and
 *            unlocks: they wait for rank 1's lock (lock_contention),
 *            caused by its region between the barrier and the unlock (a
 *            rank behind another waiter gets rank 1's cause from it);
 *   lockall  the same, but the other ranks take MPI_Win_lock_all (a
 *            shared lock on every rank), put to rank 0 and
 *            MPI_Win_unlock_all: each waits for rank 1's lock;
 *   ssend    rank 0 sends rank 1 a message with MPI_Ssend; rank 1 computes
 *            MS ms before its MPI_Recv: rank 0 waits for the posting
 *            (late_receiver), caused by rank 1's region;
 *   issend   the same with MPI_Issend and MPI_Wait: rank 0 waits in its
 *            MPI_Wait (late_receiver);
 *   rendezvous  the same with an MPI_Send of 256 KiB (-s BYTES), a
 *            rendezvous above the MPI's eager limit: rank 0 waits in its
 *            MPI_Send (late_receiver);
 *   chain    rank 0 late to an MPI_Send to rank 1, which receives, computes
 *            MS/10 ms and sends on to rank 2, ... then an MPI_Allreduce:
 *            every rank waits for its sender (late_sender) and the ranks
 *            before the last for the last one (nxn), all of it caused by
 *            rank 0's region through the chain; the answer is the
 *            late_sender row's: rank r waits for rank 0's compute and the
 *            computes of ranks 1 .. r-1.
 *
 * The answer, worked out from how long the late rank's computation took:
 * the waiting ranks times the sum of its compute (waits.txt caused_s of
 * the row of that class, rank and region), printed as
 * causes=CLASS/RANK/FROM_SITE/TO_SITE/SECONDS. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
#include "intopts.h"
#include "known.h"

enum { BARRIER, NXN, BCAST, REDUCE, SCAN, CHAIN, FENCE, ORDER, SSEND, ISSEND, RENDEZVOUS, IBCAST, IALLREDUCE,
       ISCAN, PBCAST, PALLREDUCE, LATEPOST, EARLYWAIT, LATECOMPLETE, LOCK, LOCKALL, NKINDS };

static const char *const kind_name[NKINDS] = { "barrier", "nxn", "bcast", "reduce", "scan", "chain", "fence",
                                               "order", "ssend", "issend", "rendezvous", "ibcast", "iallreduce",
                                               "iscan", "pbcast", "pallreduce", "latepost", "earlywait",
                                               "latecomplete", "lock", "lockall" };
static const char *const class_name[NKINDS] = { "barrier", "nxn", "late_broadcast", "early_reduce", "early_scan",
                                                "late_sender", "fence", "wrong_order", "late_receiver",
                                                "late_receiver", "late_receiver", "late_broadcast", "nxn",
                                                "early_scan", "late_broadcast", "nxn", "late_post", "early_wait",
                                                "late_complete", "lock_contention", "lock_contention" };

#define RENDEZVOUS_LONGS 32768      /* 256 KiB (-s at most): above every eager limit here */
static long rendezvous_longs = RENDEZVOUS_LONGS;

static MPI_Win win = MPI_WIN_NULL;     /* fence's and the epochs' */
static MPI_Request persistent = MPI_REQUEST_NULL;   /* pbcast's and pallreduce's (MPI-4), made once */
#if MPI_VERSION >= 4
static long pbuf, pone = 1;
#endif

/* The lines of the region's two call sites, set on the late rank as it
 * runs (rank 0 gets them from it); their functions follow from the kind
 * (region_fn). */
static int from_line, to_line;

/* Rank 0 sends rank 1 two messages, computing between them (spent);
 * rank 1 receives the second first (out: what arrived). */
__attribute__((noinline)) static int order(int me, double delay, long *out, double *spent)
{
    long a = 1, b = 2, got[2] = { 0, 0 };
    int rc = MPI_SUCCESS;
    if (me == 0) {
        from_line = __LINE__ + 1;
        rc = MPI_Send(&a, 1, MPI_LONG, 1, 1, MPI_COMM_WORLD);
        *spent = known_compute(delay);
        to_line = __LINE__ + 1;
        rc = rc == MPI_SUCCESS ? MPI_Send(&b, 1, MPI_LONG, 1, 2, MPI_COMM_WORLD) : rc;
    } else if (me == 1) {
        rc = MPI_Recv(&got[1], 1, MPI_LONG, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = MPI_Recv(&got[0], 1, MPI_LONG, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    *out += got[0] + 10 * got[1];
    return rc;
}

/* A chain's round after rank 0's compute: the messages down the ranks,
 * each computing delay / 10 after its receive, then the reduction (out: 1
 * received, plus the sum). */
__attribute__((noinline)) static int chain(int me, int size, double delay, long *out, double *spent)
{
    long one = 1, got = 0, sum = 0;
    int rc = MPI_SUCCESS;
    if (me == 0) {
        to_line = __LINE__ + 1;
        rc = MPI_Send(&one, 1, MPI_LONG, 1, 0, MPI_COMM_WORLD);
        got = 1;
    } else {
        rc = MPI_Recv(&got, 1, MPI_LONG, me - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        *spent = known_compute(delay / 10);
        if (rc == MPI_SUCCESS && me + 1 < size)
            rc = MPI_Send(&one, 1, MPI_LONG, me + 1, 0, MPI_COMM_WORLD);
    }
    if (rc == MPI_SUCCESS)
        rc = MPI_Allreduce(&one, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    *out = got + sum;
    return rc;
}

/* An active-target epoch: rank 0 exposes its window to the others (group:
 * theirs on rank 0, rank 0's on them), who each put one long; the late
 * rank computes where the kind says (spent). */
static MPI_Group group = MPI_GROUP_NULL;

__attribute__((noinline)) static int pscw(int kind, int me, int size, double delay, long *out, double *spent)
{
    long one = 1;
    int rc, late = kind == LATEPOST ? 0 : size - 1, at[3];
    if (me == 0) {
        if (me == late)
            *spent = known_compute(delay);
        to_line = __LINE__ + 1;
        rc = MPI_Win_post(group, 0, win);
        rc = rc == MPI_SUCCESS ? MPI_Win_wait(win) : rc;
        *out += rc == MPI_SUCCESS;
        return rc;
    }
    at[0] = __LINE__ + 1;
    rc = MPI_Win_start(group, 0, win);
    if (kind == EARLYWAIT && me == late)
        *spent = known_compute(delay);
    at[1] = __LINE__ + 1;
    rc = rc == MPI_SUCCESS ? MPI_Put(&one, 1, MPI_LONG, 0, (MPI_Aint)me, 1, MPI_LONG, win) : rc;
    if (kind == LATECOMPLETE && me == late)
        *spent = known_compute(delay);
    at[2] = __LINE__ + 1;
    rc = rc == MPI_SUCCESS ? MPI_Win_complete(win) : rc;
    if (kind != LATEPOST) {        /* the region: start to put, or put to complete */
        from_line = at[kind == LATECOMPLETE];
        to_line = at[1 + (kind == LATECOMPLETE)];
    }
    return rc;
}

/* A passive-target epoch on rank 0's window: rank 1 holds its lock while
 * it computes (spent), the others wait to take it (all: in an
 * MPI_Win_lock_all epoch, a shared lock on every rank); each puts one long
 * (out: rank 0 counts the rounds where all of them came). */
__attribute__((noinline)) static int lock(int me, int size, int all, double delay, long *out, double *spent)
{
    long one = 1, got = 0;
    int rc = MPI_SUCCESS;
    if (me == 1) {
        rc = MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        rc = rc == MPI_SUCCESS ? MPI_Put(&one, 1, MPI_LONG, 0, (MPI_Aint)me, 1, MPI_LONG, win) : rc;
        rc = rc == MPI_SUCCESS ? MPI_Win_flush(0, win) : rc;       /* the lock is rank 1's */
        from_line = __LINE__ + 1;
        rc = rc == MPI_SUCCESS ? MPI_Barrier(MPI_COMM_WORLD) : rc;
        *spent = known_compute(delay);
        to_line = __LINE__ + 1;
        rc = rc == MPI_SUCCESS ? MPI_Win_unlock(0, win) : rc;
    } else {
        rc = MPI_Barrier(MPI_COMM_WORLD);     /* the odd ranks' locks shared: they wait for rank 1 only */
        if (all)
            rc = rc == MPI_SUCCESS ? MPI_Win_lock_all(0, win) : rc;
        else
            rc = rc == MPI_SUCCESS ? MPI_Win_lock(me % 2 ? MPI_LOCK_SHARED : MPI_LOCK_EXCLUSIVE, 0, 0, win) : rc;
        rc = rc == MPI_SUCCESS ? MPI_Put(&one, 1, MPI_LONG, 0, (MPI_Aint)me, 1, MPI_LONG, win) : rc;
        rc = rc == MPI_SUCCESS ? (all ? MPI_Win_unlock_all(win) : MPI_Win_unlock(0, win)) : rc;
    }
    rc = rc == MPI_SUCCESS ? MPI_Barrier(MPI_COMM_WORLD) : rc;     /* every put is in */
    if (rc == MPI_SUCCESS && me == 0) {
        rc = MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        for (int r = 0; rc == MPI_SUCCESS && r < size && r < 64; r++) {
            rc = MPI_Get(&one, 1, MPI_LONG, 0, r, 1, MPI_LONG, win);
            rc = rc == MPI_SUCCESS ? MPI_Win_flush(0, win) : rc;
            got += one;
        }
        rc = rc == MPI_SUCCESS ? MPI_Win_unlock(0, win) : rc;
        *out += got == size;
    }
    return rc == MPI_SUCCESS ? MPI_Barrier(MPI_COMM_WORLD) : rc;   /* read before the next round */
}

/* Rank 0 sends rank 1 rendezvous_longs longs, all 1 (out: rank 1 adds 1
 * when every one came). */
__attribute__((noinline)) static int rendezvous(int me, long *out)
{
    static long buf[RENDEZVOUS_LONGS];
    int rc = MPI_SUCCESS, ok = 1;
    if (me == 0) {
        for (long i = 0; i < rendezvous_longs; i++)
            buf[i] = 1;
        rc = MPI_Send(buf, (int)rendezvous_longs, MPI_LONG, 1, 0, MPI_COMM_WORLD);
    } else if (me == 1) {
        to_line = __LINE__ + 1;
        rc = MPI_Recv(buf, (int)rendezvous_longs, MPI_LONG, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (long i = 0; i < rendezvous_longs; i++)
            ok &= buf[i] == 1;
        *out += ok;
        for (long i = 0; i < rendezvous_longs; i++)
            buf[i] = 0;
    }
    return rc;
}

/* One round: the late rank computes, the collective; what this rank
 * computed (-1: a call failed). */
__attribute__((noinline)) static double round_of(int kind, int late, int rank, int size, double delay, long *out)
{
    long one = 1;
    int me;
    double spent = 0;
    MPI_Request rq;
    from_line = __LINE__ + 1;
    int rc = MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (rc == MPI_SUCCESS && me == late && kind != ORDER && kind < LATEPOST)
        spent = known_compute(delay);
    switch (kind) {
    case BARRIER:
        to_line = __LINE__ + 1;
        rc = MPI_Barrier(MPI_COMM_WORLD);
        *out += rc == MPI_SUCCESS;
        break;
    case NXN:
        to_line = __LINE__ + 1;
        rc = MPI_Allreduce(&one, out, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
        break;
    case BCAST:
        *out = rank == 0;
        to_line = __LINE__ + 1;
        rc = MPI_Bcast(out, 1, MPI_LONG, 0, MPI_COMM_WORLD);
        break;
    case REDUCE:
        to_line = __LINE__ + 1;
        rc = MPI_Reduce(&one, out, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
        break;
    case SCAN:
        to_line = __LINE__ + 1;
        rc = MPI_Scan(&one, out, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
        break;
    case FENCE:
        to_line = __LINE__ + 1;
        rc = MPI_Win_fence(0, win);
        *out += rc == MPI_SUCCESS;
        break;
    case IBCAST:
        *out = rank == 0;
        to_line = __LINE__ + 1;
        rc = MPI_Ibcast(out, 1, MPI_LONG, 0, MPI_COMM_WORLD, &rq);
        rc = rc == MPI_SUCCESS ? MPI_Wait(&rq, MPI_STATUS_IGNORE) : rc;
        break;
    case IALLREDUCE:
        to_line = __LINE__ + 1;
        rc = MPI_Iallreduce(&one, out, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, &rq);
        rc = rc == MPI_SUCCESS ? MPI_Wait(&rq, MPI_STATUS_IGNORE) : rc;
        break;
    case ISCAN:
        to_line = __LINE__ + 1;
        rc = MPI_Iscan(&one, out, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, &rq);
        rc = rc == MPI_SUCCESS ? MPI_Wait(&rq, MPI_STATUS_IGNORE) : rc;
        break;
    case SSEND:
    case ISSEND:
        if (me == 1) {
            to_line = __LINE__ + 1;
            rc = MPI_Recv(out, 1, MPI_LONG, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (me == 0 && kind == SSEND) {
            rc = MPI_Ssend(&one, 1, MPI_LONG, 1, 0, MPI_COMM_WORLD);
        } else if (me == 0) {
            rc = MPI_Issend(&one, 1, MPI_LONG, 1, 0, MPI_COMM_WORLD, &rq);
            rc = rc == MPI_SUCCESS ? MPI_Wait(&rq, MPI_STATUS_IGNORE) : rc;
        }
        break;
    case RENDEZVOUS:
        rc = rendezvous(me, out);
        break;
#if MPI_VERSION >= 4
    case PBCAST:
    case PALLREDUCE:
        pbuf = kind == PBCAST && rank == 0;
        to_line = __LINE__ + 1;
        rc = rc == MPI_SUCCESS ? MPI_Start(&persistent) : rc;
        rc = rc == MPI_SUCCESS ? MPI_Wait(&persistent, MPI_STATUS_IGNORE) : rc;
        *out = pbuf;
        break;
#endif
    case LOCK:
    case LOCKALL:
        rc = lock(me, size, kind == LOCKALL, delay, out, &spent);
        break;
    default:
        rc = kind == ORDER ? order(me, delay, out, &spent)
           : kind == CHAIN ? chain(me, size, delay, out, &spent) : pscw(kind, me, size, delay, out, &spent);
        break;
    }
    return rc == MPI_SUCCESS ? spent : -1;
}

static int run(int argc, char **argv, int rank, int size)
{
    long calls = 10, ms = 20, kind = -1, bytes = RENDEZVOUS_LONGS * (long)sizeof(long);
    char err[256], name[32] = "";
    const struct bench_intopt opts[] = { { 'k', 1, 1000000, &calls }, { 'd', 0, 10000, &ms },
                                         { 's', (long)sizeof(long), RENDEZVOUS_LONGS * (long)sizeof(long), &bytes } };
    /* -c CLASS first, then the numbers */
    if (argc >= 3 && strcmp(argv[1], "-c") == 0) {
        for (int k = 0; k < NKINDS; k++)
            if (strcmp(argv[2], kind_name[k]) == 0)
                kind = k;
        snprintf(name, sizeof name, "%s", argv[2]);
        argv[2] = argv[0];
        argc -= 2;
        argv += 2;
    }
    int rc = kind < 0 ? 2 : bench_intopts_parse("mpiprof-known waits", argc, argv, opts, 3, err, sizeof err);
    if (rc != 0) {
        if (rank == 0) {
            char list[256] = "";
            for (int k = 0; k < NKINDS; k++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k ? ", " : "", kind_name[k]);
            if (kind < 0 && name[0])
                fprintf(stderr, "mpiprof-known waits: -c: '%s' is not one of %s\n", name, list);
            else if (kind < 0)
                fprintf(stderr, "mpiprof-known waits: give -c and one of %s first\n", list);
            else if (rc == 1)
                printf("Usage: mpiprof-known waits -c CLASS [-k CALLS (default 10)] [-d MS (0..10000, default 20)] "
                       "[-s BYTES (rendezvous's message, 8..262144, default 262144)]: "
                       "one rank computes MS ms before each call of CLASS (one of %s); the others wait for it\n",
                       list);
            else
                fprintf(stderr, "%s\n", err);
        }
        return rc == 1 ? 0 : 2;
    }
    rendezvous_longs = bytes / (long)sizeof(long);
    if (MPI_VERSION < 4 && (kind == PBCAST || kind == PALLREDUCE)) {
        if (rank == 0)
            fprintf(stderr, "mpiprof-known waits: -c %s: persistent collectives are MPI-4.0; this MPI is %d.%d\n",
                    kind_name[kind], MPI_VERSION, MPI_SUBVERSION);
        return 2;
    }
    int late = kind == BCAST || kind == IBCAST || kind == PBCAST || kind == SCAN || kind == ISCAN || kind == CHAIN || kind == ORDER || kind == LATEPOST
             ? 0 : kind == SSEND || kind == ISSEND || kind == RENDEZVOUS || kind == LOCK || kind == LOCKALL ? 1
             : size - 1;
    double delay = ms * 1e-3, mine = 0;
    long check = 0, cells[64] = { 0 };
    MPI_Group world;
    int zero = 0;
    if (kind >= LATEPOST && kind <= LATECOMPLETE && (MPI_Comm_group(MPI_COMM_WORLD, &world) != MPI_SUCCESS ||
                             (rank == 0 ? MPI_Group_excl(world, 1, &zero, &group)
                                        : MPI_Group_incl(world, 1, &zero, &group)) != MPI_SUCCESS ||
                             MPI_Group_free(&world) != MPI_SUCCESS)) {
        fprintf(stderr, "mpiprof-known waits: rank %d: cannot make the epochs' group\n", rank);
        return 1;
    }
    if ((kind == FENCE || kind >= LATEPOST) &&
        MPI_Win_create(cells, sizeof cells, sizeof cells[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win) != MPI_SUCCESS) {
        fprintf(stderr, "mpiprof-known waits: rank %d: MPI_Win_create failed\n", rank);
        return 1;
    }
#if MPI_VERSION >= 4
    if ((kind == PBCAST && MPI_Bcast_init(&pbuf, 1, MPI_LONG, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &persistent)) ||
        (kind == PALLREDUCE &&
         MPI_Allreduce_init(&pone, &pbuf, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &persistent))) {
        fprintf(stderr, "mpiprof-known waits: rank %d: the persistent collective's init failed\n", rank);
        return 1;
    }
#endif
    for (long k = 0; k < calls; k++) {
        long out = 0;
        double spent = round_of((int)kind, late, rank, size, delay, &out);
        if (spent < 0) {
            fprintf(stderr, "mpiprof-known waits: rank %d: the collective failed\n", rank);
            return 1;
        }
        mine += spent;
        check += out;
    }
    if (win != MPI_WIN_NULL)
        MPI_Win_free(&win);
    if (persistent != MPI_REQUEST_NULL)
        MPI_Request_free(&persistent);
    if (group != MPI_GROUP_NULL)
        MPI_Group_free(&group);
    /* What each collective gave, summed over the calls. */
    long want = kind == BARRIER || kind == FENCE ? calls
              : kind == NXN || kind == IALLREDUCE || kind == PALLREDUCE ? calls * size
              : kind == BCAST || kind == IBCAST || kind == PBCAST ? calls
              : kind == REDUCE ? (rank == 0 ? calls * size : 0) : kind == SCAN || kind == ISCAN ? calls * (rank + 1)
              : kind == ORDER ? (rank == 1 ? calls * 21 : 0)
              : kind == SSEND || kind == ISSEND || kind == RENDEZVOUS ? (rank == 1 ? calls : 0)
              : kind >= LATEPOST ? (rank == 0 ? calls : 0) : calls * (1 + size);     /* LOCK too */
    if (check != want) {
        fprintf(stderr, "mpiprof-known waits: rank %d: the collectives gave %ld, not %ld\n", rank, check, want);
        return 1;
    }
    double mine3[3] = { mine, from_line, to_line };     /* the late rank's lines, to rank 0 */
    double *all = known_gather(mine3, 3);
    if (rank == 0) {
        int waiting = kind == REDUCE || kind == ORDER || kind == SSEND || kind == ISSEND || kind == RENDEZVOUS ||
                      kind == EARLYWAIT || kind == LATECOMPLETE ? 1 : size - 1;
        double answer = waiting * all[3 * late], nominal = waiting * calls * delay;
        if (kind == CHAIN)       /* rank r: rank 0's compute and ranks 1 .. r-1's */
            for (int r = 1; r < size; r++)
                for (int j = 1; j < r; j++) {
                    answer += all[3 * j];
                    nominal += calls * delay / 10;
                }
        char what[32];
        const char *from_fn = kind == ORDER ? "order" : kind == EARLYWAIT || kind == LATECOMPLETE ? "pscw"
                            : kind == LOCK || kind == LOCKALL ? "lock" : "round_of";
        const char *to_fn = kind == ORDER ? "order" : kind == CHAIN ? "chain" : kind == LOCK || kind == LOCKALL ? "lock"
                          : kind == RENDEZVOUS ? "rendezvous" : kind >= LATEPOST ? "pscw" : "round_of";
        snprintf(what, sizeof what, "waits-%s", kind_name[kind]);
        known_line(what, calls, delay, "waits.txt", "caused_s");
        printf(" causes=%s/%d/%s@known_waits.c:%.0f/%s@known_waits.c:%.0f/%.6f", class_name[kind], late, from_fn,
               all[3 * late + 1], to_fn, all[3 * late + 2], answer);
        printf(" nominal=%.6f", nominal);
        known_end();
    }
    free(all);
    return 0;
}

const struct known_workload known_waits = {
    "waits", "-c CLASS (barrier, nxn, bcast, reduce, scan, chain, fence, order, ssend, issend, rendezvous, "
             "ibcast, iallreduce, iscan, pbcast, pallreduce, latepost, earlywait, latecomplete, lock, lockall): one "
             "rank "
             "computes D ms before each call: "
             "wait states (D)",
    run
};
