/* report_summary.c: summary.txt, one line per rank (cold). The analyses
 * that were on add their columns after the base ones. */
#include "report.h"

#define NAME(c) #c,
static const char *const base[] = { PROF_SUMMARY_COLUMNS(NAME) };
static const char *const slt_col[] = { PROF_SUMMARY_SLT_COLUMNS(NAME) };
static const char *const collwait_col[] = { PROF_SUMMARY_COLLWAIT_COLUMNS(NAME) };
static const char *const model_col[] = { PROF_SUMMARY_MODEL_COLUMNS(NAME) };
#define N(a) (int)(sizeof a / sizeof a[0])

static void write_columns(struct prof_buf *b, const struct prof_report_ctx *ctx)
{
    const char *names[N(base) + N(slt_col) + N(collwait_col) + N(model_col)];
    int n = 0;
    for (int i = 0; i < N(base); i++)
        names[n++] = base[i];
    for (int i = 0; ctx->slt && i < N(slt_col); i++)
        names[n++] = slt_col[i];
    for (int i = 0; ctx->collwait && i < N(collwait_col); i++)
        names[n++] = collwait_col[i];
    for (int i = 0; ctx->model && i < N(model_col); i++)
        names[n++] = model_col[i];
    prof_report_column_line(b, names, n);
}

/* Printed with two decimals, a share that left some wait out stays
 * below 100.00 however small that part: 99.99 at most. */
static double evaluated_pct(uint64_t evaluated, uint64_t skipped)
{
    if (!skipped)
        return 100.0;
    double pct = 100.0 * (double)evaluated / (double)(evaluated + skipped);
    return pct > 99.99 ? 99.99 : pct;
}

static void write_rows(struct prof_buf *b, const struct prof_report_ctx *ctx, const struct prof_rank_data *rd)
{
    double elapsed = rd->elapsed_ticks * rd->sec_per_tick;
    double mpi = rd->mpi_ticks * rd->sec_per_tick;
    uint64_t calls = 0, late = 0, sync = 0, evaluated = 0, skipped = 0;
    for (int f = 0; f < PROF_FN_COUNT; f++) {
        calls += rd->fn[f].calls;
        late += rd->fn[f].late_ticks;
        sync += rd->fn[f].sync_ticks;
        evaluated += rd->fn[f].slt_wait_ticks;
        skipped += rd->fn[f].slt_skipped_ticks;
    }
    prof_buf_printf(b, "%d %.9f %.9f %.2f %.9f %llu %.9f", rd->rank, elapsed, mpi,
                    elapsed > 0 ? 100.0 * mpi / elapsed : 0.0, prof_compute_ticks(rd) * rd->sec_per_tick,
                    (unsigned long long)calls, rd->profiler_ticks * rd->sec_per_tick);
    if (ctx->slt)      /* the evaluated share of the receive wait: 100 only when none was left out */
        prof_buf_printf(b, " %.9f %.2f", late * rd->sec_per_tick, evaluated_pct(evaluated, skipped));
    if (ctx->collwait)
        prof_buf_printf(b, " %.9f", sync * rd->sec_per_tick);
    if (ctx->model)
        prof_buf_printf(b, " %.9f", rd->model_elapsed);
    prof_buf_printf(b, "\n");
}

const struct prof_writer prof_report_summary = { .file = "summary.txt", .columns = write_columns, .rows = write_rows };
