/* fortran.c: the Fortran MPI_Init, MPI_Init_thread and MPI_Finalize (flag
 * custom in misc.tbl; the other Fortran entries are generated into
 * wrap_f.c), the Fortran sentinels, the cold half of the conversions, and
 * what MPICH's use mpi_f08 procedures with a choice buffer need (see
 * fortran.h). The library's own Fortran binding
 * (pmpi_init_ ...) still initializes MPI: it sets up what its Fortran layer
 * needs. Cold. */
#define _GNU_SOURCE            /* RTLD_NEXT */
#include <dlfcn.h>
#include <stdlib.h>
#include "chain.h"
#include "fortran.h"
#include "log.h"
#include "run.h"
#include "snapshot.h"

struct prof_fortran prof_fortran;

/* Open MPI: each sentinel is a common block of its own (mpif-sentinels.h),
 * one symbol for mpif.h, use mpi and use mpi_f08 alike. */
extern char mpi_fortran_bottom_ __attribute__((weak));
extern char mpi_fortran_in_place_ __attribute__((weak));
/* MPICH: libmpichfort records where its common blocks are when its Fortran
 * layer is first used (mpirinitf_, flagged by MPIR_F_NeedInit). */
extern int MPIR_F_NeedInit __attribute__((weak));
extern void *MPIR_F_MPI_BOTTOM __attribute__((weak));
extern void *MPIR_F_MPI_IN_PLACE __attribute__((weak));
extern void mpirinitf_(void) __attribute__((weak));

void prof_fortran_init(void)
{
    if (&mpi_fortran_bottom_ && &mpi_fortran_in_place_) {
        prof_fortran.bottom = &mpi_fortran_bottom_;
        prof_fortran.in_place = &mpi_fortran_in_place_;
    } else if (&MPIR_F_MPI_BOTTOM && &MPIR_F_MPI_IN_PLACE) {
        /* A C main program with Fortran parts: do what MPICH's own Fortran
         * entries do on their first call. This also sets MPI_F_STATUS_IGNORE. */
        if (&MPIR_F_NeedInit && MPIR_F_NeedInit && mpirinitf_) {
            mpirinitf_();
            MPIR_F_NeedInit = 0;
        }
        prof_fortran.bottom = MPIR_F_MPI_BOTTOM;
        prof_fortran.in_place = MPIR_F_MPI_IN_PLACE;
    }
#ifdef MPICH
    /* The C names (MPI-3.0 17.2.5) of MPICH's use mpi_f08 MPI_STATUS_IGNORE
     * and MPI_STATUSES_IGNORE; Open MPI 4.1 has none. */
    prof_fortran.f08_status_ignore = MPI_F08_STATUS_IGNORE;
    prof_fortran.f08_statuses_ignore = MPI_F08_STATUSES_IGNORE;
#endif
}

void *prof_f_alloc(void *stack, int n, size_t size, int *nomem)
{
    void *p = malloc((size_t)n * size);
    if (p)
        return p;
    *nomem = 1;
    return stack;
}

/* The library's Fortran binding (weak: a C program has none). */
extern void pmpi_init_(MPI_Fint *ierr) __attribute__((weak));
extern void pmpi_init_thread_(MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierr) __attribute__((weak));
extern void pmpi_finalize_(MPI_Fint *ierr) __attribute__((weak));

/* With MPICH, pmpi_init_ calls the C MPI_Init, whose wrapper has started
 * profiling already; with Open MPI it calls PMPI_Init, which a PMPI tool
 * chained after this one (MPIPROF_CHAIN, chain.h) would never see: when
 * chaining, MPI_INIT, MPI_INIT_THREAD and MPI_FINALIZE call the next C
 * function instead, as every other Fortran entry does (the MPI library's
 * own where no tool follows). Their Fortran layers do no more than that;
 * MPICH's Fortran constants are set by prof_fortran_init. */
#define CHAINED(name) ((__typeof__(&P##name))prof_chain_custom(#name, NULL))

PROF_EXPORT void mpi_init_(MPI_Fint *ierr)
{
    MPI_Fint rc;
    prof_before_init();
    __typeof__(&PMPI_Init) next = CHAINED(MPI_Init);
    if (next)
        rc = next(NULL, NULL);
    else if (pmpi_init_)
        pmpi_init_(&rc);
    else
        rc = PMPI_Init(NULL, NULL);
    if (rc == MPI_SUCCESS && !prof_run.started)
        prof_start(MPI_THREAD_SINGLE);
    if (ierr)
        *ierr = rc;
}
PROF_F_NAMES(mpi_init, MPI_INIT)

PROF_EXPORT void mpi_init_thread_(MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierr)
{
    MPI_Fint rc;
    prof_before_init();
    __typeof__(&PMPI_Init_thread) next = CHAINED(MPI_Init_thread);
    if (pmpi_init_thread_ && !next) {
        pmpi_init_thread_(required, provided, &rc);
    } else {
        int p = MPI_THREAD_SINGLE;
        rc = (next ? next : PMPI_Init_thread)(NULL, NULL, *required, &p);
        *provided = p;
    }
    if (rc == MPI_SUCCESS && !prof_run.started)
        prof_start(*provided);
    if (ierr)
        *ierr = rc;
}
PROF_F_NAMES(mpi_init_thread, MPI_INIT_THREAD)

/* The report is written before the library's MPI_Finalize; with MPICH that
 * then calls the C MPI_Finalize, whose wrapper finds the report written.
 * When chaining, the next C MPI_Finalize: the next tool writes its own. */
PROF_EXPORT void mpi_finalize_(MPI_Fint *ierr)
{
    MPI_Fint rc;
    if (prof_run.started && !prof_run.finished)
        prof_finish();
    __typeof__(&PMPI_Finalize) next = CHAINED(MPI_Finalize);
    if (next)
        rc = next();
    else if (pmpi_finalize_)
        pmpi_finalize_(&rc);
    else
        rc = PMPI_Finalize();
    if (ierr)
        *ierr = rc;
}
PROF_F_NAMES(mpi_finalize, MPI_FINALIZE)

/* MPI_ABORT: the C one's partial report, then the library's. */
extern void pmpi_abort_(MPI_Fint *comm, MPI_Fint *errorcode, MPI_Fint *ierr) __attribute__((weak));

PROF_EXPORT void mpi_abort_(MPI_Fint *comm, MPI_Fint *errorcode, MPI_Fint *ierr)
{
    MPI_Fint rc;
    prof_partial_abort(*errorcode);
    if (pmpi_abort_)
        pmpi_abort_(comm, errorcode, &rc);
    else
        rc = PMPI_Abort(PMPI_Comm_f2c(*comm), *errorcode);
    if (ierr)
        *ierr = rc;
}
PROF_F_NAMES(mpi_abort, MPI_ABORT)

#ifdef MPICH
void *prof_f08ts_next(void **slot, const char *name)
{
    void *f = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (!f && (f = dlsym(RTLD_NEXT, name)) != NULL)
        __atomic_store_n(slot, f, __ATOMIC_RELEASE);
    if (!f)
        prof_log_once("%s: the MPI library does not define it; the call returns MPI_ERR_INTERN", name);
    return f;
}
#endif
