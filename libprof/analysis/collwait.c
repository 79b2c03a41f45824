/* collwait.c: the collective-wait module: before each blocking collective
 * the processes synchronize as in a barrier (one MPI_Allreduce of their
 * arrivals, nodes.h: prof_sync_arrive) and the part of it before the last
 * one came is the call's wait, in its record; the synchronization's own
 * latency is the collective's cost (cold: only with
 * MPIPROF_EVAL_COLLECTIVE_WAIT; it costs far more than the shadow lookup of
 * windows and files). */
#include "agree.h"
#include "collwait.h"
#include "fn_table.h"
#include "log.h"
#include "module.h"
#include "nodes.h"
#include "prof.h"
#include "report.h"
#include "run.h"
#include "shadow.h"
#include "waits.h"

int prof_collwait_on;

int prof_collwait_same_colls(const char *what, int nonblocking)
{
    static double v[PROF_FN_COUNT];
    static bool same[PROF_FN_COUNT];
    for (int f = 0; f < PROF_FN_COUNT; f++)
        v[f] = (prof_fn_coll[f] == 2 || (nonblocking && prof_fn_coll[f] == 3)) && prof_fn_on[f];
    int rc = prof_agree(v, PROF_FN_COUNT, same);
    for (int f = 0; rc == 0 && f < PROF_FN_COUNT; f++)
        if (!same[f])
            prof_log_once("MPIPROF_FUNCTIONS profiles %s on some ranks only; %s is off", prof_fn_name[f], what);
    return rc == 1 ? 0 : -1;
}

static int start(void)
{
    if (prof_collwait_same_colls("collective wait", 0) != 0)
        return -1;
    prof_collwait_on = 1;
    prof_sync_want();    /* the arrivals of different nodes compared */
    return 0;
}

static void coll_enter(const struct prof_ev_coll *ev)
{
    if (prof_waits_takes(ev))
        return;     /* wait states measure it, and the rooted ones without a barrier (waits.c) */
    MPI_Comm comm = prof_shadow_coll_comm(ev);
    if (comm == MPI_COMM_NULL)
        return;
    uint64_t t = prof_clock(), latest = 0;
    int known = prof_sync_arrive(comm, t, &latest);
    if (known < 0)
        return;
    uint64_t t1 = prof_clock();
    struct prof_record *r = prof_call_record(ev->c);
    r->s.sync_calls++;
    r->s.sync_ticks += known ? prof_waits_before(latest, t, t1) : t1 - t;
}

static void columns(struct prof_report_ctx *ctx)
{
    ctx->collwait = 1;
}

const struct prof_module prof_mod_collwait = {
    .name = "collective wait",
    .option = "EVAL_COLLECTIVE_WAIT",
    .start = start,
    .coll_enter = coll_enter,
    .columns = columns,
    .writer = &prof_report_collwait,
    .in_snapshots = 1,
};
