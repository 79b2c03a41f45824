/* spread.h: the summary form's figures over the ranks, by reductions to
 * rank 0 over the tool communicator (cold: finalize). */
#ifndef PROF_SPREAD_H
#define PROF_SPREAD_H

#include <mpi.h>
#include "report.h"

/* prof_spread_reduce: collective over comm. Every figure of summary.txt
 * (prof_report_figures) and the time, calls and bytes of every function
 * of ctx->cols over the ranks, into rd->figures, rd->fns and rd->nfns on
 * rank 0 (static storage, valid until the next call). Rank 0 holds
 * O(functions), whatever the number of ranks. */
void prof_spread_reduce(MPI_Comm comm, const struct prof_report_ctx *ctx, struct prof_rank_data *rd);

#endif
