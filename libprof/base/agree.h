/* agree.h: whether the ranks were given the same settings (cold: MPI_Init).
 * An option that changes what the profiler sends (late-sender tokens, the
 * model's clock exchanges, collective wait's barriers) must be the same on
 * every rank, or a message would go unread. */
#ifndef PROF_AGREE_H
#define PROF_AGREE_H

#include <stdbool.h>

/* prof_agree: collective over the tool's communicator (prof_run.comm):
 * 1 when every rank passed the same n values v, 0 when some differ, -1
 * when the exchange failed. same (NULL: not wanted) gets, per value,
 * whether every rank had it. */
int prof_agree(const double *v, int n, bool *same);

#endif
