/* log.h: the tool's diagnostics on stderr, one line each, "mpiprof: ..." (cold).
 * prof_log_once: printed by rank 0 only (configuration, report location);
 * prof_log_local: printed by the rank it happens on, naming the rank. */
#ifndef PROF_LOG_H
#define PROF_LOG_H

#include <stdarg.h>
#include <stddef.h>

/* Longest diagnostic line, newline included; longer ones are cut. */
#define PROF_LOG_LINE 4096

/* prof_log_set_rank: this process's rank in MPI_COMM_WORLD (from MPI_Init). */
void prof_log_set_rank(int rank);
void prof_log_once(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void prof_log_local(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* prof_log_format: prefix, the formatted message and a newline into buf
 * (size >= 2), cut to fit; NUL-terminated. Returns the line's length,
 * newline included: what prof_log_* hand to one write(2). Thread-safe. */
size_t prof_log_format(char *buf, size_t size, const char *prefix, const char *fmt, va_list ap);

#endif
