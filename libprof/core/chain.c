/* chain.c: MPIPROF_CHAIN (chain.h; cold). */
#define _GNU_SOURCE            /* RTLD_NEXT */
#include <dlfcn.h>
#include <pthread.h>
#include "chain.h"
#include "config.h"
#include "next.h"

static int chaining;

static void *find_next(const char *name)
{
    return dlsym(RTLD_NEXT, name);
}

static void resolve(void)
{
    chaining = prof_config_yes("MPIPROF_CHAIN");
    if (chaining)
        prof_next_resolve(find_next);
}

void prof_chain_start(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, resolve);
}

void *prof_chain_custom(const char *name, void *pmpi)
{
    void *next = chaining ? find_next(name) : NULL;
    return next ? next : pmpi;
}
