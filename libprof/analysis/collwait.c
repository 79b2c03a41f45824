/* collwait.c: the collective-wait module: before each blocking collective
 * the processes synchronize as in a barrier (one MPI_Allreduce of their
 * arrivals, nodes.h: prof_sync_arrive) and the part of it before the last
 * one came is the call's wait, in its record; the synchronization's own
 * latency is the collective's cost (cold: only with
 * MPIPROF_EVAL_COLLECTIVE_WAIT; it costs far more than the shadow lookup of
 * windows and files). */
#include "colls.h"
#include "collwait.h"
#include "module.h"
#include "nodes.h"
#include "prof.h"
#include "report.h"
#include "shadow.h"

static int start(void)
{
    if (prof_colls_same("collective wait", 0) != 0)
        return -1;
    prof_sync_want();    /* the arrivals of different nodes compared */
    prof_shadow_want(PROF_WANT_WIN | PROF_WANT_FILE);
    return 0;
}

static void coll_enter(const struct prof_ev_coll *ev)
{
    if (prof_colls_claimed(ev))
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
    r->s.sync_ticks += known ? prof_ticks_before(latest, t, t1) : t1 - t;
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
