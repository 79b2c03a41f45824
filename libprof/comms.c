/* comms.c: the comms module (MPIPROF_COMMS): how many point-to-point
 * messages and bytes each communicator carried, sent and received, per
 * rank, in comms.txt. Its handlers (hot when on) count in a per-thread
 * table keyed by the communicator's serial; a thread's first message and
 * a communicator's first on a thread are cold (malloc, a mutex,
 * PMPI_Comm_size and PMPI_Comm_get_name). Merged and written at
 * MPI_Finalize (cold). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "handles.h"
#include "log.h"
#include "module.h"
#include "report.h"

#define COMMS_NONE UINT64_MAX   /* the key of messages whose call names no communicator (MPI_Mrecv) */

struct row {
    uint64_t serial;                   /* the communicator (handles.h); 0: an empty slot */
    int size;                          /* its group's size; -1: not known */
    char name[MPI_MAX_OBJECT_NAME];    /* MPI_Comm_get_name's at its first message here; "" if none */
    uint64_t sends, bytes_sent, recvs, bytes_recv;
};

/* One thread's rows: open addressing on the serial, at most half full. */
struct table {
    struct table *next;                /* every thread's, for the merge */
    uint32_t mask, used;
    struct row *rows;
};

static pthread_mutex_t tables_lock = PTHREAD_MUTEX_INITIALIZER;
static struct table *tables;
static __thread struct table *mine __attribute__((tls_model("initial-exec")));
static uint64_t lost;                  /* messages not counted for want of memory (atomic) */
static struct row *merged;             /* at MPI_Finalize: every thread's rows, by serial */
static uint32_t nmerged;

static uint32_t home(uint64_t serial, uint32_t mask)
{
    return (uint32_t)((serial * 0x9e3779b97f4a7c15ULL) >> 32) & mask;
}

static struct row *slot(struct row *rows, uint32_t mask, uint64_t serial)
{
    uint32_t i = home(serial, mask);
    while (rows[i].serial && rows[i].serial != serial)
        i = (i + 1) & mask;
    return &rows[i];
}

/* Room for one more row in t (cold); -1 without memory. */
static int grow(struct table *t)
{
    uint32_t cap = t->rows ? t->mask + 1 : 0;
    if (2 * (t->used + 1) <= cap)
        return 0;
    uint32_t ncap = cap ? 2 * cap : 16;
    struct row *rows = calloc(ncap, sizeof *rows);
    if (!rows)
        return -1;
    for (uint32_t i = 0; i < cap; i++)
        if (t->rows[i].serial)
            *slot(rows, ncap - 1, t->rows[i].serial) = t->rows[i];
    free(t->rows);
    t->rows = rows;
    t->mask = ncap - 1;
    return 0;
}

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

/* A communicator's first message on this thread (cold): its row. */
static __attribute__((noinline)) struct row *new_row(struct table *t, const struct prof_ev_msg *ev, uint64_t key)
{
    if (grow(t) != 0)
        return NULL;
    struct row *r = slot(t->rows, t->mask, key);
    r->serial = key;
    r->size = -1;
    t->used++;
    const struct prof_comm_info *ci = key == COMMS_NONE ? NULL : prof_comm_info_of(ev->comm, key);
    int len = 0;
    if (ci) {
        r->size = ci->size;
        PMPI_Comm_get_name(ev->comm, r->name, &len);
    }
    r->name[len < MPI_MAX_OBJECT_NAME ? len : MPI_MAX_OBJECT_NAME - 1] = '\0';
    return r;
}

static struct row *row_of(const struct prof_ev_msg *ev)
{
    uint64_t key = ev->comm == MPI_COMM_NULL || !ev->comm_serial ? COMMS_NONE : ev->comm_serial;
    struct table *t = table();
    struct row *r = t && t->rows ? slot(t->rows, t->mask, key) : NULL;
    if (r && r->serial)
        return r;
    if (t && (r = new_row(t, ev, key)))
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
    uint64_t x = ((const struct row *)a)->serial, y = ((const struct row *)b)->serial;
    return (x > y) - (x < y);
}

/* Every thread's rows summed per communicator, in the order this rank
 * first used them (serial order), the messages of no communicator last. */
static void finish(void)
{
    struct table all = { 0 };
    for (struct table *t = tables; t; t = t->next)
        for (uint32_t i = 0; t->rows && i <= t->mask; i++) {
            const struct row *r = &t->rows[i];
            struct row *m = NULL;
            if (!r->serial)
                continue;
            if (grow(&all) == 0)
                m = slot(all.rows, all.mask, r->serial);
            if (!m) {
                __atomic_add_fetch(&lost, r->sends + r->recvs, __ATOMIC_RELAXED);
                continue;
            }
            if (!m->serial) {
                *m = *r;
                all.used++;
                continue;
            }
            m->sends += r->sends;
            m->bytes_sent += r->bytes_sent;
            m->recvs += r->recvs;
            m->bytes_recv += r->bytes_recv;
        }
    nmerged = 0;
    for (uint32_t i = 0; all.rows && i <= all.mask; i++)
        if (all.rows[i].serial)
            all.rows[nmerged++] = all.rows[i];
    qsort(all.rows, nmerged, sizeof *all.rows, by_serial);
    merged = all.rows;
    if (lost)
        prof_log_local("out of memory while counting messages per communicator: %llu are missing from comms.txt",
                       (unsigned long long)lost);
}

#define NAME(c) #c,
#define PROF_COMMS_COLUMNS(X) X(rank) X(comm) X(size) X(sends) X(bytes_sent) X(recvs) X(bytes_recv)
static const char *const columns[] = { PROF_COMMS_COLUMNS(NAME) };

static void write_columns(struct prof_buf *b, const struct prof_report_ctx *ctx)
{
    (void)ctx;
    prof_report_column_line(b, columns, sizeof columns / sizeof columns[0]);
}

/* A communicator is named by MPI_Comm_get_name ("MPI_COMM_WORLD",
 * "MPI_COMM_SELF", or what the program set), else "comm<k>": the k-th
 * unnamed communicator this rank sent or received on. */
static void write_rows(struct prof_buf *b, const struct prof_report_ctx *ctx, const struct prof_rank_data *rd)
{
    (void)ctx;
    int unnamed = 0;
    for (uint32_t i = 0; i < nmerged; i++) {
        const struct row *r = &merged[i];
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
    .file = "comms.txt", .columns = write_columns, .rows = write_rows,
};

const struct prof_module prof_mod_comms = {
    .name = "comms",
    .option = "COMMS",
    .finish = finish,
    .msg_sent = sent,
    .msg_received = received,
    .writer = &writer,
};
