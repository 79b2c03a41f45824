/* errors.c: the application's MPI errors pass through the profiler (issue
 * 22 item 5; t_errors.sh runs it with and without the profiler, under each
 * option, and compares the output line by line).
 *
 * Part 1: with MPI_ERRORS_RETURN on MPI_COMM_WORLD and on a communicator of
 * the program's own, erroneous calls (bad rank, negative count, bad tag,
 * MPI_DATATYPE_NULL, MPI_OP_NULL, MPI_COMM_NULL, bad root; one-sided calls
 * on a window that returns its errors), made alike on every rank, print
 * their error code and class.
 * Part 2: error handlers that count their calls on both communicators; valid
 * calls of every family must not call them (what the profiler does for
 * itself never reaches the program's handler), and each erroneous call calls
 * its communicator's handler once, with the code the call returns. The
 * counts are printed again after MPI_Finalize.
 * Usage: errors DIR. Each rank writes its lines to DIR/RANK.out (mpirun
 * may mix the ranks' output mid-line), the same for every run. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int rank, size;
static FILE *out;
static int calls_world, calls_mine, last_code;

static void on_world(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    calls_world++;
    last_code = *code;
}

static void on_mine(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    calls_mine++;
    last_code = *code;
}

/* One erroneous call's outcome: its code and class, and in part 2 which
 * handlers it called and with what code. */
static void outcome(int part, const char *comm_name, const char *what, int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    fprintf(out, "rank %d part %d %s %s: rc=%d class=%d", rank, part, comm_name, what, rc, cls);
    if (part == 2) {
        fprintf(out, " world_handler=%d mine_handler=%d handler_code_same=%d", calls_world, calls_mine,
               calls_world + calls_mine == 0 || last_code == rc);
        calls_world = calls_mine = 0;
    }
    fprintf(out, "\n");
}

/* The erroneous calls on comm (named comm_name); every rank makes them. */
static void erroneous(int part, MPI_Comm comm, const char *comm_name)
{
    int buf[4] = { 0 }, out[4], flag;
    int peer = (rank + 1) % size, root_bad = size;
    MPI_Request req;
    MPI_Status st;
    outcome(part, comm_name, "Send bad rank", MPI_Send(buf, 1, MPI_INT, size, 0, comm));
    outcome(part, comm_name, "Send negative rank", MPI_Send(buf, 1, MPI_INT, -7, 0, comm));
    outcome(part, comm_name, "Send negative count", MPI_Send(buf, -1, MPI_INT, peer, 0, comm));
    outcome(part, comm_name, "Send bad tag", MPI_Send(buf, 1, MPI_INT, peer, -5, comm));
    outcome(part, comm_name, "Send MPI_DATATYPE_NULL", MPI_Send(buf, 1, MPI_DATATYPE_NULL, peer, 0, comm));
    outcome(part, comm_name, "Ssend bad rank", MPI_Ssend(buf, 1, MPI_INT, size, 0, comm));
    outcome(part, comm_name, "Isend bad rank", MPI_Isend(buf, 1, MPI_INT, size, 0, comm, &req));
    outcome(part, comm_name, "Isend negative count", MPI_Isend(buf, -1, MPI_INT, peer, 0, comm, &req));
    outcome(part, comm_name, "Send_init bad rank", MPI_Send_init(buf, 1, MPI_INT, size, 0, comm, &req));
    outcome(part, comm_name, "Recv bad rank", MPI_Recv(buf, 1, MPI_INT, size, 0, comm, &st));
    outcome(part, comm_name, "Recv negative count", MPI_Recv(buf, -1, MPI_INT, peer, 0, comm, &st));
    outcome(part, comm_name, "Recv bad tag", MPI_Recv(buf, 1, MPI_INT, peer, -5, comm, MPI_STATUS_IGNORE));
    outcome(part, comm_name, "Recv MPI_DATATYPE_NULL",
            MPI_Recv(buf, 1, MPI_DATATYPE_NULL, peer, 0, comm, MPI_STATUS_IGNORE));
    outcome(part, comm_name, "Irecv bad rank", MPI_Irecv(buf, 1, MPI_INT, size, 0, comm, &req));
    outcome(part, comm_name, "Irecv MPI_DATATYPE_NULL", MPI_Irecv(buf, 1, MPI_DATATYPE_NULL, peer, 0, comm, &req));
    outcome(part, comm_name, "Recv_init negative count", MPI_Recv_init(buf, -1, MPI_INT, peer, 0, comm, &req));
    outcome(part, comm_name, "Sendrecv bad dest",
            MPI_Sendrecv(buf, 1, MPI_INT, size, 0, out, 1, MPI_INT, peer, 0, comm, &st));
    outcome(part, comm_name, "Sendrecv bad source",
            MPI_Sendrecv(buf, 1, MPI_INT, peer, 0, out, 1, MPI_INT, size, 0, comm, &st));
    outcome(part, comm_name, "Sendrecv_replace negative count",
            MPI_Sendrecv_replace(buf, -1, MPI_INT, peer, 0, peer, 0, comm, &st));
    outcome(part, comm_name, "Probe bad rank", MPI_Probe(size, 0, comm, &st));
    outcome(part, comm_name, "Iprobe bad rank", MPI_Iprobe(size, 0, comm, &flag, &st));
    outcome(part, comm_name, "Bcast bad root", MPI_Bcast(buf, 1, MPI_INT, root_bad, comm));
    outcome(part, comm_name, "Bcast negative count", MPI_Bcast(buf, -1, MPI_INT, 0, comm));
    outcome(part, comm_name, "Bcast MPI_DATATYPE_NULL", MPI_Bcast(buf, 1, MPI_DATATYPE_NULL, 0, comm));
    outcome(part, comm_name, "Reduce bad root", MPI_Reduce(buf, out, 1, MPI_INT, MPI_SUM, root_bad, comm));
    outcome(part, comm_name, "Allreduce MPI_OP_NULL", MPI_Allreduce(buf, out, 1, MPI_INT, MPI_OP_NULL, comm));
    outcome(part, comm_name, "Allreduce MPI_DATATYPE_NULL",
            MPI_Allreduce(buf, out, 1, MPI_DATATYPE_NULL, MPI_SUM, comm));
    outcome(part, comm_name, "Gather bad root", MPI_Gather(buf, 1, MPI_INT, out, 1, MPI_INT, root_bad, comm));
    outcome(part, comm_name, "Ibcast bad root", MPI_Ibcast(buf, 1, MPI_INT, root_bad, comm, &req));
}

/* Errors raised on MPI_COMM_WORLD because no communicator is named. */
static void erroneous_null(int part)
{
    int buf[4] = { 0 }, n;
    MPI_Request req;
    MPI_Comm dup;
    outcome(part, "null", "Send MPI_COMM_NULL", MPI_Send(buf, 1, MPI_INT, 0, 0, MPI_COMM_NULL));
    outcome(part, "null", "Recv MPI_COMM_NULL", MPI_Recv(buf, 1, MPI_INT, 0, 0, MPI_COMM_NULL, MPI_STATUS_IGNORE));
    outcome(part, "null", "Isend MPI_COMM_NULL", MPI_Isend(buf, 1, MPI_INT, 0, 0, MPI_COMM_NULL, &req));
    outcome(part, "null", "Bcast MPI_COMM_NULL", MPI_Bcast(buf, 1, MPI_INT, 0, MPI_COMM_NULL));
    outcome(part, "null", "Allreduce MPI_COMM_NULL", MPI_Allreduce(buf, &n, 1, MPI_INT, MPI_SUM, MPI_COMM_NULL));
    outcome(part, "null", "Barrier MPI_COMM_NULL", MPI_Barrier(MPI_COMM_NULL));
    outcome(part, "null", "Comm_rank MPI_COMM_NULL", MPI_Comm_rank(MPI_COMM_NULL, &n));
    outcome(part, "null", "Comm_dup MPI_COMM_NULL", MPI_Comm_dup(MPI_COMM_NULL, &dup));
    outcome(part, "null", "Type_size MPI_DATATYPE_NULL", MPI_Type_size(MPI_DATATYPE_NULL, &n));
}

/* One-sided errors, raised on a window of the world's, which returns them
 * (MPI_ERRORS_RETURN): no communicator's handler is called. */
static void erroneous_win(int part)
{
    int buf[4] = { 0 };
    MPI_Win win;
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    outcome(part, "win", "Win_lock bad rank", MPI_Win_lock(MPI_LOCK_SHARED, size, 0, win));
    MPI_Win_fence(0, win);
    outcome(part, "win", "Put bad rank", MPI_Put(buf, 1, MPI_INT, size, 0, 1, MPI_INT, win));
    outcome(part, "win", "Put negative count", MPI_Put(buf, -1, MPI_INT, 0, 0, 1, MPI_INT, win));
    outcome(part, "win", "Get MPI_DATATYPE_NULL", MPI_Get(buf, 1, MPI_DATATYPE_NULL, 0, 0, 1, MPI_INT, win));
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
}

/* Valid calls of each family on comm; none may call an error handler. */
static void valid(MPI_Comm comm)
{
    int me, np;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &np);
    int right = (me + 1) % np, left = (me + np - 1) % np;
    int a[8] = { me, me, me, me, me, me, me, me }, b[8], c[64], flag;
    MPI_Request rq[4];
    MPI_Status st;
    MPI_Sendrecv(a, 1, MPI_INT, right, 1, b, 1, MPI_INT, left, 1, comm, &st);
    if (me == 0) {
        MPI_Send(a, 2, MPI_INT, right, 2, comm);
        MPI_Recv(b, 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &st);
    } else {
        MPI_Probe(left, 2, comm, &st);
        MPI_Recv(b, 2, MPI_INT, left, 2, comm, MPI_STATUS_IGNORE);
        MPI_Ssend(a, 2, MPI_INT, right, 2, comm);
    }
    MPI_Irecv(b, 1, MPI_INT, left, 3, comm, &rq[0]);
    MPI_Isend(a, 1, MPI_INT, right, 3, comm, &rq[1]);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    MPI_Recv_init(b, 1, MPI_INT, left, 4, comm, &rq[0]);
    MPI_Send_init(a, 1, MPI_INT, right, 4, comm, &rq[1]);
    for (int i = 0; i < 3; i++) {
        MPI_Startall(2, rq);
        do
            MPI_Testall(2, rq, &flag, MPI_STATUSES_IGNORE);
        while (!flag);
    }
    MPI_Request_free(&rq[0]);
    MPI_Request_free(&rq[1]);
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &flag, MPI_STATUS_IGNORE);
    MPI_Barrier(comm);
    MPI_Bcast(a, 8, MPI_INT, 0, comm);
    MPI_Allreduce(a, b, 8, MPI_INT, MPI_SUM, comm);
    MPI_Reduce(a, b, 8, MPI_INT, MPI_MAX, np - 1, comm);
    MPI_Gather(a, 1, MPI_INT, c, 1, MPI_INT, 0, comm);
    MPI_Allgather(a, 1, MPI_INT, c, 1, MPI_INT, comm);
    MPI_Alltoall(c, 1, MPI_INT, c + 32, 1, MPI_INT, comm);
    MPI_Ibcast(a, 8, MPI_INT, 0, comm, &rq[0]);
    MPI_Iallreduce(a, b, 8, MPI_INT, MPI_SUM, comm, &rq[1]);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);

    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    MPI_Sendrecv(a, 1, pair, right, 5, b, 1, pair, left, 5, comm, MPI_STATUS_IGNORE);
    MPI_Type_free(&pair);

    MPI_Comm split, dup;
    MPI_Comm_split(comm, me % 2, me, &split);
    MPI_Comm_dup(split, &dup);
    MPI_Allreduce(a, b, 1, MPI_INT, MPI_SUM, dup);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&split);

    MPI_Win win;
    MPI_Win_create(c, sizeof c, sizeof(int), MPI_INFO_NULL, comm, &win);
    MPI_Win_fence(0, win);
    MPI_Put(a, 1, MPI_INT, right, me, 1, MPI_INT, win);
    MPI_Get(b, 1, MPI_INT, left, 0, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
}

int main(int argc, char **argv)
{
    MPI_Comm mine;
    MPI_Errhandler eh_world, eh_mine;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char path[4096];
    snprintf(path, sizeof path, "%s/%d.out", argc > 1 ? argv[1] : ".", rank);
    if (!(out = fopen(path, "w"))) {
        perror(path);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* Part 1: MPI_ERRORS_RETURN, on the world and on a dup that inherits it. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_dup(MPI_COMM_WORLD, &mine);
    erroneous(1, MPI_COMM_WORLD, "world");
    erroneous(1, mine, "mine");
    erroneous_null(1);
    erroneous_win(1);
    MPI_Comm_free(&mine);

    /* Part 2: counting handlers; a communicator made afterwards with a
     * handler of its own. */
    MPI_Comm_create_errhandler(on_world, &eh_world);
    MPI_Comm_create_errhandler(on_mine, &eh_mine);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh_world);
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &mine);
    MPI_Comm_set_errhandler(mine, eh_mine);
    valid(MPI_COMM_WORLD);
    valid(mine);
    fprintf(out, "rank %d part 2 valid calls: world_handler=%d mine_handler=%d\n", rank, calls_world, calls_mine);
    calls_world = calls_mine = 0;
    erroneous(2, MPI_COMM_WORLD, "world");
    erroneous(2, mine, "mine");
    erroneous_null(2);
    erroneous_win(2);
    MPI_Barrier(MPI_COMM_WORLD);
    valid(mine);
    MPI_Comm_free(&mine);
    MPI_Errhandler_free(&eh_world);
    MPI_Errhandler_free(&eh_mine);
    MPI_Finalize();
    fprintf(out, "rank %d after MPI_Finalize: world_handler=%d mine_handler=%d\n", rank, calls_world, calls_mine);
    return fclose(out) != 0;
}
