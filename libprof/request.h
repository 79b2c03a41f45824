/* request.h: what a persistent request will move each time it is started
 * (MPI_Send_init ... MPI_Start). Process-wide and lock-free, because a
 * request may be started by another thread than the one that created it;
 * bounded (PROF_REQUEST_SLOTS live persistent requests), with a count of the
 * requests that did not fit, reported in the summary header. */
#ifndef PROF_REQUEST_H
#define PROF_REQUEST_H

#include <stdint.h>
#include <mpi.h>
#include "record.h"

#define PROF_REQUEST_SLOTS 16384u   /* power of two */

/* prof_request_put: remember req with its traffic per start (thread safe). */
void prof_request_put(MPI_Request req, const struct prof_traffic *tr);
/* prof_request_get: the traffic of req; 0 when unknown (thread safe). */
int prof_request_get(MPI_Request req, struct prof_traffic *tr);
/* prof_request_forget: req is being freed (thread safe). */
void prof_request_forget(MPI_Request req);
/* prof_request_untracked: persistent requests that did not fit. */
uint64_t prof_request_untracked(void);

#endif
