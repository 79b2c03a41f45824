/* report_sites.c: sites.txt, one line per call site over all ranks, most
 * total time first; the rows are rank 0's (sites.c combined them) (cold). */
#include "report.h"

#define NAME(c) #c,
static const char *const columns[] = { PROF_SITES_COLUMNS(NAME) };

static void write_rows(struct prof_buf *b, const struct prof_report_ctx *ctx, const struct prof_rank_data *rd)
{
    (void)ctx;
    for (int i = 0; i < rd->nsites; i++) {
        const struct prof_site *s = &rd->sites[i];
        prof_buf_printf(b, "%d %s %d %llu %.9f %.9f %d %.9f %.9f %d %llu %llu %s %s\n", s->id,
                        s->fn >= 0 && s->fn < PROF_FN_COUNT ? prof_fn_name[s->fn] : "-", s->ranks,
                        (unsigned long long)s->calls, s->time_s, s->min_s, s->min_rank, s->time_s / s->ranks, s->max_s,
                        s->max_rank, (unsigned long long)s->bytes_sent, (unsigned long long)s->bytes_recv,
                        s->site ? s->site : "-", s->ancestors ? s->ancestors : "-");
    }
}

const struct prof_writer prof_report_sites = {
    .file = "sites.txt", PROF_COLUMNS_OF(columns), .rows = write_rows, .merged = 1
};
