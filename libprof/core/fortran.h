/* fortran.h: what the generated Fortran entry points (wrap_f.c) use to turn
 * Fortran arguments into C ones before calling the C entry's w_ function
 * (hot: inlined into every Fortran entry). Handles go through the library's
 * PMPI_*_f2c/c2f; these helpers add the sentinels, statuses, 1-based indices
 * and scratch arrays. fortran.c holds the Fortran MPI_Init, MPI_Init_thread
 * and MPI_Finalize and the cold half of the scratch arrays. */
#ifndef PROF_FORTRAN_H
#define PROF_FORTRAN_H

#include <stddef.h>
#include <stdlib.h>
#include "prof.h"

/* Integer arguments and arrays are passed through: default INTEGER is int. */
_Static_assert(sizeof(MPI_Fint) == sizeof(int), "MPI_Fint is not int");

/* MPI_STATUS_SIZE, in MPI_Fint: MPI-4's MPI_F_STATUS_SIZE where mpi.h has it
 * (MPICH 4.0); Open MPI 4.1 sizes the Fortran status as its C status. */
#ifdef MPI_F_STATUS_SIZE
#define PROF_F_STATUS_SIZE ((size_t)MPI_F_STATUS_SIZE)
#else
#define PROF_F_STATUS_SIZE (sizeof(MPI_Status) / sizeof(MPI_Fint))
#endif

/* Request and status arrays up to this length are converted on the stack;
 * longer ones take one malloc per call (cold). */
#define PROF_F_SMALL 32

/* The addresses the Fortran MPI_BOTTOM and MPI_IN_PLACE have in C (common
 * block variables), found by prof_fortran_init; NULL until then. */
struct prof_fortran {
    const void *bottom;
    const void *in_place;
    const void *f08_status_ignore;     /* MPICH's use mpi_f08 MPI_STATUS_IGNORE, */
    const void *f08_statuses_ignore;   /* MPI_STATUSES_IGNORE (NULL elsewhere) */
};
extern struct prof_fortran prof_fortran;

/* prof_fortran_init: find this MPI library's Fortran sentinels. Called by
 * every MPI_Init (C or Fortran) right after the library's own, before any
 * Fortran call can pass a buffer (cold; not thread safe: MPI_Init runs once). */
void prof_fortran_init(void);

/* prof_f_alloc: malloc n elements of size bytes; on failure set *nomem and
 * return stack (so that releasing it is harmless). Cold. */
void *prof_f_alloc(void *stack, int n, size_t size, int *nomem);

/* prof_f_buf: a choice buffer as C wants it: Fortran MPI_BOTTOM and
 * MPI_IN_PLACE become the C constants, any other address stays. */
static inline void *prof_f_buf(const void *p)
{
    if (p == prof_fortran.bottom)
        return MPI_BOTTOM;
    if (p == prof_fortran.in_place)
        return MPI_IN_PLACE;
    return (void *)p;
}

/* prof_f_scratch: room for n elements: the caller's stack array of
 * PROF_F_SMALL, or a malloc'd one (release with prof_f_release). */
static inline void *prof_f_scratch(void *stack, int n, size_t size, int *nomem)
{
    return n <= PROF_F_SMALL ? stack : prof_f_alloc(stack, n, size, nomem);
}

static inline void prof_f_release(void *p, void *stack)
{
    if (p != stack)
        free(p);
}

/* Statuses. _in: a Fortran status read into *c (input or in-out
 * arguments); _out: where the call writes one; both give
 * MPI_STATUS_IGNORE for Fortran MPI_STATUS_IGNORE. _c2f: copy a status the
 * call wrote back to Fortran. */
static inline int prof_f_status_ignored(const MPI_Fint *f)
{
    return f == MPI_F_STATUS_IGNORE || (f && f == prof_fortran.f08_status_ignore);
}

static inline MPI_Status *prof_f_status_in(MPI_Fint *f, MPI_Status *c)
{
    if (prof_f_status_ignored(f))
        return MPI_STATUS_IGNORE;
    PMPI_Status_f2c(f, c);
    return c;
}

static inline MPI_Status *prof_f_status_out(MPI_Fint *f, MPI_Status *c)
{
    return prof_f_status_ignored(f) ? MPI_STATUS_IGNORE : c;
}

static inline void prof_f_status_c2f(int rc, const MPI_Status *c, MPI_Fint *f)
{
    if (c != MPI_STATUS_IGNORE && rc == MPI_SUCCESS)
        PMPI_Status_c2f(c, f);
}

/* Status arrays: n statuses the call writes (scratch, see prof_f_scratch),
 * or MPI_STATUSES_IGNORE for Fortran MPI_STATUSES_IGNORE. */
static inline MPI_Status *prof_f_statuses_out(MPI_Fint *f, MPI_Status *stack, int n, int *nomem)
{
    if (f == MPI_F_STATUSES_IGNORE || (f && f == prof_fortran.f08_statuses_ignore))
        return MPI_STATUSES_IGNORE;
    return prof_f_scratch(stack, n, sizeof *stack, nomem);
}

static inline void prof_f_statuses_c2f(int rc, const MPI_Status *c, MPI_Fint *f, int n)
{
    if (c == MPI_STATUSES_IGNORE || (rc != MPI_SUCCESS && rc != MPI_ERR_IN_STATUS))
        return;
    for (int i = 0; i < n; i++)
        PMPI_Status_c2f(&c[i], f + (size_t)i * PROF_F_STATUS_SIZE);
}

static inline void prof_f_release_statuses(MPI_Status *p, MPI_Status *stack)
{
    if (p != MPI_STATUSES_IGNORE)
        prof_f_release(p, stack);
}

/* Fortran indices count from 1 (Waitany, Testany, Waitsome, Testsome). */
static inline void prof_f_index(int rc, MPI_Fint *index)
{
    if (rc == MPI_SUCCESS && *index != MPI_UNDEFINED)
        ++*index;
}

static inline void prof_f_indices(int rc, int outcount, MPI_Fint *indices)
{
    if (rc != MPI_SUCCESS && rc != MPI_ERR_IN_STATUS)
        return;
    for (int i = 0; i < outcount; i++)
        indices[i]++;
}

/* PROF_F_NAMES(mpi_send, MPI_SEND): besides gfortran's mpi_send_ (the
 * definition), the names other compilers and options give it: mpi_send__
 * (g77, -fsecond-underscore), mpi_send (-fno-underscoring, xlf), MPI_SEND
 * (upper case), as aliases: the same code, so the call site is still the
 * caller's return address. Also the use mpi_f08 procedure mpi_send_f08_:
 * Open MPI's, and MPICH's for functions without a choice buffer, take the
 * same arguments (derived-type handles hold one integer, MPI_Status is the
 * C one) with an optional ierror, which arrives as NULL. MPICH's procedures
 * with a choice buffer are lower_f08ts_ instead, taking an array descriptor:
 * PROF_F_NAMES_BUF leaves the f08 alias out there, and the generator writes
 * a lower_f08ts_ that hands the call to the library's (prof_f08ts_site). */
#define PROF_F_ALIAS(f, a) extern __typeof__(f) a __attribute__((alias(#f), visibility("default")));
#define PROF_F77_NAMES(lower, upper) \
    PROF_F_ALIAS(lower##_, lower##__) PROF_F_ALIAS(lower##_, lower) PROF_F_ALIAS(lower##_, upper)
#define PROF_F_NAMES(lower, upper) PROF_F77_NAMES(lower, upper) PROF_F_ALIAS(lower##_, lower##_f08_)
#ifdef MPICH
#define PROF_F_NAMES_BUF(lower, upper) PROF_F77_NAMES(lower, upper)
#else
#define PROF_F_NAMES_BUF(lower, upper) PROF_F_NAMES(lower, upper)
#endif

#ifdef MPICH
/* MPICH's lower_f08ts_ helpers call the C MPI_ function, whose entry takes
 * its call site from prof_f08_site (site.h) while one runs: the user's
 * line, not the helper's. */

/* prof_f08ts_next: the library's definition of name, found once into *slot
 * (NULL if it has none: the caller sets MPI_ERR_INTERN). Thread safe. */
void *prof_f08ts_next(void **slot, const char *name);

/* prof_f08ts_site: make site the thread's f08 call site; returns the one
 * before, to be put back after the call. */
static inline void *prof_f08ts_site(void *site)
{
    void *outer = prof_f08_site;
    prof_f08_site = site;
    return outer;
}
#endif
#endif
