/* init.c: the hand-written MPI_Init, MPI_Init_thread and MPI_Finalize
 * (flag "custom" in wrappers/misc.tbl): start profiling after PMPI_Init,
 * write the report before PMPI_Finalize (or the next tool's, chain.h; cold),
 * after whichmpi.c checked that the program runs the MPI the library was
 * built for. The Fortran ones, in fortran.c, call prof_before_init,
 * prof_start and prof_finish the same way. */
#include <stdio.h>
#include <string.h>
#include "agree.h"
#include "chain.h"
#include "config.h"
#include "fortran.h"
#include "launched.h"
#include "log.h"
#include "module.h"
#include "prof.h"
#include "report.h"
#include "run.h"
#include "snapshot.h"
#include "python.h"
#include "via.h"

struct prof_run prof_run;

/* The command line, from /proc/self/cmdline (argv may be changed by MPI). */
static void read_command(void)
{
    FILE *f = fopen("/proc/self/cmdline", "r");
    size_t n = f ? fread(prof_run.command, 1, sizeof prof_run.command - 1, f) : 0;
    if (f)
        fclose(f);
    prof_run.command[n] = '\0';
    const char *slash = strrchr(prof_run.command, '/');
    const char *app = slash ? slash + 1 : prof_run.command;
    size_t len = strlen(app) < sizeof prof_run.app - 1 ? strlen(app) : sizeof prof_run.app - 1;
    memcpy(prof_run.app, app, len);
    prof_run.app[len] = '\0';
    if (!prof_run.app[0])
        strcpy(prof_run.app, "app");
    for (size_t i = 0; n && i < n - 1; i++)
        if (prof_run.command[i] == '\0')
            prof_run.command[i] = ' ';
}

/* Whether the program called MPI_Finalize is known only once every
 * destructor has run: a library may call MPI_Init in its constructor and
 * MPI_Finalize in its destructor. Ours runs among the others in an order
 * we do not control, and so would a handler from atexit(), which glibc
 * ties to the calling library and runs with its destructors. A handler
 * registered with no library (__cxa_atexit with a NULL handle) while the
 * destructors run is called after the last of them. */
extern int __cxa_atexit(void (*fn)(void *), void *arg, void *dso);

static void check_finalized(void *unused)
{
    (void)unused;
    if (prof_run.finished)
        return;
    if (prof_run.partial_dir[0] && prof_config.partial) {
        prof_partial_write("the program exited without calling MPI_Finalize");
        prof_log_once("the program exited without calling MPI_Finalize; each rank that exited wrote what it had in "
                      "%s (mpiprof-merge %s makes the tables)", prof_run.partial_dir, prof_run.partial_dir);
    } else {
        prof_log_once("the program exited without calling MPI_Finalize; no report written");
    }
}

static void check_initialized(void *unused)
{
    (void)unused;
    if (!prof_run.started)
        prof_launched_exit();
}

__attribute__((destructor)) static void at_unload(void)
{
    if (prof_run.started && !prof_run.finished)
        __cxa_atexit(check_finalized, NULL, NULL);
    else if (!prof_run.started)
        __cxa_atexit(check_initialized, NULL, NULL);
}

/* The analysis modules: each on when every rank asked for it, else off
 * everywhere, and rank 0 says so; then those on start, and the run's
 * times start once they did (their starts, collective, are the
 * profiler's time, as MPI_Init's own is not the program's). */
static void start_modules(void)
{
    double v[PROF_MODULES_MAX];
    bool same[PROF_MODULES_MAX];
    int on[PROF_MODULES_MAX] = { 0 }, n = 0;
    while (n < PROF_MODULES_MAX && prof_modules[n]) {
        v[n] = prof_module_asked[n];
        n++;
    }
    if (prof_agree(v, n, same) < 0)
        return;
    for (int m = 0; m < n; m++) {
        on[m] = same[m] && v[m];
        if (!same[m])
            prof_log_once("MPIPROF_%s is not the same on every rank; %s is off", prof_modules[m]->option,
                          prof_modules[m]->name);
    }
    prof_modules_start(on);
}

void prof_start(int thread_level)
{
    static unsigned char enabled[PROF_FN_COUNT];

    prof_fortran_init();
    PMPI_Comm_rank(MPI_COMM_WORLD, &prof_run.rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &prof_run.size);
    prof_log_set_rank(prof_run.rank);
    prof_config_load(enabled, PROF_FN_COUNT);
    prof_launched_init();
    prof_python_start();
    prof_via_start();
    read_command();
    prof_run.thread_level = thread_level;
    prof_run.start = time(NULL);
    if (PMPI_Comm_dup(MPI_COMM_WORLD, &prof_run.comm) != MPI_SUCCESS) {
        prof_log_local("cannot create the tool's communicator; not profiling");
        return;
    }
    /* The profiler's own calls on it return their errors: a window or file
     * the MPI cannot make there turns off what needs it, never the job. */
    PMPI_Comm_set_errhandler(prof_run.comm, MPI_ERRORS_RETURN);
    if (prof_run.rank == 0)
        prof_run.unwritable = prof_report_probe() != 0;
    if (prof_clock_start(prof_config.clock, prof_config.test_drift) != 0)
        prof_log_local("MPIPROF_CLOCK=tsc: this processor has no invariant TSC; using CLOCK_MONOTONIC");
    prof_partial_start();
    memcpy(prof_fn_on, enabled, sizeof prof_fn_on);
    start_modules();
    prof_run.t_init = prof_clock();
    prof_modules_begin_run(prof_run.t_init);
    prof_run.started = 1;
}

void prof_before_init(void)
{
    prof_whichmpi_check();
    prof_chain_start();
}

PROF_EXPORT int MPI_Init(int *argc, char ***argv)
{
    prof_before_init();
    int rc = PROF_NEXT_CUSTOM(MPI_Init)(argc, argv);
    if (rc == MPI_SUCCESS)
        prof_start(MPI_THREAD_SINGLE);
    return rc;
}

PROF_EXPORT int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    prof_before_init();
    int rc = PROF_NEXT_CUSTOM(MPI_Init_thread)(argc, argv, required, provided);
    if (rc == MPI_SUCCESS)
        prof_start(*provided);
    return rc;
}

/* MPI_Abort (flag custom): what this rank has, before the library ends the
 * job (the other ranks are killed: they write nothing). Not counted. */
PROF_EXPORT int MPI_Abort(MPI_Comm comm, int errorcode)
{
    prof_partial_abort(errorcode);
    return PROF_NEXT_CUSTOM(MPI_Abort)(comm, errorcode);
}

PROF_EXPORT int MPI_Finalize(void)
{
    if (prof_run.started && !prof_run.finished)
        prof_finish();
    return PROF_NEXT_CUSTOM(MPI_Finalize)();
}
