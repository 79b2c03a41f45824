/* report_sizes.c: sizes.txt, one line per rank, function and non-empty
 * message-size bin (sizes.h): functions largest time first, as in
 * functions.txt, bins smallest first (cold). */
#include "report.h"

#define NAME(c) #c,
static const char *const columns[] = { PROF_SIZES_COLUMNS(NAME) };

static void write_rows(struct prof_buf *b, const struct prof_report_ctx *ctx, const struct prof_rank_data *rd)
{
    (void)ctx;
    int order[PROF_FN_COUNT], n = prof_report_fn_order(rd->fn, order);
    for (int i = 0; i < n; i++) {
        const struct prof_sizes *h = rd->sizes[order[i]];
        for (int k = 0; h && k < PROF_SIZE_BINS; k++) {
            const struct prof_tally *bin = &h->bin[k];
            if (!bin->calls)
                continue;
            /* bin k: [2^(k-1), 2^k - 1], inclusive; bin 0: 0 */
            unsigned long long lo = k ? 1ULL << (k - 1) : 0, hi = k ? lo + (lo - 1) : 0;
            prof_buf_printf(b, "%d %s %llu %llu %llu %llu %.9f\n", rd->rank, prof_fn_name[order[i]], lo, hi,
                            (unsigned long long)bin->calls, (unsigned long long)bin->bytes,
                            bin->ticks * rd->sec_per_tick);
        }
    }
}

const struct prof_writer prof_report_sizes = { .file = "sizes.txt", PROF_COLUMNS_OF(columns), .rows = write_rows };
