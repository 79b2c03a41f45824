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
#include "hmap.h"
#include "sizes.h"

/* The kinds of rma.txt, in its order (prof_rma_kind_name). */
enum prof_rma_kind {
    PROF_RMA_PUT, PROF_RMA_GET, PROF_RMA_ACC, PROF_RMA_GET_ACC, PROF_RMA_FOP, PROF_RMA_CAS,
    PROF_RMA_FENCE, PROF_RMA_PSCW, PROF_RMA_LOCK, PROF_RMA_LOCK_ALL, PROF_RMA_FLUSH,
    PROF_RMA_CREATE, PROF_RMA_FREE, PROF_RMA_KINDS
};
#define PROF_RMA_NOTARGET (-1)     /* the target of a call that names none */

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

/* The sites, in no order (finalize). */
struct prof_rma_site *const *prof_rma_sites(int *n);
/* prof_rma_is_site: whether key is a site's (finalize: the branches keep
 * the record keys merged into them for prof_rma_name). */
int prof_rma_is_site(uint64_t key);
/* prof_rma_name: each site's id and text, from the numbered branches. */
struct prof_branch;
void prof_rma_name(const struct prof_branch *v, int n);

struct prof_call;
/* The after= hook of the creating calls (every call): the window's entry,
 * and its shadow when an analysis needs one. */
void prof_win_created(struct prof_call *c, MPI_Comm comm, MPI_Win *win);
/* The before= and after= hooks of MPI_Win_free (every call): the handle
 * is dropped unless the call fails; c->entry gets the window's site. */
void prof_win_freeing(struct prof_call *c, MPI_Win *win);
void prof_win_freed(struct prof_call *c, MPI_Win *win);

/* prof_rma_add: one call of kind k on win with target (a rank of the
 * window's group, or PROF_RMA_NOTARGET) that moved bytes in ticks. The
 * figures of an unknown window, or without memory, are lost. */
void prof_rma_add(enum prof_rma_kind k, MPI_Win win, int target, uint64_t bytes, uint64_t ticks);
/* prof_rma_add_site: the same for a call of no target on the windows of
 * site (MPI_Win_free, whose handle is gone). */
void prof_rma_add_site(struct prof_rma_site *site, enum prof_rma_kind k, uint64_t ticks);

#endif
