/* report_summary.c: summary.txt, one line per rank (cold). */
#include "report.h"

#define NAME(c) #c,
static const char *const columns[] = { PROF_SUMMARY_COLUMNS(NAME) PROF_SUMMARY_COLLWAIT_COLUMNS(NAME) };
#define ONE(c) +1
enum { NBASE = 0 PROF_SUMMARY_COLUMNS(ONE) };

/* The base columns, then those of the analyses that were on. */
static void write_columns(struct prof_buf *b, const struct prof_report_ctx *ctx)
{
    prof_report_column_line(b, columns, ctx->collwait ? (int)(sizeof columns / sizeof columns[0]) : NBASE);
}

static void write_rows(struct prof_buf *b, const struct prof_report_ctx *ctx, const struct prof_rank_data *rd)
{
    double elapsed = rd->elapsed_ticks * rd->sec_per_tick;
    double mpi = rd->mpi_ticks * rd->sec_per_tick;
    uint64_t calls = 0, sync = 0;
    for (int f = 0; f < PROF_FN_COUNT; f++) {
        calls += rd->fn[f].calls;
        sync += rd->fn[f].sync_ticks;
    }
    prof_buf_printf(b, "%d %.9f %.9f %.2f %.9f %llu", rd->rank, elapsed, mpi,
                    elapsed > 0 ? 100.0 * mpi / elapsed : 0.0, elapsed - mpi, (unsigned long long)calls);
    if (ctx->collwait)
        prof_buf_printf(b, " %.9f", sync * rd->sec_per_tick);
    prof_buf_printf(b, "\n");
}

const struct prof_writer prof_report_summary = { .file = "summary.txt", .columns = write_columns, .rows = write_rows };
