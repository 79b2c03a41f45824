/* slt_report.c: slt.txt, one line per rank and call site of a receive
 * (MPI_Recv, MPI_Irecv, MPI_Recv_init, MPI_Sendrecv, MPI_Mprobe, ...),
 * written when late sender is on (cold): the receive wait of the evaluated
 * receives split into send-late time and transfer. */
#include <stdio.h>
#include <string.h>
#include "log.h"
#include "report.h"
#include "run.h"
#include "slt.h"

#define NAME(c) #c,
static const char *const columns[] = { PROF_SLT_COLUMNS(NAME) };

static void write_rows(struct prof_buf *b, const struct prof_report_ctx *ctx, const struct prof_rank_data *rd)
{
    (void)ctx;
    for (int i = 0; i < rd->nbranches; i++) {
        const struct prof_branch *br = &rd->branches[i];
        const struct prof_stats *s = &br->s;
        if (!s->slt_calls && !s->slt_skipped)
            continue;
        uint64_t xfer = s->slt_wait_ticks > s->late_ticks ? s->slt_wait_ticks - s->late_ticks : 0;
        prof_buf_printf(b, "%d %d %s %llu %llu %.9f %.9f %.9f\n", rd->rank, br->id, prof_fn_name[br->fn],
                        (unsigned long long)s->slt_calls, (unsigned long long)s->slt_skipped,
                        s->slt_wait_ticks * rd->sec_per_tick, s->late_ticks * rd->sec_per_tick,
                        xfer * rd->sec_per_tick);
    }
}

/* The module's report steps (module.h): its columns when it was asked for
 * (not only carrying the model's clocks); the note of the receives not
 * evaluated, summed over the ranks; the partners' sending branches. */
void prof_slt_columns(struct prof_report_ctx *ctx)
{
    ctx->slt = prof_slt_asked;
}

void prof_slt_figures(struct prof_report_ctx *ctx, struct prof_rank_data *rd, uint64_t t_end)
{
    (void)t_end;
    if (!prof_slt_asked)
        return;
    double mine = 0, all = 0;
    for (int f = 0; f < PROF_FN_COUNT; f++)
        mine += (double)rd->fn[f].slt_skipped;
    PMPI_Allreduce(&mine, &all, 1, MPI_DOUBLE, MPI_SUM, prof_run.comm);
    size_t n = strlen(ctx->notes);
    if (all > 0)
        snprintf(ctx->notes + n, sizeof ctx->notes - n,
                 "# note: %.0f receives were not evaluated for late sender (completed by a Test variant or "
                 "MPI_Improbe, their token not told apart or not there, or on a communicator without a shadow): "
                 "their send-late time is not known; slt_eval_pct is the share of each rank's receive wait "
                 "that was evaluated\n",
                 all);
}

void prof_slt_named(struct prof_branch *v, int n)
{
    if (prof_slt_partner_ids(prof_run.comm, v, n) != 0)
        prof_log_once("out of memory while naming the partners' branches; partners.txt shows them as -");
}

static int slt_on(const struct prof_report_ctx *ctx)
{
    return ctx->slt;
}

const struct prof_writer prof_report_slt = {
    .file = "slt.txt", PROF_COLUMNS_OF(columns), .rows = write_rows, .wanted = slt_on
};
