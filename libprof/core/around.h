/* around.h: the point-to-point calls a module may make in the program's
 * place (the around= hooks of families.def). The tokens (link/tokens.c) are the
 * one module that does: it sends its tokens before a send, and it waits
 * for a receive's message and its token together, so that its receive
 * returns when the program's would. At most one started module brings a
 * struct prof_around (module.h); modules.c copies it to prof_around and
 * sets prof_around_on at MPI_Init.
 *
 * sent is the one entry that runs after the PMPI call: the after= hook of
 * the sends that have around=send (prof_sent, prof.h), on every call, for
 * what the module began before the send (a token that goes after its
 * message: MPIPROF_TEST_TOKEN).
 *
 * A hook runs right before the PMPI call, on every call, profiled or not
 * (c->th NULL when not), only when prof_around_on. It returns 1 when it
 * made the program's call itself (c->rc set: what the call returns is what
 * the program's call returns), else 0 and the wrapper makes it. For a
 * profiled receive, probe or completion call it leaves what it learned of
 * the messages' senders (struct prof_sender, thread.h) in c->sender and in
 * the completion's th->taken entries: p2p.c names the partners by their
 * sending sites and gives them to the events (events.h). */
#ifndef PROF_AROUND_H
#define PROF_AROUND_H

#include <mpi.h>

struct prof_call;

/* The entries, named by the around= hooks of families.def (around=send(...)
 * calls prof_around.send(&c, ...)). start1 takes MPI_Start, start
 * MPI_Startall; wait1 MPI_Wait and MPI_Test (flag); wait the other
 * completion calls, test being PROF_AROUND_TEST for MPI_Testsome (the only Test variant
 * without a flag), PROF_AROUND_WAIT for the others. Every entry is set. */
enum { PROF_AROUND_WAIT = 0, PROF_AROUND_TEST = 1 };

struct prof_around {
    int (*send)(struct prof_call *c, MPI_Count count, MPI_Datatype type, int dst, int tag, MPI_Comm comm);
    int (*recv)(struct prof_call *c, void *buf, MPI_Count count, MPI_Datatype type, int src, int tag,
                MPI_Comm comm, MPI_Status *status, MPI_Request *req);
    int (*sendrecv)(struct prof_call *c, const void *sbuf, MPI_Count scount, MPI_Datatype stype, int dst,
                    int tag, void *rbuf, MPI_Count rcount, MPI_Datatype rtype, int src, int rtag, MPI_Comm comm,
                    MPI_Status *status);
    int (*sendrecv_replace)(struct prof_call *c, void *buf, MPI_Count count, MPI_Datatype type, int dst,
                            int tag, int src, int rtag, MPI_Comm comm, MPI_Status *status);
    int (*start)(struct prof_call *c, int n, MPI_Request *reqs);
    int (*start1)(struct prof_call *c, MPI_Request *req);
    int (*probe)(struct prof_call *c, int src, int tag, MPI_Comm comm, int *flag, MPI_Status *status);
    int (*mprobe)(struct prof_call *c, int src, int tag, MPI_Comm comm, MPI_Message *msg, int *flag,
                  MPI_Status *status);
    int (*wait1)(struct prof_call *c, MPI_Request *req, int *flag, MPI_Status *status);
    int (*wait)(struct prof_call *c, int n, MPI_Request *reqs, int *index, int *flag, int *outcount,
                int *indices, MPI_Status *status, MPI_Status *statuses, int test);
    int (*request_free)(struct prof_call *c, MPI_Request *req);
    void (*sent)(struct prof_call *c);
};

extern struct prof_around prof_around;
extern int prof_around_on;

#endif
