/* eager.c: the MPI's eager limits (eager.h), read from its control
 * variables once (cold); per send, a comparison and, on several nodes when
 * the two limits differ and the size lies between them, whether the peer
 * is on this node (nodes.h).
 *
 * Open MPI's MPI_T_init_thread registers every component's parameters:
 * 220 ms of each process's MPI_Init here (4.1.4; MPICH's: 0.0 ms), which
 * every job under wait states paid. Its eager limits are its parameters:
 * given by mpirun --mca or the environment (OMPI_MCA_name, read here), a
 * parameter file, or its defaults. So Open MPI 4 reads the environment,
 * then, only where a parameter file could name them (one of Open MPI's
 * files names an eager limit, or other files are named), MPI_T; otherwise
 * the limits are Open MPI 4's defaults (each source's dflt), which MPI_T
 * would have read. */
#define _GNU_SOURCE            /* dladdr */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "eager.h"
#include "nodes.h"

enum { NODE, NETWORK };

/* Where an MPI names a limit: the control variable of a transport, tried
 * in order (the first that the MPI has with a positive value), for the
 * library this one was built for. MPICH's ch4:ucx device (Debian's) names
 * none: UCX chooses. */
static const struct source {
    int where;
    const char *device;      /* in MPI_Get_library_version's text; NULL: any */
    const char *cvar;
    uint64_t dflt;           /* Open MPI 4: its default (0: none, Open MPI 5's) */
} sources[] = {
#ifdef OPEN_MPI
    { NODE, NULL, "btl_vader_eager_limit", 4096 },     /* Open MPI 4 */
    { NODE, NULL, "btl_sm_eager_limit", 0 },           /* Open MPI 5 */
    { NETWORK, NULL, "btl_tcp_eager_limit", 65536 },
#else
    { NETWORK, "ch3", "MPIR_CVAR_CH3_EAGER_MAX_MSG_SIZE", 0 },
    { NETWORK, "ch4:ofi", "MPIR_CVAR_CH4_OFI_EAGER_MAX_MSG_SIZE", 0 },
#endif
};
#define NSOURCES (sizeof sources / sizeof sources[0])

static struct {
    uint64_t limit[2];
    const char *from[2];     /* the control variable, or NULL: PROF_EAGER_FIXED */
} eg = { { PROF_EAGER_FIXED, PROF_EAGER_FIXED }, { NULL, NULL } };

/* The value of the integer control variable name (MPI_T initialized), or
 * 0 when the MPI has none by that name or it is not a positive integer. */
static uint64_t cvar(const char *name)
{
    int index, count;
    MPI_T_cvar_handle h;
    if (PMPI_T_cvar_get_index(name, &index) != MPI_SUCCESS)
        return 0;
    char n[256], desc[8];
    int nl = sizeof n, dl = sizeof desc, verbosity, bind, scope;
    MPI_Datatype type;
    MPI_T_enum e;
    if (PMPI_T_cvar_get_info(index, n, &nl, &verbosity, &type, &e, desc, &dl, &bind, &scope) != MPI_SUCCESS ||
        bind != MPI_T_BIND_NO_OBJECT || PMPI_T_cvar_handle_alloc(index, NULL, &h, &count) != MPI_SUCCESS)
        return 0;
    union { int i; unsigned u; unsigned long ul; unsigned long long ull; long long ll; } v = { 0 };
    long long got = 0;
    if (count == 1 && PMPI_T_cvar_read(h, &v) == MPI_SUCCESS)
        got = type == MPI_INT ? v.i
            : type == MPI_UNSIGNED ? (long long)v.u
            : type == MPI_UNSIGNED_LONG ? (long long)v.ul
            : type == MPI_UNSIGNED_LONG_LONG ? (long long)v.ull
            : type == MPI_LONG_LONG || type == MPI_COUNT ? v.ll : 0;
    PMPI_T_cvar_handle_free(&h);
    return got > 0 ? (uint64_t)got : 0;
}

#ifdef OPEN_MPI
/* Whether the parameter file path names an eager limit. */
static int file_names(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    int named = 0;
    while (f && !named && fgets(line, sizeof line, f))
        named = line[strspn(line, " \t")] != '#' && strstr(line, "eager_limit") != NULL;
    if (f)
        fclose(f);
    return named;
}

/* Whether a parameter file could set an eager limit: other files named,
 * or the user's, the system's (Debian's place, and the one beside the
 * library's lib directory) naming one. */
static int files_may_name(void)
{
    if (getenv("OMPI_MCA_mca_base_param_files") || getenv("OMPI_MCA_mca_base_envar_file_prefix"))
        return 1;
    char path[4096];
    const char *home = getenv("HOME");
    Dl_info info;
    if (home && snprintf(path, sizeof path, "%s/.openmpi/mca-params.conf", home) < (int)sizeof path &&
        file_names(path))
        return 1;
    if (file_names("/etc/openmpi/openmpi-mca-params.conf"))
        return 1;
    /* PREFIX/lib/libmpi.so: PREFIX/etc/openmpi-mca-params.conf */
    char *lib = NULL, *prefix = NULL;
    if (dladdr((void *)PMPI_Init, &info) && info.dli_fname &&
        snprintf(path, sizeof path, "%s", info.dli_fname) < (int)sizeof path && (lib = strrchr(path, '/')))
        *lib = '\0';
    if (lib && (prefix = strrchr(path, '/')))
        *prefix = '\0';
    size_t n = strlen(path);
    return prefix && snprintf(path + n, sizeof path - n, "/etc/openmpi-mca-params.conf") < (int)(sizeof path - n) &&
           file_names(path);
}

/* Open MPI 4 without MPI_T: each limit from the environment, else (when no
 * file could set it) its default. Returns 1 when that settled both. */
static int from_parameters(void)
{
    static char named[2][128];
#if OMPI_MAJOR_VERSION == 4
    int files = -1;
    for (size_t i = 0; i < NSOURCES; i++) {
        const struct source *s = &sources[i];
        if (eg.from[s->where] || !s->dflt)
            continue;
        char var[128], *end = NULL;
        snprintf(var, sizeof var, "OMPI_MCA_%s", s->cvar);
        const char *v = getenv(var);
        unsigned long long x = v ? strtoull(v, &end, 10) : 0;
        if (v && *v && !*end && x > 0) {
            eg.limit[s->where] = x;
            snprintf(named[s->where], sizeof named[s->where], "%s", var);
            eg.from[s->where] = named[s->where];
        } else if (files < 0 ? (files = files_may_name()) == 0 : !files) {
            eg.limit[s->where] = s->dflt;
            eg.from[s->where] = s->cvar;
        }
    }
#endif
    (void)named;
    return eg.from[NODE] && eg.from[NETWORK];
}
#endif

void prof_eager_start(void)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int len = 0, provided;
#ifdef OPEN_MPI
    if (from_parameters())
        return;
#endif
    if (PMPI_Get_library_version(version, &len) != MPI_SUCCESS ||
        PMPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS)
        return;
    for (size_t i = 0; i < NSOURCES; i++) {
        const struct source *s = &sources[i];
        uint64_t v;
        if (!eg.from[s->where] && (!s->device || strstr(version, s->device)) && (v = cvar(s->cvar)) != 0) {
            eg.limit[s->where] = v;
            eg.from[s->where] = s->cvar;
        }
    }
    PMPI_T_finalize();
}

int prof_eager_waits(MPI_Comm comm, int peer, uint64_t bytes)
{
    int node = bytes > eg.limit[NODE], network = bytes > eg.limit[NETWORK];
    return node == network ? node : prof_nodes_local(comm, peer) ? node : network;
}

void prof_eager_line(char *buf, size_t size)
{
    snprintf(buf, size, "# eager: node=%llu node_from=%s network=%llu network_from=%s\n",
             (unsigned long long)eg.limit[NODE], eg.from[NODE] ? eg.from[NODE] : "fixed",
             (unsigned long long)eg.limit[NETWORK], eg.from[NETWORK] ? eg.from[NETWORK] : "fixed");
}
