/* shadow.h: the tool's private duplicates ("shadows") of the application's
 * communicators, and of the communicators its windows and files were made
 * on: a channel beside the application's that no receive of the program can
 * match. Created collectively right after the call that creates the handle
 * (every member makes the same PMPI_Comm_dup in the same order), freed right
 * after the call that frees it; looked up by handle under a mutex (only the
 * analyses that need them look). Which kinds are made is what the analyses
 * ask for at their start (prof_shadow_want); a window's shadow carries the
 * state the analyses attach to it (prof_shadow_attach). */
#ifndef PROF_SHADOW_H
#define PROF_SHADOW_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <mpi.h>

struct prof_call;
struct prof_token_queue;

enum prof_shadow_kind { PROF_SHADOW_COMM = 1, PROF_SHADOW_WIN = 2, PROF_SHADOW_FILE = 3 };

/* What the analyses want shadows of (prof_shadow_want, in their module's
 * start): communicators (the tokens), their reply shadows, windows and
 * files. */
enum { PROF_WANT_COMM = 1, PROF_WANT_REPLY = 2, PROF_WANT_WIN = 4, PROF_WANT_FILE = 8 };
void prof_shadow_want(unsigned what);

#define PROF_SHADOW_STATES 4

struct prof_shadow {
    uint64_t key;                  /* kind and handle (prof_shadow_key) */
    MPI_Comm comm;                 /* the duplicate */
    MPI_Comm reply;                /* a communicator's second, for exchanges of one source and tag (the
                                      model's replies, wait states' tokens), when wanted and its
                                      processes are all in MPI_COMM_WORLD; or MPI_COMM_NULL */
    int freeing;                   /* its handle is being freed (map lock) */
    pthread_mutex_t lock;          /* guards tokens */
    struct prof_token_queue *tokens;   /* tokens received, not yet matched (tokens.c) */
    void *state[PROF_SHADOW_STATES];   /* a window's: what each analysis attached (prof_shadow_attach) */
};

/* prof_shadow_attach: at an analysis' start, the state it keeps with each
 * window's shadow: make(comm) when the shadow is made (collective over its
 * duplicate comm; NULL: none), drop(state) when it is freed. Returns its
 * index in the shadows' state, or -1 (more than PROF_SHADOW_STATES). */
int prof_shadow_attach(void *(*make)(MPI_Comm comm), void (*drop)(void *state));

/* The tags of the profiler's own messages on a shadow, one range per
 * analysis so that none matches another's: on a communicator's reply
 * shadow, the model's replies (0 to PROF_TAGS_REPLIES - 1) and wait
 * states' tokens (PROF_TAGS_WAITS to PROF_TAGS_WAITS + 31); on a window's
 * shadow, the model's epoch tokens (1 to 3) and wait states' (from
 * PROF_TAGS_WAITS + 16). */
#define PROF_TAGS_REPLIES 32768
#define PROF_TAGS_WAITS 32784

static inline uint64_t prof_shadow_key(enum prof_shadow_kind kind, const void *handle, size_t size)
{
    uint64_t bits = 0;
    memcpy(&bits, handle, size < sizeof bits ? size : sizeof bits);
    return bits ^ ((uint64_t)kind << 61);
}

/* prof_shadow_add: duplicate user (collective over it) and file the copy
 * under key, replacing an older entry of the same handle value (a handle
 * seen again names a new object); a communicator's reply shadow when
 * wanted, and a window's attached states. Says so once when the duplicate
 * fails. */
void prof_shadow_add(uint64_t key, MPI_Comm user);
/* prof_shadow_find: the entry of key, or NULL. Valid until the handle is
 * freed. */
struct prof_shadow *prof_shadow_find(uint64_t key);

/* prof_shadow_coll_comm: where the blocking collective of a coll_enter
 * event (events.h) can synchronize: its communicator, or the shadow of its
 * window or file; MPI_COMM_NULL when it has none. */
struct prof_ev_coll;
MPI_Comm prof_shadow_coll_comm(const struct prof_ev_coll *ev);

/* prof_group_ranks: group's ranks in the group to (MPI_UNDEFINED: not in
 * it) into *ranks (malloc'd; the old array freed), their number in *n (0:
 * none, or out of memory); prof_group_ranks_in_win: in win's group, as in
 * its shadow (an active-target epoch's partners). Cold. */
void prof_group_ranks(MPI_Group group, MPI_Group to, int **ranks, int *n);
void prof_group_ranks_in_win(MPI_Group group, MPI_Win win, int **ranks, int *n);
/* prof_comm_world_ranks: the MPI_COMM_WORLD ranks of comm's processes (a
 * window's, on its shadow: the targets of its epochs), as
 * prof_group_ranks. Cold. */
void prof_comm_world_ranks(MPI_Comm comm, int **ranks, int *n);

/* prof_win_number: a number for a window made on comm (collective over
 * it, right after it is made; cold), the same at each of its processes
 * and above every number any of them gave before; *lacks (this process
 * has no memory for its state) becomes whether one of them has none. -1
 * when they could not agree. */
int prof_win_number(MPI_Comm comm, int *lacks, unsigned *number);

/* prof_own_win: a window of the profiler's own over every process of
 * MPI_COMM_WORLD (base, size bytes, disp_unit), made on the tool's
 * communicator with errors returned; MPI_WIN_NULL on every process when the
 * MPI cannot make it there (Open MPI 4.1's default one-sided component over
 * TCP between nodes): then rank 0 says in one line that what (e.g. "lock
 * contention") is off, and the report says so in a note. Collective over
 * MPI_COMM_WORLD; cold (MPI_Init). */
MPI_Win prof_own_win(void *base, MPI_Aint size, int disp_unit, const char *what);

/* prof_shadow_each: fn on every shadow of kind (under the map's lock: fn
 * must not add or free shadows). */
void prof_shadow_each(enum prof_shadow_kind kind, void (*fn)(struct prof_shadow *));

/* prof_shadow_release_all: at the end of MPI_Finalize's report, free every
 * shadow left (those of MPI_COMM_WORLD and MPI_COMM_SELF, and of handles
 * the program never freed); the map is empty afterwards. */
void prof_shadow_release_all(void);

/* The shadow module (prof_mod_shadow, always listed; on when an analysis
 * wants shadows) makes and frees the shadows of communicators, windows and
 * files from their events (events.h). */

#endif
