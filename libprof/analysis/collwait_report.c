/* collwait_report.c: collwait.txt, one line per rank and collective call
 * site, written when collective wait is on (cold). A blocking collective's
 * time (time_s, as in branches.txt) is the barrier before it (wait_s) plus
 * the collective with synchronized arrivals (synced_s); nonblocking and
 * split collectives are listed with evaluated 0 and "-". The module's
 * writer (collwait.c). */
#include "collwait.h"
#include "report.h"

#define NAME(c) #c,
static const char *const columns[] = { PROF_COLLWAIT_COLUMNS(NAME) };

static void write_rows(struct prof_buf *b, const struct prof_report_ctx *ctx, const struct prof_rank_data *rd)
{
    (void)ctx;
    for (int i = 0; i < rd->nbranches; i++) {
        const struct prof_branch *br = &rd->branches[i];
        const struct prof_stats *s = &br->s;
        if (!prof_fn_coll[br->fn])
            continue;
        prof_buf_printf(b, "%d %d %s %llu %llu %.9f ", rd->rank, br->id, prof_fn_name[br->fn],
                        (unsigned long long)s->calls, (unsigned long long)s->sync_calls, s->ticks * rd->sec_per_tick);
        if (s->sync_calls)
            prof_buf_printf(b, "%.9f %.9f\n", s->sync_ticks * rd->sec_per_tick,
                            (s->ticks - s->sync_ticks) * rd->sec_per_tick);
        else
            prof_buf_printf(b, "- -\n");
    }
}

const struct prof_writer prof_report_collwait = {
    .file = "collwait.txt", PROF_COLUMNS_OF(columns), .rows = write_rows
};
