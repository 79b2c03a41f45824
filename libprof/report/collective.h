/* collective.h: every rank writes its own rows of each report file at
 * once, with MPI-IO (cold: finalize). No step grows with the number of
 * ranks at any one rank but the prefix sum and agreements (log P rounds). */
#ifndef PROF_COLLECTIVE_H
#define PROF_COLLECTIVE_H

#include <stdint.h>
#include <mpi.h>
#include "buf.h"

/* prof_collective_write: collective over comm. Creates dir/names[k]
 * (k < n; n at most PROF_COLLECTIVE_FILES, which report.c asserts) with
 * MPI-IO and writes in it rank 0's head[k] (head: NULL on the other
 * ranks), then texts[k] of every rank in rank order, at offsets from an
 * exclusive prefix sum of their lengths. open_ns gets the time the opens
 * took on this rank. Returns 0 when every file was written and closed on
 * every rank; else -1 on every rank, why naming the first rank's problem
 * (why has whysz bytes on every rank), and the files as they are (the
 * caller writes them again). */
#define PROF_COLLECTIVE_FILES 64
int prof_collective_write(MPI_Comm comm, const char *dir, const char *const *names, const struct prof_buf *head,
                          const struct prof_buf *texts, int n, char *why, int whysz, uint64_t *open_ns);

#endif
