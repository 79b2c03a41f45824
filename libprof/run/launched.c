/* launched.c: one line when the program the launcher started never called
 * MPI_Init, neither in its own process nor in one it started (mpiprof(1),
 * MPIPROF_LAUNCHED). The launcher makes an empty file and sets
 * MPIPROF_LAUNCHED=PID:FILE, PID its own, which exec keeps: the program's
 * process. There, before main, the library opens FILE on a descriptor of
 * 100 or more, which the processes it starts inherit, and removes its
 * name, so that nothing is left behind however the program ends. MPI_Init
 * in any of them writes a byte to the descriptor that is FILE's (its
 * /proc/self/fd link is "FILE (deleted)": not one the program closed or
 * opened again on another file); the process PID, at its exit, finds none
 * and says so, once per job (the process of rank 0 under mpirun, or one
 * started without it). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "launched.h"
#include "log.h"

static int own_fd = -1;                /* the program's process: its mark */

/* FILE of the mark, PID in *pid; NULL without one. */
static const char *mark(long *pid)
{
    const char *v = getenv("MPIPROF_LAUNCHED");
    char *end;
    *pid = v ? strtol(v, &end, 10) : 0;
    return v && end != v && *end == ':' && end[1] ? end + 1 : NULL;
}

/* Whether descriptor fd is file's, removed. */
static int is_mark(int fd, const char *file)
{
    char link[64], got[4200];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, got, sizeof got - 1);
    if (n < 0)
        return 0;
    got[n] = '\0';
    size_t len = strlen(file);
    return strncmp(got, file, len) == 0 && strcmp(got + len, " (deleted)") == 0;
}

__attribute__((constructor)) static void take_mark(void)
{
    long pid;
    const char *file = mark(&pid);
    if (!file || pid != (long)getpid())
        return;
    int f = open(file, O_RDWR);
    if (f < 0)
        return;
    own_fd = fcntl(f, F_DUPFD, 100);
    close(f);
    unlink(file);
}

void prof_launched_init(void)
{
    long pid;
    const char *file = mark(&pid);
    DIR *d = file ? opendir("/proc/self/fd") : NULL;
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d));) {
        int fd = atoi(e->d_name);
        if (fd >= 100 && fd != dirfd(d) && is_mark(fd, file)) {
            if (pwrite(fd, "I", 1, 0) != 1)
                prof_log_local("cannot mark MPI_Init in the launcher's file: %s", strerror(errno));
            break;
        }
    }
    closedir(d);
}

int prof_launcher_rank(void)
{
    static const char *const names[] = { "OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *v = getenv(names[i]);
        if (v && *v)
            return atoi(v);
    }
    return -1;
}

/* The MPI launchers, which close the descriptors of the processes they
 * start: "mpiprof mpirun ..." (the launcher before mpirun rather than
 * after it) would hear of no MPI_Init. */
static int mpi_launcher(const char *name)
{
    static const char *const launchers[] = { "mpirun", "mpiexec", "orterun", "prterun", "srun" };
    for (size_t i = 0; i < sizeof launchers / sizeof launchers[0]; i++)
        if (strncmp(name, launchers[i], strlen(launchers[i])) == 0)
            return 1;
    return 0;
}

void prof_launched_exit(void)
{
    long pid;
    char c;
    const char *file = mark(&pid);
    if (own_fd < 0 || !file || !is_mark(own_fd, file) || pread(own_fd, &c, 1, 0) == 1 || prof_launcher_rank() > 0 ||
        mpi_launcher(program_invocation_short_name))
        return;
    prof_log_set_rank(0);
    prof_log_once("%s exited without calling MPI_Init; no report written", program_invocation_name);
}
