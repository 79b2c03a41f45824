/* agree.c: one PMPI_Allreduce of the values and their negatives (the
 * minimum of -v is minus the maximum of v: the same everywhere when
 * min == max). */
#include <stdlib.h>
#include <mpi.h>
#include "agree.h"
#include "run.h"

int prof_agree(const double *v, int n, bool *same)
{
    double *mine = calloc(4 * (size_t)n, sizeof *mine);
    if (!mine)
        return -1;
    double *all = mine + 2 * n;
    for (int i = 0; i < n; i++) {
        mine[i] = v[i];
        mine[n + i] = -v[i];
    }
    int rc = -1;
    if (PMPI_Allreduce(mine, all, 2 * n, MPI_DOUBLE, MPI_MIN, prof_run.comm) == MPI_SUCCESS) {
        rc = 1;
        for (int i = 0; i < n; i++) {
            bool s = all[i] == -all[n + i];
            if (same)
                same[i] = s;
            rc &= s;
        }
    }
    free(mine);
    return rc;
}
