/* fuzz_ops.c: every MPI call of the fuzzer's schedules, one small function
 * each, so that the profiler's branch site (func@file:line) names the
 * function and t_fuzz.sh can sum slt.txt by it. They live in a file of
 * their own: its callers' compiler cannot inline or clone them (no
 * op_recv.constprop.0), and storing the result in fz_rc after the call
 * keeps each call from becoming a tail call (whose caller would be the
 * executor). Cold: the schedules' calls, nothing else. */
#include "fuzz.h"

#define OP __attribute__((noinline))

int fz_rc;

OP void op_send(const int *b, int n, int dst, int tag, MPI_Comm c)
{
    fz_rc = MPI_Send(b, n, MPI_INT, dst, tag, c);
}

OP void op_ssend(const int *b, int n, int dst, int tag, MPI_Comm c)
{
    fz_rc = MPI_Ssend(b, n, MPI_INT, dst, tag, c);
}

OP void op_bsend(const int *b, int n, int dst, int tag, MPI_Comm c)
{
    fz_rc = MPI_Bsend(b, n, MPI_INT, dst, tag, c);
}

OP void op_rsend(const int *b, int n, int dst, int tag, MPI_Comm c)
{
    fz_rc = MPI_Rsend(b, n, MPI_INT, dst, tag, c);
}

OP void op_isend(const int *b, int n, int dst, int tag, MPI_Comm c, MPI_Request *r)
{
    fz_rc = MPI_Isend(b, n, MPI_INT, dst, tag, c, r);
}

OP void op_issend(const int *b, int n, int dst, int tag, MPI_Comm c, MPI_Request *r)
{
    fz_rc = MPI_Issend(b, n, MPI_INT, dst, tag, c, r);
}

OP void op_ibsend(const int *b, int n, int dst, int tag, MPI_Comm c, MPI_Request *r)
{
    fz_rc = MPI_Ibsend(b, n, MPI_INT, dst, tag, c, r);
}

OP void op_irsend(const int *b, int n, int dst, int tag, MPI_Comm c, MPI_Request *r)
{
    fz_rc = MPI_Irsend(b, n, MPI_INT, dst, tag, c, r);
}

OP void op_recv(int *b, int n, int src, int tag, MPI_Comm c, MPI_Status *st)
{
    fz_rc = MPI_Recv(b, n, MPI_INT, src, tag, c, st);
}

OP void op_irecv(int *b, int n, int src, int tag, MPI_Comm c, MPI_Request *r)
{
    fz_rc = MPI_Irecv(b, n, MPI_INT, src, tag, c, r);
}

/* The receives that are cancelled: a branch of their own, no truth line. */
OP void op_irecv_cancel(int *b, int n, int src, int tag, MPI_Comm c, MPI_Request *r)
{
    fz_rc = MPI_Irecv(b, n, MPI_INT, src, tag, c, r);
}

OP void op_sendrecv(const int *sb, int sn, int dst, int stag, int *rb, int rn, int src, int rtag, MPI_Comm c,
                    MPI_Status *st)
{
    fz_rc = MPI_Sendrecv(sb, sn, MPI_INT, dst, stag, rb, rn, MPI_INT, src, rtag, c, st);
}

OP void op_sendrecv_replace(int *b, int n, int dst, int stag, int src, int rtag, MPI_Comm c, MPI_Status *st)
{
    fz_rc = MPI_Sendrecv_replace(b, n, MPI_INT, dst, stag, src, rtag, c, st);
}

OP void op_probe(int src, int tag, MPI_Comm c, MPI_Status *st)
{
    fz_rc = MPI_Probe(src, tag, c, st);
}

OP void op_iprobe(int src, int tag, MPI_Comm c, int *flag, MPI_Status *st)
{
    fz_rc = MPI_Iprobe(src, tag, c, flag, st);
}

OP void op_mprobe(int src, int tag, MPI_Comm c, MPI_Message *m, MPI_Status *st)
{
    fz_rc = MPI_Mprobe(src, tag, c, m, st);
}

OP void op_improbe(int src, int tag, MPI_Comm c, int *flag, MPI_Message *m, MPI_Status *st)
{
    fz_rc = MPI_Improbe(src, tag, c, flag, m, st);
}

OP void op_mrecv(int *b, int n, MPI_Message *m, MPI_Status *st)
{
    fz_rc = MPI_Mrecv(b, n, MPI_INT, m, st);
}

OP void op_imrecv(int *b, int n, MPI_Message *m, MPI_Request *r)
{
    fz_rc = MPI_Imrecv(b, n, MPI_INT, m, r);
}

OP void op_send_init(const int *b, int n, int dst, int tag, MPI_Comm c, MPI_Request *r)
{
    fz_rc = MPI_Send_init(b, n, MPI_INT, dst, tag, c, r);
}

OP void op_ssend_init(const int *b, int n, int dst, int tag, MPI_Comm c, MPI_Request *r)
{
    fz_rc = MPI_Ssend_init(b, n, MPI_INT, dst, tag, c, r);
}

OP void op_recv_init(int *b, int n, int src, int tag, MPI_Comm c, MPI_Request *r)
{
    fz_rc = MPI_Recv_init(b, n, MPI_INT, src, tag, c, r);
}

OP void op_start(MPI_Request *r)
{
    fz_rc = MPI_Start(r);
}

OP void op_startall(int n, MPI_Request *r)
{
    fz_rc = MPI_Startall(n, r);
}

OP void op_request_free(MPI_Request *r)
{
    fz_rc = MPI_Request_free(r);
}

OP void op_wait(MPI_Request *r, MPI_Status *st)
{
    fz_rc = MPI_Wait(r, st);
}

OP void op_test(MPI_Request *r, int *flag, MPI_Status *st)
{
    fz_rc = MPI_Test(r, flag, st);
}

OP void op_waitall(int n, MPI_Request *r, MPI_Status *st)
{
    fz_rc = MPI_Waitall(n, r, st);
}

OP void op_testall(int n, MPI_Request *r, int *flag, MPI_Status *st)
{
    fz_rc = MPI_Testall(n, r, flag, st);
}

OP void op_waitany(int n, MPI_Request *r, int *idx, MPI_Status *st)
{
    fz_rc = MPI_Waitany(n, r, idx, st);
}

OP void op_testany(int n, MPI_Request *r, int *idx, int *flag, MPI_Status *st)
{
    fz_rc = MPI_Testany(n, r, idx, flag, st);
}

OP void op_waitsome(int n, MPI_Request *r, int *out, int *idx, MPI_Status *st)
{
    fz_rc = MPI_Waitsome(n, r, out, idx, st);
}

OP void op_testsome(int n, MPI_Request *r, int *out, int *idx, MPI_Status *st)
{
    fz_rc = MPI_Testsome(n, r, out, idx, st);
}

OP void op_cancel(MPI_Request *r)
{
    fz_rc = MPI_Cancel(r);
}

OP void op_test_cancelled(const MPI_Status *st, int *flag)
{
    fz_rc = MPI_Test_cancelled(st, flag);
}

OP void op_pcontrol(int level)
{
    fz_rc = MPI_Pcontrol(level);
}
