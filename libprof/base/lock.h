/* lock.h: the mutexes of the analyses' shared state (shadows, tokens, the
 * model's clock), taken only when the program may call MPI from several
 * threads at once (MPI_THREAD_MULTIPLE provided). At any lower level one
 * thread at a time calls MPI, and the program's own synchronization orders
 * those calls: a lock would only add its cost to every message. */
#ifndef PROF_LOCK_H
#define PROF_LOCK_H

#include <pthread.h>
#include <mpi.h>
#include "run.h"

static inline void prof_lock(pthread_mutex_t *m)
{
    if (prof_run.thread_level == MPI_THREAD_MULTIPLE)
        pthread_mutex_lock(m);
}

static inline void prof_unlock(pthread_mutex_t *m)
{
    if (prof_run.thread_level == MPI_THREAD_MULTIPLE)
        pthread_mutex_unlock(m);
}

#endif
