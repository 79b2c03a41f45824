/* known_imbalance.c: mpiprof-known imbalance [-k CALLS] [-d MS]: rank i
 * computes i x MS milliseconds before each of CALLS MPI_Allreduce calls, so
 * each call waits for the last rank: rank i's collective wait is
 * CALLS x (P - 1 - i) x MS ms (collwait.txt's wait_s of its MPI_Allreduce
 * under MPIPROF_EVAL_COLLECTIVE_WAIT), worked out from how long each
 * rank's computation actually took. */
#include <stdio.h>
#include <stdlib.h>
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
    double *spent = known_doubles(calls), *slowest = rank == 0 ? known_doubles(calls) : NULL;
    long sum = 0;
    double mine = 0;
    for (long k = 0; k < calls; k++) {
        long one = 1, total = 0;
        spent[k] = known_compute(rank * delay);
        mine += spent[k];
        MPI_Allreduce(&one, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
        sum += total;
    }
    if (sum != calls * size) {
        fprintf(stderr, "mpiprof-known imbalance: rank %d: MPI_Allreduce sums to %ld, not %ld\n", rank, sum,
                calls * size);
        return 1;
    }
    /* The answer from what happened: call k waits for the slowest rank's
     * computation, so rank i waits sum_k max_j c(j,k) - sum_k c(i,k). */
    MPI_Reduce(spent, slowest, (int)calls, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    double *all = known_gather(&mine, 1);
    if (rank == 0) {
        double last = 0;
        for (long k = 0; k < calls; k++)
            last += slowest[k];
        /* its MPI_Allreduce's wait: the Reduce and Gather of the answer
         * wait too, for microseconds on one node and milliseconds across
         * nodes, as they really do */
        known_line("imbalance", calls, delay, "collwait.txt", "wait_s");
        printf(" function=MPI_Allreduce");
        for (int r = 0; r < size; r++)
            all[r] = last - all[r];
        known_list("values", size, NULL, all);
        for (int r = 0; r < size; r++)
            all[r] = calls * (size - 1 - r) * delay;
        known_list("nominal", size, NULL, all);
        known_end();
    }
    free(all);
    free(slowest);
    free(spent);
    return 0;
}

const struct known_workload known_imbalance = {
    "imbalance", "rank i computes i*D ms before each MPI_Allreduce: collective wait (D)", run
};
