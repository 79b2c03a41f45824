/* log.h: the tool's diagnostics on stderr, one line each, "mpiprof: ..." (cold).
 * prof_log_once: printed by rank 0 only (configuration, report location);
 * prof_log_local: printed by the rank it happens on, naming the rank. */
#ifndef PROF_LOG_H
#define PROF_LOG_H

/* prof_log_set_rank: this process's rank in MPI_COMM_WORLD (from MPI_Init). */
void prof_log_set_rank(int rank);
void prof_log_once(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void prof_log_local(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
