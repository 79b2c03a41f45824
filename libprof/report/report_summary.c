/* report_summary.c: summary.txt, one line per rank; in the summary form,
 * one line per figure over the ranks (cold). The analyses that were on add
 * their columns after the base ones. */
#include <string.h>
#include "report.h"

#define NAME(c) #c,
static const char *const base[] = { PROF_SUMMARY_COLUMNS(NAME) };
static const char *const slt_col[] = { PROF_SUMMARY_SLT_COLUMNS(NAME) };
static const char *const collwait_col[] = { PROF_SUMMARY_COLLWAIT_COLUMNS(NAME) };
static const char *const model_col[] = { PROF_SUMMARY_MODEL_COLUMNS(NAME) };
static const char *const net_col[] = { PROF_SUMMARY_NET_COLUMNS(NAME) };
static const char *const spread_col[] = { PROF_SPREAD_COLUMNS(NAME) };
#define N(a) (int)(sizeof a / sizeof a[0])
_Static_assert(N(base) - 1 + N(slt_col) + N(collwait_col) + N(model_col) + N(net_col) <= PROF_FIGURES_MAX,
               "PROF_FIGURES_MAX");

int prof_report_decimals(const char *name)
{
    size_t n = strlen(name);
    if (n > 4 && strcmp(name + n - 4, "_pct") == 0)
        return 2;
    return n > 2 && strcmp(name + n - 2, "_s") == 0 ? 9 : 0;
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

int prof_report_figures(const struct prof_report_ctx *ctx, const struct prof_rank_data *rd, const char **name,
                        double *v)
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
    /* in base's order, after rank; then the analyses' (the evaluated
     * share of the receive wait: 100 only when none was left out) */
    double values[PROF_FIGURES_MAX] = { elapsed, mpi, elapsed > 0 ? 100.0 * mpi / elapsed : 0.0,
                                        prof_compute_ticks(rd) * rd->sec_per_tick, (double)calls,
                                        rd->profiler_ticks * rd->sec_per_tick };
    int n = 0;
    for (int i = 1; i < N(base); i++, n++)
        name[n] = base[i], v[n] = values[n];
    if (ctx->slt) {
        name[n] = slt_col[0], v[n++] = late * rd->sec_per_tick;
        name[n] = slt_col[1], v[n++] = evaluated_pct(evaluated, skipped);
    }
    if (ctx->collwait)
        name[n] = collwait_col[0], v[n++] = sync * rd->sec_per_tick;
    if (ctx->model)
        name[n] = model_col[0], v[n++] = rd->model_elapsed;
    if (ctx->model_net) {
        name[n] = net_col[0], v[n++] = rd->model_node;
        name[n] = net_col[1], v[n++] = rd->model_net;
        name[n] = net_col[2], v[n++] = rd->model_link;
    }
    return n;
}

static void write_columns(struct prof_buf *b, const struct prof_report_ctx *ctx)
{
    const char *names[PROF_FIGURES_MAX + 1];
    double v[PROF_FIGURES_MAX];
    static const struct prof_rank_data none;
    names[0] = base[0];
    prof_report_column_line(b, names, 1 + prof_report_figures(ctx, &none, names + 1, v));
}

static void write_rows(struct prof_buf *b, const struct prof_report_ctx *ctx, const struct prof_rank_data *rd)
{
    const char *names[PROF_FIGURES_MAX];
    double v[PROF_FIGURES_MAX];
    int n = prof_report_figures(ctx, rd, names, v);
    prof_buf_printf(b, "%d", rd->rank);
    for (int i = 0; i < n; i++)
        prof_buf_printf(b, " %.*f", prof_report_decimals(names[i]), v[i]);
    prof_buf_printf(b, "\n");
}

const struct prof_writer prof_report_summary = { .file = "summary.txt", .columns = write_columns, .rows = write_rows };

/* The summary form: per figure, its total over the ranks ("-" for a
 * percentage), least and most with their ranks, and mean; with a model,
 * its line first (model.txt, which has it otherwise, is per rank). */
static void spread_columns(struct prof_buf *b, const struct prof_report_ctx *ctx)
{
    prof_report_model_line(b, ctx);
    prof_report_column_line(b, spread_col, N(spread_col));
}

static void spread_rows(struct prof_buf *b, const struct prof_report_ctx *ctx, const struct prof_rank_data *rd)
{
    const char *names[PROF_FIGURES_MAX];
    double v[PROF_FIGURES_MAX];
    int n = prof_report_figures(ctx, rd, names, v);
    for (int i = 0; rd->figures && i < n; i++) {
        const struct prof_spread *s = &rd->figures[i];
        int d = prof_report_decimals(names[i]);
        prof_buf_printf(b, "%s %d ", names[i], s->ranks);
        if (d == 2)
            prof_buf_printf(b, "-");
        else
            prof_buf_printf(b, "%.*f", d, s->sum);
        prof_buf_printf(b, " %.*f %d %.*f %.*f %d\n", d, s->min, s->min_rank, d ? d : 3,
                        s->ranks ? s->sum / s->ranks : 0.0, d, s->max, s->max_rank);
    }
}

const struct prof_writer prof_report_summary_spread = {
    .file = "summary.txt", .columns = spread_columns, .rows = spread_rows, .merged = 1
};
