/* answers.c: the answers sent and not yet known matched (answers.h), in
 * one list under one mutex. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "answers.h"
#include "lock.h"

struct out {
    MPI_Request req;
    unsigned char buf[PROF_ANSWER_MAX];
    struct out *next;
};

static struct {
    pthread_mutex_t lock;
    struct out *head;
} sent = { .lock = PTHREAD_MUTEX_INITIALIZER };

void prof_answer_send(MPI_Comm comm, int dst, int tag, const void *buf, int size)
{
    struct out *o = size >= 0 && size <= PROF_ANSWER_MAX ? malloc(sizeof *o) : NULL;
    if (!o)
        return;
    memcpy(o->buf, buf, (size_t)size);
    prof_lock(&sent.lock);
    for (struct out **pp = &sent.head, *e; (e = *pp);) {      /* the answers matched since */
        int flag = 0;
        if (PMPI_Test(&e->req, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS && flag) {
            *pp = e->next;
            free(e);
        } else {
            pp = &e->next;
        }
    }
    if (PMPI_Issend(o->buf, size, MPI_BYTE, dst, tag, comm, &o->req) == MPI_SUCCESS) {
        o->next = sent.head;
        sent.head = o;
        o = NULL;
    }
    prof_unlock(&sent.lock);
    free(o);
}

void prof_answers_matched(void)
{
    prof_lock(&sent.lock);
    while (sent.head) {
        struct out *o = sent.head;
        sent.head = o->next;
        PMPI_Wait(&o->req, MPI_STATUS_IGNORE);
        free(o);
    }
    prof_unlock(&sent.lock);
}
