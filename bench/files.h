/* files.h: benchmark files that must not be left behind (mpiprof-io,
 * mpiprof-beffio): a process's files are kept in a short list and removed
 * at exit, on a fatal signal (SIGINT, SIGTERM, SIGHUP, SIGABRT, SIGSEGV,
 * SIGBUS) and on a failed MPI-IO call (one message naming the file the
 * program is working on, then MPI_Abort). */
#ifndef BENCH_FILES_H
#define BENCH_FILES_H

#include <mpi.h>

/* bench_files_guard: the exit and signal handlers (once; after MPI_Init);
 * prog prefixes the error message. */
void bench_files_guard(const char *prog);
/* bench_files_keep: name is this process's until bench_files_drop
 * (at most 8 at once; more are not guarded). */
void bench_files_keep(const char *name);
void bench_files_drop(const char *name);
/* bench_files_about: the file an MPI-IO error message names. */
void bench_files_about(const char *name);
/* bench_files_watch: fh reports its MPI-IO errors as above. */
void bench_files_watch(MPI_File fh);
/* bench_files_fail: the same for an error code a call returned. */
void bench_files_fail(int code);

#endif
