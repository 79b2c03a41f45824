/* via.h: the libraries that only pass MPI calls through (MPIPROF_VIA: the
 * MPI's own language bindings, HDF5, NetCDF, PETSc, ...; hot), as shared
 * objects (by file name) or linked into another module (by function
 * name). A call whose return address is in one of them is named by the
 * first frame outside them, the user's, with the library's frame kept
 * beside it (branch.c): the user sees their own line at depth 1, and the
 * library's different paths from that line (HDF5's raw data and metadata
 * writes) stay different call sites. Both kinds are address ranges of
 * one table, so a frame costs the same lookup either way. */
#ifndef PROF_VIA_H
#define PROF_VIA_H

#include <stdbool.h>
#include <stdint.h>
#include "thread.h"

/* What a return address is in: a library that passes MPI calls through,
 * or, in a Python program (python.h), the interpreter or a module that
 * runs Python code, whose calls are named by the Python frames. */
enum { PROF_VIA_NONE, PROF_VIA_LIB, PROF_VIA_PYTHON };

/* The most library frames passed over to find the user's: a call through
 * these libraries unwinds this many more frames (~5-10 ns each). */
#define PROF_VIA_FRAMES 32

/* MPIPROF_VIA is not "none" (set at MPI_Init). */
extern bool prof_via_on;

/* prof_via_start: at MPI_Init, after the options: the library name
 * patterns; prof_via_stop: at MPI_Finalize, the tables freed. */
void prof_via_start(void);
void prof_via_stop(void);

/* prof_via_lookup: the thread's cache of the executable segment holding a
 * (th->seg_*), from the table of the loaded modules, made again when a is
 * in none of them and a module was loaded since (cold). */
void prof_via_lookup(struct prof_thread *th, uintptr_t a);

/* prof_via_site: what site is in, PROF_VIA_* (hot: two compares when the
 * thread's last site was in the same segment). */
static inline uint8_t prof_via_site(struct prof_thread *th, void *site)
{
    uintptr_t a = (uintptr_t)site;
    if (__builtin_expect(a - th->seg_lo >= th->seg_len, 0))
        prof_via_lookup(th, a);
    return th->seg_kind;
}

/* prof_via_kind: the same for any return address, without the cache (the
 * frames of a call through a library). */
uint8_t prof_via_kind(void *a);

#endif
