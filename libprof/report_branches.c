/* report_branches.c: branches.txt (one line per rank and call site) and
 * branches.human (MPInside-style blocks), largest time first (cold). */
#include <stdio.h>
#include "report.h"

#define NAME(c) #c,
static const char *const columns[] = { PROF_BRANCHES_COLUMNS(NAME) };

static void write_columns(struct prof_buf *b, const struct prof_report_ctx *ctx)
{
    (void)ctx;
    prof_report_column_line(b, columns, sizeof columns / sizeof columns[0]);
}

static double avg(uint64_t bytes, uint64_t n)
{
    return n ? (double)bytes / (double)n : 0.0;
}

static double pct(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void write_rows(struct prof_buf *b, const struct prof_report_ctx *ctx, const struct prof_rank_data *rd)
{
    (void)ctx;
    uint64_t cum = 0;
    for (int i = 0; i < rd->nbranches; i++) {
        const struct prof_branch *br = &rd->branches[i];
        cum += br->s.ticks;
        prof_buf_printf(b, "%d %d %s %llu %.9f %.2f %.2f %llu %llu %.0f %.0f %s %s\n", rd->rank, br->id,
                        prof_fn_name[br->fn], (unsigned long long)br->s.calls, br->s.ticks * rd->sec_per_tick,
                        pct(br->s.ticks, rd->mpi_ticks), pct(cum, rd->mpi_ticks),
                        (unsigned long long)br->s.msgs_sent, (unsigned long long)br->s.msgs_recv,
                        avg(br->s.bytes_sent, br->s.msgs_sent), avg(br->s.bytes_recv, br->s.msgs_recv),
                        br->site, br->ancestors);
    }
}

const struct prof_writer prof_report_branches = { "branches.txt", write_columns, write_rows };

static void human_columns(struct prof_buf *b, const struct prof_report_ctx *ctx)
{
    (void)ctx;
    prof_buf_printf(b, "# blocks per rank: function line, Site:, Ancestors: (callers, outermost last)\n");
}

static void human_rows(struct prof_buf *b, const struct prof_report_ctx *ctx, const struct prof_rank_data *rd)
{
    (void)ctx;
    uint64_t cum = 0;
    prof_buf_printf(b, "\nmpiprof report rank %d\n", rd->rank);
    for (int i = 0; i < rd->nbranches; i++) {
        const struct prof_branch *br = &rd->branches[i];
        cum += br->s.ticks;
        prof_buf_printf(b, "\n%-20s %6s %12s %6s %6s %8s %8s %9s %9s\n", "MPI_FUNCTION", "Brid", "Time(s)",
                        "Self%", "Tot%", "#reqs_S", "#reqs_R", "avr_szS", "avr_szR");
        char brid[16];
        snprintf(brid, sizeof brid, "#%d", br->id);
        prof_buf_printf(b, "%-20s %6s %12.6f %6.2f %6.1f %8llu %8llu %9.0f %9.0f\n", prof_fn_name[br->fn],
                        brid, br->s.ticks * rd->sec_per_tick, pct(br->s.ticks, rd->mpi_ticks),
                        pct(cum, rd->mpi_ticks), (unsigned long long)br->s.msgs_sent,
                        (unsigned long long)br->s.msgs_recv, avg(br->s.bytes_sent, br->s.msgs_sent),
                        avg(br->s.bytes_recv, br->s.msgs_recv));
        prof_buf_printf(b, "Site: %s\nAncestors: %s\n", br->site, br->names[0] ? br->names : "-");
    }
}

const struct prof_writer prof_report_branches_human = { "branches.human", human_columns, human_rows };
