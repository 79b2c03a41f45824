/* model_report.c: model.txt, written when a model was on (cold). A line
 * names the model and the job's predicted speed-up; then per rank, the
 * elapsed time, the time inside MPI and between MPI calls (compute), and
 * each MPI function called: real and modelled seconds. */
#include "model.h"
#include "report.h"
#include "run.h"

#define NAME(c) #c,
static const char *const columns[] = { PROF_MODEL_COLUMNS(NAME) };

static void write_columns(struct prof_buf *b, const struct prof_report_ctx *ctx)
{
    prof_report_model_line(b, ctx);
    prof_report_column_line(b, columns, sizeof columns / sizeof columns[0]);
}

static void write_rows(struct prof_buf *b, const struct prof_report_ctx *ctx, const struct prof_rank_data *rd)
{
    (void)ctx;
    double elapsed = rd->elapsed_ticks * rd->sec_per_tick, mpi = rd->mpi_ticks * rd->sec_per_tick;
    uint64_t calls = 0;
    for (int f = 0; f < PROF_FN_COUNT; f++)
        calls += rd->fn[f].calls;
    prof_buf_printf(b, "%d elapsed - %.9f %.9f\n", rd->rank, elapsed, rd->model_elapsed);
    prof_buf_printf(b, "%d mpi %llu %.9f %.9f\n", rd->rank, (unsigned long long)calls, mpi, rd->model_mpi);
    prof_buf_printf(b, "%d compute - %.9f %.9f\n", rd->rank, prof_compute_ticks(rd) * rd->sec_per_tick,
                    rd->model_compute);
    int order[PROF_FN_COUNT], n = prof_report_fn_order(rd->fn, order);
    for (int i = 0; i < n; i++)
        prof_buf_printf(b, "%d %s %llu %.9f %.9f\n", rd->rank, prof_fn_name[order[i]],
                        (unsigned long long)rd->fn[order[i]].calls, rd->fn[order[i]].ticks * rd->sec_per_tick,
                        rd->model_fn[order[i]]);
}

static int model_on(const struct prof_report_ctx *ctx)
{
    return ctx->model;
}

const struct prof_writer prof_report_model = {
    .file = "model.txt", .columns = write_columns, .rows = write_rows, .wanted = model_on
};

/* The module's figures (module.h): this rank's modelled times, and the
 * job's largest real and modelled elapsed times (collective). */
void prof_model_figures(struct prof_report_ctx *ctx, struct prof_rank_data *rd, uint64_t t_end)
{
    prof_model_reply_finish(prof_run.comm);
    prof_model_locks(0);
    prof_model_finish(t_end, &rd->model_elapsed, &rd->model_mpi, &rd->model_compute);
    for (int f = 0; f < PROF_FN_COUNT; f++)
        rd->model_fn[f] = prof_model_fn_time(f);
    prof_model_transfers(&rd->model_node, &rd->model_net);
    rd->model_link = prof_model_link_end();
    ctx->model_net = prof_model.net;
    double mine[2] = { rd->elapsed_ticks * rd->sec_per_tick, rd->model_elapsed }, all[2] = { 0, 0 };
    PMPI_Allreduce(mine, all, 2, MPI_DOUBLE, MPI_MAX, prof_run.comm);
    ctx->model = 1;
    ctx->real_max = all[0];
    ctx->model_max = all[1];
    prof_model_text(ctx->model_text, sizeof ctx->model_text);
}
