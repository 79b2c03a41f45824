/* module.h: an analysis module as the run sees it (cold): its switch, its
 * start and finish, the events it takes (events.h) and its report file.
 * The one list of modules is prof_modules[] (modules.c); init.c,
 * finalize.c and report.c walk it and never name a module, and the core
 * reaches a module only through the event arrays built from it.
 *
 * A module is off unless its variable MPIPROF_<option> is yes (1, yes,
 * on, true) on every rank; config.c parses it like the other options,
 * and mpiprof(1) must name it (tests/check-docs.sh). */
#ifndef PROF_MODULE_H
#define PROF_MODULE_H

#include <stdbool.h>
#include <stdint.h>
#include "events.h"

struct prof_writer;

struct prof_module {
    const char *name;                   /* in messages */
    const char *option;                 /* its switch: MPIPROF_<option> */
    /* At MPI_Init, after the ranks agreed that it is on (before the
     * program's first profiled call); 0, or -1 to stay off (it says why). */
    int (*start)(void);
    /* At MPI_Finalize, on every rank where it started, before the report
     * is written: no more events come. */
    void (*finish)(void);
    prof_ev_msg_fn msg_sent;            /* events it takes (NULL: not that one) */
    prof_ev_msg_fn msg_received;
    const struct prof_writer *writer;   /* its report file (NULL: none) */
};

extern const struct prof_module *const prof_modules[];   /* NULL-terminated */

/* prof_modules_asked: whether MPIPROF_<option> of module m said yes on this
 * rank (config.c sets it). */
extern bool prof_module_asked[PROF_MODULES_MAX];

/* prof_modules_start: with on[m] the ranks' agreement for module m, start
 * those that are on and fill prof_events with their handlers. Once, at
 * MPI_Init. */
void prof_modules_start(const int *on);

/* prof_modules_finish: finish the started modules and empty prof_events. */
void prof_modules_finish(void);

/* prof_module_on: whether module m started (report.c: its writer). */
bool prof_module_on(int m);

#endif
