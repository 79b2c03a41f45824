/* vialib.c: a library of the tests' own that only passes MPI calls through
 * (libviatest, for t_via.sh), as HDF5 does: lib_store() writes "metadata"
 * (one MPI_Allreduce in lib_meta, marked "// via: meta") and "raw data"
 * (two MPI_Allreduce in lib_raw, marked "// via: raw"), each an
 * MPI_Allreduce of one int over comm, counted after it (so that no call is
 * a tail call, whose frame the stack would not show). */
#include <mpi.h>
#include "vialib.h"

static volatile int calls;

__attribute__((noinline)) static void lib_meta(int *x, MPI_Comm comm)
{
    MPI_Allreduce(MPI_IN_PLACE, x, 1, MPI_INT, MPI_SUM, comm); // via: meta
    calls++;
}

__attribute__((noinline)) static void lib_raw(int *x, MPI_Comm comm)
{
    for (int i = 0; i < 2; i++) {
        MPI_Allreduce(MPI_IN_PLACE, x, 1, MPI_INT, MPI_SUM, comm); // via: raw
        calls++;
    }
}

__attribute__((noinline)) int lib_store(int x, MPI_Comm comm)
{
    lib_meta(&x, comm);
    lib_raw(&x, comm);
    return x + 0 * calls;
}
