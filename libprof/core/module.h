/* module.h: an analysis module as the run sees it (cold): its switch, its
 * start and finish, the events it takes (events.h) and its report file.
 * The one list of modules is prof_modules[] (modules.c); init.c,
 * finalize.c and report.c walk it and never name a module, and the core
 * reaches a module only through the event arrays built from it.
 *
 * A module with an option is off unless its variable MPIPROF_<option> is
 * yes (1, yes, on, true) on every rank; config.c parses it like the other
 * options, and mpiprof(1) must name it (tests/check-docs.sh). A module
 * without one (option NULL) is always on. */
#ifndef PROF_MODULE_H
#define PROF_MODULE_H

#include <stdbool.h>
#include <stdint.h>
#include <mpi.h>
#include "around.h"
#include "events.h"

struct prof_writer;
struct prof_branch;
struct prof_report_ctx;
struct prof_rank_data;

#define PROF_MODULE_HANDLER(type, name) type name;

struct prof_module {
    const char *name;                   /* in messages */
    const char *option;                 /* its switch: MPIPROF_<option>; NULL: always on */
    /* At MPI_Init, after the ranks agreed that it is on (before the
     * program's first profiled call; prof_fn_on is set): 0, or -1 to stay
     * off (it says why). It runs on every rank, in the table's order, so
     * it may be collective over the tool's communicator (prof_run.comm). */
    int (*start)(void);
    /* Then, once every module started: t, the profiler's clock at which the
     * run's times start (prof_run.t_init). */
    void (*begin)(uint64_t t);
    /* At MPI_Finalize, on every rank where it started, before the report
     * is written: no more events come. */
    void (*finish)(void);
    /* The events it takes (events.h; NULL: not that one). */
    PROF_EVENTS(PROF_MODULE_HANDLER)
    /* At MPI_Finalize, once the call sites are merged into branches
     * (branch.h): whether its figures name the record key, so that the
     * branches keep the keys merged into them; and, once they are numbered,
     * the branches (their ids and texts for its rows). */
    int (*keeps_key)(uint64_t key);
    void (*named)(struct prof_branch *v, int n);
    /* At MPI_Finalize, after named, collective over comm (the tool's) on
     * every rank: agree with the other ranks (ids, totals); 1 when its file
     * is to be written (some rank has rows), 0 when not. NULL: written. */
    int (*agree)(MPI_Comm comm);
    /* The report (report.h): columns, its flag in the context that adds its
     * columns to summary.txt and branches.txt (in snapshots too: on one
     * rank, at any time); figures, at MPI_Finalize after finish and before
     * named, collective over the tool's communicator on every rank (where
     * it started on one rank it started on all: its start is agreed): this
     * rank's figures in rd, the job's in ctx, and its notes (appended to
     * ctx->notes). */
    void (*columns)(struct prof_report_ctx *ctx);
    void (*figures)(struct prof_report_ctx *ctx, struct prof_rank_data *rd, uint64_t t_end);
    /* The calls it makes in the program's place (around.h; NULL: none; at
     * most one module has them). */
    const struct prof_around *around;
    const struct prof_writer *writer;   /* its report file (NULL: none; its wanted step, if any, says
                                           whether this run has it), */
    int in_snapshots;                   /* in snapshots too (snapshot.c) */
};

extern const struct prof_module *const prof_modules[];   /* NULL-terminated */

/* prof_modules_asked: whether MPIPROF_<option> of module m said yes on this
 * rank (config.c sets it). */
extern bool prof_module_asked[PROF_MODULES_MAX];

/* prof_modules_start: with on[m] the ranks' agreement for module m, start
 * those that are on and fill prof_events with their handlers. Once, at
 * MPI_Init. */
void prof_modules_start(const int *on);

/* prof_modules_begin_run: the run's times start at t (begin of the started
 * modules). Once, at MPI_Init, right after prof_modules_start. */
void prof_modules_begin_run(uint64_t t);

/* prof_modules_finish: finish the started modules and empty prof_events. */
void prof_modules_finish(void);

/* prof_modules_columns, prof_modules_figures: the started modules' report
 * steps (columns and figures above; figures is collective). */
void prof_modules_columns(struct prof_report_ctx *ctx);
void prof_modules_figures(struct prof_report_ctx *ctx, struct prof_rank_data *rd, uint64_t t_end);

/* prof_module_on: whether module m started on this rank (snapshot.c: its
 * file in snapshots). */
bool prof_module_on(int m);

/* At MPI_Finalize: prof_modules_keep_key, whether a module that started
 * keeps key (branch.c); prof_modules_named, the numbered branches to the
 * modules; prof_modules_agree (collective over comm), each module's
 * agreement; then prof_module_written(m), whether module m's file is
 * written. */
bool prof_modules_keep_key(uint64_t key);
void prof_modules_named(struct prof_branch *v, int n);
void prof_modules_agree(MPI_Comm comm);
bool prof_module_written(int m);

#endif
