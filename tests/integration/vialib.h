/* vialib.h: libviatest (vialib.c). */
#ifndef VIALIB_H
#define VIALIB_H
#include <mpi.h>

/* lib_store: x summed over comm three times (one "metadata" and two "raw
 * data" MPI_Allreduce). */
int lib_store(int x, MPI_Comm comm);

#endif
