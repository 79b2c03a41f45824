/* eager.c: the MPI's eager limits (eager.h), read from its control
 * variables once (cold); per send, a comparison and, on several nodes when
 * the two limits differ and the size lies between them, whether the peer
 * is on this node (nodes.h). */
#include <stdio.h>
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
} sources[] = {
#ifdef OPEN_MPI
    { NODE, NULL, "btl_vader_eager_limit" },           /* Open MPI 4 */
    { NODE, NULL, "btl_sm_eager_limit" },              /* Open MPI 5 */
    { NETWORK, NULL, "btl_tcp_eager_limit" },
#else
    { NETWORK, "ch3", "MPIR_CVAR_CH3_EAGER_MAX_MSG_SIZE" },
    { NETWORK, "ch4:ofi", "MPIR_CVAR_CH4_OFI_EAGER_MAX_MSG_SIZE" },
#endif
};

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

void prof_eager_start(void)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int len = 0, provided;
    if (PMPI_Get_library_version(version, &len) != MPI_SUCCESS ||
        PMPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS)
        return;
    for (size_t i = 0; i < sizeof sources / sizeof sources[0]; i++) {
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
