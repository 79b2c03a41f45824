/* via.c: which return addresses are in the libraries that only pass MPI
 * calls through (via.h). The executable segments of the loaded modules,
 * sorted, each marked when its module's file name matches a library
 * pattern of MPIPROF_VIA (via_patterns.h); in the other modules, the runs
 * of functions whose names match a function pattern (a library linked
 * into the executable) are ranges of their own, marked the same, read once
 * per module from its symbol table (base/elfsyms.h). Made at the first
 * lookup and again when an address is in none of them and a module was
 * loaded since (a library the program opened later). A table is never
 * changed once published, and the ones it replaced are freed at
 * MPI_Finalize, so lookups take no lock; the hot path pays for the
 * function patterns only through a larger table (via.h). */
#define _GNU_SOURCE            /* dl_iterate_phdr */
#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "config.h"
#include "elfsyms.h"
#include "python.h"
#include "ranges.h"
#include "via.h"
#include "via_patterns.h"

bool prof_via_on;
/* The patterns, made at MPI_Init, read under remake (add_module). */
static struct prof_via_set libs, funcs, python;

struct segs {
    struct prof_range *v;  /* tag: PROF_VIA_* */
    int n;
    unsigned long long adds;        /* the loader's count of modules loaded when made */
    int modules;                    /* modules added so far (while made) */
    struct segs *older;             /* the table it replaced */
};

static struct segs *current;
static pthread_mutex_t remake = PTHREAD_MUTEX_INITIALIZER;

void prof_via_start(void)
{
    static char lib_list[PROF_VIA_LIST_MAX], func_list[PROF_VIA_LIST_MAX];
    prof_via_on = strcmp(prof_config.via, "none") != 0;
    if (prof_via_patterns(prof_config.via, lib_list, func_list) != 0)   /* cannot be: config.c checked it */
        prof_via_patterns("", lib_list, func_list);
    pthread_mutex_lock(&remake);
    prof_via_set_make(&libs, lib_list);
    prof_via_set_make(&funcs, func_list);
    prof_via_set_make(&python, PROF_PYTHON_MODULES);
    pthread_mutex_unlock(&remake);
}

/* A module's runs of functions matching a function pattern: [lo, hi) in
 * the file's addresses, sorted; read once per module (by load address and
 * name) and kept until MPI_Finalize. */
struct funcs {
    uintptr_t base;
    char *name;
    struct prof_range *run;
    int n;
    struct funcs *next;
};
static struct funcs *known;   /* under remake */

struct sym {
    uintptr_t lo, hi;
    bool match;
};
struct syms {
    struct sym *v;
    size_t n, cap;
    bool any;
};

static void add_sym(void *ctx, const char *name, uintptr_t value, size_t size)
{
    struct syms *s = ctx;
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 1024;
        struct sym *v = realloc(s->v, cap * sizeof *v);
        if (!v)
            return;
        s->v = v;
        s->cap = cap;
    }
    bool match = prof_via_match(&funcs, name);
    s->v[s->n++] = (struct sym){ value, value + size, match };
    s->any |= match;
}

static int by_lo(const void *a, const void *b)
{
    const struct sym *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo ? 1 : (int)x->match - (int)y->match;   /* an alias that matches wins */
}

/* The runs of matching functions in s: consecutive matching functions (by
 * address) are one run, ended where a function that does not match starts. */
static int runs_of(struct syms *s, struct prof_range **out)
{
    qsort(s->v, s->n, sizeof *s->v, by_lo);
    struct prof_range *run = NULL;
    int n = 0;
    bool open = false;
    for (size_t i = 0; i < s->n; i++) {
        const struct sym *y = &s->v[i];
        if (!y->match) {
            if (open && y->lo < run[n - 1].hi)
                run[n - 1].hi = y->lo > run[n - 1].lo ? y->lo : run[n - 1].lo;
            if (open && run[n - 1].hi == run[n - 1].lo)
                n--;
            open = false;
        } else if (open) {
            if (y->hi > run[n - 1].hi)
                run[n - 1].hi = y->hi;
        } else {
            struct prof_range *r = realloc(run, (size_t)(n + 1) * sizeof *r);
            if (!r)
                break;
            run = r;
            run[n++] = (struct prof_range){ y->lo, y->hi, PROF_VIA_LIB };
            open = true;
        }
    }
    *out = run;
    return n;
}

/* The runs of the module loaded at base from file name (cold: the first
 * time only); NULL when it has none. */
static const struct funcs *funcs_of(uintptr_t base, const char *name)
{
    for (struct funcs *f = known; f; f = f->next)
        if (f->base == base && strcmp(f->name, name) == 0)
            return f->n ? f : NULL;
    struct funcs *f = calloc(1, sizeof *f);
    if (!f || !(f->name = strdup(name))) {
        free(f);
        return NULL;
    }
    f->base = base;
    struct syms s = { 0 };
    if (prof_elf_functions(name, add_sym, &s) > 0 && s.any)
        f->n = runs_of(&s, &f->run);
    free(s.v);
    f->next = known;
    known = f;
    return f->n ? f : NULL;
}

/* Whether the module's dynamic string table (loaded, in memory) names an
 * MPI function, MPI_x or Fortran's mpi_x: only then can its own code call
 * MPI, and only then is its symbol table read (the profiler's own never;
 * with Open MPI, 0.3 ms for a small program against 1.2 ms reading every
 * module). The loader has relocated the addresses of the dynamic section
 * in place (glibc on x86_64); an unrelocated one is below the load
 * address. */
static bool calls_mpi(const struct dl_phdr_info *info)
{
    const ElfW(Dyn) *dyn = NULL;
    uintptr_t self = (uintptr_t)calls_mpi;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_DYNAMIC)
            dyn = (const void *)(info->dlpi_addr + ph->p_vaddr);
        else if (ph->p_type == PT_LOAD && self - (info->dlpi_addr + ph->p_vaddr) < ph->p_memsz)
            return false;     /* the profiler itself */
    }
    uintptr_t str = 0;
    size_t len = 0;
    for (; dyn && dyn->d_tag != DT_NULL; dyn++) {
        if (dyn->d_tag == DT_STRTAB)
            str = dyn->d_un.d_ptr < info->dlpi_addr ? dyn->d_un.d_ptr + info->dlpi_addr : dyn->d_un.d_ptr;
        else if (dyn->d_tag == DT_STRSZ)
            len = dyn->d_un.d_val;
    }
    /* A name starting with MPI_ or mpi_ (not ompi_ of Open MPI's own parts):
     * the string table starts with a NUL, so each name follows one. */
    return str && (memmem((const void *)str, len, "\0MPI_", 5) || memmem((const void *)str, len, "\0mpi_", 5));
}

/* Add [lo, hi) of kind to the table; 0, or 1 when out of memory. */
static int add_range(struct segs *s, uintptr_t lo, uintptr_t hi, int kind)
{
    if (lo >= hi)
        return 0;
    struct prof_range *v = realloc(s->v, (size_t)(s->n + 1) * sizeof *v);
    if (!v)
        return 1;
    s->v = v;
    s->v[s->n++] = (struct prof_range){ lo, hi, kind };
    return 0;
}

/* Segment [lo, hi) of a module whose runs are f (load bias bias): the
 * runs within it, and the code between them. */
static int add_split(struct segs *s, uintptr_t lo, uintptr_t hi, uintptr_t bias, const struct funcs *f)
{
    uintptr_t at = lo;
    for (int i = 0; i < f->n && at < hi; i++) {
        uintptr_t rlo = f->run[i].lo + bias, rhi = f->run[i].hi + bias;
        if (rhi <= at || rlo >= hi)
            continue;
        rlo = rlo > at ? rlo : at;
        rhi = rhi < hi ? rhi : hi;
        if (add_range(s, at, rlo, PROF_VIA_NONE) || add_range(s, rlo, rhi, PROF_VIA_LIB))
            return 1;
        at = rhi;
    }
    return add_range(s, at, hi, PROF_VIA_NONE);
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
    const char *base = named && strrchr(info->dlpi_name, '/') ? strrchr(info->dlpi_name, '/') + 1 : info->dlpi_name;
    uint8_t kind = named && prof_via_match(&libs, base)                            ? PROF_VIA_LIB
                   : has_py || (named && py && prof_via_match(&python, base)) ? PROF_VIA_PYTHON
                                                                                : PROF_VIA_NONE;
    /* The first module is the program, unnamed: its file is /proc/self/exe. */
    const char *file = named ? info->dlpi_name : s->modules == 0 ? "/proc/self/exe" : NULL;
    const struct funcs *f =
        kind == PROF_VIA_NONE && funcs.n && file && calls_mpi(info) ? funcs_of(info->dlpi_addr, file) : NULL;
    s->modules++;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X) || !ph->p_memsz)
            continue;
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
        if (f ? add_split(s, lo, hi, info->dlpi_addr, f) : add_range(s, lo, hi, kind))
            return 1;
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
    for (struct funcs *f = known, *next; f; f = next) {
        next = f->next;
        free(f->run);
        free(f->name);
        free(f);
    }
    known = NULL;
    prof_via_set_free(&libs);
    prof_via_set_free(&funcs);
    prof_via_set_free(&python);
    pthread_mutex_unlock(&remake);
}
