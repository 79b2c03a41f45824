/* check.c: the launcher's check of its options' values before the job
 * (mpiprof(1), MPIPROF_CHECK). The launcher preloads the library into a
 * process of its own whose environment holds only the MPIPROF_* values its
 * options set, and MPIPROF_CHECK=1: the library reads them as MPI_Init
 * would, says what is wrong on stderr (the lines MPI_Init would print) and
 * ends that process before its program starts, with status 2 when a value
 * was wrong, else 0. Every other process it is loaded into only reads one
 * variable here. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "config.h"
#include "fn_table.h"
#include "log.h"

__attribute__((constructor)) static void launcher_check(void)
{
    const char *v = getenv("MPIPROF_CHECK");
    if (!v || strcmp(v, "1") != 0)
        return;
    static unsigned char enabled[PROF_FN_COUNT];
    prof_log_set_rank(0);
    prof_config_load(enabled, PROF_FN_COUNT);
    _exit(prof_config_problems() ? 2 : 0);
}
