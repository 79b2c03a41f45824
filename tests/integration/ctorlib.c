/* ctorlib.c: a shared library that calls MPI_Init in its constructor and
 * MPI_Finalize in its destructor (t_ctor.sh builds it as libctor.so). */
#include <stddef.h>
#include <mpi.h>

__attribute__((constructor)) static void start_mpi(void)
{
    MPI_Init(NULL, NULL);
}

__attribute__((destructor)) static void stop_mpi(void)
{
    MPI_Finalize();
}
