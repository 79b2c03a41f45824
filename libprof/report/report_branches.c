/* report_branches.c: branches.txt (one line per rank and call site),
 * region_branches.txt (the same per MPI_Pcontrol region), partners.txt (one line per call site and partner rank) and
 * branches.human (MPInside-style blocks); sites largest time first (cold). */
#include <stdio.h>
#include <stdlib.h>
#include "report.h"

#define NAME(c) #c,
static const char *const columns[] = { PROF_BRANCHES_COLUMNS(NAME) "region" };
#define NCOLUMNS ((int)(sizeof columns / sizeof columns[0]))
static const char *const partner_columns[] = { PROF_PARTNERS_COLUMNS(NAME) };

static double avg(uint64_t bytes, uint64_t n)
{
    return n ? (double)bytes / (double)n : 0.0;
}

static double pct(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* A branch's partners, most time first (then most messages, lowest rank);
 * the others bucket last. Returns how many. */
static int by_share(const void *a, const void *b)
{
    const struct prof_partner *x = a, *y = b;
    if ((x->rank < 0) != (y->rank < 0))
        return x->rank < 0 ? 1 : -1;
    if (x->ticks != y->ticks)
        return x->ticks < y->ticks ? 1 : -1;
    if (x->count != y->count)
        return x->count < y->count ? 1 : -1;
    return x->rank - y->rank;
}

static int sorted_partners(const struct prof_branch *br, struct prof_partner *out)
{
    int n = 0;
    for (int i = 0; i <= PROF_PARTNERS; i++)
        if (prof_partner_used(&br->partners.p[i]))
            out[n++] = br->partners.p[i];
    qsort(out, (size_t)n, sizeof *out, by_share);
    return n;
}

/* One row: the branch's figures s, in region (0: the whole run, no
 * region column); cum: the branches' cumulative time down to this one. */
static void branch_row(struct prof_buf *b, const struct prof_rank_data *rd, const struct prof_branch *br,
                       const struct prof_stats *s, uint64_t cum, uint32_t region)
{
    prof_buf_printf(b, "%d %d %s %llu %.9f %.2f %.2f %llu %llu %.0f %.0f %llu %llu %.9f %s %s", rd->rank, br->id,
                    prof_fn_name[br->fn], (unsigned long long)s->calls, s->ticks * rd->sec_per_tick,
                    pct(s->ticks, rd->mpi_ticks), pct(cum, rd->mpi_ticks),
                    (unsigned long long)s->msgs_sent, (unsigned long long)s->msgs_recv,
                    avg(s->bytes_sent, s->msgs_sent), avg(s->bytes_recv, s->msgs_recv),
                    (unsigned long long)s->bytes_sent, (unsigned long long)s->bytes_recv,
                    s->recv_wait_ticks * rd->sec_per_tick, br->site, br->ancestors);
    prof_report_row_end(b, region);
}

/* Each branch's row of the whole run (regions 0), or its rows per
 * MPI_Pcontrol region (regions 1: these repeat the whole row's tot_pct). */
static void rows_of(struct prof_buf *b, const struct prof_rank_data *rd, int regions)
{
    uint64_t cum = 0;
    for (int i = 0; i < rd->nbranches; i++) {
        const struct prof_branch *br = &rd->branches[i];
        cum += br->s.ticks;
        if (!regions)
            branch_row(b, rd, br, &br->s, cum, 0);
        for (int k = 0; regions && k < br->nregions; k++)
            branch_row(b, rd, br, &br->regions[k].s, cum, br->regions[k].region);
    }
}

static void write_rows(struct prof_buf *b, const struct prof_report_ctx *ctx, const struct prof_rank_data *rd)
{
    (void)ctx;
    rows_of(b, rd, 0);
}

static void region_rows(struct prof_buf *b, const struct prof_report_ctx *ctx, const struct prof_rank_data *rd)
{
    (void)ctx;
    rows_of(b, rd, 1);
}

const struct prof_writer prof_report_branches = {
    .file = "branches.txt", .names = columns, .nnames = NCOLUMNS - 1, .rows = write_rows
};
const struct prof_writer prof_report_region_branches = {
    .file = "region_branches.txt", .names = columns, .nnames = NCOLUMNS, .rows = region_rows,
    .wanted = prof_report_has_regions
};

/* With late sender, partners.txt gets the send-late columns. */
static void partners_columns(struct prof_buf *b, const struct prof_report_ctx *ctx)
{
    const char *names[] = { PROF_PARTNERS_COLUMNS(NAME) PROF_PARTNERS_SLT_COLUMNS(NAME) };
    int n = (int)(sizeof partner_columns / sizeof partner_columns[0]);
    prof_report_column_line(b, names, ctx->slt ? (int)(sizeof names / sizeof names[0]) : n);
}

/* "3" or "others"; "#12" or "#-" (the partner's branch, when known). */
static const char *who(const struct prof_partner *p, char *out, size_t size)
{
    snprintf(out, size, p->rank < 0 ? "others" : "%d", p->rank);
    return out;
}

static const char *which(const struct prof_partner *p, char *out, size_t size)
{
    snprintf(out, size, p->brid > 0 ? "%d" : "-", p->brid);
    return out;
}

static void partners_rows(struct prof_buf *b, const struct prof_report_ctx *ctx, const struct prof_rank_data *rd)
{
    struct prof_partner ps[PROF_PARTNERS + 1];
    for (int i = 0; i < rd->nbranches; i++) {
        const struct prof_branch *br = &rd->branches[i];
        int n = sorted_partners(br, ps);
        for (int k = 0; k < n; k++) {
            char rank[16], brid[16];
            prof_buf_printf(b, "%d %d %s %s %s %llu %llu %.2f", rd->rank, br->id, prof_fn_name[br->fn],
                            who(&ps[k], rank, sizeof rank), which(&ps[k], brid, sizeof brid),
                            (unsigned long long)ps[k].count, (unsigned long long)ps[k].bytes,
                            pct(ps[k].ticks, br->s.ticks));
            if (ctx->slt) {
                const struct prof_partner *p = &ps[k];
                uint64_t xfer = p->wait_ticks > p->late_ticks ? p->wait_ticks - p->late_ticks : 0;
                prof_buf_printf(b, " %.9f %.9f %.9f %.2f", p->wait_ticks * rd->sec_per_tick,
                                p->late_ticks * rd->sec_per_tick, xfer * rd->sec_per_tick,
                                pct(p->late_ticks, p->wait_ticks));
            }
            prof_buf_printf(b, "\n");
        }
    }
}

const struct prof_writer prof_report_partners = { .file = "partners.txt", .columns = partners_columns, .rows = partners_rows };

static void human_columns(struct prof_buf *b, const struct prof_report_ctx *ctx)
{
    if (ctx->slt)
        prof_buf_printf(b, "# blocks per rank: function line (W_miss%%: send-late share of the receive wait), "
                           "Site:, Ancestors: (callers, outermost last), Partners: rank:#branch:time%%:sendlate%% "
                           "(#- = partner branch not known)\n");
    else
        prof_buf_printf(b, "# blocks per rank: function line, Site:, Ancestors: (callers, outermost last), "
                           "Partners: rank:#branch:time%% (#- = partner branch not known)\n");
}

static void human_rows(struct prof_buf *b, const struct prof_report_ctx *ctx, const struct prof_rank_data *rd)
{
    uint64_t cum = 0;
    prof_buf_printf(b, "\nmpiprof report rank %d\n", rd->rank);
    for (int i = 0; i < rd->nbranches; i++) {
        const struct prof_branch *br = &rd->branches[i];
        cum += br->s.ticks;
        prof_buf_printf(b, "\n%-20s %6s %12s %6s %6s %8s %8s %9s %9s", "MPI_FUNCTION", "Brid", "Time(s)",
                        "Self%", "Tot%", "#reqs_S", "#reqs_R", "avr_szS", "avr_szR");
        if (ctx->slt)
            prof_buf_printf(b, " %8s", "W_miss%");
        prof_buf_printf(b, " %12s\n", "Rcv_W(s)");
        char brid[16];
        snprintf(brid, sizeof brid, "#%d", br->id);
        prof_buf_printf(b, "%-20s %6s %12.6f %6.2f %6.1f %8llu %8llu %9.0f %9.0f", prof_fn_name[br->fn],
                        brid, br->s.ticks * rd->sec_per_tick, pct(br->s.ticks, rd->mpi_ticks),
                        pct(cum, rd->mpi_ticks), (unsigned long long)br->s.msgs_sent,
                        (unsigned long long)br->s.msgs_recv, avg(br->s.bytes_sent, br->s.msgs_sent),
                        avg(br->s.bytes_recv, br->s.msgs_recv));
        if (ctx->slt)
            prof_buf_printf(b, " %8.2f", pct(br->s.late_ticks, br->s.slt_wait_ticks));
        prof_buf_printf(b, " %12.6f\n", br->s.recv_wait_ticks * rd->sec_per_tick);
        prof_buf_printf(b, "Site: %s\nAncestors: %s\n", br->site, br->names[0] ? br->names : "-");
        struct prof_partner ps[PROF_PARTNERS + 1];
        int n = sorted_partners(br, ps);
        if (n) {
            prof_buf_printf(b, "Partners:");
            for (int k = 0; k < n; k++) {
                char rank[16], id[16];
                prof_buf_printf(b, " %s:#%s:%.2f", who(&ps[k], rank, sizeof rank), which(&ps[k], id, sizeof id),
                                pct(ps[k].ticks, br->s.ticks));
                if (ctx->slt)
                    prof_buf_printf(b, ":%.2f", pct(ps[k].late_ticks, ps[k].wait_ticks));
            }
            prof_buf_printf(b, "\n");
        }
    }
}

const struct prof_writer prof_report_branches_human = { .file = "branches.human", .columns = human_columns, .rows = human_rows };
