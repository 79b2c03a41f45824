/* hooks.c: the end of every wrapped call (hot): the record update, and the
 * volume rules of the point-to-point, one-sided and I/O families. A call's
 * bytes_sent is what it reads from its send buffer, bytes_recv what it
 * writes to its receive buffer (count x type size), for successful calls
 * only. Collective volumes are in coll.c. */
#include "config.h"
#include "prof.h"
#include "request.h"
#include "site.h"

unsigned char prof_fn_on[PROF_FN_COUNT];

void prof_exit_traffic(struct prof_call *c, const struct prof_traffic *tr)
{
    uint64_t t1 = prof_clock();
    struct prof_thread *th = c->th;
    void *frames[PROF_MAX_DEPTH];
    uint32_t n = prof_site_frames(c->site, frames, th->table.depth);
    prof_stats_add(prof_table_stats(&th->table, c->fn, frames, n), t1 - c->t0, tr);
    th->busy = 0;
}

/* A message to or from peer: none for MPI_PROC_NULL or a failed call. */
static inline uint32_t p2p_msgs(const struct prof_call *c, int peer)
{
    return c->rc == MPI_SUCCESS && peer != MPI_PROC_NULL;
}

static inline uint64_t p2p_volume(struct prof_call *c, int count, MPI_Datatype type, int peer)
{
    return peer == MPI_PROC_NULL ? 0 : prof_volume(c, count, type);
}

void prof_exit_handle_free(struct prof_call *c)
{
    prof_handles_freed();
    prof_exit(c);
}

void prof_exit_send(struct prof_call *c, int count, MPI_Datatype type, int dst)
{
    struct prof_traffic tr = { p2p_volume(c, count, type, dst), 0, p2p_msgs(c, dst), 0 };
    prof_exit_traffic(c, &tr);
}

void prof_exit_recv(struct prof_call *c, int count, MPI_Datatype type, int src)
{
    struct prof_traffic tr = { 0, p2p_volume(c, count, type, src), 0, p2p_msgs(c, src) };
    prof_exit_traffic(c, &tr);
}

void prof_exit_recv_matched(struct prof_call *c, int count, MPI_Datatype type)
{
    struct prof_traffic tr = { 0, prof_volume(c, count, type), 0, p2p_msgs(c, 0) };
    prof_exit_traffic(c, &tr);
}

void prof_exit_sendrecv(struct prof_call *c, int scount, MPI_Datatype stype, int dst,
                        int rcount, MPI_Datatype rtype, int src)
{
    struct prof_traffic tr = { p2p_volume(c, scount, stype, dst), p2p_volume(c, rcount, rtype, src),
                               p2p_msgs(c, dst), p2p_msgs(c, src) };
    prof_exit_traffic(c, &tr);
}

void prof_exit_sendrecv_replace(struct prof_call *c, int count, MPI_Datatype type, int dst, int src)
{
    prof_exit_sendrecv(c, count, type, dst, count, type, src);
}

/* Persistent requests: the traffic belongs to each MPI_Start, not to the
 * MPI_*_init call that describes it. */
void prof_exit_send_init(struct prof_call *c, int count, MPI_Datatype type, int dst, MPI_Request *req)
{
    struct prof_traffic tr = { p2p_volume(c, count, type, dst), 0, p2p_msgs(c, dst), 0 };
    if (c->rc == MPI_SUCCESS)
        prof_request_put(*req, &tr);
    prof_exit(c);
}

void prof_exit_recv_init(struct prof_call *c, int count, MPI_Datatype type, int src, MPI_Request *req)
{
    struct prof_traffic tr = { 0, p2p_volume(c, count, type, src), 0, p2p_msgs(c, src) };
    if (c->rc == MPI_SUCCESS)
        prof_request_put(*req, &tr);
    prof_exit(c);
}

void prof_exit_startall(struct prof_call *c, int n, MPI_Request *reqs)
{
    struct prof_traffic sum = { 0 }, one;
    for (int i = 0; c->rc == MPI_SUCCESS && i < n; i++)
        if (prof_request_get(reqs[i], &one)) {
            sum.bytes_sent += one.bytes_sent;
            sum.bytes_recv += one.bytes_recv;
            sum.msgs_sent += one.msgs_sent;
            sum.msgs_recv += one.msgs_recv;
        }
    prof_exit_traffic(c, &sum);
}

void prof_exit_start(struct prof_call *c, MPI_Request *req)
{
    prof_exit_startall(c, 1, req);
}

void prof_enter_request_free(struct prof_call *c, MPI_Request *req)
{
    (void)c;
    prof_request_forget(*req);
}

void prof_exit_rma_put(struct prof_call *c, int count, MPI_Datatype type)
{
    prof_exit_bytes(c, prof_volume(c, count, type), 0);
}

void prof_exit_rma_get(struct prof_call *c, int count, MPI_Datatype type)
{
    prof_exit_bytes(c, 0, prof_volume(c, count, type));
}

void prof_exit_rma_get_accumulate(struct prof_call *c, int scount, MPI_Datatype stype,
                                  int rcount, MPI_Datatype rtype)
{
    prof_exit_bytes(c, prof_volume(c, scount, stype), prof_volume(c, rcount, rtype));
}

void prof_exit_rma_fetch_and_op(struct prof_call *c, MPI_Datatype type)
{
    prof_exit_bytes(c, prof_volume(c, 1, type), prof_volume(c, 1, type));
}

/* Compare_and_swap reads the origin and the compare buffers. */
void prof_exit_rma_compare_and_swap(struct prof_call *c, MPI_Datatype type)
{
    prof_exit_bytes(c, prof_volume(c, 2, type), prof_volume(c, 1, type));
}

void prof_exit_io_write(struct prof_call *c, int count, MPI_Datatype type)
{
    prof_exit_bytes(c, prof_volume(c, count, type), 0);
}

void prof_exit_io_read(struct prof_call *c, int count, MPI_Datatype type)
{
    prof_exit_bytes(c, 0, prof_volume(c, count, type));
}
