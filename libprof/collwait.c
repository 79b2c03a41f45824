/* collwait.c: collective wait, and the communicators behind windows and
 * files (cold: only with MPIPROF_EVAL_COLLECTIVE_WAIT; a barrier costs far
 * more than the mutex around the small handle map). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "collwait.h"
#include "log.h"
#include "prof.h"

int prof_collwait_on;

void prof_collwait_comm(struct prof_call *c, MPI_Comm comm)
{
    if (comm == MPI_COMM_NULL)
        return;
    uint64_t t = prof_clock();
    if (PMPI_Barrier(comm) != MPI_SUCCESS)
        return;
    uint64_t dt = prof_clock() - t;
    struct prof_record *r = prof_call_record(c);
    r->s.sync_calls++;
    r->s.sync_ticks += dt;
}

/* Window and file handles -> the duplicate of their communicator. Keys are
 * the handle's bits with the kind on top (MPICH windows are ints, files
 * pointers); few at a time, so a plain array. */
enum kind { WIN = 1, FILE_ = 2 };

struct entry {
    uint64_t key;
    MPI_Comm comm;
};

static struct {
    pthread_mutex_t lock;
    struct entry *v;
    size_t n, cap;
} map = { .lock = PTHREAD_MUTEX_INITIALIZER };

static uint64_t key_of(enum kind k, const void *handle, size_t size)
{
    uint64_t bits = 0;
    memcpy(&bits, handle, size < sizeof bits ? size : sizeof bits);
    return bits ^ ((uint64_t)k << 62);
}

static MPI_Comm find(uint64_t key)
{
    MPI_Comm comm = MPI_COMM_NULL;
    pthread_mutex_lock(&map.lock);
    for (size_t i = 0; i < map.n; i++)
        if (map.v[i].key == key)
            comm = map.v[i].comm;
    pthread_mutex_unlock(&map.lock);
    return comm;
}

/* A handle value seen again is a new object (the old one was freed by a
 * call we did not see): its entry is replaced. */
static void add(uint64_t key, MPI_Comm user)
{
    MPI_Comm dup, old = MPI_COMM_NULL;
    if (PMPI_Comm_dup(user, &dup) != MPI_SUCCESS) {
        prof_log_once("collective wait: cannot duplicate a window's or file's communicator; "
                      "its collective calls are not evaluated");
        return;
    }
    pthread_mutex_lock(&map.lock);
    size_t i = 0;
    while (i < map.n && map.v[i].key != key)
        i++;
    if (i == map.n && map.n == map.cap) {
        size_t cap = map.cap ? 2 * map.cap : 16;
        struct entry *v = realloc(map.v, cap * sizeof *v);
        if (v) {
            map.v = v;
            map.cap = cap;
        }
    }
    if (i < map.cap) {
        if (i < map.n)
            old = map.v[i].comm;
        else
            map.n++;
        map.v[i] = (struct entry){ key, dup };
    } else {
        old = dup;
    }
    pthread_mutex_unlock(&map.lock);
    if (old != MPI_COMM_NULL)
        PMPI_Comm_free(&old);
}

/* After the object was freed: drop its entry if it still holds comm (the
 * handle value may already name a newer object) and free comm. */
static void drop(uint64_t key, MPI_Comm comm)
{
    pthread_mutex_lock(&map.lock);
    for (size_t i = 0; i < map.n; i++)
        if (map.v[i].key == key && map.v[i].comm == comm) {
            map.v[i] = map.v[--map.n];
            break;
        }
    pthread_mutex_unlock(&map.lock);
    PMPI_Comm_free(&comm);
}

void prof_collwait_win(struct prof_call *c, MPI_Win win)
{
    prof_collwait_comm(c, find(key_of(WIN, &win, sizeof win)));
}

void prof_collwait_file(struct prof_call *c, MPI_File fh)
{
    prof_collwait_comm(c, find(key_of(FILE_, &fh, sizeof fh)));
}

static void created(struct prof_call *c, uint64_t key, MPI_Comm comm)
{
    if (prof_collwait_on && c->rc == MPI_SUCCESS)
        add(key, comm);
}

static void freeing(struct prof_call *c, uint64_t key)
{
    c->sync_key = key;
    c->sync_comm = prof_collwait_on ? find(key) : MPI_COMM_NULL;
}

static void freed(struct prof_call *c)
{
    if (c->sync_comm != MPI_COMM_NULL && c->rc == MPI_SUCCESS)
        drop(c->sync_key, c->sync_comm);
}

void prof_win_created(struct prof_call *c, MPI_Comm comm, MPI_Win *win)
{
    created(c, key_of(WIN, win, sizeof *win), comm);
}

void prof_win_freeing(struct prof_call *c, MPI_Win *win)
{
    freeing(c, key_of(WIN, win, sizeof *win));
}

void prof_win_freed(struct prof_call *c, MPI_Win *win)
{
    (void)win;
    freed(c);
}

void prof_file_opened(struct prof_call *c, MPI_Comm comm, MPI_File *fh)
{
    created(c, key_of(FILE_, fh, sizeof *fh), comm);
}

void prof_file_closing(struct prof_call *c, MPI_File *fh)
{
    freeing(c, key_of(FILE_, fh, sizeof *fh));
}

void prof_file_closed(struct prof_call *c, MPI_File *fh)
{
    (void)fh;
    freed(c);
}
