/* comms.c: the comms module (MPIPROF_COMMS): how many point-to-point
 * messages and bytes each communicator carried, sent and received, per
 * rank, in comms.txt. Its handlers (hot when on) count in a per-thread
 * map (hmap.h) from the communicator's serial to its row; a thread's first message and
 * a communicator's first on a thread are cold (malloc, a mutex,
 * PMPI_Comm_size and PMPI_Comm_get_name). Merged and written at
 * MPI_Finalize (cold). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "handles.h"
#include "hmap.h"
#include "log.h"
#include "module.h"
#include "report.h"

#define COMMS_NONE UINT64_MAX   /* the key of messages whose call names no communicator (MPI_Mrecv) */

struct row {
    uint64_t serial;                   /* the communicator (handles.h), or COMMS_NONE */
    int size;                          /* its group's size; -1: not known */
    char name[MPI_MAX_OBJECT_NAME];    /* MPI_Comm_get_name's at its first message here; "" if none */
    uint64_t sends, bytes_sent, recvs, bytes_recv;
};

/* One thread's rows, by serial. */
struct table {
    struct table *next;                /* every thread's, for the merge */
    struct prof_hmap rows;
};

static pthread_mutex_t tables_lock = PTHREAD_MUTEX_INITIALIZER;
static struct table *tables;
static __thread struct table *mine __attribute__((tls_model("initial-exec")));
static uint64_t lost;                  /* messages not counted for want of memory (atomic) */
static struct row **merged;            /* at MPI_Finalize: every thread's rows summed, by serial */
static uint32_t nmerged;

/* The calling thread's table (cold the first time); NULL without memory. */
static struct table *table(void)
{
    if (mine)
        return mine;
    struct table *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    pthread_mutex_lock(&tables_lock);
    t->next = tables;
    tables = t;
    pthread_mutex_unlock(&tables_lock);
    return mine = t;
}

/* A row for key in m, a copy of *from or, without one, named after comm
 * (cold); NULL without memory. */
static __attribute__((noinline)) struct row *new_row(struct prof_hmap *m, uint64_t key, MPI_Comm comm,
                                                     const struct row *from)
{
    struct row *r = malloc(sizeof *r);
    if (!r || prof_hmap_put(m, key, r) != 0) {
        free(r);
        return NULL;
    }
    if (from) {
        *r = *from;
        return r;
    }
    memset(r, 0, sizeof *r);
    r->serial = key;
    r->size = -1;
    const struct prof_comm_info *ci = key == COMMS_NONE ? NULL : prof_comm_info_of(comm, key);
    int len = 0;
    if (ci) {
        r->size = ci->size;
        PMPI_Comm_get_name(comm, r->name, &len);
    }
    r->name[len < MPI_MAX_OBJECT_NAME ? len : MPI_MAX_OBJECT_NAME - 1] = '\0';
    return r;
}

static struct row *row_of(const struct prof_ev_msg *ev)
{
    uint64_t key = ev->comm == MPI_COMM_NULL || !ev->comm_serial ? COMMS_NONE : ev->comm_serial;
    struct table *t = table();
    struct row *r = t ? prof_hmap_get(&t->rows, key) : NULL;
    if (r || (t && (r = new_row(&t->rows, key, ev->comm, NULL))))
        return r;
    __atomic_add_fetch(&lost, 1, __ATOMIC_RELAXED);
    return NULL;
}

static void sent(const struct prof_ev_msg *ev)
{
    struct row *r = row_of(ev);
    if (r) {
        r->sends++;
        r->bytes_sent += ev->bytes;
    }
}

static void received(const struct prof_ev_msg *ev)
{
    struct row *r = row_of(ev);
    if (r) {
        r->recvs++;
        r->bytes_recv += ev->bytes;
    }
}

static int by_serial(const void *a, const void *b)
{
    uint64_t x = (*(struct row *const *)a)->serial, y = (*(struct row *const *)b)->serial;
    return (x > y) - (x < y);
}

/* Every thread's rows summed per communicator, in the order this rank
 * first used them (serial order), the messages of no communicator last. */
static void finish(void)
{
    struct prof_hmap all = { 0 };
    for (struct table *t = tables; t; t = t->next)
        for (uint32_t i = 0; i < t->rows.cap; i++) {
            const struct row *r = t->rows.vals[i];
            if (!r)
                continue;
            struct row *m = prof_hmap_get(&all, r->serial);
            if (!m) {
                if (!new_row(&all, r->serial, MPI_COMM_NULL, r))
                    __atomic_add_fetch(&lost, r->sends + r->recvs, __ATOMIC_RELAXED);
                continue;
            }
            m->sends += r->sends;
            m->bytes_sent += r->bytes_sent;
            m->recvs += r->recvs;
            m->bytes_recv += r->bytes_recv;
        }
    merged = malloc((all.n ? all.n : 1) * sizeof *merged);
    nmerged = 0;
    for (uint32_t i = 0; merged && i < all.cap; i++)
        if (all.vals[i])
            merged[nmerged++] = all.vals[i];
    if (!merged)
        prof_log_local("out of memory while merging the messages per communicator; comms.txt has no rows");
    else
        qsort(merged, nmerged, sizeof *merged, by_serial);
    prof_hmap_free(&all);
    if (lost)
        prof_log_local("out of memory while counting messages per communicator: %llu are missing from comms.txt",
                       (unsigned long long)lost);
}

#define NAME(c) #c,
#define PROF_COMMS_COLUMNS(X) X(rank) X(comm) X(size) X(sends) X(bytes_sent) X(recvs) X(bytes_recv)
static const char *const columns[] = { PROF_COMMS_COLUMNS(NAME) };

/* A communicator is named by MPI_Comm_get_name ("MPI_COMM_WORLD",
 * "MPI_COMM_SELF", or what the program set), else "comm<k>": the k-th
 * unnamed communicator this rank sent or received on. */
static void write_rows(struct prof_buf *b, const struct prof_report_ctx *ctx, const struct prof_rank_data *rd)
{
    (void)ctx;
    int unnamed = 0;
    for (uint32_t i = 0; i < nmerged; i++) {
        const struct row *r = merged[i];
        prof_buf_printf(b, "%d ", rd->rank);
        if (r->serial == COMMS_NONE) {
            prof_buf_printf(b, "-");
        } else if (r->name[0]) {
            prof_report_word(b, r->name);
        } else {
            prof_buf_printf(b, "comm%d", ++unnamed);
        }
        prof_buf_printf(b, r->size < 0 ? " -" : " %d", r->size);
        prof_buf_printf(b, " %llu %llu %llu %llu\n", (unsigned long long)r->sends, (unsigned long long)r->bytes_sent,
                        (unsigned long long)r->recvs, (unsigned long long)r->bytes_recv);
    }
}

static const struct prof_writer writer = {
    .file = "comms.txt", PROF_COLUMNS_OF(columns), .rows = write_rows,
};

const struct prof_module prof_mod_comms = {
    .name = "comms",
    .option = "COMMS",
    .finish = finish,
    .msg_sent = sent,
    .msg_received = received,
    .writer = &writer,
};
