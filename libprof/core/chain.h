/* chain.h: MPIPROF_CHAIN: living beside another PMPI tool. Every wrapper
 * calls prof_next.MPI_x (wrappers/next.h): PMPI_x, or with MPIPROF_CHAIN on
 * the next definition of MPI_x after this library (dlsym RTLD_NEXT), so that
 * a second PMPI library preloaded after this one sees every call; where
 * none follows, that is the MPI library's own MPI_x, the same code as
 * PMPI_x. Resolved once, in the first MPI_Init or MPI_Init_thread, before
 * the library's (cold). */
#ifndef PROF_CHAIN_H
#define PROF_CHAIN_H

/* prof_chain_start: resolve prof_next when MPIPROF_CHAIN is on (once). */
void prof_chain_start(void);

/* prof_chain_custom: the function a hand-written wrapper (MPI_Init,
 * MPI_Init_thread, MPI_Finalize, MPI_Pcontrol) calls: the next MPI_name
 * when chaining, else pmpi. */
void *prof_chain_custom(const char *name, void *pmpi);

#define PROF_NEXT_CUSTOM(name) ((__typeof__(&P##name))prof_chain_custom(#name, (void *)P##name))

#endif
