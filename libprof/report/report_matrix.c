/* report_matrix.c: matrix.time, matrix.calls, matrix.bytes: one line per
 * rank, one column per MPI function called on any rank (the same columns on
 * every line, largest total time first), for spreadsheets (cold). */
#include "report.h"

enum what { TIME, CALLS, BYTES };

static void columns(struct prof_buf *b, const struct prof_report_ctx *ctx, enum what w)
{
    prof_buf_printf(b, "# rank%s", w == TIME ? " compute" : "");
    for (int i = 0; i < ctx->ncols; i++)
        prof_buf_printf(b, " %s", prof_fn_name[ctx->cols[i]]);
    prof_buf_printf(b, "\n");
}

static void rows(struct prof_buf *b, const struct prof_report_ctx *ctx, const struct prof_rank_data *rd, enum what w)
{
    prof_buf_printf(b, "%d", rd->rank);
    if (w == TIME)
        prof_buf_printf(b, " %.9f", prof_compute_ticks(rd) * rd->sec_per_tick);
    for (int i = 0; i < ctx->ncols; i++) {
        const struct prof_stats *s = &rd->fn[ctx->cols[i]];
        if (w == TIME)
            prof_buf_printf(b, " %.9f", s->ticks * rd->sec_per_tick);
        else
            prof_buf_printf(b, " %llu", (unsigned long long)(w == CALLS ? s->calls : s->bytes_sent + s->bytes_recv));
    }
    prof_buf_printf(b, "\n");
}

#define MATRIX(name, w) \
    static void name##_columns(struct prof_buf *b, const struct prof_report_ctx *ctx) { columns(b, ctx, w); } \
    static void name##_rows(struct prof_buf *b, const struct prof_report_ctx *ctx, \
                            const struct prof_rank_data *rd) { rows(b, ctx, rd, w); } \
    const struct prof_writer prof_report_matrix_##name = { \
        .file = "matrix." #name, .columns = name##_columns, .rows = name##_rows };

MATRIX(time, TIME)
MATRIX(calls, CALLS)
MATRIX(bytes, BYTES)
