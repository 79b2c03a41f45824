/* report_functions.c: functions.txt, one line per rank and MPI function the
 * rank called, largest time first, for the whole run; region_functions.txt,
 * the same per MPI_Pcontrol region, a region column last; in the summary
 * form, functions.txt has one line per function over the ranks (cold). */
#include <stdlib.h>
#include "config.h"
#include "report.h"

#define NAME(c) #c,
static const char *const columns[] = { PROF_FUNCTIONS_COLUMNS(NAME) "region" };
#define NCOLUMNS ((int)(sizeof columns / sizeof columns[0]))

/* The rows of the figures per function fn, in region id (0: the whole
 * run, no region column). */
static void rows_of(struct prof_buf *b, const struct prof_rank_data *rd, const struct prof_stats *fn, uint32_t id)
{
    int order[PROF_FN_COUNT], n = prof_report_fn_order(fn, order);
    for (int i = 0; i < n; i++) {
        const struct prof_stats *s = &fn[order[i]];
        /* MPIPROF_TEST_SKEW=sent: MPI_Send's bytes doubled, on purpose */
        int skew = order[i] == FN_MPI_Send && prof_config.test_skew == PROF_SKEW_SENT;
        prof_buf_printf(b, "%d %s %llu %.9f %.9f %.9f %llu %llu", rd->rank, prof_fn_name[order[i]],
                        (unsigned long long)s->calls, s->ticks * rd->sec_per_tick,
                        s->min_ticks * rd->sec_per_tick, s->max_ticks * rd->sec_per_tick,
                        (unsigned long long)s->bytes_sent << skew, (unsigned long long)s->bytes_recv);
        prof_report_row_end(b, id);
    }
}

static void write_rows(struct prof_buf *b, const struct prof_report_ctx *ctx, const struct prof_rank_data *rd)
{
    (void)ctx;
    rows_of(b, rd, rd->fn, 0);
}

/* Each region's calls, regions in the order first opened. */
static void region_rows(struct prof_buf *b, const struct prof_report_ctx *ctx, const struct prof_rank_data *rd)
{
    (void)ctx;
    for (int id = 1; id <= rd->nregions; id++)
        rows_of(b, rd, &rd->region_fn[(size_t)(id - 1) * PROF_FN_COUNT], (uint32_t)id);
}

const struct prof_writer prof_report_functions = {
    .file = "functions.txt", .names = columns, .nnames = NCOLUMNS - 1, .rows = write_rows
};
const struct prof_writer prof_report_region_functions = {
    .file = "region_functions.txt", .names = columns, .nnames = NCOLUMNS, .rows = region_rows,
    .wanted = prof_report_has_regions
};

/* The summary form: one line per MPI function called on any rank, most
 * total time first; least, mean and most over the ranks that called it. */
static const char *const spread_columns[] = { PROF_FUNCTIONS_SPREAD_COLUMNS(NAME) };

static void spread_rows(struct prof_buf *b, const struct prof_report_ctx *ctx, const struct prof_rank_data *rd)
{
    (void)ctx;
    for (int i = 0; i < rd->nfns; i++) {
        const struct prof_fn_spread *f = &rd->fns[i];
        prof_buf_printf(b, "%s %d %llu %.9f %.9f %d %.9f %.9f %d %llu %llu\n", prof_fn_name[f->fn], f->time.ranks,
                        (unsigned long long)f->calls, f->time.sum, f->time.min, f->time.min_rank,
                        f->time.sum / f->time.ranks, f->time.max, f->time.max_rank,
                        (unsigned long long)f->bytes_sent, (unsigned long long)f->bytes_recv);
    }
}

const struct prof_writer prof_report_functions_spread = {
    .file = "functions.txt", PROF_COLUMNS_OF(spread_columns), .rows = spread_rows, .merged = 1
};
