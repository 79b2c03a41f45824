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
#include "hmap.h"
#include "sizes.h"

enum prof_io_op { PROF_IO_OPEN, PROF_IO_CLOSE, PROF_IO_SYNC, PROF_IO_SEEK, PROF_IO_VIEW, PROF_IO_OPS };
enum prof_io_dir { PROF_IO_READ, PROF_IO_WRITE };
/* How a data access is made: individual file pointer, explicit offset,
 * shared file pointer, collective (_all), ordered, nonblocking, split
 * collective (the _begin half; the _end half adds its time only). */
enum prof_io_access {
    PROF_IO_INDIV, PROF_IO_AT, PROF_IO_SHARED, PROF_IO_COLL, PROF_IO_ORDERED, PROF_IO_NB, PROF_IO_SPLIT,
    PROF_IO_ACCESSES
};
#define PROF_IO_BINS 10

extern const char *const prof_io_op_name[PROF_IO_OPS];
extern const char *const prof_io_dir_name[2];
extern const char *const prof_io_access_name[PROF_IO_ACCESSES];
extern const char *const prof_io_bin_name[PROF_IO_BINS];

struct prof_io_file {
    uint64_t key;                  /* the name's and procs' hash */
    char *name;
    int procs;                     /* the size of the communicator that opened it */
    int id;                        /* at finalize (prof_io_agree): the same on every rank, */
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

/* The files, in no order (finalize). */
struct prof_io_file *const *prof_io_files(int *n);
/* prof_io_agree: collective over comm; number the files by their key over
 * all ranks and total them. Returns 0, or -1 on every rank when some rank
 * ran out of memory (ids stay 0). */
int prof_io_agree(MPI_Comm comm);

struct prof_call;
/* The after= hook of MPI_File_open (every call): the file's entry, and its
 * shadow when an analysis needs one. */
void prof_file_opened(struct prof_call *c, MPI_Comm comm, const char *name, MPI_File *fh);
/* The before= and after= hooks of MPI_File_close (every call): the handle
 * is dropped unless the call fails; c->entry gets the file. */
void prof_file_closing(struct prof_call *c, MPI_File *fh);
void prof_file_closed(struct prof_call *c, MPI_File *fh);

/* prof_io_access: one read or write of bytes in ticks on fh. prof_io_end:
 * the _end half of a split collective, its time only. prof_io_op: one
 * open, close, sync, seek or view, on the file f or, when NULL, fh's. The
 * figures of an unknown handle, or without memory, are lost. */
void prof_io_access(MPI_File fh, enum prof_io_dir d, enum prof_io_access a, uint64_t bytes, uint64_t ticks);
void prof_io_end(MPI_File fh, enum prof_io_dir d, uint64_t ticks);
void prof_io_op(MPI_File fh, struct prof_io_file *f, enum prof_io_op op, uint64_t ticks);

#endif
