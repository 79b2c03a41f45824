/* answers.h: small answers a process sends back to a partner that posted
 * their receive before it could be asked (the model's replies,
 * model_reply.c; wait states' notices, waits_sync.c): each sent
 * synchronously, from a copy, and kept until it is matched, so that at
 * MPI_Finalize every answer sent can be known matched before the partners
 * withdraw the receives no answer came to. Cold. */
#ifndef PROF_ANSWERS_H
#define PROF_ANSWERS_H

#include <mpi.h>

/* prof_answer_send: size bytes (at most PROF_ANSWER_MAX) of buf to dst
 * with tag on comm; the answers matched since are let go. Silently
 * nothing when out of memory or when the send fails. */
#define PROF_ANSWER_MAX 128
void prof_answer_send(MPI_Comm comm, int dst, int tag, const void *buf, int size);

/* prof_answers_matched: at MPI_Finalize, every answer sent is matched. */
void prof_answers_matched(void);

#endif
