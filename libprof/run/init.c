/* init.c: the hand-written MPI_Init, MPI_Init_thread and MPI_Finalize
 * (flag "custom" in wrappers/misc.tbl): start profiling after PMPI_Init,
 * write the report before PMPI_Finalize (or the next tool's, chain.h; cold). The Fortran ones, in
 * fortran.c, call prof_start and prof_finish the same way. */
#include <stdio.h>
#include <string.h>
#include "chain.h"
#include "config.h"
#include "fortran.h"
#include "log.h"
#include "model.h"
#include "module.h"
#include "prof.h"
#include "report.h"
#include "run.h"
#include "slt.h"
#include "snapshot.h"

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

__attribute__((destructor)) static void at_unload(void)
{
    if (prof_run.started && !prof_run.finished)
        __cxa_atexit(check_finalized, NULL, NULL);
}

/* The model: on when every rank has the same one (its tokens and clock
 * exchanges are communication); else off everywhere, and rank 0 says so. */
static void agree_model(void)
{
    struct prof_model m = { 0, 0, 0, 0 };
    int on = prof_config.model[0] && prof_model_parse(prof_config.model, &m) == 0;
    double v[10] = { on, m.perfect, m.lat, m.bw, m.cpu }, all[10];
    for (int i = 0; i < 5; i++)
        v[5 + i] = -v[i];
    if (PMPI_Allreduce(v, all, 10, MPI_DOUBLE, MPI_MIN, prof_run.comm) != MPI_SUCCESS)
        return;
    for (int i = 0; i < 5; i++)
        if (all[i] != -all[5 + i]) {
            prof_log_once("MPIPROF_MODEL is not the same on every rank; no model");
            return;
        }
    prof_model = m;
    prof_model_on = on;
}

/* Late sender inserts communication: it must be on on every rank, or
 * tokens would go unread. It is on when every rank asked for it; else off
 * everywhere, and rank 0 says why. */
static void agree_options(void)
{
    int v[2] = { prof_config.eval_slt, -prof_config.eval_slt }, all[2];
    if (PMPI_Allreduce(v, all, 2, MPI_INT, MPI_MIN, prof_run.comm) != MPI_SUCCESS)
        return;
    if (all[0] != -all[1])
        prof_log_once("MPIPROF_EVAL_SLT is not the same on every rank; late-sender analysis is off");
    else
        prof_slt_asked = all[0];
    agree_model();
    prof_slt_on = prof_slt_asked || prof_model_on;
}

/* The analysis modules: each on when every rank asked for it, else off
 * everywhere, and rank 0 says so; then those on start. */
static void start_modules(void)
{
    static int v[2 * PROF_MODULES_MAX], all[2 * PROF_MODULES_MAX];
    for (int m = 0; m < PROF_MODULES_MAX; m++) {
        v[m] = prof_module_asked[m];
        v[PROF_MODULES_MAX + m] = -v[m];
    }
    if (PMPI_Allreduce(v, all, 2 * PROF_MODULES_MAX, MPI_INT, MPI_MIN, prof_run.comm) != MPI_SUCCESS)
        return;
    for (int m = 0; prof_modules[m] && m < PROF_MODULES_MAX; m++)
        if (all[m] != -all[PROF_MODULES_MAX + m]) {
            prof_log_once("MPIPROF_%s is not the same on every rank; %s is off", prof_modules[m]->option,
                          prof_modules[m]->name);
            all[m] = 0;
        }
    prof_modules_start(all);
}

void prof_start(int thread_level)
{
    static unsigned char enabled[PROF_FN_COUNT];

    prof_fortran_init();
    PMPI_Comm_rank(MPI_COMM_WORLD, &prof_run.rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &prof_run.size);
    prof_log_set_rank(prof_run.rank);
    prof_config_load(enabled, PROF_FN_COUNT);
    read_command();
    prof_run.thread_level = thread_level;
    prof_run.start = time(NULL);
    if (PMPI_Comm_dup(MPI_COMM_WORLD, &prof_run.comm) != MPI_SUCCESS) {
        prof_log_local("cannot create the tool's communicator; not profiling");
        return;
    }
    agree_options();
    if (prof_run.rank == 0)
        prof_run.unwritable = prof_report_probe() != 0;
    prof_clock_start();
    if (prof_model_on)
        prof_model_start();
    prof_run.t_init = prof_clock();
    prof_partial_start();
    memcpy(prof_fn_on, enabled, sizeof prof_fn_on);
    start_modules();
    prof_run.started = 1;
}

PROF_EXPORT int MPI_Init(int *argc, char ***argv)
{
    prof_chain_start();
    int rc = PROF_NEXT_CUSTOM(MPI_Init)(argc, argv);
    if (rc == MPI_SUCCESS)
        prof_start(MPI_THREAD_SINGLE);
    return rc;
}

PROF_EXPORT int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    prof_chain_start();
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
