/* known_imbalance.c: mpiprof-known imbalance [-k CALLS] [-d MS]: rank i
 * computes i x MS milliseconds before each of CALLS MPI_Allreduce calls, so
 * each call waits for the last rank: rank i's collective wait is
 * CALLS x (P - 1 - i) x MS ms (summary.txt coll_wait_s under
 * MPIPROF_EVAL_COLLECTIVE_WAIT). */
#include <stdio.h>
#include <mpi.h>
#include "intopts.h"
#include "known.h"

static int run(int argc, char **argv, int rank, int size)
{
    long calls = 10, ms = 20;
    char err[256];
    const struct bench_intopt opts[] = { { 'k', 1, 1000000, &calls }, { 'd', 0, 10000, &ms } };
    int rc = bench_intopts_parse("mpiprof-known imbalance", argc, argv, opts, 2, err, sizeof err);
    if (rc != 0) {
        if (rank == 0)
            fprintf(rc == 1 ? stdout : stderr, "%s\n",
                    rc == 1 ? "Usage: mpiprof-known imbalance [-k CALLS (default 10)] [-d MS (0..10000, default 20)]: "
                              "rank i computes i*MS ms before each MPI_Allreduce" : err);
        return rc == 1 ? 0 : 2;
    }
    double delay = ms * 1e-3;
    long sum = 0;
    for (long k = 0; k < calls; k++) {
        long one = 1, total = 0;
        known_compute(rank * delay);
        MPI_Allreduce(&one, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
        sum += total;
    }
    if (sum != calls * size) {
        fprintf(stderr, "mpiprof-known imbalance: rank %d: MPI_Allreduce sums to %ld, not %ld\n", rank, sum,
                calls * size);
        return 1;
    }
    known_expect("imbalance", calls, delay, "summary.txt", "coll_wait_s", calls * (size - 1 - rank) * delay);
    return 0;
}

const struct known_workload known_imbalance = {
    "imbalance", "rank i computes i*D ms before each MPI_Allreduce: collective wait (D)", run
};
