/* report.h: what the report writers get, and the writers (cold: finalize).
 * Data flows: finalize.c fills a prof_rank_data per rank and a shared
 * prof_report_ctx; each writer formats one file's rows for one rank into a
 * text buffer; gather.c brings the buffers to rank 0 one rank at a time;
 * report.c owns the directory and the files. Writers make no MPI call. */
#ifndef PROF_REPORT_H
#define PROF_REPORT_H

#include <stdint.h>
#include "buf.h"
#include "fn_table.h"
#include "record.h"
#include "branch.h"
#include "sites.h"
#include "sizes.h"
#include "region.h"
#include <mpi.h>

/* One thread's figures per function. */
/* prof_compute_ticks: rd's time between MPI calls (the program's
 * compute): elapsed less MPI and the profiler's own time. */
#define prof_compute_ticks(rd) ((double)(rd)->elapsed_ticks - (double)(rd)->mpi_ticks - (double)(rd)->profiler_ticks)

struct prof_thread_data {
    int index;                         /* 0 = the first thread of the rank to call MPI;
                                          PROF_THREAD_EXITED (thread.h): the exited ones */
    struct prof_stats fn[PROF_FN_COUNT];
};

/* The summary form (MPIPROF_REPORT_FORM, config.h): a figure over the
 * ranks, on rank 0 (spread.c): its sum, and its least and most with the
 * lowest rank of each; for an MPI function, over the ranks that called it. */
struct prof_spread {
    int ranks;
    double sum, min, max;
    int min_rank, max_rank;
};

/* An MPI function over the ranks that called it: calls and bytes summed,
 * its time spread. */
struct prof_fn_spread {
    int fn;
    uint64_t calls, bytes_sent, bytes_recv;
    struct prof_spread time;
};

/* summary.txt's figures: its columns after rank (base, then the
 * analyses'), at most this many. */
#define PROF_FIGURES_MAX 16

/* One rank's figures, merged over its threads and call sites. */
struct prof_rank_data {
    int rank;
    double sec_per_tick;
    uint64_t elapsed_ticks;            /* MPI_Init to MPI_Finalize */
    uint64_t mpi_ticks;                /* inside profiled MPI calls */
    uint64_t profiler_ticks;           /* the profiler's own work in them, outside their time (thread.h) */
    uint64_t overflow_calls;           /* calls whose site found the table full */
    struct prof_stats fn[PROF_FN_COUNT];
    struct prof_sizes *sizes[PROF_FN_COUNT]; /* message-size histograms (sizes.h), NULL if none */
    const struct prof_branch *branches; /* call sites, largest time first */
    int nbranches;
    const struct prof_site *sites;     /* rank 0: every rank's call sites combined (sites.c) */
    int nsites;
    const struct prof_thread_data *threads; /* by index, the exited last */
    int nthreads;
    double model_elapsed, model_mpi, model_compute; /* the model (model.h), seconds, */
    double model_node, model_net;      /* its transfers priced inside a node and between nodes, */
    double model_link;                 /* how far its node's link moved its messages on, */
    double model_fn[PROF_FN_COUNT];    /* and per function */
    int nregions;                      /* MPI_Pcontrol regions (region.h), node ids 1..nregions: */
    const struct prof_region_node *region_nodes; /* [id]: the region (entries, time open, parent) */
    const struct prof_stats *region_fn; /* [(id - 1) * PROF_FN_COUNT + fn]: calls that ended in the region */
    const struct prof_spread *figures;  /* rank 0, summary form: summary.txt's figures over the ranks, */
    const struct prof_fn_spread *fns;   /* the functions called on any rank (ctx->cols' order) */
    int nfns;
};

/* What every rank agrees on. */
struct prof_report_ctx {
    int nranks;
    int summary;                       /* the summary form (MPIPROF_REPORT_FORM): figures over the ranks */
    char first_line[8192];             /* "# mpiprof VERSION command=... ranks=... start=... options=..." */
    char notes[2048];                  /* "# note: ..." lines, or empty */
    int threaded;                      /* some rank had more than one thread calling MPI */
    int collwait;                      /* collective wait was on (collwait.h) */
    int slt;                           /* late sender was on (slt.h) */
    int model;                         /* a model was on (model.h): */
    int model_net;                     /* with a network between nodes */
    char model_text[512];              /* the model spelt out */
    double real_max, model_max;        /* the largest real and modelled elapsed of any rank */
    int regions;                       /* some rank opened an MPI_Pcontrol region */
    int ncols;                         /* matrix columns: functions used on any rank, */
    int cols[PROF_FN_COUNT];           /* by total time over all ranks, largest first */
};

/* A report file: its name, its column line (names, nnames of them; or,
 * when it depends on the run, columns), its rows for one rank, and
 * whether this run has one (NULL: always); merged: its rows are rank 0's,
 * over every rank, and it is in the summary form too. */
struct prof_writer {
    const char *file;
    const char *const *names;
    int nnames;
    void (*columns)(struct prof_buf *b, const struct prof_report_ctx *ctx);
    void (*rows)(struct prof_buf *b, const struct prof_report_ctx *ctx, const struct prof_rank_data *rd);
    int (*wanted)(const struct prof_report_ctx *ctx);
    int merged;
};

extern const struct prof_writer prof_report_summary;
extern const struct prof_writer prof_report_functions;
extern const struct prof_writer prof_report_matrix_time;
extern const struct prof_writer prof_report_matrix_calls;
extern const struct prof_writer prof_report_matrix_bytes;
extern const struct prof_writer prof_report_branches;
extern const struct prof_writer prof_report_branches_human;
extern const struct prof_writer prof_report_partners;
extern const struct prof_writer prof_report_threads;
extern const struct prof_writer prof_report_sites;
extern const struct prof_writer prof_report_sizes;
extern const struct prof_writer prof_report_regions;
extern const struct prof_writer prof_report_region_functions;
extern const struct prof_writer prof_report_region_branches;
extern const struct prof_writer prof_report_summary_spread;   /* the summary form's summary.txt */
extern const struct prof_writer prof_report_functions_spread; /* and functions.txt */

/* Column lists: header lines, rows and mpiprof-report(5) follow them. */
#define PROF_SUMMARY_COLUMNS(X) X(rank) X(elapsed_s) X(mpi_s) X(mpi_pct) X(compute_s) X(mpi_calls) X(profiler_s)
#define PROF_SUMMARY_SLT_COLUMNS(X) X(send_late_s) X(slt_eval_pct)
#define PROF_SUMMARY_COLLWAIT_COLUMNS(X) X(coll_wait_s)
#define PROF_SUMMARY_MODEL_COLUMNS(X) X(model_elapsed_s)
#define PROF_SUMMARY_NET_COLUMNS(X) X(model_node_s) X(model_net_s) X(model_link_s)
#define PROF_SPREAD_COLUMNS(X) X(figure) X(ranks) X(total) X(min) X(min_rank) X(mean) X(max) X(max_rank)
#define PROF_FUNCTIONS_SPREAD_COLUMNS(X) \
    X(function) X(ranks) X(calls) X(time_s) X(min_s) X(min_rank) X(mean_s) X(max_s) X(max_rank) \
    X(bytes_sent) X(bytes_recv)
#define PROF_MODEL_COLUMNS(X) X(rank) X(what) X(calls) X(real_s) X(model_s)
#define PROF_FUNCTIONS_COLUMNS(X) \
    X(rank) X(function) X(calls) X(time_s) X(min_s) X(max_s) X(bytes_sent) X(bytes_recv)
#define PROF_BRANCHES_COLUMNS(X) \
    X(rank) X(brid) X(function) X(calls) X(time_s) X(self_pct) X(tot_pct) X(sends) X(recvs) \
    X(avg_send) X(avg_recv) X(bytes_sent) X(bytes_recv) X(recv_wait_s) X(site) X(ancestors)
#define PROF_REGIONS_COLUMNS(X) X(rank) X(region) X(entries) X(elapsed_s) X(mpi_s) X(mpi_pct) X(calls)
#define PROF_SIZES_COLUMNS(X) X(rank) X(function) X(bin_lo) X(bin_hi) X(calls) X(bytes) X(time_s)
#define PROF_THREADS_COLUMNS(X) \
    X(rank) X(thread) X(function) X(calls) X(time_s) X(bytes_sent) X(bytes_recv)
#define PROF_SITES_COLUMNS(X) \
    X(brid) X(function) X(ranks) X(calls) X(time_s) X(min_s) X(min_rank) X(mean_s) X(max_s) X(max_rank) \
    X(bytes_sent) X(bytes_recv) X(site) X(ancestors)
#define PROF_SLT_COLUMNS(X) \
    X(rank) X(brid) X(function) X(evaluated) X(not_evaluated) X(recv_wait_s) X(send_late_s) X(transfer_s)
#define PROF_COLLWAIT_COLUMNS(X) \
    X(rank) X(brid) X(function) X(calls) X(evaluated) X(time_s) X(wait_s) X(synced_s)
#define PROF_PARTNERS_COLUMNS(X) \
    X(rank) X(brid) X(function) X(partner) X(partner_brid) X(count) X(bytes) X(time_pct)
#define PROF_RMA_COLUMNS(X) X(rank) X(win) X(target) X(kind) X(calls) X(bytes) X(time_s) X(site)
#define PROF_IO_COLUMNS(X) X(rank) X(file) X(procs) X(what) X(calls) X(bytes) X(time_s) X(MB_s) X(name)
#define PROF_WAITS_COLUMNS(X) \
    X(class) X(caused_s) X(waits) X(ranks) X(rank) X(from_brid) X(to_brid) X(waited_at) X(from_site) X(to_site)
#define PROF_PARTNERS_SLT_COLUMNS(X) X(recv_wait_s) X(send_late_s) X(transfer_s) X(late_pct)

/* prof_report_column_line: "# a b c\n" from a column list. */
void prof_report_column_line(struct prof_buf *b, const char *const *names, int n);

/* PROF_COLUMNS_OF: a writer's names and nnames from an array of names. */
#define PROF_COLUMNS_OF(a) .names = (a), .nnames = (int)(sizeof(a) / sizeof(a)[0])

/* prof_report_columns: writer w's column line. */
void prof_report_columns(struct prof_buf *b, const struct prof_report_ctx *ctx, const struct prof_writer *w);

/* prof_report_model_line: with a model, "# model: MODEL real_elapsed_s=...
 * model_elapsed_s=... predicted_speedup=...\n" (model.txt's, and the
 * summary form's summary.txt's); nothing without one. */
void prof_report_model_line(struct prof_buf *b, const struct prof_report_ctx *ctx);

/* prof_report_word: s as one field: backslash, whitespace and control
 * characters as \xHH. */
void prof_report_word(struct prof_buf *b, const char *s);

/* prof_report_fn_order: the functions called in fn (a rank's or a
 * region's figures per function), largest time first (then by function),
 * into order; returns how many. */
int prof_report_fn_order(const struct prof_stats *fn, int order[PROF_FN_COUNT]);

/* prof_report_region: the region column's word for node id (0: "whole"). */
void prof_report_region(struct prof_buf *b, uint32_t id);

/* prof_report_row_end: the end of a row of functions.txt or branches.txt
 * (region 0: the whole run) or of region_functions.txt or
 * region_branches.txt (" region\n"). */
void prof_report_row_end(struct prof_buf *b, uint32_t region);

/* prof_report_figures: summary.txt's figures of rd after its rank column,
 * the analyses' as ctx has them, in column order: names into name and
 * values into v; returns how many (at most PROF_FIGURES_MAX). */
int prof_report_figures(const struct prof_report_ctx *ctx, const struct prof_rank_data *rd, const char **name,
                        double *v);

/* prof_report_decimals: how a figure named name is written: seconds (_s)
 * with 9 decimals, percentages (_pct) with 2, counts with none. */
int prof_report_decimals(const char *name);

/* With MPI_Pcontrol regions, their files. */
int prof_report_has_regions(const struct prof_report_ctx *ctx);

/* The phases of MPI_Finalize on this rank, for the message naming the
 * report: when it began (CLOCK_MONOTONIC ns) and each phase's time (ns).
 * finalize.c fills merge (threads, call sites, ids) and symbolize (naming
 * call sites); prof_report_write adds how the rows were written, the
 * MPI-IO opens, gather (other ranks' rows to rank 0, or every rank's
 * written with MPI-IO) and write (directory, formatting, files). */
struct prof_finalize_times {
    uint64_t t_begin;
    uint64_t merge_ns, symbolize_ns, open_ns, gather_ns, write_ns;
    /* MPIIO_FAILED: then pulled; SUMMARY: the summary form, gather_ns its reductions (spread.c) */
    enum { PROF_WROTE_PULL, PROF_WROTE_MPIIO, PROF_WROTE_MPIIO_FAILED, PROF_WROTE_SUMMARY } how;
};

/* prof_merge_threads: sum every call site and overflow record of the
 * threads on the list threads (thread.h) per function, per thread
 * (threads.txt; the exited threads are one), for the rank and per
 * MPI_Pcontrol region (rd->nregions of them, rd->region_nodes set) into rd
 * (finalize.c; local). */
struct prof_thread;
void prof_merge_threads(struct prof_rank_data *rd, struct prof_thread *threads);

/* prof_report_first_line: ctx->first_line, from the run's facts (local). */
void prof_report_first_line(struct prof_report_ctx *ctx);

/* prof_report_base: the report directory asked for (MPIPROF_OUTPUT, else
 * mpiprof.APP.NPp), without trailing slashes; on rank 0, once
 * prof_report_probe or prof_report_write found it cannot be made, the
 * fallback instead. */
void prof_report_base(char *out, size_t size);

/* prof_report_make_dir: create a new directory base, base.1, base.2, ...
 * (and base's parents); its name in out. Trailing slashes are not part of
 * the name ("out/" is "out"). 0, or -1 with errno set. */
int prof_report_make_dir(const char *base, char *out, size_t outsz);

/* prof_report_probe: rank 0, at MPI_Init: create the parent directories of
 * the report and check that the directory can be made there; when not,
 * choose the fallback (mpiprof.APP.NPp in the working directory, else in
 * $TMPDIR or /tmp) and say so at once: 0. -1 when no place can be made
 * (said; the run goes on). prof_report_write tries the fallback too. */
int prof_report_probe(void);

/* prof_report_summary_form: collective over the tool's communicator.
 * Whether the report has the summary form: from MPIPROF_REPORT_FORM's
 * number of ranks on (auto when the ranks disagree, said once). */
int prof_report_summary_form(int nranks);

/* prof_report_write: collective over comm (the tool's communicator). Rank 0
 * creates a new directory from base (base, else base.1, base.2, ...: an
 * existing report is never touched); every rank writes its rows with
 * MPI-IO (MPIPROF_REPORT_WRITE, config.h), or rank 0 writes every file and
 * all ranks send it their rows (also when MPI-IO fails, said in the files'
 * notes); in the summary form (ctx->summary), rank 0 writes its rows
 * alone. On failure rank 0 says why, once, and the application goes on.
 * times: the phases so far; the message naming the directory gives them
 * all. Returns 0 when the report was written. */
int prof_report_write(MPI_Comm comm, const struct prof_report_ctx *ctx,
                      const struct prof_rank_data *rd, const char *base, struct prof_finalize_times *times);

#endif
