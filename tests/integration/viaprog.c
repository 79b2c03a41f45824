/* viaprog.c: MPI called only through libviatest (vialib.c), for t_via.sh:
 * lib_store once from the line marked "// user: once" and three times from
 * the line marked "// user: loop"; rank 0 prints the result. */
#include <mpi.h>
#include <stdio.h>
#include "vialib.h"

int main(int argc, char **argv)
{
    int size, x;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    x = lib_store(1, MPI_COMM_WORLD); // user: once
    for (int i = 0; i < 3; i++)
        x += lib_store(i, MPI_COMM_WORLD); // user: loop
    if (size > 0 && argc > 0)
        printf("viaprog: %d\n", x);
    MPI_Finalize();
    return 0;
}
