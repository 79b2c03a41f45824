/* known.h: mpiprof-known, workloads whose profile is known in advance, so
 * that the late-sender and collective-wait figures of a report can be
 * checked against an answer (tests, mpiprof-validate). Each workload
 * prints, on rank 0, one line of key=value words naming the report file,
 * its column and the expected value per rank (or per partner); rma and io
 * list the expected rows of rma.txt and io.txt (known_rmaio.c). */
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
extern const struct known_workload known_late_waitall;
extern const struct known_workload known_late_exchange;
extern const struct known_workload known_model_compute;
extern const struct known_workload known_model_icompute;
extern const struct known_workload known_model_pcompute;
extern const struct known_workload known_model_comm;
extern const struct known_workload known_model_sends;
extern const struct known_workload known_model_link;
extern const struct known_workload known_model_rma;
extern const struct known_workload known_model_colls;
extern const struct known_workload known_model_chain;
extern const struct known_workload known_model_sync;
extern const struct known_workload known_model_lock;
extern const struct known_workload known_waits;
extern const struct known_workload known_rma;
extern const struct known_workload known_io;

/* known_compute: stand for D seconds of computation without using the
 * processor (sleep), so that oversubscribed ranks do not slow each other.
 * Returns how long it took: a sleep on a loaded node wakes up late, and
 * the answers are worked out from what happened. */
double known_compute(double seconds);

/* known_t0: MPI_Wtime() when MPI_Init returned. */
extern double known_t0;

/* known_doubles, known_ints: n zeroed doubles or ints (to free); without
 * memory the job stops with one message. */
double *known_doubles(long n);
int *known_ints(long n);

/* known_gather: each rank's n values; on rank 0 an array of n per rank in
 * rank order (to free), NULL elsewhere. Collective over MPI_COMM_WORLD. */
double *known_gather(const double *mine, int n);

/* The expected line, on rank 0: known_line prints "expect=NAME ranks=P
 * calls=K delay_s=D file=FILE column=COLUMN", known_list " KEY=" and n
 * values (as id:value when ids is not NULL), known_end the newline. */
void known_line(const char *name, long calls, double delay, const char *file, const char *column);
void known_list(const char *key, int n, const int *ids, const double *values);
void known_end(void);

#endif
