/* report_threads.c: threads.txt, one line per rank, thread and MPI
 * function, written only when some rank had more than one thread calling
 * MPI (MPI_THREAD_MULTIPLE or SERIALIZED programs); the threads that exited
 * before MPI_Finalize are one, "exited" (cold). */
#include <stdio.h>
#include "report.h"
#include "thread.h"

#define NAME(c) #c,
static const char *const columns[] = { PROF_THREADS_COLUMNS(NAME) };

static void write_rows(struct prof_buf *b, const struct prof_report_ctx *ctx, const struct prof_rank_data *rd)
{
    (void)ctx;
    for (int t = 0; t < rd->nthreads; t++)
        for (int f = 0; f < PROF_FN_COUNT; f++) {
            const struct prof_stats *s = &rd->threads[t].fn[f];
            char thread[16];
            if (!s->calls)
                continue;
            snprintf(thread, sizeof thread, rd->threads[t].index == PROF_THREAD_EXITED ? "exited" : "%d",
                     rd->threads[t].index);
            prof_buf_printf(b, "%d %s %s %llu %.9f %llu %llu\n", rd->rank, thread,
                            prof_fn_name[f], (unsigned long long)s->calls, s->ticks * rd->sec_per_tick,
                            (unsigned long long)s->bytes_sent, (unsigned long long)s->bytes_recv);
        }
}

static int several_threads(const struct prof_report_ctx *ctx)
{
    return ctx->threaded;
}

const struct prof_writer prof_report_threads = {
    .file = "threads.txt", PROF_COLUMNS_OF(columns), .rows = write_rows, .wanted = several_threads
};
