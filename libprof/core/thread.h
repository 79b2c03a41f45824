/* thread.h: the state each thread that calls MPI owns: its call-site table,
 * its datatype-size cache, its nesting flag. Reached through prof_tl (initial-exec
 * TLS: one instruction); created on the thread's first wrapped call (cold),
 * kept on a registry list that MPI_Finalize walks, folded and freed when the
 * thread exits (thread.c). */
#ifndef PROF_THREAD_H
#define PROF_THREAD_H

#include <stdbool.h>
#include <stdint.h>
#include "clock.h"
#include "handles.h"
#include "request.h"
#include "table.h"

/* A cause of waiting (wait states, waits.h): the rank (of MPI_COMM_WORLD)
 * and its code region, the compute between two of its call sites (record
 * keys: from, its call before; to, the call that came late), that made
 * others wait; rank < 0: none known. */
struct prof_cause {
    int32_t rank;
    int32_t pad;
    uint64_t from, to;
};
#define PROF_CAUSE_NONE ((struct prof_cause){ -1, 0, 0, 0 })

/* What the module around the point-to-point calls (around.h) learned of
 * the sender of a message a call or request received; set only when
 * prof_around_on. */
struct prof_sender {
    uint64_t key;                  /* the sending call site's record key (0: unknown) */
    double sent;                   /* the sender's modelled clock at the send (< 0: unknown) */
    uint64_t late;                 /* the receive's wait before the message was sent (ticks; of a call
                                      that completed several, from the send before it, tokens.c), */
    int eval;                      /* 1 when that was measured */
    int wrong;                     /* 1 when a message its sender sent before it was there, not received */
    struct prof_cause cause;       /* the cause its sender passed on (wait states) */
    uint64_t later;                /* not evaluated yet: its token is still to come (link/tokens.h:
                                      prof_tokens_later; 0: none) */
};
#define PROF_SENDER_NONE ((struct prof_sender){ 0, -1, 0, 0, 0, { -1, 0, 0, 0 }, 0 })

/* A request of a running Wait/Test/Request_free call (p2p.c). */
struct prof_taken {
    MPI_Request req;               /* as the call got it */
    int state;                     /* 0 unknown, 1 known (persistent, left in the map), 2 taken */
    int cand;                      /* the call reports it complete (flag, index, indices) */
    int done;                      /* after the call: completed and counted */
    const MPI_Status *status;      /* its status after the call, or NULL */
    int peer;                      /* done: world rank of the partner (< 0: none) */
    uint64_t bytes;                /* done: bytes sent, or bytes that arrived */
    struct prof_sender sender;     /* done, a receive: its sender (around.h) */
    uint64_t share;                /* done, in a profiled call: its part of the call's time (p2p.c) */
    struct prof_request info;
};

#define PROF_THREAD_EXITED (-1)

struct prof_thread {
    uintptr_t inside;              /* inside a wrapped call: the address of its struct
                                      prof_call (nested MPI_ calls pass through); 0 outside */
    uint64_t escaped;              /* calls that never returned through the profiler */
    uint64_t serial;               /* never reused, unlike the address of a freed state */
    int index;                     /* 0 for the first thread to call MPI, then 1, 2, ...;
                                      PROF_THREAD_EXITED: the threads that exited, folded */
    struct prof_table table;
    struct prof_dtype_cache dtypes;
    struct prof_taken *taken;      /* a stack: the requests of the completion calls running */
    int ntaken, taken_cap;         /* (nested ones above); popped entries stay readable */
    MPI_Status *statuses;          /* statuses for callers that passed MPI_STATUSES_IGNORE */
    int statuses_cap;
    uint64_t foreign;              /* receives completed here but posted (started) by another thread */
    uint64_t profiler;             /* ticks the profiler spent in this thread's wrapped calls outside
                                      their timed part (prof_profiler_add) */
    uintptr_t seg_lo, seg_len;     /* the executable segment of the last call site looked up (via.h), */
    uint8_t seg_kind;              /* a library that passes MPI calls through, Python (PROF_VIA_*) */
    struct prof_thread *next;
};

extern __thread struct prof_thread *prof_tl __attribute__((tls_model("initial-exec")));

/* prof_profiler_add: the profiler's own work since t (its clock), done
 * in a wrapped call after the call's time was taken (the model's clock
 * settling, a snapshot): summary.txt's profiler_s, never the program's
 * compute. The clock now. */
static inline uint64_t prof_profiler_add(struct prof_thread *th, uint64_t t)
{
    uint64_t now = prof_clock();
    if (th && now > t)
        th->profiler += now - t;
    return now;
}

/* prof_thread_attach: create and register the calling thread's state; NULL
 * when out of memory (the thread's calls then pass through unprofiled). */
struct prof_thread *prof_thread_attach(void);

/* prof_thread_room: grow *buf to hold n elements of size each (cold: only
 * when a Wait/Test call has more requests than any before); 0 or -1. */
int prof_thread_room(void **buf, int *cap, int n, size_t size);

/* prof_thread_list: the registered threads, newest first, the exited
 * threads' pseudo-thread among them (finalize only: from the first call on,
 * exiting threads leave the list alone until prof_thread_list_done). */
struct prof_thread *prof_thread_list(void);
void prof_thread_list_done(void);

/* prof_thread_hold: the registered threads, the list held unchanged (no
 * thread attaches or exits) until prof_thread_release (snapshot.c; the
 * threads' calls go on). */
struct prof_thread *prof_thread_hold(void);
void prof_thread_release(void);

#endif
