/* io.c: the io module (always on): MPI-IO figures per file (io.h), from
 * the file events; io.txt. */
#include <stdlib.h>
#include <string.h>
#include "lock.h"
#include "log.h"
#include "module.h"
#include "prof.h"
#include "io.h"
#include "keys.h"
#include "report.h"
#include "symbolize.h"

const char *const prof_io_op_name[PROF_IO_OPS] = { "open", "close", "sync", "seek", "set_view", "other" };
const char *const prof_io_dir_name[2] = { "read", "write" };
const char *const prof_io_access_name[PROF_IO_ACCESSES] = { "indiv", "at", "shared", "coll", "ordered", "nb", "split" };
const char *const prof_io_bin_name[PROF_IO_BINS] = {
    "0_100", "100_1K", "1K_10K", "10K_100K", "100K_1M", "1M_4M", "4M_10M", "10M_100M", "100M_1G", "1G_PLUS",
};

static struct {
    pthread_mutex_t lock;
    struct prof_hmap byname;       /* key -> struct prof_io_file */
    struct prof_hmap handles;      /* handle -> struct prof_io_file */
    struct prof_io_file **list;
    int n;
} io = { .lock = PTHREAD_MUTEX_INITIALIZER };

int prof_io_bin(uint64_t bytes)
{
    static const uint64_t top[PROF_IO_BINS - 1] = {
        100, 1024, 10240, 102400, 1048576, 4194304, 10485760, 104857600, 1073741824,
    };
    int b = 0;
    while (b < PROF_IO_BINS - 1 && bytes > top[b])
        b++;
    return b;
}

static uint64_t handle_key(MPI_File fh)
{
    return prof_hkey(&fh, sizeof fh);
}

/* The entry of (name, procs), created on first use (locked). */
static struct prof_io_file *file_of(const char *name, int procs)
{
    uint64_t key = prof_fnv(prof_fnv(PROF_FNV0, name, strlen(name) + 1), &procs, sizeof procs);
    struct prof_io_file *f = prof_hmap_get(&io.byname, key);
    if (f)
        return f;
    struct prof_io_file **list = realloc(io.list, ((size_t)io.n + 1) * sizeof *list);
    if (!list)
        return NULL;
    io.list = list;
    f = calloc(1, sizeof *f);
    if (!f || !(f->name = strdup(name)) || prof_hmap_put(&io.byname, key, f) != 0) {
        if (f)
            free(f->name);
        free(f);
        return NULL;
    }
    f->key = key;
    f->procs = procs;
    io.list[io.n++] = f;
    return f;
}

static void opened(const struct prof_ev_handle *ev)
{
    struct prof_call *c = ev->c;
    MPI_Comm comm = ev->comm;
    const char *name = ev->name;
    MPI_File *fh = ev->handle;
    int procs = 0;
    if (c->rc != MPI_SUCCESS)
        return;
    PMPI_Comm_size(comm, &procs);
    prof_lock(&io.lock);
    struct prof_io_file *f = file_of(name ? name : "", procs);
    if (f)
        prof_hmap_put(&io.handles, handle_key(*fh), f);
    prof_unlock(&io.lock);
}

static void closing(const struct prof_ev_handle *ev)
{
    struct prof_call *c = ev->c;
    MPI_File *fh = ev->handle;
    prof_lock(&io.lock);
    c->entry = prof_hmap_del(&io.handles, handle_key(*fh));
    prof_unlock(&io.lock);
}

static void closed(const struct prof_ev_handle *ev)
{
    struct prof_call *c = ev->c;
    MPI_File *fh = ev->handle;
    if (c->rc == MPI_SUCCESS || !c->entry)
        return;
    prof_lock(&io.lock);
    prof_hmap_put(&io.handles, handle_key(*fh), c->entry);
    prof_unlock(&io.lock);
}

/* The figures of an unknown handle, or without memory, are lost. A read
 * or write: */
static void read_write(const struct prof_ev_io *ev)
{
    prof_lock(&io.lock);
    struct prof_io_file *f = prof_hmap_get(&io.handles, handle_key(ev->fh));
    if (f) {
        prof_tally_add(&f->rw[ev->dir][ev->access], ev->bytes, ev->ticks);
        prof_tally_add(&f->size[ev->dir][prof_io_bin(ev->bytes)], ev->bytes, ev->ticks);
    }
    prof_unlock(&io.lock);
}

/* the _end half of a split collective, its time only: */
static void split_end(const struct prof_ev_io *ev)
{
    prof_lock(&io.lock);
    struct prof_io_file *f = prof_hmap_get(&io.handles, handle_key(ev->fh));
    if (f)
        f->rw[ev->dir][PROF_IO_SPLIT].ticks += ev->ticks;
    prof_unlock(&io.lock);
}

/* an open, close (on the file its closing handler kept), sync, seek,
 * view or other call on the file: */
static void file_op(const struct prof_ev_io *ev)
{
    prof_lock(&io.lock);
    struct prof_io_file *f = ev->op == PROF_IO_CLOSE ? ev->c->entry : prof_hmap_get(&io.handles, handle_key(ev->fh));
    if (f)
        prof_tally_add(&f->op[ev->op], 0, ev->ticks);
    prof_unlock(&io.lock);
}

struct prof_io_file *const *prof_io_files(int *n)
{
    *n = io.n;
    return io.list;
}

/* A file over the ranks, and the lowest rank that has it. */
struct file_key {
    uint64_t key;
    int64_t owner;
};

static int by_key(const void *a, const void *b)
{
    return prof_u64_cmp(&((const struct file_key *)a)->key, &((const struct file_key *)b)->key);
}

static void lowest_owner(void *into, const void *from)
{
    struct file_key *x = into;
    const struct file_key *y = from;
    if (y->owner < x->owner)
        x->owner = y->owner;
}

static const struct prof_key_kind file_kind = { sizeof(struct file_key), by_key, lowest_owner };

/* Everything this rank did on f: calls, bytes and time. */
static struct prof_tally file_total(const struct prof_io_file *f)
{
    struct prof_tally t = { 0 };
    const struct prof_tally *parts[PROF_IO_OPS + 2 * PROF_IO_ACCESSES];
    for (int i = 0; i < PROF_IO_OPS; i++)
        parts[i] = &f->op[i];
    for (int i = 0; i < 2 * PROF_IO_ACCESSES; i++)
        parts[PROF_IO_OPS + i] = &f->rw[i / PROF_IO_ACCESSES][i % PROF_IO_ACCESSES];
    for (int i = 0; i < PROF_IO_OPS + 2 * PROF_IO_ACCESSES; i++) {
        t.calls += parts[i]->calls;
        t.bytes += parts[i]->bytes;
        t.ticks += parts[i]->ticks;
    }
    return t;
}

/* Number the files by their key over all ranks and total them: 0, or -1
 * on every rank when some rank ran out of memory (ids stay 0). */
static int number(MPI_Comm comm)
{
    int rank, total;
    PMPI_Comm_rank(comm, &rank);
    struct file_key *keys = malloc(((size_t)io.n + 1) * sizeof *keys);
    for (int i = 0; keys && i < io.n; i++)
        keys[i] = (struct file_key){ io.list[i]->key, rank };
    int n = keys ? prof_keys_unique(&file_kind, (char *)keys, io.n) : -1;
    struct file_key *all = prof_keys_union(comm, &file_kind, (char *)keys, n, &total);
    if (!all)
        return -1;
    double *sum = calloc(3 * (size_t)total + 1, sizeof *sum), *max = sum + 2 * (size_t)total;
    if (!prof_all_agree(sum != NULL, comm)) {
        free(sum);
        free(all);
        return -1;
    }
    for (int i = 0; i < io.n; i++) {
        struct prof_io_file *f = io.list[i];
        struct file_key k = { f->key, 0 }, *at = bsearch(&k, all, (size_t)total, sizeof k, by_key);
        f->id = (int)(at - all) + 1;
        f->owner = (int)at->owner;
        struct prof_tally t = file_total(f);
        sum[2 * (f->id - 1)] = (double)t.calls;
        sum[2 * (f->id - 1) + 1] = (double)t.bytes;
        max[f->id - 1] = (double)t.ticks;
    }
    PMPI_Allreduce(MPI_IN_PLACE, sum, 2 * total, MPI_DOUBLE, MPI_SUM, comm);
    PMPI_Allreduce(MPI_IN_PLACE, max, total, MPI_DOUBLE, MPI_MAX, comm);
    for (int i = 0; i < io.n; i++) {
        struct prof_io_file *f = io.list[i];
        f->job_calls = sum[2 * (f->id - 1)];
        f->job_bytes = sum[2 * (f->id - 1) + 1];
        f->job_slowest = max[f->id - 1];
    }
    free(sum);
    free(all);
    return 0;
}

/* io.txt's order: files by id. */
static int by_id(const void *a, const void *b)
{
    int x = (*(struct prof_io_file *const *)a)->id, y = (*(struct prof_io_file *const *)b)->id;
    return (x > y) - (x < y);
}

/* io.txt is written when some rank opened a file. */
static int agree(MPI_Comm comm)
{
    int mine = io.n > 0, any = 0;
    PMPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, comm);
    if (!any)
        return 0;
    if (number(comm) != 0)
        prof_log_once("out of memory while numbering the files; io.txt shows them as file 0");
    if (io.n)
        qsort(io.list, (size_t)io.n, sizeof *io.list, by_id);
    return 1;
}

const struct prof_module prof_mod_io = {
    .name = "io",
    .file_opened = opened,
    .file_closing = closing,
    .file_closed = closed,
    .file_access = read_write,
    .file_end = split_end,
    .file_op = file_op,
    .agree = agree,
    .writer = &prof_io_writer,
};
