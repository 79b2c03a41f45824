/* whichmpi.c: whether the program uses the MPI this library was built for,
 * checked by MPI_Init and MPI_Init_thread (C and Fortran, init.c and
 * fortran.c) before they call into the MPI. A library built for the other
 * MPI hands it handles it cannot read (Open MPI's are pointers, MPICH's
 * integers): MPICH stops with "Invalid communicator", Open MPI crashes.
 * Cold: once, at MPI_Init. */
#define _GNU_SOURCE            /* dl_iterate_phdr, RTLD_NOLOAD */
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "launched.h"
#include "log.h"
#include "run.h"

/* Longer than any MPI's MPI_MAX_LIBRARY_VERSION_STRING (MPICH 8192, Open
 * MPI 256): this library's mpi.h says nothing about the other MPI's. */
#define VERSION_MAX 16384

/* The MPIs told apart: the names their shared library has (the start of
 * the file name), and the compiler wrapper that builds for them (Debian's
 * names, as configure's). */
struct mpi_family {
    const char *name;
    const char *libs[2];
    const char *mpicc;
    const char *launched;  /* a variable its mpirun sets in the processes it starts */
};

static const struct mpi_family families[] = {
    { "Open MPI", { "libmpi.so.40", NULL }, "mpicc.openmpi", "OMPI_COMM_WORLD_RANK" },
    { "MPICH", { "libmpich.so.", "libmpi.so.12" }, "mpicc.mpich", "HYDI_CONTROL_FD" },
};

#ifdef OPEN_MPI
static const struct mpi_family *const built_for = &families[0];
#else
static const struct mpi_family *const built_for = &families[1];
#endif

/* The loaded MPI library of another family than this library's, if any. */
struct other_mpi {
    const struct mpi_family *family;
    char path[4096];
};

static int find_other(struct dl_phdr_info *info, size_t size, void *arg)
{
    struct other_mpi *other = arg;
    const char *slash = strrchr(info->dlpi_name, '/');
    const char *base = slash ? slash + 1 : info->dlpi_name;
    (void)size;
    for (size_t f = 0; f < sizeof families / sizeof families[0]; f++)
        for (size_t i = 0; i < 2 && families[f].libs[i]; i++)
            if (&families[f] != built_for && strncmp(base, families[f].libs[i], strlen(families[f].libs[i])) == 0) {
                other->family = &families[f];
                snprintf(other->path, sizeof other->path, "%s", info->dlpi_name);
                return 1;
            }
    return 0;
}

/* The first version number of that library's MPI_Get_library_version
 * (legal before MPI_Init since MPI-3.0, no handle: safe to call), into
 * number; empty if it cannot be had. */
static void other_version(const char *path, char *number, size_t size)
{
    static char version[VERSION_MAX];
    int len = 0;
    void *lib = dlopen(path, RTLD_LAZY | RTLD_NOLOAD);
    int (*get)(char *, int *) = lib ? (int (*)(char *, int *))dlsym(lib, "PMPI_Get_library_version") : NULL;
    version[0] = '\0';
    if (get)
        get(version, &len);
    version[sizeof version - 1] = '\0';
    if (lib)
        dlclose(lib);
    const char *digits = version + strcspn(version, "0123456789");
    snprintf(number, size, " %.*s", (int)strspn(digits, "0123456789."), digits);
    if (!number[1])
        number[0] = '\0';
}

/* The other MPI is found among the loaded libraries, not by asking the MPI:
 * PMPI_ names resolve to whichever MPI library was loaded first, which is
 * this library's own when the program reaches its MPI through another
 * library (a Fortran program through libmpichfort or libmpi_mpifh, mpi4py
 * through its module). The only check of it: the launcher leaves it to
 * MPI_Init rather than ask the dynamic loader for every rank's libraries
 * (35 to 50 ms a rank on a busy machine, of every job). When this library's MPI's mpirun started
 * the program, the line says which mpirun to use. */
void prof_whichmpi_check(void)
{
    static struct other_mpi other;
    char number[64];
    if (!dl_iterate_phdr(find_other, &other))
        return;
    other_version(other.path, number, sizeof number);
    int rank = prof_launcher_rank();
    prof_log_set_rank(rank < 0 ? 0 : rank);
    const char *under = getenv(built_for->launched) && !getenv(other.family->launched) ? other.family->name : NULL;
    prof_log_once("this mpiprof is built for %s, but the program runs %s%s; use an mpiprof built for %s "
                  "(configure --with-mpicc=%s)%s%s%s; stopped before MPI_Init", built_for->name, other.family->name,
                  number, other.family->name, other.family->mpicc, under ? " under " : "", under ? under : "",
                  under ? "'s mpirun" : "");
    /* As the launcher's stop(): only rank 0 ends with the status; the
     * others exit 0 at once (Open MPI's mpirun, aborting the job at rank
     * 0's exit, hangs on a process it started after that which then exits
     * non-zero). */
    fflush(NULL);
    _exit(rank > 0 ? 0 : 2);
}
