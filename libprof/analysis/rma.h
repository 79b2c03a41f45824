/* rma.h: one-sided figures per window and target (rma.txt). Windows made
 * at one call site (the creating call's record: function and call stack)
 * share one entry, so that creating and freeing windows in a loop keeps
 * memory flat; an entry holds, per target (a MPI_COMM_WORLD rank, or none
 * for calls that name no target), calls, origin bytes and time per kind of
 * call. A live window handle maps to its entry and its group's world
 * ranks. One process-wide state, locked under MPI_THREAD_MULTIPLE only
 * (lock.h); one-sided calls look their window up (not the point-to-point
 * hot path). */
#ifndef PROF_RMA_H
#define PROF_RMA_H

#include <stdint.h>
#include <mpi.h>
#include "events.h"
#include "hmap.h"
#include "sizes.h"

/* The names of the kinds (events.h), in rma.txt. */
extern const char *const prof_rma_kind_name[PROF_RMA_KINDS];

struct prof_rma_target {
    int32_t rank;                  /* MPI_COMM_WORLD rank; PROF_RMA_NOTARGET */
    struct prof_tally k[PROF_RMA_KINDS];
};

/* The windows created at one call site. */
struct prof_rma_site {
    uint64_t key;                  /* the creating call's record key; 0: it was not profiled */
    int id;                        /* at finalize: its branch id (0: none), */
    const char *where;             /* and its call site's text (NULL: none) */
    struct prof_hmap targets;      /* rank -> struct prof_rma_target */
};

/* The sites: at MPI_Finalize, by branch id once the module agreed. */
struct prof_rma_site *const *prof_rma_sites(int *n);

struct prof_writer;
/* rma.txt (rma_report.c). */
extern const struct prof_writer prof_rma_writer;

#endif
