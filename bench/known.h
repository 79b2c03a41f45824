/* known.h: mpiprof-known, workloads whose profile is known in advance, so
 * that the late-sender and collective-wait figures of a report can be
 * checked against an answer (tests, mpiprof-validate). Each workload
 * prints, on rank 0, one line of key=value words naming the report file,
 * its column and the expected value per rank. */
#ifndef BENCH_KNOWN_H
#define BENCH_KNOWN_H

#include <stdio.h>

struct known_workload {
    const char *name;
    const char *summary;       /* one line for the usage text */
    /* argc/argv from the workload's name on; returns the exit status. */
    int (*run)(int argc, char **argv, int rank, int size);
};

extern const struct known_workload known_imbalance;
extern const struct known_workload known_late_sender;
extern const struct known_workload known_late_receiver;
extern const struct known_workload known_late_senders;

/* known_compute: stand for D seconds of computation without using the
 * processor (sleep), so that oversubscribed ranks do not slow each other. */
void known_compute(double seconds);

/* known_expect: rank 0 prints "expect=NAME ranks=P calls=K delay_s=D
 * file=FILE column=COLUMN values=v0,v1,..." for the per-rank values
 * (gathered to rank 0). Collective over MPI_COMM_WORLD. */
void known_expect(const char *name, long calls, double delay, const char *file, const char *column, double mine);

#endif
