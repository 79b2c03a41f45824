/* Generated from gen/sample_f.tbl by wrappers/gen-wrappers.awk. Do not edit. */
/* Fortran entry points (mpif.h, use mpi; use mpi_f08 with Open MPI): convert the arguments, then call the C entry's w_ function. */
#include "wrap_c.c"
#include "fortran.h"

PROF_EXPORT void mpi_send_(void *buf, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *dest, MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *ierr)
{
    int rc = w_MPI_Send(PROF_SITE(), prof_f_buf(buf), *count, PMPI_Type_f2c(*datatype), *dest, *tag, PMPI_Comm_f2c(*comm));
    if (ierr)
        *ierr = rc;
}
PROF_F_NAMES_BUF(mpi_send, MPI_SEND)
#ifdef MPICH
PROF_EXPORT void mpi_send_f08ts_(void *a1, MPI_Fint *a2, MPI_Fint *a3, MPI_Fint *a4, MPI_Fint *a5, MPI_Fint *a6, MPI_Fint *a7)
{
    static void *next;
    void (*f)(void *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *) = prof_f08ts_next(&next, "mpi_send_f08ts_");
    void *outer = prof_f08ts_site(__builtin_return_address(0));
    if (f)
        f(a1, a2, a3, a4, a5, a6, a7);
    else if (a7)
        *a7 = MPI_ERR_INTERN;
    prof_f08ts_site(outer);
}
#endif

PROF_EXPORT void mpi_recv_(void *buf, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *source, MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *status, MPI_Fint *ierr)
{
    MPI_Status status_s, *status_c = prof_f_status_out(status, &status_s);
    int rc = w_MPI_Recv(PROF_SITE(), prof_f_buf(buf), *count, PMPI_Type_f2c(*datatype), *source, *tag, PMPI_Comm_f2c(*comm), status_c);
    prof_f_status_c2f(rc, status_c, status);
    if (ierr)
        *ierr = rc;
}
PROF_F_NAMES_BUF(mpi_recv, MPI_RECV)
#ifdef MPICH
PROF_EXPORT void mpi_recv_f08ts_(void *a1, MPI_Fint *a2, MPI_Fint *a3, MPI_Fint *a4, MPI_Fint *a5, MPI_Fint *a6, MPI_Fint *a7, MPI_Fint *a8)
{
    static void *next;
    void (*f)(void *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *) = prof_f08ts_next(&next, "mpi_recv_f08ts_");
    void *outer = prof_f08ts_site(__builtin_return_address(0));
    if (f)
        f(a1, a2, a3, a4, a5, a6, a7, a8);
    else if (a8)
        *a8 = MPI_ERR_INTERN;
    prof_f08ts_site(outer);
}
#endif

PROF_EXPORT void mpi_test_(MPI_Fint *request, MPI_Fint *flag, MPI_Fint *status, MPI_Fint *ierr)
{
    const MPI_Request request_in = PMPI_Request_f2c(*request);
    MPI_Request request_c = request_in;
    MPI_Status status_s, *status_c = prof_f_status_out(status, &status_s);
    int rc = w_MPI_Test(PROF_SITE(), &request_c, flag, status_c);
    if (request_c != request_in)
        *request = PMPI_Request_c2f(request_c);
    if (*flag)
        prof_f_status_c2f(rc, status_c, status);
    if (ierr)
        *ierr = rc;
}
PROF_F_NAMES(mpi_test, MPI_TEST)

extern void pmpi_waitany_(MPI_Fint *count, MPI_Fint *array_of_requests, MPI_Fint *index, MPI_Fint *status, MPI_Fint *ierr) __attribute__((weak));

PROF_EXPORT void mpi_waitany_(MPI_Fint *count, MPI_Fint *array_of_requests, MPI_Fint *index, MPI_Fint *status, MPI_Fint *ierr)
{
    int nomem = 0;
    MPI_Request array_of_requests_s[PROF_F_SMALL];
    MPI_Request *array_of_requests_c = prof_f_scratch(array_of_requests_s, *count, sizeof array_of_requests_s[0], &nomem);
    if (PROF_UNLIKELY(nomem)) {
        MPI_Fint e = MPI_ERR_NO_MEM;
        prof_f_release(array_of_requests_c, array_of_requests_s);
        if (pmpi_waitany_)
            pmpi_waitany_(count, array_of_requests, index, status, &e);
        if (ierr)
            *ierr = e;
        return;
    }
    for (int i = 0; i < *count; i++)
        array_of_requests_c[i] = PMPI_Request_f2c(array_of_requests[i]);
    MPI_Status status_s, *status_c = prof_f_status_out(status, &status_s);
    int rc = w_MPI_Waitany(PROF_SITE(), *count, array_of_requests_c, index, status_c);
    for (int i = 0; i < *count; i++)
        array_of_requests[i] = PMPI_Request_c2f(array_of_requests_c[i]);
    prof_f_index(rc, index);
    prof_f_status_c2f(rc, status_c, status);
    prof_f_release(array_of_requests_c, array_of_requests_s);
    if (ierr)
        *ierr = rc;
}
PROF_F_NAMES(mpi_waitany, MPI_WAITANY)

extern void pmpi_testall_(MPI_Fint *count, MPI_Fint *array_of_requests, MPI_Fint *flag, MPI_Fint *array_of_statuses, MPI_Fint *ierr) __attribute__((weak));

PROF_EXPORT void mpi_testall_(MPI_Fint *count, MPI_Fint *array_of_requests, MPI_Fint *flag, MPI_Fint *array_of_statuses, MPI_Fint *ierr)
{
    int nomem = 0;
    MPI_Request array_of_requests_s[PROF_F_SMALL];
    MPI_Request *array_of_requests_c = prof_f_scratch(array_of_requests_s, *count, sizeof array_of_requests_s[0], &nomem);
    MPI_Status array_of_statuses_s[PROF_F_SMALL];
    MPI_Status *array_of_statuses_c = prof_f_statuses_out(array_of_statuses, array_of_statuses_s, *count, &nomem);
    if (PROF_UNLIKELY(nomem)) {
        MPI_Fint e = MPI_ERR_NO_MEM;
        prof_f_release(array_of_requests_c, array_of_requests_s);
        prof_f_release_statuses(array_of_statuses_c, array_of_statuses_s);
        if (pmpi_testall_)
            pmpi_testall_(count, array_of_requests, flag, array_of_statuses, &e);
        if (ierr)
            *ierr = e;
        return;
    }
    for (int i = 0; i < *count; i++)
        array_of_requests_c[i] = PMPI_Request_f2c(array_of_requests[i]);
    int rc = w_MPI_Testall(PROF_SITE(), *count, array_of_requests_c, flag, array_of_statuses_c);
    for (int i = 0; i < *count; i++)
        array_of_requests[i] = PMPI_Request_c2f(array_of_requests_c[i]);
    prof_f_statuses_c2f(rc, array_of_statuses_c, array_of_statuses, *flag ? *count : 0);
    prof_f_release(array_of_requests_c, array_of_requests_s);
    prof_f_release_statuses(array_of_statuses_c, array_of_statuses_s);
    if (ierr)
        *ierr = rc;
}
PROF_F_NAMES(mpi_testall, MPI_TESTALL)

extern void pmpi_testsome_(MPI_Fint *incount, MPI_Fint *array_of_requests, MPI_Fint *outcount, MPI_Fint *array_of_indices, MPI_Fint *array_of_statuses, MPI_Fint *ierr) __attribute__((weak));

PROF_EXPORT void mpi_testsome_(MPI_Fint *incount, MPI_Fint *array_of_requests, MPI_Fint *outcount, MPI_Fint *array_of_indices, MPI_Fint *array_of_statuses, MPI_Fint *ierr)
{
    int nomem = 0;
    MPI_Request array_of_requests_s[PROF_F_SMALL];
    MPI_Request *array_of_requests_c = prof_f_scratch(array_of_requests_s, *incount, sizeof array_of_requests_s[0], &nomem);
    MPI_Status array_of_statuses_s[PROF_F_SMALL];
    MPI_Status *array_of_statuses_c = prof_f_statuses_out(array_of_statuses, array_of_statuses_s, *incount, &nomem);
    if (PROF_UNLIKELY(nomem)) {
        MPI_Fint e = MPI_ERR_NO_MEM;
        prof_f_release(array_of_requests_c, array_of_requests_s);
        prof_f_release_statuses(array_of_statuses_c, array_of_statuses_s);
        if (pmpi_testsome_)
            pmpi_testsome_(incount, array_of_requests, outcount, array_of_indices, array_of_statuses, &e);
        if (ierr)
            *ierr = e;
        return;
    }
    for (int i = 0; i < *incount; i++)
        array_of_requests_c[i] = PMPI_Request_f2c(array_of_requests[i]);
    int rc = w_MPI_Testsome(PROF_SITE(), *incount, array_of_requests_c, outcount, array_of_indices, array_of_statuses_c);
    for (int i = 0; i < *incount; i++)
        array_of_requests[i] = PMPI_Request_c2f(array_of_requests_c[i]);
    prof_f_indices(rc, *outcount, array_of_indices);
    prof_f_statuses_c2f(rc, array_of_statuses_c, array_of_statuses, *outcount);
    prof_f_release(array_of_requests_c, array_of_requests_s);
    prof_f_release_statuses(array_of_statuses_c, array_of_statuses_s);
    if (ierr)
        *ierr = rc;
}
PROF_F_NAMES(mpi_testsome, MPI_TESTSOME)

PROF_EXPORT void mpi_get_count_(MPI_Fint *status, MPI_Fint *datatype, MPI_Fint *count, MPI_Fint *ierr)
{
    MPI_Status status_s;
    int rc = w_MPI_Get_count(PROF_SITE(), prof_f_status_in(status, &status_s), PMPI_Type_f2c(*datatype), count);
    if (ierr)
        *ierr = rc;
}
PROF_F_NAMES(mpi_get_count, MPI_GET_COUNT)

PROF_EXPORT void mpi_comm_split_(MPI_Fint *comm, MPI_Fint *color, MPI_Fint *key, MPI_Fint *newcomm, MPI_Fint *ierr)
{
    const MPI_Comm newcomm_in = PMPI_Comm_f2c(*newcomm);
    MPI_Comm newcomm_c = newcomm_in;
    int rc = w_MPI_Comm_split(PROF_SITE(), PMPI_Comm_f2c(*comm), *color, *key, &newcomm_c);
    if (newcomm_c != newcomm_in)
        *newcomm = PMPI_Comm_c2f(newcomm_c);
    if (ierr)
        *ierr = rc;
}
PROF_F_NAMES(mpi_comm_split, MPI_COMM_SPLIT)

extern void pmpi_type_create_struct_(MPI_Fint *count, MPI_Fint *array_of_block_lengths, MPI_Aint *array_of_displacements, MPI_Fint *array_of_types, MPI_Fint *newtype, MPI_Fint *ierr) __attribute__((weak));

PROF_EXPORT void mpi_type_create_struct_(MPI_Fint *count, MPI_Fint *array_of_block_lengths, MPI_Aint *array_of_displacements, MPI_Fint *array_of_types, MPI_Fint *newtype, MPI_Fint *ierr)
{
    int nomem = 0;
    MPI_Datatype array_of_types_s[PROF_F_SMALL];
    MPI_Datatype *array_of_types_c = prof_f_scratch(array_of_types_s, *count, sizeof array_of_types_s[0], &nomem);
    if (PROF_UNLIKELY(nomem)) {
        MPI_Fint e = MPI_ERR_NO_MEM;
        prof_f_release(array_of_types_c, array_of_types_s);
        if (pmpi_type_create_struct_)
            pmpi_type_create_struct_(count, array_of_block_lengths, array_of_displacements, array_of_types, newtype, &e);
        if (ierr)
            *ierr = e;
        return;
    }
    for (int i = 0; i < *count; i++)
        array_of_types_c[i] = PMPI_Type_f2c(array_of_types[i]);
    const MPI_Datatype newtype_in = PMPI_Type_f2c(*newtype);
    MPI_Datatype newtype_c = newtype_in;
    int rc = w_MPI_Type_create_struct(PROF_SITE(), *count, array_of_block_lengths, array_of_displacements, array_of_types_c, &newtype_c);
    if (newtype_c != newtype_in)
        *newtype = PMPI_Type_c2f(newtype_c);
    prof_f_release(array_of_types_c, array_of_types_s);
    if (ierr)
        *ierr = rc;
}
PROF_F_NAMES(mpi_type_create_struct, MPI_TYPE_CREATE_STRUCT)

PROF_EXPORT void mpi_win_create_(void *base, MPI_Aint *size, MPI_Fint *disp_unit, MPI_Fint *info, MPI_Fint *comm, MPI_Fint *win, MPI_Fint *ierr)
{
    const MPI_Win win_in = PMPI_Win_f2c(*win);
    MPI_Win win_c = win_in;
    int rc = w_MPI_Win_create(PROF_SITE(), prof_f_buf(base), *size, *disp_unit, PMPI_Info_f2c(*info), PMPI_Comm_f2c(*comm), &win_c);
    if (win_c != win_in)
        *win = PMPI_Win_c2f(win_c);
    if (ierr)
        *ierr = rc;
}
PROF_F_NAMES_BUF(mpi_win_create, MPI_WIN_CREATE)
#ifdef MPICH
PROF_EXPORT void mpi_win_create_f08ts_(void *a1, MPI_Aint *a2, MPI_Fint *a3, MPI_Fint *a4, MPI_Fint *a5, MPI_Fint *a6, MPI_Fint *a7)
{
    static void *next;
    void (*f)(void *, MPI_Aint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *) = prof_f08ts_next(&next, "mpi_win_create_f08ts_");
    void *outer = prof_f08ts_site(__builtin_return_address(0));
    if (f)
        f(a1, a2, a3, a4, a5, a6, a7);
    else if (a7)
        *a7 = MPI_ERR_INTERN;
    prof_f08ts_site(outer);
}
#endif

PROF_EXPORT void mpi_group_range_incl_(MPI_Fint *group, MPI_Fint *n, MPI_Fint *ranges, MPI_Fint *newgroup, MPI_Fint *ierr)
{
    const MPI_Group newgroup_in = PMPI_Group_f2c(*newgroup);
    MPI_Group newgroup_c = newgroup_in;
    int rc = w_MPI_Group_range_incl(PROF_SITE(), PMPI_Group_f2c(*group), *n, (int (*)[3])ranges, &newgroup_c);
    if (newgroup_c != newgroup_in)
        *newgroup = PMPI_Group_c2f(newgroup_c);
    if (ierr)
        *ierr = rc;
}
PROF_F_NAMES(mpi_group_range_incl, MPI_GROUP_RANGE_INCL)

PROF_EXPORT void mpi_alloc_mem_(MPI_Aint *size, MPI_Fint *info, void *baseptr, MPI_Fint *ierr)
{
    int rc = w_MPI_Alloc_mem(PROF_SITE(), *size, PMPI_Info_f2c(*info), prof_f_buf(baseptr));
    if (ierr)
        *ierr = rc;
}
PROF_F_NAMES(mpi_alloc_mem, MPI_ALLOC_MEM)
