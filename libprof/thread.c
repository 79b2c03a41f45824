/* thread.c: per-thread state and the registry of threads (cold: a
 * thread's first wrapped call, and finalize). */
#include <pthread.h>
#include <stdlib.h>
#include "config.h"
#include "log.h"
#include "thread.h"

__thread struct prof_thread *prof_tl __attribute__((tls_model("initial-exec")));

static struct {
    pthread_mutex_t lock;
    struct prof_thread *head;
    int count;
    int failed;              /* a thread could not get memory: said once */
} reg = { PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0 };

struct prof_thread *prof_thread_attach(void)
{
    struct prof_thread *th = calloc(1, sizeof *th);
    if (!th || prof_table_init(&th->table, (uint32_t)prof_config.stack_depth) != 0) {
        free(th);
        pthread_mutex_lock(&reg.lock);
        if (!reg.failed++)
            prof_log_local("out of memory for a thread's call-site table; that thread's calls are not profiled");
        pthread_mutex_unlock(&reg.lock);
        return NULL;
    }
    pthread_mutex_lock(&reg.lock);
    th->index = reg.count++;
    th->next = reg.head;
    reg.head = th;
    pthread_mutex_unlock(&reg.lock);
    prof_tl = th;
    return th;
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
    struct prof_thread *h = reg.head;
    pthread_mutex_unlock(&reg.lock);
    return h;
}
