/* sites.c: mpiprof-sites, a workload with many distinct call sites, for
 * timing the report at MPI_Finalize (bench/report-time.sh). Each rank makes
 * -s N (default 1000, at most 1000) MPI_Comm_rank calls, each from its own
 * call site (its own call instruction), then finalizes. Known answer: N
 * branches of MPI_Comm_rank per rank in branches.txt. */
#include <stdio.h>
#include <mpi.h>
#include "intopts.h"

#define SITE(k) if (k < n) MPI_Comm_rank(MPI_COMM_WORLD, &r);
#define SITES10(k) SITE(k) SITE(k + 1) SITE(k + 2) SITE(k + 3) SITE(k + 4) \
                   SITE(k + 5) SITE(k + 6) SITE(k + 7) SITE(k + 8) SITE(k + 9)
#define SITES100(k) SITES10(k) SITES10(k + 10) SITES10(k + 20) SITES10(k + 30) SITES10(k + 40) \
                    SITES10(k + 50) SITES10(k + 60) SITES10(k + 70) SITES10(k + 80) SITES10(k + 90)
#define SITES1000 SITES100(0) SITES100(100) SITES100(200) SITES100(300) SITES100(400) \
                  SITES100(500) SITES100(600) SITES100(700) SITES100(800) SITES100(900)

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
    SITES1000
    MPI_Finalize();
    return 0;
}
