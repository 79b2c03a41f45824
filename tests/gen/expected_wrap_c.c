/* Generated from gen/sample.tbl by wrappers/gen-wrappers.awk. Do not edit. */
/* C entry points: time the PMPI call, then hand the arguments to the family's hook (libprof/core/prof.h). */
#include "prof.h"
#include "next.h"
/* Deprecated MPI functions (MPI_Attr_get ...) are wrapped like any other. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

struct prof_next prof_next = {
    .MPI_Send = PMPI_Send,
    .MPI_Recv = PMPI_Recv,
    .MPI_Waitall = PMPI_Waitall,
    .MPI_Type_free = PMPI_Type_free,
    .MPI_Request_free = PMPI_Request_free,
    .MPI_Barrier = PMPI_Barrier,
    .MPI_Win_fence = PMPI_Win_fence,
    .MPI_Pcontrol = PMPI_Pcontrol,
    .MPI_Gatherv = PMPI_Gatherv,
    .MPI_Gatherv_c = PMPI_Gatherv_c,
    .MPI_Pready = PMPI_Pready,
    .MPI_Bcast_init = PMPI_Bcast_init,
};

void prof_next_resolve(void *(*find)(const char *name))
{
    void *p;
    if ((p = find("MPI_Send")))
        prof_next.MPI_Send = (__typeof__(prof_next.MPI_Send))p;
    if ((p = find("MPI_Recv")))
        prof_next.MPI_Recv = (__typeof__(prof_next.MPI_Recv))p;
    if ((p = find("MPI_Waitall")))
        prof_next.MPI_Waitall = (__typeof__(prof_next.MPI_Waitall))p;
    if ((p = find("MPI_Type_free")))
        prof_next.MPI_Type_free = (__typeof__(prof_next.MPI_Type_free))p;
    if ((p = find("MPI_Request_free")))
        prof_next.MPI_Request_free = (__typeof__(prof_next.MPI_Request_free))p;
    if ((p = find("MPI_Barrier")))
        prof_next.MPI_Barrier = (__typeof__(prof_next.MPI_Barrier))p;
    if ((p = find("MPI_Win_fence")))
        prof_next.MPI_Win_fence = (__typeof__(prof_next.MPI_Win_fence))p;
    if ((p = find("MPI_Pcontrol")))
        prof_next.MPI_Pcontrol = (__typeof__(prof_next.MPI_Pcontrol))p;
    if ((p = find("MPI_Gatherv")))
        prof_next.MPI_Gatherv = (__typeof__(prof_next.MPI_Gatherv))p;
    if ((p = find("MPI_Gatherv_c")))
        prof_next.MPI_Gatherv_c = (__typeof__(prof_next.MPI_Gatherv_c))p;
    if ((p = find("MPI_Pready")))
        prof_next.MPI_Pready = (__typeof__(prof_next.MPI_Pready))p;
    if ((p = find("MPI_Bcast_init")))
        prof_next.MPI_Bcast_init = (__typeof__(prof_next.MPI_Bcast_init))p;
}

PROF_INLINE int w_MPI_Send(void *site, const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    struct prof_call c;
    if (!prof_enter(&c, FN_MPI_Send, site)) {
        c.th = NULL;
        c.rc = PROF_UNLIKELY(prof_around_on) && prof_around.send(&c, count, datatype, dest, tag, comm) ? c.rc : prof_next.MPI_Send(buf, count, datatype, dest, tag, comm);
        prof_sent(&c);
        return c.rc;
    }
    c.rc = PROF_UNLIKELY(prof_around_on) && prof_around.send(&c, count, datatype, dest, tag, comm) ? c.rc : prof_next.MPI_Send(buf, count, datatype, dest, tag, comm);
    prof_sent(&c);
    prof_exit_send(&c, count, datatype, dest, tag, comm, NULL);
    return c.rc;
}

PROF_EXPORT int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    return w_MPI_Send(PROF_SITE(), buf, count, datatype, dest, tag, comm);
}

PROF_INLINE int w_MPI_Recv(void *site, void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    struct prof_call c;
    if (!prof_enter(&c, FN_MPI_Recv, site)) {
        c.th = NULL;
        c.rc = PROF_UNLIKELY(prof_around_on) && prof_around.recv(&c, buf, count, datatype, source, tag, comm, status, NULL) ? c.rc : prof_next.MPI_Recv(buf, count, datatype, source, tag, comm, status);
        prof_recv_posted(&c, count, datatype, source, tag, comm, NULL, PROF_POST_STATUS);
        return c.rc;
    }
    if (status == MPI_STATUS_IGNORE)
        status = &c.status;
    c.rc = PROF_UNLIKELY(prof_around_on) && prof_around.recv(&c, buf, count, datatype, source, tag, comm, status, NULL) ? c.rc : prof_next.MPI_Recv(buf, count, datatype, source, tag, comm, status);
    prof_recv_posted(&c, count, datatype, source, tag, comm, NULL, PROF_POST_STATUS);
    prof_exit_recv(&c, count, datatype, source, tag, comm, status, NULL);
    return c.rc;
}

PROF_EXPORT int MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    return w_MPI_Recv(PROF_SITE(), buf, count, datatype, source, tag, comm, status);
}

PROF_INLINE int w_MPI_Waitall(void *site, int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[])
{
    struct prof_call c;
    prof_complete_take(&c, count, array_of_requests);
    if (!prof_enter(&c, FN_MPI_Waitall, site)) {
        c.th = NULL;
        c.rc = PROF_UNLIKELY(prof_around_on) && prof_around.wait(&c, count, array_of_requests, NULL, NULL, NULL, NULL, NULL, array_of_statuses, PROF_AROUND_WAIT) ? c.rc : prof_next.MPI_Waitall(count, array_of_requests, array_of_statuses);
        prof_complete_done(&c, count, array_of_requests, NULL, NULL, NULL, NULL, NULL, array_of_statuses);
        return c.rc;
    }
    array_of_statuses = prof_statuses(&c, array_of_statuses, count);
    c.rc = PROF_UNLIKELY(prof_around_on) && prof_around.wait(&c, count, array_of_requests, NULL, NULL, NULL, NULL, NULL, array_of_statuses, PROF_AROUND_WAIT) ? c.rc : prof_next.MPI_Waitall(count, array_of_requests, array_of_statuses);
    prof_complete_done(&c, count, array_of_requests, NULL, NULL, NULL, NULL, NULL, array_of_statuses);
    prof_exit_complete(&c);
    return c.rc;
}

PROF_EXPORT int MPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[])
{
    return w_MPI_Waitall(PROF_SITE(), count, array_of_requests, array_of_statuses);
}

PROF_INLINE int w_MPI_Type_free(void *site, MPI_Datatype *datatype)
{
    struct prof_call c;
    prof_type_forget(datatype);
    if (!prof_enter(&c, FN_MPI_Type_free, site))
        return prof_next.MPI_Type_free(datatype);
    c.rc = prof_next.MPI_Type_free(datatype);
    prof_exit(&c);
    return c.rc;
}

PROF_EXPORT int MPI_Type_free(MPI_Datatype *datatype)
{
    return w_MPI_Type_free(PROF_SITE(), datatype);
}

PROF_INLINE int w_MPI_Request_free(void *site, MPI_Request *request)
{
    struct prof_call c;
    prof_complete_take_free(&c, request);
    if (!prof_enter(&c, FN_MPI_Request_free, site)) {
        c.th = NULL;
        c.rc = PROF_UNLIKELY(prof_around_on) && prof_around.request_free(&c, request) ? c.rc : prof_next.MPI_Request_free(request);
        prof_complete_done1(&c, request, NULL, NULL);
        return c.rc;
    }
    c.rc = PROF_UNLIKELY(prof_around_on) && prof_around.request_free(&c, request) ? c.rc : prof_next.MPI_Request_free(request);
    prof_complete_done1(&c, request, NULL, NULL);
    prof_exit(&c);
    return c.rc;
}

PROF_EXPORT int MPI_Request_free(MPI_Request *request)
{
    return w_MPI_Request_free(PROF_SITE(), request);
}

PROF_INLINE int w_MPI_Barrier(void *site, MPI_Comm comm)
{
    struct prof_call c;
    if (!prof_enter(&c, FN_MPI_Barrier, site))
        return prof_next.MPI_Barrier(comm);
    c.rc = prof_next.MPI_Barrier(comm);
    prof_exit_coll_barrier(&c);
    return c.rc;
}

PROF_EXPORT int MPI_Barrier(MPI_Comm comm)
{
    return w_MPI_Barrier(PROF_SITE(), comm);
}

PROF_INLINE int w_MPI_Win_fence(void *site, int assert, MPI_Win win)
{
    struct prof_call c;
    if (!prof_enter(&c, FN_MPI_Win_fence, site))
        return prof_next.MPI_Win_fence(assert, win);
    prof_coll_win(&c, win);
    c.rc = prof_next.MPI_Win_fence(assert, win);
    prof_exit(&c);
    return c.rc;
}

PROF_EXPORT int MPI_Win_fence(int assert, MPI_Win win)
{
    return w_MPI_Win_fence(PROF_SITE(), assert, win);
}

PROF_INLINE int w_MPI_Pcontrol(void *site, const int level)
{
    struct prof_call c;
    if (!prof_enter(&c, FN_MPI_Pcontrol, site))
        return prof_next.MPI_Pcontrol(level);
    c.rc = prof_next.MPI_Pcontrol(level);
    prof_exit(&c);
    return c.rc;
}

PROF_EXPORT int MPI_Pcontrol(const int level, ...)
{
    return w_MPI_Pcontrol(PROF_SITE(), level);
}

PROF_INLINE int w_MPI_Gatherv(void *site, const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    struct prof_call c;
    if (!prof_enter(&c, FN_MPI_Gatherv, site))
        return prof_next.MPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
    prof_coll_rooted(&c, comm, root);
    c.rc = prof_next.MPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
    prof_exit_coll_gatherv(&c, sendbuf, sendcount, sendtype, prof_counts_int(recvcounts), recvtype, root, comm);
    return c.rc;
}

PROF_EXPORT int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return w_MPI_Gatherv(PROF_SITE(), sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
}

PROF_INLINE int w_MPI_Gatherv_c(void *site, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    struct prof_call c;
    if (!prof_enter(&c, FN_MPI_Gatherv_c, site))
        return prof_next.MPI_Gatherv_c(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
    prof_coll_rooted(&c, comm, root);
    c.rc = prof_next.MPI_Gatherv_c(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
    prof_exit_coll_gatherv(&c, sendbuf, sendcount, sendtype, prof_counts_big(recvcounts), recvtype, root, comm);
    return c.rc;
}

PROF_EXPORT int MPI_Gatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return w_MPI_Gatherv_c(PROF_SITE(), sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
}

PROF_INLINE int w_MPI_Pready(void *site, int partition, MPI_Request request)
{
    struct prof_call c;
    if (!prof_enter(&c, FN_MPI_Pready, site))
        return prof_next.MPI_Pready(partition, request);
    c.rc = prof_next.MPI_Pready(partition, request);
    prof_exit(&c);
    return c.rc;
}

PROF_EXPORT int MPI_Pready(int partition, MPI_Request request)
{
    return w_MPI_Pready(PROF_SITE(), partition, request);
}

PROF_INLINE int w_MPI_Bcast_init(void *site, void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    struct prof_call c;
    if (!prof_enter(&c, FN_MPI_Bcast_init, site))
        return prof_next.MPI_Bcast_init(buffer, count, datatype, root, comm, info, request);
    c.rc = prof_next.MPI_Bcast_init(buffer, count, datatype, root, comm, info, request);
    c.pinit.req = request, c.pinit.comm = comm, c.pinit.root = root;
    prof_exit_coll_bcast(&c, count, datatype, root, comm);
    return c.rc;
}

PROF_EXPORT int MPI_Bcast_init(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return w_MPI_Bcast_init(PROF_SITE(), buffer, count, datatype, root, comm, info, request);
}
