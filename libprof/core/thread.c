/* thread.c: per-thread state and the registry of threads (cold: a
 * thread's first wrapped call, its exit, and finalize).
 *
 * A thread that exits before MPI_Finalize has its records folded into one
 * per-rank "exited" pseudo-thread (index PROF_THREAD_EXITED, on the list
 * like the others) and its state freed, so memory follows the threads alive,
 * not all that ever called MPI. While finalize walks the list, exiting
 * threads leave their state in place; after it, they just free it. */
#include <pthread.h>
#include <stdlib.h>
#include "config.h"
#include "log.h"
#include "thread.h"
#include "via.h"

__thread struct prof_thread *prof_tl __attribute__((tls_model("initial-exec")));

enum phase { RUNNING, FINALIZING, DONE };

static struct {
    pthread_mutex_t lock;
    struct prof_thread *head;
    int count;
    int failed;              /* a thread could not get memory: said once */
    enum phase phase;
    struct prof_thread *exited;
    pthread_once_t once;
    pthread_key_t key;       /* its destructor runs at a registered thread's exit */
    int have_key;
} reg = { PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0, RUNNING, NULL, PTHREAD_ONCE_INIT, 0, 0 };

static void thread_exit(void *p);

static void make_key(void)
{
    reg.have_key = pthread_key_create(&reg.key, thread_exit) == 0;
}

/* A new state with an empty table; NULL without memory (said once). */
static struct prof_thread *new_state(void)
{
    struct prof_thread *th = calloc(1, sizeof *th);
    if (th && prof_table_init(&th->table, (uint32_t)prof_config.stack_depth, prof_via_on,
                              (uint32_t)prof_config.max_sites) == 0)
        return th;
    free(th);
    if (!reg.failed++)
        prof_log_local("out of memory for a thread's call-site table; that thread's calls are not profiled");
    return NULL;
}

static void free_state(struct prof_thread *th)
{
    prof_table_free(&th->table);
    free(th->taken);
    free(th->statuses);
    free(th);
}

struct prof_thread *prof_thread_attach(void)
{
    uint64_t t = prof_clock();
    pthread_once(&reg.once, make_key);
    pthread_mutex_lock(&reg.lock);
    struct prof_thread *th = new_state();
    if (th) {
        th->index = reg.count++;
        th->serial = (uint64_t)th->index + 1;
        th->next = reg.head;
        reg.head = th;
    }
    pthread_mutex_unlock(&reg.lock);
    if (th && reg.have_key)
        pthread_setspecific(reg.key, th);
    prof_tl = th;
    prof_profiler_add(th, t);
    return th;
}

/* Fold th into the exited pseudo-thread (lock held); -1 without memory. */
static int fold(struct prof_thread *th)
{
    if (!reg.exited) {
        if (!(reg.exited = new_state()))
            return -1;
        reg.exited->index = PROF_THREAD_EXITED;
        reg.exited->next = reg.head;
        reg.head = reg.exited;
    }
    prof_table_fold(&reg.exited->table, &th->table);
    reg.exited->foreign += th->foreign;
    reg.exited->profiler += th->profiler;
    reg.exited->escaped += th->escaped + (th->inside != 0);
    return 0;
}

static void thread_exit(void *p)
{
    struct prof_thread *th = p;
    pthread_mutex_lock(&reg.lock);
    int release = reg.phase == DONE || (reg.phase == RUNNING && fold(th) == 0);
    if (release) {
        struct prof_thread **at = &reg.head;
        while (*at && *at != th)
            at = &(*at)->next;
        if (*at)
            *at = th->next;
    }
    pthread_mutex_unlock(&reg.lock);
    if (release) {
        prof_tl = NULL;
        free_state(th);
    }
}

int prof_thread_room(void **buf, int *cap, int n, size_t size)
{
    if (n <= *cap)
        return 0;
    int want = *cap ? *cap : 16;
    while (want < n)
        want *= 2;
    void *p = realloc(*buf, (size_t)want * size);
    if (!p)
        return -1;
    *buf = p;
    *cap = want;
    return 0;
}

struct prof_thread *prof_thread_list(void)
{
    pthread_mutex_lock(&reg.lock);
    reg.phase = FINALIZING;
    struct prof_thread *h = reg.head;
    pthread_mutex_unlock(&reg.lock);
    return h;
}

struct prof_thread *prof_thread_hold(void)
{
    pthread_mutex_lock(&reg.lock);
    return reg.head;
}

void prof_thread_release(void)
{
    pthread_mutex_unlock(&reg.lock);
}

void prof_thread_list_done(void)
{
    pthread_mutex_lock(&reg.lock);
    reg.phase = DONE;
    pthread_mutex_unlock(&reg.lock);
}
