/* report_regions.c: regions.txt, one line per rank for the whole run and
 * per MPI_Pcontrol region path (region.h), when some rank opened one. A
 * region's figures include its nested regions' (cold). */
#include <stdlib.h>
#include "region.h"
#include "report.h"

#define NAME(c) #c,
static const char *const columns[] = { PROF_REGIONS_COLUMNS(NAME) };

static void row(struct prof_buf *b, const struct prof_rank_data *rd, uint32_t id, uint64_t entries,
                uint64_t elapsed, uint64_t mpi, uint64_t calls)
{
    prof_buf_printf(b, "%d ", rd->rank);
    prof_report_region(b, id);
    prof_buf_printf(b, " %llu %.9f %.9f %.2f %llu\n", (unsigned long long)entries, elapsed * rd->sec_per_tick,
                    mpi * rd->sec_per_tick, elapsed ? 100.0 * (double)mpi / (double)elapsed : 0.0,
                    (unsigned long long)calls);
}

static void write_rows(struct prof_buf *b, const struct prof_report_ctx *ctx, const struct prof_rank_data *rd)
{
    (void)ctx;
    uint64_t calls = 0;
    for (int f = 0; f < PROF_FN_COUNT; f++)
        calls += rd->fn[f].calls;
    row(b, rd, 0, 1, rd->elapsed_ticks, rd->mpi_ticks, calls);
    uint64_t *mpi = calloc(2 * ((size_t)rd->nregions + 1), sizeof *mpi), *n = mpi + rd->nregions + 1;
    if (!mpi) {
        b->failed = 1;
        return;
    }
    /* Each region's calls, added to it and to every region around it. */
    for (uint32_t id = 1; id <= (uint32_t)rd->nregions; id++)
        for (int f = 0; f < PROF_FN_COUNT; f++) {
            const struct prof_stats *s = &rd->region_fn[(size_t)(id - 1) * PROF_FN_COUNT + f];
            for (uint32_t up = id; up; up = rd->region_nodes[up].parent) {
                mpi[up] += s->ticks;
                n[up] += s->calls;
            }
        }
    for (uint32_t id = 1; id <= (uint32_t)rd->nregions; id++)
        row(b, rd, id, rd->region_nodes[id].entries, rd->region_nodes[id].ticks, mpi[id], n[id]);
    free(mpi);
}

int prof_report_has_regions(const struct prof_report_ctx *ctx)
{
    return ctx->regions;
}

const struct prof_writer prof_report_regions = {
    .file = "regions.txt", PROF_COLUMNS_OF(columns), .rows = write_rows, .wanted = prof_report_has_regions
};
