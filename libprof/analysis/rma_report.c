/* rma_report.c: rma.txt, written when some rank created a window (cold).
 * Per rank, window (the branch id of the call that created it; windows
 * created at one call site are one), target (MPI_COMM_WORLD rank, -1 for
 * calls that name none) and kind of call: calls, origin bytes, time. */
#include <stdlib.h>
#include "report.h"
#include "rma.h"

#define NAME(c) #c,
static const char *const columns[] = { PROF_RMA_COLUMNS(NAME) };

static int by_rank(const void *a, const void *b)
{
    int32_t x = (*(struct prof_rma_target *const *)a)->rank, y = (*(struct prof_rma_target *const *)b)->rank;
    return (x > y) - (x < y);
}

static void site_rows(struct prof_buf *b, const struct prof_rank_data *rd, const struct prof_rma_site *s)
{
    struct prof_rma_target **t = malloc(((size_t)s->targets.n + 1) * sizeof *t);
    int n = 0;
    if (!t) {
        b->failed = 1;
        return;
    }
    for (uint32_t i = 0; i < s->targets.cap; i++)
        if (s->targets.vals[i])
            t[n++] = s->targets.vals[i];
    qsort(t, (size_t)n, sizeof *t, by_rank);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < PROF_RMA_KINDS; k++) {
            const struct prof_tally *x = &t[i]->k[k];
            if (x->calls)
                prof_buf_printf(b, "%d %d %d %s %llu %llu %.9f %s\n", rd->rank, s->id, (int)t[i]->rank,
                                prof_rma_kind_name[k], (unsigned long long)x->calls,
                                (unsigned long long)x->bytes, x->ticks * rd->sec_per_tick,
                                s->where ? s->where : "-");
        }
    free(t);
}

static void write_rows(struct prof_buf *b, const struct prof_report_ctx *ctx, const struct prof_rank_data *rd)
{
    (void)ctx;
    int n;
    struct prof_rma_site *const *v = prof_rma_sites(&n);
    for (int i = 0; i < n; i++)
        site_rows(b, rd, v[i]);
}

const struct prof_writer prof_rma_writer = {
    .file = "rma.txt", PROF_COLUMNS_OF(columns), .rows = write_rows,
};
