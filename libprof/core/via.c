/* via.c: which return addresses are in the libraries that only pass MPI
 * calls through (via.h). The executable segments of the loaded modules,
 * sorted, each marked when its module's file name matches a pattern of
 * MPIPROF_VIA; made at the first lookup and again when an address is in
 * none of them and a module was loaded since (a library the program
 * opened later). A table is never changed once published, and the ones it
 * replaced are freed at MPI_Finalize, so lookups take no lock. */
#define _GNU_SOURCE            /* dl_iterate_phdr */
#include <fnmatch.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config.h"
#include "python.h"
#include "ranges.h"
#include "via.h"

/* The documented default (mpiprof(1), MPIPROF_VIA): the MPI libraries and
 * their language bindings, parallel I/O libraries, solver libraries. */
static const char default_via[] =
    "libmpi.so*,libmpi_*.so*,libmpich*.so*,libmpicxx*.so*,libhdf5*.so*,libnetcdf*.so*,libpnetcdf*.so*,"
    "libadios2*.so*,libpetsc*.so*,libslepc*.so*,libHYPRE*.so*,libsuperlu_dist*.so*,libscalapack*.so*,"
    "libmumps*.so*,lib*mumps.so*,libparmetis*.so*,libptscotch*.so*,libtrilinos*.so*,libteuchos*.so*,"
    "libepetra*.so*,libtpetra*.so*,libboost_mpi*.so*,libfftw3*_mpi.so*";

bool prof_via_on;
static char patterns[sizeof default_via + sizeof prof_config.via];

struct segs {
    struct prof_range *v;  /* tag: PROF_VIA_* */
    int n;
    unsigned long long adds;        /* the loader's count of modules loaded when made */
    struct segs *older;             /* the table it replaced */
};

static struct segs *current;
static pthread_mutex_t remake = PTHREAD_MUTEX_INITIALIZER;

void prof_via_start(void)
{
    const char *v = prof_config.via;
    int added = !v[0] || v[0] == '+';
    prof_via_on = strcmp(v, "none") != 0;
    int n = snprintf(patterns, sizeof patterns, "%s%s%s", added ? default_via : "", added && v[0] ? "," : "",
                     v + (v[0] == '+'));
    if (n < 0 || (size_t)n >= sizeof patterns)
        patterns[0] = '\0';            /* cannot be: patterns holds both */
}

/* Whether the module file name matches a pattern of the comma-separated
 * list. */
static bool matches(const char *list, const char *path)
{
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    char pat[256];
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ",");
        if (n && n < sizeof pat) {
            memcpy(pat, p, n);
            pat[n] = '\0';
            if (fnmatch(pat, name, 0) == 0)
                return true;
        }
        p += n + (p[n] == ',');
    }
    return false;
}

static int add_module(struct dl_phdr_info *info, size_t size, void *data)
{
    struct segs *s = data;
    (void)size;
    s->adds = info->dlpi_adds;
    uintptr_t py = prof_python_interpreter();
    bool has_py = false;
    for (int i = 0; py && i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        has_py |= ph->p_type == PT_LOAD && py - (info->dlpi_addr + ph->p_vaddr) < ph->p_memsz;
    }
    bool named = info->dlpi_name[0] != '\0';
    uint8_t kind = named && matches(patterns, info->dlpi_name)                                   ? PROF_VIA_LIB
                   : has_py || (named && py && matches(PROF_PYTHON_MODULES, info->dlpi_name)) ? PROF_VIA_PYTHON
                                                                                                : PROF_VIA_NONE;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X) || !ph->p_memsz)
            continue;
        struct prof_range *v = realloc(s->v, (size_t)(s->n + 1) * sizeof *v);
        if (!v)
            return 1;
        s->v = v;
        s->v[s->n++] = (struct prof_range){ info->dlpi_addr + ph->p_vaddr, info->dlpi_addr + ph->p_vaddr + ph->p_memsz,
                                            kind };
    }
    return 0;
}

static int count_adds(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    *(unsigned long long *)data = info->dlpi_adds;
    return 1;
}

static const struct prof_range *find(const struct segs *s, uintptr_t a)
{
    return s ? prof_range_find(s->v, s->n, a) : NULL;
}

/* The segment of a, the table made again when a is in none and a module
 * was loaded since; NULL for code outside every module (JIT code). */
static const struct prof_range *segment_of(uintptr_t a)
{
    struct segs *s = __atomic_load_n(&current, __ATOMIC_ACQUIRE);
    const struct prof_range *g = find(s, a);
    if (g)
        return g;
    pthread_mutex_lock(&remake);
    s = current;
    unsigned long long adds = 0;
    dl_iterate_phdr(count_adds, &adds);
    if (!s || adds != s->adds) {
        struct segs *fresh = calloc(1, sizeof *fresh);
        if (fresh && dl_iterate_phdr(add_module, fresh) == 0) {
            prof_ranges_sort(fresh->v, fresh->n);
            fresh->older = s;
            __atomic_store_n(&current, fresh, __ATOMIC_RELEASE);
            s = fresh;
        } else if (fresh) {
            free(fresh->v);
            free(fresh);
        }
    }
    pthread_mutex_unlock(&remake);
    return find(s, a);
}

void prof_via_lookup(struct prof_thread *th, uintptr_t a)
{
    const struct prof_range *g = segment_of(a);
    th->seg_lo = g ? g->lo : a;
    th->seg_len = g ? g->hi - g->lo : 1;
    th->seg_kind = g ? (uint8_t)g->tag : PROF_VIA_NONE;
}

uint8_t prof_via_kind(void *a)
{
    const struct prof_range *g = segment_of((uintptr_t)a);
    return g ? (uint8_t)g->tag : PROF_VIA_NONE;
}

void prof_via_stop(void)
{
    pthread_mutex_lock(&remake);
    for (struct segs *s = current, *older; s; s = older) {
        older = s->older;
        free(s->v);
        free(s);
    }
    current = NULL;
    pthread_mutex_unlock(&remake);
}
