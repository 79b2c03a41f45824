/* slt_report.c: slt.txt, one line per rank and call site of a receive
 * (MPI_Recv, MPI_Irecv, MPI_Recv_init, MPI_Sendrecv, MPI_Mprobe, ...),
 * written when late sender is on (cold): the receive wait of the evaluated
 * receives split into send-late time and transfer. */
#include "report.h"
#include "slt.h"

#define NAME(c) #c,
static const char *const columns[] = { PROF_SLT_COLUMNS(NAME) };

static void write_columns(struct prof_buf *b, const struct prof_report_ctx *ctx)
{
    (void)ctx;
    prof_report_column_line(b, columns, sizeof columns / sizeof columns[0]);
}

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

static int slt_on(const struct prof_report_ctx *ctx)
{
    return ctx->slt;
}

const struct prof_writer prof_report_slt = {
    .file = "slt.txt", .columns = write_columns, .rows = write_rows, .wanted = slt_on
};
