/* coll.c: per-rank volumes of the collectives (hot for collective calls).
 * The rule is the call's buffers: bytes_sent is what this rank's call reads
 * from its send buffer, bytes_recv what it writes to its receive buffer, by
 * the MPI definition of each collective and the arguments significant at
 * this rank. With MPI_IN_PLACE the send side is this rank's own block of the
 * receive buffer. On an intercommunicator the per-rank arrays and blocks
 * refer to the remote group; MPI_ROOT and MPI_PROC_NULL roots as in MPI. */
#include "prof.h"

/* The communicator's shape, and where this rank stands to a root. */
struct where {
    const struct prof_comm_info *ci;
    int peers;       /* blocks in a per-rank array: remote size for intercomms */
    int is_root;     /* holds the root's buffers */
    int is_leaf;     /* a non-root member */
};

static struct where locate(MPI_Comm comm, int root)
{
    struct where w;
    w.ci = prof_comm_info(comm);
    w.peers = w.ci->inter ? w.ci->remote_size : w.ci->size;
    if (w.ci->inter) {
        w.is_root = root == MPI_ROOT;
        w.is_leaf = root != MPI_ROOT && root != MPI_PROC_NULL;
    } else {
        w.is_root = root == w.ci->rank;
        w.is_leaf = !w.is_root;
    }
    return w;
}

static int64_t sum(struct prof_counts counts, int n)
{
    int64_t s = 0;
    for (int i = 0; i < n; i++) {
        int64_t k = prof_count_at(counts, i);
        s += k > 0 ? k : 0;
    }
    return s;
}

/* Σ counts[i] x size(types[i]). */
static uint64_t sum_w(struct prof_call *c, struct prof_counts counts, const MPI_Datatype *types, int n)
{
    uint64_t s = 0;
    for (int i = 0; i < n; i++)
        s += prof_volume(c, prof_count_at(counts, i), types[i]);
    return s;
}

/* The end of a collective that moved sent and recv at this rank; a
 * persistent one's init (prof_fn_coll 4) leaves them to each MPI_Start; a
 * blocking one (2) first tells the modules it left (coll_leave). */
static void coll_exit(struct prof_call *c, uint64_t sent, uint64_t recv)
{
    if (PROF_UNLIKELY(prof_fn_coll[c->fn] == 4)) {
        prof_exit_persistent_coll(c, sent, recv);
        return;
    }
    if (prof_fn_coll[c->fn] == 2)
        prof_emit_call(prof_events.coll_leave, c, 0, sent > recv ? sent : recv);
    prof_exit_volume(c, sent, recv);
}

/* A barrier moves nothing (no size bin); MPI_Barrier leaves as above. */
void prof_exit_coll_barrier(struct prof_call *c)
{
    if (prof_fn_coll[c->fn] == 2)
        prof_emit_call(prof_events.coll_leave, c, 0, 0);
    prof_exit(c);
}

static inline int in_place(const void *buf)
{
    return buf == MPI_IN_PLACE;
}

static inline int ok(const struct prof_call *c)
{
    return c->rc == MPI_SUCCESS;
}

void prof_exit_coll_bcast(struct prof_call *c, MPI_Count count, MPI_Datatype type, int root, MPI_Comm comm)
{
    struct where w = ok(c) ? locate(comm, root) : (struct where){ 0 };
    uint64_t n = prof_volume(c, count, type);
    coll_exit(c, w.is_root ? n : 0, w.is_leaf ? n : 0);
}

void prof_exit_coll_reduce(struct prof_call *c, MPI_Count count, MPI_Datatype type, int root, MPI_Comm comm)
{
    struct where w = ok(c) ? locate(comm, root) : (struct where){ 0 };
    uint64_t n = prof_volume(c, count, type);
    int sends = w.ci && (w.ci->inter ? w.is_leaf : 1);
    coll_exit(c, sends ? n : 0, w.is_root ? n : 0);
}

void prof_exit_coll_allreduce(struct prof_call *c, MPI_Count count, MPI_Datatype type)
{
    uint64_t n = prof_volume(c, count, type);
    coll_exit(c, n, n);
}

void prof_exit_coll_reduce_scatter(struct prof_call *c, struct prof_counts rcounts, MPI_Datatype type, MPI_Comm comm)
{
    if (!ok(c)) {
        prof_exit(c);
        return;
    }
    const struct prof_comm_info *ci = prof_comm_info(comm);
    coll_exit(c, prof_volume(c, sum(rcounts, ci->size), type),
                     prof_volume(c, prof_count_at(rcounts, ci->rank), type));
}

void prof_exit_coll_reduce_scatter_block(struct prof_call *c, MPI_Count rcount, MPI_Datatype type, MPI_Comm comm)
{
    if (!ok(c)) {
        prof_exit(c);
        return;
    }
    const struct prof_comm_info *ci = prof_comm_info(comm);
    coll_exit(c, prof_volume(c, (int64_t)rcount * ci->size, type), prof_volume(c, rcount, type));
}

/* A rooted collective: the root moves all blocks (all), and on an
 * intracommunicator its own block (own) the other way; a leaf moves its
 * block (leaf). to_root: data flows to the root (gather) or from it. */
static void rooted(struct prof_call *c, const struct where *w, int to_root, uint64_t all, uint64_t own,
                   uint64_t leaf)
{
    uint64_t at_root = w->is_root ? all : 0;
    uint64_t mine = w->is_root ? (w->ci->inter ? 0 : own) : w->is_leaf ? leaf : 0;
    if (to_root)
        coll_exit(c, mine, at_root);
    else
        coll_exit(c, at_root, mine);
}

/* Arguments not significant at this rank are never read (they may be
 * garbage, and an invalid datatype would make PMPI_Type_size fail). */
void prof_exit_coll_gather(struct prof_call *c, const void *sbuf, MPI_Count scount, MPI_Datatype stype,
                           MPI_Count rcount, MPI_Datatype rtype, int root, MPI_Comm comm)
{
    if (!ok(c)) {
        prof_exit(c);
        return;
    }
    struct where w = locate(comm, root);
    int own = w.is_root && !w.ci->inter;
    rooted(c, &w, 1, w.is_root ? prof_volume(c, (int64_t)rcount * w.peers, rtype) : 0,
           own ? (in_place(sbuf) ? prof_volume(c, rcount, rtype) : prof_volume(c, scount, stype)) : 0,
           w.is_leaf ? prof_volume(c, scount, stype) : 0);
}

void prof_exit_coll_gatherv(struct prof_call *c, const void *sbuf, MPI_Count scount, MPI_Datatype stype,
                            struct prof_counts rcounts, MPI_Datatype rtype, int root, MPI_Comm comm)
{
    if (!ok(c)) {
        prof_exit(c);
        return;
    }
    struct where w = locate(comm, root);
    int own = w.is_root && !w.ci->inter;
    rooted(c, &w, 1, w.is_root ? prof_volume(c, sum(rcounts, w.peers), rtype) : 0,
           own ? (in_place(sbuf) ? prof_volume(c, prof_count_at(rcounts, w.ci->rank), rtype) : prof_volume(c, scount, stype)) : 0,
           w.is_leaf ? prof_volume(c, scount, stype) : 0);
}

void prof_exit_coll_scatter(struct prof_call *c, MPI_Count scount, MPI_Datatype stype, const void *rbuf,
                            MPI_Count rcount, MPI_Datatype rtype, int root, MPI_Comm comm)
{
    if (!ok(c)) {
        prof_exit(c);
        return;
    }
    struct where w = locate(comm, root);
    int own = w.is_root && !w.ci->inter;
    rooted(c, &w, 0, w.is_root ? prof_volume(c, (int64_t)scount * w.peers, stype) : 0,
           own ? (in_place(rbuf) ? prof_volume(c, scount, stype) : prof_volume(c, rcount, rtype)) : 0,
           w.is_leaf ? prof_volume(c, rcount, rtype) : 0);
}

void prof_exit_coll_scatterv(struct prof_call *c, struct prof_counts scounts, MPI_Datatype stype, const void *rbuf,
                             MPI_Count rcount, MPI_Datatype rtype, int root, MPI_Comm comm)
{
    if (!ok(c)) {
        prof_exit(c);
        return;
    }
    struct where w = locate(comm, root);
    int own = w.is_root && !w.ci->inter;
    rooted(c, &w, 0, w.is_root ? prof_volume(c, sum(scounts, w.peers), stype) : 0,
           own ? (in_place(rbuf) ? prof_volume(c, prof_count_at(scounts, w.ci->rank), stype) : prof_volume(c, rcount, rtype)) : 0,
           w.is_leaf ? prof_volume(c, rcount, rtype) : 0);
}

void prof_exit_coll_allgather(struct prof_call *c, const void *sbuf, MPI_Count scount, MPI_Datatype stype,
                              MPI_Count rcount, MPI_Datatype rtype, MPI_Comm comm)
{
    if (!ok(c)) {
        prof_exit(c);
        return;
    }
    struct where w = locate(comm, MPI_PROC_NULL);
    coll_exit(c, in_place(sbuf) ? prof_volume(c, rcount, rtype) : prof_volume(c, scount, stype),
                    prof_volume(c, (int64_t)rcount * w.peers, rtype));
}

void prof_exit_coll_allgatherv(struct prof_call *c, const void *sbuf, MPI_Count scount, MPI_Datatype stype,
                               struct prof_counts rcounts, MPI_Datatype rtype, MPI_Comm comm)
{
    if (!ok(c)) {
        prof_exit(c);
        return;
    }
    struct where w = locate(comm, MPI_PROC_NULL);
    coll_exit(c, in_place(sbuf) ? prof_volume(c, prof_count_at(rcounts, w.ci->rank), rtype) : prof_volume(c, scount, stype),
                    prof_volume(c, sum(rcounts, w.peers), rtype));
}

void prof_exit_coll_alltoall(struct prof_call *c, const void *sbuf, MPI_Count scount, MPI_Datatype stype,
                             MPI_Count rcount, MPI_Datatype rtype, MPI_Comm comm)
{
    if (!ok(c)) {
        prof_exit(c);
        return;
    }
    struct where w = locate(comm, MPI_PROC_NULL);
    uint64_t recv = prof_volume(c, (int64_t)rcount * w.peers, rtype);
    coll_exit(c, in_place(sbuf) ? recv : prof_volume(c, (int64_t)scount * w.peers, stype), recv);
}

void prof_exit_coll_alltoallv(struct prof_call *c, const void *sbuf, struct prof_counts scounts, MPI_Datatype stype,
                              struct prof_counts rcounts, MPI_Datatype rtype, MPI_Comm comm)
{
    if (!ok(c)) {
        prof_exit(c);
        return;
    }
    struct where w = locate(comm, MPI_PROC_NULL);
    uint64_t recv = prof_volume(c, sum(rcounts, w.peers), rtype);
    coll_exit(c, in_place(sbuf) ? recv : prof_volume(c, sum(scounts, w.peers), stype), recv);
}

void prof_exit_coll_alltoallw(struct prof_call *c, const void *sbuf, struct prof_counts scounts,
                              const MPI_Datatype *stypes, struct prof_counts rcounts,
                              const MPI_Datatype *rtypes, MPI_Comm comm)
{
    if (!ok(c)) {
        prof_exit(c);
        return;
    }
    struct where w = locate(comm, MPI_PROC_NULL);
    uint64_t recv = sum_w(c, rcounts, rtypes, w.peers);
    coll_exit(c, in_place(sbuf) ? recv : sum_w(c, scounts, stypes, w.peers), recv);
}

/* Neighbourhood collectives: blocks per neighbour of the topology, including
 * MPI_PROC_NULL neighbours of a non-periodic Cartesian grid (their blocks are
 * part of the buffers though nothing moves). */
static const struct prof_comm_info *topo(MPI_Comm comm)
{
    return prof_comm_info(comm);
}

void prof_exit_coll_neighbor_allgather(struct prof_call *c, MPI_Count scount, MPI_Datatype stype,
                                       MPI_Count rcount, MPI_Datatype rtype, MPI_Comm comm)
{
    if (!ok(c)) {
        prof_exit(c);
        return;
    }
    const struct prof_comm_info *t = topo(comm);
    coll_exit(c, prof_volume(c, scount, stype), prof_volume(c, (int64_t)rcount * t->indegree, rtype));
}

void prof_exit_coll_neighbor_allgatherv(struct prof_call *c, MPI_Count scount, MPI_Datatype stype,
                                        struct prof_counts rcounts, MPI_Datatype rtype, MPI_Comm comm)
{
    if (!ok(c)) {
        prof_exit(c);
        return;
    }
    const struct prof_comm_info *t = topo(comm);
    coll_exit(c, prof_volume(c, scount, stype), prof_volume(c, sum(rcounts, t->indegree), rtype));
}

void prof_exit_coll_neighbor_alltoall(struct prof_call *c, MPI_Count scount, MPI_Datatype stype,
                                      MPI_Count rcount, MPI_Datatype rtype, MPI_Comm comm)
{
    if (!ok(c)) {
        prof_exit(c);
        return;
    }
    const struct prof_comm_info *t = topo(comm);
    coll_exit(c, prof_volume(c, (int64_t)scount * t->outdegree, stype),
                    prof_volume(c, (int64_t)rcount * t->indegree, rtype));
}

void prof_exit_coll_neighbor_alltoallv(struct prof_call *c, struct prof_counts scounts, MPI_Datatype stype,
                                       struct prof_counts rcounts, MPI_Datatype rtype, MPI_Comm comm)
{
    if (!ok(c)) {
        prof_exit(c);
        return;
    }
    const struct prof_comm_info *t = topo(comm);
    coll_exit(c, prof_volume(c, sum(scounts, t->outdegree), stype),
                    prof_volume(c, sum(rcounts, t->indegree), rtype));
}

void prof_exit_coll_neighbor_alltoallw(struct prof_call *c, struct prof_counts scounts, const MPI_Datatype *stypes,
                                       struct prof_counts rcounts, const MPI_Datatype *rtypes, MPI_Comm comm)
{
    if (!ok(c)) {
        prof_exit(c);
        return;
    }
    const struct prof_comm_info *t = topo(comm);
    coll_exit(c, sum_w(c, scounts, stypes, t->outdegree), sum_w(c, rcounts, rtypes, t->indegree));
}
