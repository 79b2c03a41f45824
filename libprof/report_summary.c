/* report_summary.c: summary.txt, one line per rank (cold). */
#include "report.h"

#define NAME(c) #c,
static const char *const columns[] = { PROF_SUMMARY_COLUMNS(NAME) };

static void write_columns(struct prof_buf *b, const struct prof_report_ctx *ctx)
{
    (void)ctx;
    prof_report_column_line(b, columns, sizeof columns / sizeof columns[0]);
}

static void write_rows(struct prof_buf *b, const struct prof_report_ctx *ctx, const struct prof_rank_data *rd)
{
    (void)ctx;
    double elapsed = rd->elapsed_ticks * rd->sec_per_tick;
    double mpi = rd->mpi_ticks * rd->sec_per_tick;
    uint64_t calls = 0;
    for (int f = 0; f < PROF_FN_COUNT; f++)
        calls += rd->fn[f].calls;
    prof_buf_printf(b, "%d %.9f %.9f %.2f %.9f %llu\n", rd->rank, elapsed, mpi,
                    elapsed > 0 ? 100.0 * mpi / elapsed : 0.0, elapsed - mpi, (unsigned long long)calls);
}

const struct prof_writer prof_report_summary = { .file = "summary.txt", .columns = write_columns, .rows = write_rows };
