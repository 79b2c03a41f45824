/* fuzz_out.c: the fuzzer's output lines. Each lane keeps its lines, and
 * at the end of each schedule rank 0 gathers and prints them (PMPI_Gather,
 * PMPI_Gatherv on the lane's world communicator): ranks writing to one
 * launcher cut each other's lines, a single writer does not. Cold. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "fuzz.h"

void fz_say(struct fz_lane *L, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if (L->out_n + (size_t)n + 1 > L->out_cap) {
        L->out_cap = 2 * (L->out_n + (size_t)n + 1) + 4096;
        L->out = realloc(L->out, L->out_cap);
        if (!L->out) {
            fprintf(stderr, "fuzz: out of memory\n");
            abort();
        }
    }
    va_start(ap, fmt);
    vsnprintf(L->out + L->out_n, (size_t)n + 1, fmt, ap);
    va_end(ap);
    L->out_n += (size_t)n;
}

void fz_flush(struct fz_lane *L)
{
    MPI_Comm c = L->comm[FZ_WORLD];
    int mine = (int)L->out_n, *counts = NULL, *displs = NULL, total = 0;
    char *all = NULL;
    if (L->rank == 0) {
        counts = calloc((size_t)L->np, sizeof *counts);
        displs = calloc((size_t)L->np, sizeof *displs);
    }
    PMPI_Gather(&mine, 1, MPI_INT, counts, 1, MPI_INT, 0, c);
    if (L->rank == 0) {
        for (int r = 0; r < L->np; r++) {
            displs[r] = total;
            total += counts[r];
        }
        all = malloc((size_t)total + 1);
    }
    PMPI_Gatherv(L->out, mine, MPI_CHAR, all, counts, displs, MPI_CHAR, 0, c);
    if (L->rank == 0) {
        fwrite(all, 1, (size_t)total, stdout);
        fflush(stdout);
    }
    L->out_n = 0;
    free(all);
    free(counts);
    free(displs);
}
