/* gather.h: bring every rank's report text to rank 0, one rank at a time
 * and in chunks of at most PROF_GATHER_CHUNK bytes, so rank 0 never holds
 * more than one chunk of another rank (cold: finalize). */
#ifndef PROF_GATHER_H
#define PROF_GATHER_H

#include <stdio.h>
#include <mpi.h>
#include "buf.h"

#define PROF_GATHER_CHUNK (64u << 10)
#define PROF_GATHER_FILES 32     /* the most files (report.c asserts it) */

/* prof_gather_write: collective over comm. Rank 0 appends texts[k] of every
 * rank, in rank order, to files[k] (k < n <= PROF_GATHER_FILES); other
 * ranks send theirs when asked. Returns 0, or -1 on rank 0 if a write
 * failed. */
int prof_gather_write(MPI_Comm comm, const struct prof_buf *texts, int n, FILE *const *files);

/* prof_gather_own: rank 0's texts[k] alone appended to files[k]; 0, or -1
 * if a write failed (local). */
int prof_gather_own(const struct prof_buf *texts, int n, FILE *const *files);

#endif
