/* io.h: MPI-IO figures per file (io.txt). A file is its name and the size
 * of the communicator that opened it, so one name opened by one rank alone
 * and by all ranks together is two files, and opening and closing a file
 * in a loop keeps one entry. An entry counts opens, closes, syncs, seeks
 * and views, and per direction and access family calls, bytes and time,
 * and calls, bytes and time per access size (Darshan's bins). A live file
 * handle maps to its entry. One process-wide state, locked under
 * MPI_THREAD_MULTIPLE only (lock.h). */
#ifndef PROF_IO_H
#define PROF_IO_H

#include <stdint.h>
#include <mpi.h>
#include "events.h"
#include "hmap.h"
#include "sizes.h"

#define PROF_IO_BINS 10

extern const char *const prof_io_op_name[PROF_IO_OPS];
extern const char *const prof_io_dir_name[2];
extern const char *const prof_io_access_name[PROF_IO_ACCESSES];
extern const char *const prof_io_bin_name[PROF_IO_BINS];

struct prof_io_file {
    uint64_t key;                  /* the name's and procs' hash */
    char *name;
    int procs;                     /* the size of the communicator that opened it */
    int id;                        /* at finalize (agree, io.c): the same on every rank, */
    int owner;                     /* the lowest rank that has the file, */
    double job_calls, job_bytes;   /* the job's calls and bytes on it, */
    double job_slowest;            /* and the largest time of one rank in them (ticks) */
    struct prof_tally op[PROF_IO_OPS];
    struct prof_tally rw[2][PROF_IO_ACCESSES];
    struct prof_tally size[2][PROF_IO_BINS];
};

/* prof_io_bin: the bin of an access of bytes: 0-100, 100-1K, ... 1G+ (the
 * upper bounds 100, 1024, 10240, ... 1073741824 inclusive). */
int prof_io_bin(uint64_t bytes);

/* The files: at MPI_Finalize, by id once the module agreed (ids are the
 * same on every rank). */
struct prof_io_file *const *prof_io_files(int *n);

struct prof_writer;
/* io.txt (io_report.c). */
extern const struct prof_writer prof_io_writer;

#endif
