/* log.c: diagnostics, one line each, on stderr (cold). */
#include <stdarg.h>
#include <stdio.h>
#include "log.h"

static int world_rank = -1;

void prof_log_set_rank(int rank)
{
    world_rank = rank;
}

void prof_log_once(const char *fmt, ...)
{
    va_list ap;
    if (world_rank != 0)
        return;
    va_start(ap, fmt);
    fputs("mpiprof: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

void prof_log_local(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "mpiprof: rank %d: ", world_rank);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}
