/* files.c: benchmark files that must not be left behind (files.h). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "files.h"

#define MAX_FILES 8
#define NAME_MAX_LEN 4096

static char kept[MAX_FILES][NAME_MAX_LEN];
static char about[NAME_MAX_LEN];
static const char *prog_name = "benchmark";

static void remove_all(void)
{
    for (int i = 0; i < MAX_FILES; i++)
        if (kept[i][0])
            unlink(kept[i]);
}

static void on_signal(int sig)
{
    remove_all();
    signal(sig, SIG_DFL);
    raise(sig);
}

void bench_files_guard(const char *prog)
{
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGABRT, SIGSEGV, SIGBUS };
    static int done;
    prog_name = prog;
    if (done++)
        return;
    atexit(remove_all);
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        signal(sigs[i], on_signal);
}

void bench_files_keep(const char *name)
{
    for (int i = 0; i < MAX_FILES; i++)
        if (!kept[i][0]) {
            snprintf(kept[i], sizeof kept[i], "%s", name);
            return;
        }
}

void bench_files_drop(const char *name)
{
    for (int i = 0; i < MAX_FILES; i++)
        if (strcmp(kept[i], name) == 0)
            kept[i][0] = '\0';
}

void bench_files_about(const char *name)
{
    snprintf(about, sizeof about, "%s", name);
}

void bench_files_fail(int code)
{
    char why[MPI_MAX_ERROR_STRING];
    int len;
    MPI_Error_string(code, why, &len);
    fprintf(stderr, "%s: MPI-IO failed on '%s': %s\n", prog_name, about[0] ? about : "(no file)", why);
    remove_all();
    MPI_Abort(MPI_COMM_WORLD, 1);
}

static void on_file_error(MPI_File *fh, int *code, ...)
{
    (void)fh;
    bench_files_fail(*code);
}

void bench_files_watch(MPI_File fh)
{
    static MPI_Errhandler eh = MPI_ERRHANDLER_NULL;    /* one for the run, never freed */
    if (eh == MPI_ERRHANDLER_NULL)
        MPI_File_create_errhandler(on_file_error, &eh);
    MPI_File_set_errhandler(fh, eh);
}
