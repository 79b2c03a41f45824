/* sites.c: mpiprof-sites, a workload with many distinct call sites, for
 * timing the report at MPI_Finalize (bench/report-time.sh). Each rank makes
 * -s N (default 1000, at most 1000) MPI_Comm_rank calls, each from its own
 * function site_000 .. site_999 (its own call instruction, printed as its
 * own function@file:line), then finalizes. Known answer: N branches of
 * MPI_Comm_rank per rank in branches.txt. */
#include <stdio.h>
#include <mpi.h>
#include "intopts.h"

/* The empty asm after the call keeps it from being a tail call (a jump,
 * whose return address would be in main). */
#define SITE(k) static void __attribute__((noinline)) site_##k(int *r) \
    { MPI_Comm_rank(MPI_COMM_WORLD, r); __asm__ volatile(""); }
#define SITES10(k) SITE(k##0) SITE(k##1) SITE(k##2) SITE(k##3) SITE(k##4) \
                   SITE(k##5) SITE(k##6) SITE(k##7) SITE(k##8) SITE(k##9)
#define SITES100(k) SITES10(k##0) SITES10(k##1) SITES10(k##2) SITES10(k##3) SITES10(k##4) \
                    SITES10(k##5) SITES10(k##6) SITES10(k##7) SITES10(k##8) SITES10(k##9)
SITES100(0) SITES100(1) SITES100(2) SITES100(3) SITES100(4)
SITES100(5) SITES100(6) SITES100(7) SITES100(8) SITES100(9)

#define NAME(k) site_##k,
#define NAMES10(k) NAME(k##0) NAME(k##1) NAME(k##2) NAME(k##3) NAME(k##4) \
                   NAME(k##5) NAME(k##6) NAME(k##7) NAME(k##8) NAME(k##9)
#define NAMES100(k) NAMES10(k##0) NAMES10(k##1) NAMES10(k##2) NAMES10(k##3) NAMES10(k##4) \
                    NAMES10(k##5) NAMES10(k##6) NAMES10(k##7) NAMES10(k##8) NAMES10(k##9)
static void (*const sites[1000])(int *) = {
    NAMES100(0) NAMES100(1) NAMES100(2) NAMES100(3) NAMES100(4)
    NAMES100(5) NAMES100(6) NAMES100(7) NAMES100(8) NAMES100(9)
};

int main(int argc, char **argv)
{
    int r, rank;
    long n = 1000;
    char err[256];
    const struct bench_intopt opts[] = { { 's', 1, 1000, &n } };
    MPI_Init(&argc, &argv);
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int rc = bench_intopts_parse("mpiprof-sites", argc, argv, opts, 1, err, sizeof err);
    if (rc != 0) {
        if (rank == 0)
            fprintf(rc == 1 ? stdout : stderr, "%s\n",
                    rc == 1 ? "Usage: mpirun -np N mpiprof-sites [-s SITES]: MPI_Comm_rank from SITES "
                              "(1..1000, default 1000) distinct call sites" : err);
        MPI_Finalize();
        return rc == 1 ? 0 : 2;
    }
    for (long k = 0; k < n; k++)
        sites[k](&r);
    MPI_Finalize();
    return 0;
}
