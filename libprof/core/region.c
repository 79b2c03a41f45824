/* region.c: MPI_Pcontrol (flag custom in wrappers/misc.tbl), its C and
 * Fortran entries, and the region tree of this process (cold: a Pcontrol
 * call takes a mutex under MPI_THREAD_MULTIPLE; the hot path only reads
 * prof_region). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "chain.h"
#include "config.h"
#include "fortran.h"
#include "lock.h"
#include "prof.h"
#include "region.h"
#include "run.h"

uint32_t prof_region;

/* An open region: its node, or its parent's when no node was left for it
 * (real 0); its name, for the close that names it. */
struct open_region {
    uint32_t node;
    int real;
    char name[PROF_REGION_NAME];
};

static struct {
    pthread_mutex_t lock;
    struct prof_region_node node[PROF_REGIONS_MAX + 1];   /* node[0] unused */
    uint32_t nnodes;
    struct open_region open[PROF_REGION_DEPTH];
    int depth;
    uint64_t beyond_depth;        /* opened while PROF_REGION_DEPTH were open, not yet closed */
    unsigned char saved[PROF_FN_COUNT];                   /* prof_fn_on while stopped */
    int stopped;
    struct prof_region_trouble trouble;
} rg = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void set_region(uint32_t id)
{
    __atomic_store_n(&prof_region, id, __ATOMIC_RELAXED);
}

/* The child of parent called name, created when missing; 0 when there is
 * no room for it. */
static uint32_t child(uint32_t parent, const char *name)
{
    for (uint32_t i = 1; i <= rg.nnodes; i++)
        if (rg.node[i].parent == parent && strcmp(rg.node[i].name, name) == 0)
            return i;
    if (rg.nnodes == PROF_REGIONS_MAX)
        return 0;
    struct prof_region_node *n = &rg.node[++rg.nnodes];
    n->parent = parent;
    strcpy(n->name, name);
    return rg.nnodes;
}

static void open_region(const char *name, uint64_t now)
{
    if (rg.depth == PROF_REGION_DEPTH) {
        rg.trouble.too_many++;
        rg.beyond_depth++;
        return;
    }
    uint32_t parent = rg.depth ? rg.open[rg.depth - 1].node : 0, id = child(parent, name);
    struct open_region *o = &rg.open[rg.depth++];
    o->real = id != 0;
    o->node = id ? id : parent;
    strcpy(o->name, name);
    if (id) {
        rg.node[id].entries++;
        rg.node[id].opened = now;
    } else {
        rg.trouble.too_many++;
    }
    set_region(o->node);
}

/* Close the open regions from the innermost down to the one at k. */
static void close_down_to(int k, uint64_t now)
{
    for (int i = rg.depth - 1; i >= k; i--)
        if (rg.open[i].real)
            rg.node[rg.open[i].node].ticks += now - rg.node[rg.open[i].node].opened;
    rg.depth = k;
    set_region(k ? rg.open[k - 1].node : 0);
}

static void close_region(const char *name, uint64_t now)
{
    if (rg.beyond_depth) {            /* the innermost were never opened */
        rg.beyond_depth--;
        return;
    }
    int k = rg.depth - 1;
    while (k >= 0 && strcmp(rg.open[k].name, name) != 0)
        k--;
    if (k < 0) {
        rg.trouble.stray_closes++;
        return;
    }
    if (k != rg.depth - 1)
        rg.trouble.crossed++;
    close_down_to(k, now);
}

/* Stop collecting: every function off but MPI_Pcontrol, and but the
 * collectives when a module makes its own collective calls in theirs
 * (coll_enter, coll_leave, icoll_started: collective wait's barrier, the
 * model's clock agreement). Those must be made on every rank, and the
 * program may stop collecting on some ranks only. */
static void stop(void)
{
    if (rg.stopped)
        return;
    int keep = prof_events.coll_enter[0] || prof_events.coll_leave[0] || prof_events.icoll_started[0];
    memcpy(rg.saved, prof_fn_on, sizeof rg.saved);
    for (int f = 0; f < PROF_FN_COUNT; f++)
        if (f != FN_MPI_Pcontrol && !(keep && (prof_fn_coll[f] == 2 || prof_fn_coll[f] == 3)))
            prof_fn_on[f] = 0;
    rg.stopped = 1;
}

static void resume(void)
{
    if (!rg.stopped)
        return;
    memcpy(prof_fn_on, rg.saved, sizeof prof_fn_on);
    rg.stopped = 0;
}

/* Levels 0, 1, 2 and -2 between MPI_Init and MPI_Finalize, unless
 * MPIPROF_REGIONS is off; named levels need a name. */
static void pcontrol(int level, const char *name, size_t namelen)
{
    if (!prof_run.started || prof_run.finished || !prof_config.regions)
        return;
    char cut[PROF_REGION_NAME];
    if (level == 2 || level == -2) {
        size_t n = namelen < sizeof cut ? namelen : sizeof cut - 1;
        memcpy(cut, name ? name : "", name ? n : 0);
        cut[name ? n : 0] = '\0';
    }
    prof_lock(&rg.lock);
    if (prof_run.finished) {
        /* MPI_Finalize on another thread got here first */
    } else if ((level == 2 || level == -2) && !cut[0]) {
        rg.trouble.no_name++;
    } else if (level == 2) {
        open_region(cut, prof_clock());
    } else if (level == -2) {
        close_region(cut, prof_clock());
    } else if (level == 0) {
        stop();
    } else if (level == 1) {
        resume();
    }
    prof_unlock(&rg.lock);
}

void prof_pcontrol_before(int level, const char *name, size_t namelen)
{
    if (level == 1 || level == 2)
        pcontrol(level, name, namelen);
}

void prof_pcontrol_after(int level, const char *name, size_t namelen)
{
    if (level == 0 || level == -2)
        pcontrol(level, name, namelen);
}

int prof_regions_finish(uint64_t t_end, struct prof_region_trouble *trouble)
{
    prof_lock(&rg.lock);
    for (int i = 0; i < rg.depth; i++)
        rg.trouble.left_open += (uint64_t)rg.open[i].real;
    close_down_to(0, t_end);
    rg.stopped = 0;
    *trouble = rg.trouble;
    prof_unlock(&rg.lock);
    return (int)rg.nnodes;
}

int prof_regions_peek(uint64_t now, struct prof_region_node *out)
{
    prof_lock(&rg.lock);
    int n = (int)rg.nnodes;
    memcpy(out, rg.node, ((size_t)n + 1) * sizeof *out);
    for (int i = 0; i < rg.depth; i++)
        if (rg.open[i].real)
            out[rg.open[i].node].ticks += now - rg.node[rg.open[i].node].opened;
    prof_unlock(&rg.lock);
    return n;
}

const struct prof_region_node *prof_region_get(uint32_t id)
{
    return &rg.node[id];
}

void prof_region_path(uint32_t id, char *out, size_t size)
{
    uint32_t chain[PROF_REGION_DEPTH];
    int n = 0;
    for (; id && n < PROF_REGION_DEPTH; id = rg.node[id].parent)
        chain[n++] = id;
    size_t len = 0;
    out[0] = '\0';
    while (n-- > 0 && len < size)
        len += (size_t)snprintf(out + len, size - len, "%s%s", len ? "/" : "", rg.node[chain[n]].name);
}

/* The call itself: resume or open, the call recorded as any, stop or close. */
PROF_INLINE int pcontrol_call(void *site, int level, const char *name, size_t namelen)
{
    struct prof_call c;
    prof_pcontrol_before(level, name, namelen);
    int profiled = prof_enter(&c, FN_MPI_Pcontrol, site);
    int (*next)(const int, ...) = PROF_NEXT_CUSTOM(MPI_Pcontrol);
    c.rc = name ? next(level, name) : next(level);
    if (profiled)
        prof_exit(&c);
    prof_pcontrol_after(level, name, namelen);
    return c.rc;
}

/* The name of levels 2 and -2 is the one argument after level (C: a
 * NUL-terminated string; Fortran: a CHARACTER, trailing blanks ignored). */
PROF_EXPORT int MPI_Pcontrol(const int level, ...)
{
    const char *name = NULL;
    if (level == 2 || level == -2) {
        va_list ap;
        va_start(ap, level);
        name = va_arg(ap, const char *);
        va_end(ap);
    }
    return pcontrol_call(PROF_SITE(), level, name, name ? strnlen(name, PROF_REGION_NAME) : 0);
}

/* gfortran passes the CHARACTER's length after the arguments (size_t); the
 * name goes on NUL-terminated. The mpi_f08 and Open MPI's use mpi bindings
 * declare MPI_PCONTROL with the level alone: no f08 alias, as their level 2
 * has no name to read. */
PROF_EXPORT void mpi_pcontrol_(MPI_Fint *level, ...)
{
    char name[PROF_REGION_NAME] = "";
    size_t len = 0;
    if (*level == 2 || *level == -2) {
        va_list ap;
        va_start(ap, level);
        const char *text = va_arg(ap, const char *);
        len = va_arg(ap, size_t) & 0xffffffffu;
        va_end(ap);
        while (len > 0 && text && text[len - 1] == ' ')
            len--;
        len = text ? (len < sizeof name ? len : sizeof name - 1) : 0;
        memcpy(name, text ? text : "", len);
        name[len] = '\0';
    }
    pcontrol_call(PROF_SITE(), *level, *level == 2 || *level == -2 ? name : NULL, len);
}
#ifdef MPICH
/* MPICH's use mpi_f08 MPI_Pcontrol: the level and an optional ierror; no
 * name, so levels 2 and -2 are ignored there. */
PROF_EXPORT void mpi_pcontrol_f08_(MPI_Fint *level, MPI_Fint *ierr)
{
    int rc = pcontrol_call(PROF_SITE(), *level, NULL, 0);
    if (ierr)
        *ierr = rc;
}
#endif
PROF_F_ALIAS(mpi_pcontrol_, mpi_pcontrol__)
PROF_F_ALIAS(mpi_pcontrol_, mpi_pcontrol)
PROF_F_ALIAS(mpi_pcontrol_, MPI_PCONTROL)
