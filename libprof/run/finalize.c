/* finalize.c: at MPI_Finalize, merge this rank's threads, agree with the
 * other ranks on the report's columns and header, and write it (cold). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "branch.h"
#include "config.h"
#include "log.h"
#include "module.h"
#include "prof.h"
#include "report.h"
#include "request.h"
#include "run.h"
#include "shadow.h"
#include "snapshot.h"
#include "spread.h"
#include "python.h"
#include "via.h"
#include "wait.h"

/* threads.txt order: by thread number, the exited threads last. */
static int by_thread(const void *a, const void *b)
{
    unsigned x = (unsigned)((const struct prof_thread_data *)a)->index;
    unsigned y = (unsigned)((const struct prof_thread_data *)b)->index;
    return (x > y) - (x < y);
}

void prof_merge_threads(struct prof_rank_data *rd, struct prof_thread *threads)
{
    static struct prof_thread_data *per_thread;
    struct prof_stats *region_fn = rd->nregions ? calloc((size_t)rd->nregions * PROF_FN_COUNT, sizeof *region_fn)
                                                : NULL;
    int n = 0, nomem = 0;
    for (struct prof_thread *th = threads; th; th = th->next)
        n++;
    per_thread = calloc((size_t)n + 1, sizeof *per_thread);
    int k = 0;
    for (struct prof_thread *th = threads; th; th = th->next, k++) {
        const struct prof_table *t = &th->table;
        struct prof_thread_data *td = per_thread ? &per_thread[k] : NULL;
        struct prof_stats *fn = td ? td->fn : rd->fn;
        for (uint32_t k = 0; k < t->used; k++) {
            const struct prof_record *r = &t->slots[t->order[k]];
            prof_stats_merge(&fn[r->fn], &r->s);
            if (r->region && region_fn)
                prof_stats_merge(&region_fn[(size_t)(r->region - 1) * PROF_FN_COUNT + r->fn], &r->s);
        }
        for (int f = 0; f < PROF_FN_COUNT; f++) {
            prof_stats_merge(&fn[f], &t->overflow[f].s);
            nomem |= prof_sizes_merge(&rd->sizes[f], t->sizes[f]);
        }
        rd->overflow_calls += t->overflow_calls;
        rd->profiler_ticks += th->profiler;
        if (td)
            td->index = th->index;
    }
    if (nomem)
        prof_log_local("out of memory while merging message sizes; sizes.txt is incomplete");
    if (rd->nregions && !region_fn) {
        prof_log_local("out of memory while merging the MPI_Pcontrol regions; their rows are missing");
        rd->nregions = 0;
    }
    rd->region_fn = region_fn;
    for (int i = 0; per_thread && i < n; i++)
        for (int f = 0; f < PROF_FN_COUNT; f++)
            prof_stats_merge(&rd->fn[f], &per_thread[i].fn[f]);
    if (per_thread)
        qsort(per_thread, (size_t)n, sizeof *per_thread, by_thread);
    rd->threads = per_thread;
    rd->nthreads = per_thread ? n : 0;
    for (int f = 0; f < PROF_FN_COUNT; f++)
        rd->mpi_ticks += rd->fn[f].ticks;
}

/* Matrix columns: every function called on some rank, by total seconds. */
static const double *col_time;

static int by_total_time(const void *a, const void *b)
{
    double x = col_time[*(const int *)a], y = col_time[*(const int *)b];
    if (x != y)
        return x < y ? 1 : -1;
    return *(const int *)a - *(const int *)b;
}

static void choose_columns(struct prof_report_ctx *ctx, const struct prof_rank_data *rd,
                           const struct prof_region_trouble *trouble)
{
    enum { OVERFLOW = PROF_FN_COUNT, UNTRACKED, FOREIGN, THREADS, ESCAPED, REGIONS, STRAY, CROSSED, LEFT_OPEN,
           TOO_MANY, NO_NAME, NVALUES };
    static double mine[NVALUES], all[NVALUES];
    for (int f = 0; f < PROF_FN_COUNT; f++)
        mine[f] = rd->fn[f].calls ? rd->fn[f].ticks * rd->sec_per_tick + 1e-300 : 0;
    mine[OVERFLOW] = (double)rd->overflow_calls;
    mine[UNTRACKED] = (double)prof_request_untracked();
    mine[FOREIGN] = mine[ESCAPED] = 0;
    for (struct prof_thread *th = prof_thread_list(); th; th = th->next) {
        mine[FOREIGN] += (double)th->foreign;
        mine[ESCAPED] += (double)th->escaped + (th->inside != 0);   /* + one left at the end */
    }
    mine[THREADS] = rd->nthreads > 1;
    mine[REGIONS] = rd->nregions;
    mine[STRAY] = (double)trouble->stray_closes;
    mine[CROSSED] = (double)trouble->crossed;
    mine[LEFT_OPEN] = (double)trouble->left_open;
    mine[TOO_MANY] = (double)trouble->too_many;
    mine[NO_NAME] = (double)trouble->no_name;
    PMPI_Allreduce(mine, all, NVALUES, MPI_DOUBLE, MPI_SUM, prof_run.comm);
    ctx->threaded = all[THREADS] > 0;
    ctx->regions = all[REGIONS] > 0;
    ctx->ncols = 0;
    for (int f = 0; f < PROF_FN_COUNT; f++)
        if (all[f] > 0)
            ctx->cols[ctx->ncols++] = f;
    col_time = all;
    qsort(ctx->cols, (size_t)ctx->ncols, sizeof ctx->cols[0], by_total_time);
    size_t n = 0;
    if (all[OVERFLOW] > 0)
        n += snprintf(ctx->notes + n, sizeof ctx->notes - n,
                      "# note: %.0f calls found their thread's call-site table full (MPIPROF_MAX_SITES=%d); "
                      "they are counted per function only\n",
                      all[OVERFLOW], prof_config.max_sites);
    if (all[UNTRACKED] > 0 && n < sizeof ctx->notes)
        n += snprintf(ctx->notes + n, sizeof ctx->notes - n,
                      "# note: %.0f requests were not tracked (too many pending at once): their partners at "
                      "completion, their receive wait and, for persistent ones, MPI_Start traffic are missing; "
                      "receives count their posted size\n",
                      all[UNTRACKED]);
    if (all[FOREIGN] > 0 && n < sizeof ctx->notes)
        n += snprintf(ctx->notes + n, sizeof ctx->notes - n,
                      "# note: %.0f receives completed on another thread than the one that posted or started them: "
                      "their message, arrived bytes, partner and receive wait are missing from that call site\n",
                      all[FOREIGN]);
    if (all[ESCAPED] > 0 && n < sizeof ctx->notes)
        n += snprintf(ctx->notes + n, sizeof ctx->notes - n,
                      "# note: %.0f calls never returned to the profiler (an error handler longjmp'd or threw): "
                      "they are not counted\n", all[ESCAPED]);
    if (all[STRAY] + all[CROSSED] + all[LEFT_OPEN] + all[TOO_MANY] + all[NO_NAME] > 0 && n < sizeof ctx->notes)
        n += snprintf(ctx->notes + n, sizeof ctx->notes - n,
                      "# note: MPI_Pcontrol regions, summed over the ranks: %.0f closes of a region that was not "
                      "open (ignored), %.0f closes of an outer region (the inner ones closed with it), %.0f regions "
                      "left open (closed at MPI_Finalize), %.0f opened beyond %d paths or %d levels (counted in the "
                      "region around them), %.0f without a name (ignored)\n",
                      all[STRAY], all[CROSSED], all[LEFT_OPEN], all[TOO_MANY], PROF_REGIONS_MAX, PROF_REGION_DEPTH,
                      all[NO_NAME]);
}

/* s with backslash, double quote and control characters escaped (\\ \" \n
 * \t \r \xHH), so that the header stays one line whatever the command line
 * holds; cut to fit out. */
static const char *escaped(const char *s, char *out, size_t size)
{
    size_t n = 0;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        char e[8];
        if (c == '\\' || c == '"')
            snprintf(e, sizeof e, "\\%c", c);
        else if (c == '\n' || c == '\t' || c == '\r')
            snprintf(e, sizeof e, "\\%c", c == '\n' ? 'n' : c == '\t' ? 't' : 'r');
        else if (c < 0x20 || c == 0x7f)
            snprintf(e, sizeof e, "\\x%02x", c);
        else
            snprintf(e, sizeof e, "%c", c);
        size_t len = strlen(e);
        if (n + len >= size)
            break;
        memcpy(out + n, e, len);
        n += len;
    }
    out[n] = '\0';
    return out;
}

void prof_report_first_line(struct prof_report_ctx *ctx)
{
    static char command[5000], options[2500];
    char when[64];
    struct tm tm;
    localtime_r(&prof_run.start, &tm);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(ctx->first_line, sizeof ctx->first_line,
             "# mpiprof %s command=\"%s\" ranks=%d form=%s start=%s clock=%s options=%s",
             PACKAGE_VERSION, escaped(prof_run.command, command, sizeof command), prof_run.size,
             ctx->summary ? "summary" : "ranks", when,
             prof_clock_name(), prof_config.options[0] ? escaped(prof_config.options, options, sizeof options) : "-");
}

void prof_finish(void)
{
    static struct prof_branches branches;
    uint64_t t_begin = prof_clock_mono_ns();
    static struct prof_rank_data rd;
    static struct prof_report_ctx ctx;
    uint64_t t_end = prof_clock();
    prof_wait_barrier(prof_run.comm);   /* the last rank's arrival, waited for without spinning */

    memset(prof_fn_on, 0, sizeof prof_fn_on);
    prof_snapshot_stop();
    static struct prof_region_trouble trouble;
    int nregions = prof_regions_finish(t_end, &trouble);
    prof_run.finished = 1;
    prof_modules_finish();
    memset(&rd, 0, sizeof rd);
    rd.rank = prof_run.rank;
    rd.sec_per_tick = prof_clock_stop();
    rd.elapsed_ticks = t_end - prof_run.t_init;
    rd.nregions = nregions;
    rd.region_nodes = prof_region_get(0);
    prof_merge_threads(&rd, prof_thread_list());

    memset(&ctx, 0, sizeof ctx);
    ctx.nranks = prof_run.size;
    prof_modules_columns(&ctx);
    choose_columns(&ctx, &rd, &trouble);
    prof_modules_figures(&ctx, &rd, t_end);
    ctx.summary = prof_report_summary_form(ctx.nranks);
    prof_report_first_line(&ctx);

    struct prof_finalize_times times = { .t_begin = t_begin };
    int failed = prof_branches_collect(&branches, prof_thread_list()) != 0, any_failed;
    PMPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, prof_run.comm);
    if (!any_failed)
        failed = prof_branches_describe(prof_run.comm, &branches, &times.symbolize_ns) != 0;
    if (!any_failed && prof_branches_number(prof_run.comm, &branches, failed) == 0) {
        prof_modules_named(branches.v, branches.n);
        prof_branches_sort_time(&branches);
        rd.branches = branches.v;
        rd.nbranches = branches.n;
    } else {
        prof_log_once("out of memory while merging call sites; branches.txt lists none");
    }
    prof_modules_agree(prof_run.comm);
    static struct prof_site *sites;
    if (prof_sites_reduce(prof_run.comm, rd.branches, rd.nbranches, rd.sec_per_tick, &sites, &rd.nsites) == 0)
        rd.sites = sites;
    else
        prof_log_once("out of memory while combining call sites over the ranks; sites.txt lists none");

    if (ctx.summary) {
        uint64_t t0 = prof_clock_mono_ns();
        prof_spread_reduce(prof_run.comm, &ctx, &rd);
        times.how = PROF_WROTE_SUMMARY;
        times.gather_ns = prof_clock_mono_ns() - t0;
    }

    char base[4096];
    prof_report_base(base, sizeof base);
    times.merge_ns = prof_clock_mono_ns() - t_begin - times.symbolize_ns - times.gather_ns;
    if (prof_report_write(prof_run.comm, &ctx, &rd, base, &times) == 0 && prof_run.rank == 0)
        prof_partial_clean();       /* the complete report replaces the partial one */
    prof_branches_free(&branches);
    prof_sites_free(sites, rd.nsites);
    for (int f = 0; f < PROF_FN_COUNT; f++)
        free(rd.sizes[f]);
    free((void *)rd.threads);
    free((void *)rd.region_fn);
    prof_thread_list_done();
    prof_via_stop();
    prof_python_stop();
    prof_shadow_release_all();
    PMPI_Comm_free(&prof_run.comm);
    prof_settle();
}
