/* report_functions.c: functions.txt, one line per rank and MPI function the
 * rank called, largest time first (cold). */
#include <stdlib.h>
#include "report.h"

#define NAME(c) #c,
static const char *const columns[] = { PROF_FUNCTIONS_COLUMNS(NAME) };

static void write_columns(struct prof_buf *b, const struct prof_report_ctx *ctx)
{
    (void)ctx;
    prof_report_column_line(b, columns, sizeof columns / sizeof columns[0]);
}

static void write_rows(struct prof_buf *b, const struct prof_report_ctx *ctx, const struct prof_rank_data *rd)
{
    (void)ctx;
    int order[PROF_FN_COUNT], n = prof_report_fn_order(rd, order);
    for (int i = 0; i < n; i++) {
        const struct prof_stats *s = &rd->fn[order[i]];
        prof_buf_printf(b, "%d %s %llu %.9f %.9f %.9f %llu %llu\n", rd->rank, prof_fn_name[order[i]],
                        (unsigned long long)s->calls, s->ticks * rd->sec_per_tick,
                        s->min_ticks * rd->sec_per_tick, s->max_ticks * rd->sec_per_tick,
                        (unsigned long long)s->bytes_sent, (unsigned long long)s->bytes_recv);
    }
}

const struct prof_writer prof_report_functions = { .file = "functions.txt", .columns = write_columns, .rows = write_rows };
