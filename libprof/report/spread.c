/* spread.c: the summary form's figures over the ranks (report.h, struct
 * prof_spread): sums by PMPI_Reduce, the least and most with the lowest
 * rank of each by MINLOC and MAXLOC, to rank 0; a function's over the
 * ranks that called it (cold: finalize). */
#include <float.h>
#include "spread.h"

#define MAXN (PROF_FN_COUNT > PROF_FIGURES_MAX ? PROF_FN_COUNT : PROF_FIGURES_MAX)

struct loc {
    double v;
    int rank;
};

static struct prof_spread figures[PROF_FIGURES_MAX];
static struct prof_fn_spread fns[PROF_FN_COUNT];

/* Values v[0..n) of this rank (have[i] 0: not counted here) spread over
 * the ranks into out on rank 0. */
static void spread(MPI_Comm comm, int rank, const double *v, const int *have, int n, struct prof_spread *out)
{
    static double sum[MAXN], all_sum[MAXN];
    static int count[MAXN], all_count[MAXN];
    static struct loc lo[MAXN], hi[MAXN], all_lo[MAXN], all_hi[MAXN];
    for (int i = 0; i < n; i++) {
        sum[i] = have[i] ? v[i] : 0.0;
        count[i] = have[i] != 0;
        lo[i] = (struct loc){ have[i] ? v[i] : DBL_MAX, rank };
        hi[i] = (struct loc){ have[i] ? v[i] : -DBL_MAX, rank };
    }
    PMPI_Reduce(sum, all_sum, n, MPI_DOUBLE, MPI_SUM, 0, comm);
    PMPI_Reduce(count, all_count, n, MPI_INT, MPI_SUM, 0, comm);
    PMPI_Reduce(lo, all_lo, n, MPI_DOUBLE_INT, MPI_MINLOC, 0, comm);
    PMPI_Reduce(hi, all_hi, n, MPI_DOUBLE_INT, MPI_MAXLOC, 0, comm);
    for (int i = 0; rank == 0 && i < n; i++)
        out[i] = (struct prof_spread){ .ranks = all_count[i], .sum = all_sum[i], .min = all_lo[i].v,
                                       .max = all_hi[i].v, .min_rank = all_lo[i].rank, .max_rank = all_hi[i].rank };
}

void prof_spread_reduce(MPI_Comm comm, const struct prof_report_ctx *ctx, struct prof_rank_data *rd)
{
    const char *names[PROF_FIGURES_MAX];
    static double v[MAXN];
    static int have[MAXN];
    static uint64_t sums[3 * PROF_FN_COUNT], all_sums[3 * PROF_FN_COUNT];
    static struct prof_spread time[PROF_FN_COUNT];
    int rank;
    PMPI_Comm_rank(comm, &rank);

    int n = prof_report_figures(ctx, rd, names, v);
    for (int i = 0; i < n; i++)
        have[i] = 1;
    spread(comm, rank, v, have, n, figures);

    int nf = ctx->ncols;
    for (int i = 0; i < nf; i++) {
        const struct prof_stats *s = &rd->fn[ctx->cols[i]];
        v[i] = s->ticks * rd->sec_per_tick;
        have[i] = s->calls != 0;
        sums[3 * i] = s->calls;
        sums[3 * i + 1] = s->bytes_sent;
        sums[3 * i + 2] = s->bytes_recv;
    }
    spread(comm, rank, v, have, nf, time);
    PMPI_Reduce(sums, all_sums, 3 * nf, MPI_UINT64_T, MPI_SUM, 0, comm);
    for (int i = 0; rank == 0 && i < nf; i++)
        fns[i] = (struct prof_fn_spread){ .fn = ctx->cols[i], .calls = all_sums[3 * i],
                                          .bytes_sent = all_sums[3 * i + 1], .bytes_recv = all_sums[3 * i + 2],
                                          .time = time[i] };
    rd->figures = rank == 0 ? figures : NULL;
    rd->fns = rank == 0 ? fns : NULL;
    rd->nfns = rank == 0 ? nf : 0;
}
