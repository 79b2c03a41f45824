/* known_rmaio.c: the one-sided and MPI-IO workloads of mpiprof-known
 * (known.h), whose rma.txt and io.txt rows follow from what they do. Each
 * rank notes every row it should have (calls and bytes; times are not
 * known in advance); rank 0 prints them all on one line:
 *   expect=rma ranks=P windows=W creates=C1,C2 rows=RANK:TARGET:KIND:CALLS:BYTES,...
 *     (summed over windows; W distinct creating call sites, each creating
 *     C windows)
 *   expect=io ranks=P rows=RANK:NAME:PROCS:WHAT:CALLS:BYTES,...
 *     (RANK "all" for the job's line of a file)
 * Workloads:
 *   rma  -k K epochs on a window of MPI_Win_create: per epoch a put of -n N
 *        doubles to the next rank, a get of N/2 from the previous and an
 *        accumulate of N to the next, between fences; then a lock of the
 *        next rank with a fetch-and-op, a compare-and-swap, a
 *        get-accumulate of N and a flush, and a lock-all with a flush-all;
 *        then -w W windows of MPI_Win_allocate made and freed at one call
 *        site, each with one put of N to the next rank between two fences.
 *        The data is checked.
 *   io   in directory -d DIR (default .): every rank writes and reads one
 *        file of MPI_COMM_WORLD in every access family, a read past its end
 *        reads what is there; then rank 0 reads it alone (MPI_COMM_SELF: a
 *        file of its own); every rank writes -s BYTES (default 2 MiB) to a
 *        file of its own; all open and close a third file -k K times. The
 *        data is checked. The files are deleted at the end. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
#include "intopts.h"
#include "known.h"

/* The rows this rank expects, as text. */
static char *rows;
static size_t nrows, caprows;

static void row(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void row(const char *fmt, ...)
{
    char one[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(one, sizeof one, fmt, ap);
    va_end(ap);
    if (nrows + (size_t)n + 2 > caprows) {
        caprows = 2 * (nrows + (size_t)n + 2);
        rows = realloc(rows, caprows);
        if (!rows) {
            fprintf(stderr, "mpiprof-known: out of memory\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    nrows += (size_t)sprintf(rows + nrows, "%s%s", nrows ? "," : "", one);
}

/* Every rank's rows, printed by rank 0 after " rows=". */
static void print_rows(int rank, int size)
{
    int n = (int)nrows, *lens = rank == 0 ? calloc((size_t)size * 2, sizeof *lens) : NULL;
    MPI_Gather(&n, 1, MPI_INT, lens, 1, MPI_INT, 0, MPI_COMM_WORLD);
    char *all = NULL;
    if (rank == 0) {
        int total = 0;
        for (int r = 0; r < size; r++) {
            lens[size + r] = total;
            total += lens[r];
        }
        all = malloc((size_t)total + 1);
        all[total] = '\0';
    }
    MPI_Gatherv(rows ? rows : "", n, MPI_CHAR, all, lens, lens ? lens + size : NULL, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf(" rows=");
        for (int r = 0, first = 1; r < size; r++)
            if (lens[r]) {
                printf("%s%.*s", first ? "" : ",", lens[r], all + lens[size + r]);
                first = 0;
            }
    }
    free(all);
    free(lens);
    free(rows);
    rows = NULL;
    nrows = caprows = 0;
}

static void check(int ok, const char *what, int rank)
{
    if (!ok) {
        fprintf(stderr, "mpiprof-known: rank %d: wrong data: %s\n", rank, what);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

/* -k, -n or -s, -w: parsed into o[0..2]; returns -1 to go on, else the exit status. */
static int parse(const char *name, int argc, char **argv, int rank, int size, const struct bench_intopt *opts,
                 int nopts, const char *usage, const char **dir)
{
    char err[256], prog[64], *args[64];
    int n = 0;
    snprintf(prog, sizeof prog, "mpiprof-known %s", name);
    for (int i = 0; i < argc && n < 63; i++) {
        if (dir && strcmp(argv[i], "-d") == 0 && i + 1 < argc)
            *dir = argv[++i];
        else
            args[n++] = argv[i];
    }
    args[n] = NULL;
    int rc = bench_intopts_parse(prog, n, args, opts, nopts, err, sizeof err);
    if (rc == 0 && size < 2) {
        snprintf(err, sizeof err, "%s: needs at least 2 processes (got %d)", prog, size);
        rc = 2;
    }
    if (rc == 0)
        return -1;
    if (rank == 0 && rc == 1)
        printf("Usage: mpiprof-known %s %s\n", name, usage);
    else if (rank == 0)
        fprintf(stderr, "%s\n", err);
    return rc == 1 ? 0 : 2;
}

/* --- rma ------------------------------------------------------------------ */

static int run_rma(int argc, char **argv, int rank, int size)
{
    long k = 4, n = 16, w = 3;
    const struct bench_intopt opts[] = { { 'k', 1, 1000, &k }, { 'n', 2, 100000, &n }, { 'w', 1, 10000, &w } };
    int rc = parse("rma", argc, argv, rank, size, opts, 3,
                   "[-k EPOCHS (default 4)] [-n DOUBLES (2..100000, default 16)] [-w WINDOWS (default 3)]", NULL);
    if (rc >= 0)
        return rc;
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    double *buf = known_doubles(5 * n), *out = known_doubles(n), *in = known_doubles(n);
    for (long i = 0; i < n; i++)
        buf[n + i] = rank * 10.0 + (double)i;
    MPI_Win win;
    MPI_Win_create(buf, 5 * n * (MPI_Aint)sizeof *buf, sizeof *buf, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    for (long e = 0; e < k; e++) {
        for (long i = 0; i < n; i++)
            out[i] = rank * 1000.0 + (double)i;
        MPI_Put(out, (int)n, MPI_DOUBLE, next, 0, (int)n, MPI_DOUBLE, win);
        MPI_Get(in, (int)(n / 2), MPI_DOUBLE, prev, n, (int)(n / 2), MPI_DOUBLE, win);
        MPI_Accumulate(out, (int)n, MPI_DOUBLE, next, 2 * n, (int)n, MPI_DOUBLE, MPI_SUM, win);
        MPI_Win_fence(0, win);
        for (long i = 0; i < n / 2; i++)
            check(in[i] == prev * 10.0 + (double)i, "get", rank);
    }
    double one = 1.0, fetched = -1;
    int64_t swap = 7, compare = 0, old = -1;
    for (long i = 0; i < n; i++)
        out[i] = 1.0;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, next, 0, win);
    MPI_Fetch_and_op(&one, &fetched, MPI_DOUBLE, next, 3 * n, MPI_SUM, win);
    MPI_Compare_and_swap(&swap, &compare, &old, MPI_INT64_T, next, 3 * n + 1, win);
    MPI_Get_accumulate(out, (int)n, MPI_DOUBLE, in, (int)n, MPI_DOUBLE, next, 4 * n, (int)n, MPI_DOUBLE, MPI_SUM,
                       win);
    MPI_Win_flush(next, win);
    MPI_Win_unlock(next, win);
    check(fetched == 0.0 && old == 0, "fetch-and-op, compare-and-swap", rank);
    for (long i = 0; i < n; i++)
        check(in[i] == 0.0, "get-accumulate", rank);
    MPI_Win_lock_all(0, win);
    MPI_Win_flush_all(win);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_fence(0, win);
    int64_t swapped;
    memcpy(&swapped, &buf[3 * n + 1], sizeof swapped);
    check(buf[3 * n] == 1.0 && swapped == 7, "fetch-and-op, compare-and-swap target", rank);
    for (long i = 0; i < n; i++) {
        check(buf[i] == prev * 1000.0 + (double)i, "put", rank);
        check(buf[2 * n + i] == (double)k * (prev * 1000.0 + (double)i), "accumulate", rank);
        check(buf[4 * n + i] == 1.0, "get-accumulate target", rank);
    }
    MPI_Win_free(&win);
    for (long i = 0; i < w; i++) {
        double *base;
        MPI_Win_allocate(n * (MPI_Aint)sizeof *base, sizeof *base, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
        MPI_Win_fence(0, win);
        MPI_Put(out, (int)n, MPI_DOUBLE, next, 0, (int)n, MPI_DOUBLE, win);
        MPI_Win_fence(0, win);
        check(base[0] == 1.0 && base[n - 1] == 1.0, "put (allocated window)", rank);
        MPI_Win_free(&win);
    }
    uint64_t d = sizeof(double);
    row("%d:-1:fence:%ld:0", rank, k + 2 + 2 * w);
    row("%d:-1:lock_all:2:0", rank);
    row("%d:-1:flush:1:0", rank);
    row("%d:-1:create:%ld:0", rank, 1 + w);
    row("%d:-1:free:%ld:0", rank, 1 + w);
    row("%d:%d:put:%ld:%llu", rank, next, k + w, (unsigned long long)((k + w) * n * d));
    row("%d:%d:acc:%ld:%llu", rank, next, k, (unsigned long long)(k * n * d));
    row("%d:%d:lock:2:0", rank, next);
    row("%d:%d:fop:1:%llu", rank, next, (unsigned long long)d);
    row("%d:%d:cas:1:%llu", rank, next, (unsigned long long)sizeof(int64_t));
    row("%d:%d:get_acc:1:%llu", rank, next, (unsigned long long)(n * d));
    row("%d:%d:flush:1:0", rank, next);
    row("%d:%d:get:%ld:%llu", rank, prev, k, (unsigned long long)(k * (n / 2) * d));
    if (rank == 0)
        printf("expect=rma ranks=%d windows=2 creates=1,%ld", size, w);
    print_rows(rank, size);
    if (rank == 0)
        known_end();
    free(buf);
    free(out);
    free(in);
    return 0;
}

const struct known_workload known_rma = { "rma", "one-sided calls of every kind: rma.txt's rows", run_rma };

/* --- io ------------------------------------------------------------------- */

/* Darshan's access-size bins, as io.txt names them. */
static const char *bin(uint64_t bytes)
{
    static const uint64_t top[] = { 100, 1024, 10240, 102400, 1048576, 4194304, 10485760, 104857600, 1073741824 };
    static const char *const name[] = { "0_100", "100_1K", "1K_10K", "10K_100K", "100K_1M", "1M_4M",
                                         "4M_10M", "10M_100M", "100M_1G", "1G_PLUS" };
    int b = 0;
    while (b < 9 && bytes > top[b])
        b++;
    return name[b];
}

/* The per-bin rows of one direction's accesses (sizes[0..n-1]). */
static void size_rows(int rank, const char *file, int procs, const char *dir, const uint64_t *sizes, int n)
{
    int done[16] = { 0 };
    for (int i = 0; i < n; i++) {
        if (done[i])
            continue;
        uint64_t calls = 0, bytes = 0;
        for (int j = i; j < n; j++)
            if (strcmp(bin(sizes[j]), bin(sizes[i])) == 0) {
                calls++;
                bytes += sizes[j];
                done[j] = 1;
            }
        row("%d:%s:%d:%s.size.%s:%llu:%llu", rank, file, procs, dir, bin(sizes[i]), (unsigned long long)calls,
            (unsigned long long)bytes);
    }
}

/* MPI_File_open, or one message and the job's end. */
static void open_file(MPI_Comm comm, const char *name, int amode, MPI_File *fh)
{
    int rc = MPI_File_open(comm, name, amode, MPI_INFO_NULL, fh), len;
    if (rc != MPI_SUCCESS) {
        char why[MPI_MAX_ERROR_STRING];
        MPI_Error_string(rc, why, &len);
        fprintf(stderr, "mpiprof-known io: cannot open '%s': %s\n", name, why);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
}

static void fill(char *p, long n, long seed)
{
    for (long i = 0; i < n; i++)
        p[i] = (char)('a' + (seed * 7 + i) % 26);
}

static void check_fill(const char *p, long n, long seed, const char *what, int rank)
{
    for (long i = 0; i < n; i++)
        check(p[i] == (char)('a' + (seed * 7 + i) % 26), what, rank);
}

enum { A = 4096, B = 150, C = 60, D = 20000, E = 1000, F = 30, G = 200, TAIL = 100 };

/* The file of every rank: each access family once each way. */
static void shared_file(const char *name, int rank, int size)
{
    MPI_File fh;
    MPI_Status st;
    MPI_Request rq;
    char *w = malloc(D), *r = malloc(D);
    int next = (rank + 1) % size, got;
    MPI_Offset b = (MPI_Offset)size * A, c = b + (MPI_Offset)size * B, d = c + (MPI_Offset)size * C;
    MPI_Offset e = d + (MPI_Offset)size * D, f = e + (MPI_Offset)size * E, end = f + (MPI_Offset)size * (F + G);
    if (!w || !r)
        check(0, "out of memory", rank);
    open_file(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR, &fh);
    MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
    fill(w, A, rank);
    MPI_File_write_at_all(fh, (MPI_Offset)rank * A, w, A, MPI_BYTE, &st);
    fill(w, B, rank + 100);
    MPI_File_write_at(fh, b + (MPI_Offset)rank * B, w, B, MPI_BYTE, &st);
    MPI_File_seek(fh, c + (MPI_Offset)rank * C, MPI_SEEK_SET);
    MPI_File_write(fh, w, C, MPI_BYTE, &st);
    fill(w, D, rank + 200);
    MPI_File_iwrite_at(fh, d + (MPI_Offset)rank * D, w, D, MPI_BYTE, &rq);
    MPI_Wait(&rq, &st);
    MPI_File_write_at_all_begin(fh, e + (MPI_Offset)rank * E, w, E, MPI_BYTE);
    MPI_File_write_at_all_end(fh, w, &st);
    MPI_File_seek_shared(fh, f, MPI_SEEK_SET);
    MPI_File_write_shared(fh, w, F, MPI_BYTE, &st);
    MPI_File_write_ordered(fh, w, G, MPI_BYTE, &st);
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(fh);
    MPI_Offset fsize;
    MPI_File_get_size(fh, &fsize);
    check(fsize == end, "get_size", rank);
    MPI_File_read_at_all(fh, (MPI_Offset)next * A, r, A, MPI_BYTE, &st);
    check_fill(r, A, next, "read_at_all", rank);
    MPI_File_read_at(fh, b + (MPI_Offset)next * B, r, B, MPI_BYTE, &st);
    check_fill(r, B, next + 100, "read_at", rank);
    MPI_File_iread_at(fh, d + (MPI_Offset)next * D, r, D, MPI_BYTE, &rq);
    MPI_Wait(&rq, &st);
    check_fill(r, D, next + 200, "iread_at", rank);
    MPI_File_read_at(fh, end - 10, r, TAIL, MPI_BYTE, &st);
    MPI_Get_count(&st, MPI_BYTE, &got);
    check(got == 10, "read past the end", rank);
    MPI_File_close(&fh);
    free(w);
    free(r);
    const uint64_t writes[] = { A, B, C, D, E, F, G }, reads[] = { A, B, D, 10 };
    row("%d:%s:%d:open:1:0", rank, name, size);
    row("%d:%s:%d:close:1:0", rank, name, size);
    row("%d:%s:%d:sync:2:0", rank, name, size);
    row("%d:%s:%d:seek:2:0", rank, name, size);
    row("%d:%s:%d:set_view:1:0", rank, name, size);
    row("%d:%s:%d:other:1:0", rank, name, size);
    row("%d:%s:%d:write.coll:1:%d", rank, name, size, A);
    row("%d:%s:%d:write.at:1:%d", rank, name, size, B);
    row("%d:%s:%d:write.indiv:1:%d", rank, name, size, C);
    row("%d:%s:%d:write.nb:1:%d", rank, name, size, D);
    row("%d:%s:%d:write.split:1:%d", rank, name, size, E);
    row("%d:%s:%d:write.shared:1:%d", rank, name, size, F);
    row("%d:%s:%d:write.ordered:1:%d", rank, name, size, G);
    row("%d:%s:%d:read.coll:1:%d", rank, name, size, A);
    row("%d:%s:%d:read.at:2:%d", rank, name, size, B + 10);
    row("%d:%s:%d:read.nb:1:%d", rank, name, size, D);
    size_rows(rank, name, size, "write", writes, 7);
    size_rows(rank, name, size, "read", reads, 4);
    if (rank == 0)
        row("all:%s:%d:total:%d:%d", name, size, 19 * size, /* 8 calls, 11 accesses */ (A + B + C + D + E + F + G + A + B + D + 10) * size);
}

/* One rank's file: MPI_COMM_SELF, one write (or read) of bytes. */
static void own_file(const char *name, int rank, long bytes, int write)
{
    MPI_File fh;
    MPI_Status st;
    char *p = malloc(bytes > 0 ? (size_t)bytes : 1);
    if (!p)
        check(0, "out of memory", rank);
    open_file(MPI_COMM_SELF, name, write ? MPI_MODE_CREATE | MPI_MODE_WRONLY : MPI_MODE_RDONLY, &fh);
    fill(p, bytes, 0);
    if (write) {
        MPI_File_write(fh, p, (int)bytes, MPI_BYTE, &st);
    } else {
        MPI_File_read(fh, p, (int)bytes, MPI_BYTE, &st);
        check_fill(p, bytes, 0, "read (MPI_COMM_SELF)", rank);
    }
    MPI_File_close(&fh);
    free(p);
    const char *dir = write ? "write" : "read";
    uint64_t size = (uint64_t)bytes;
    row("%d:%s:1:open:1:0", rank, name);
    row("%d:%s:1:close:1:0", rank, name);
    row("%d:%s:1:%s.indiv:1:%ld", rank, name, dir, bytes);
    size_rows(rank, name, 1, dir, &size, 1);
    row("all:%s:1:total:3:%ld", name, bytes);
}

static int run_io(int argc, char **argv, int rank, int size)
{
    long k = 5, s = 2 << 20;
    const char *dir = ".";
    const struct bench_intopt opts[] = { { 'k', 1, 10000, &k }, { 's', 1, 1 << 30, &s } };
    int rc = parse("io", argc, argv, rank, size, opts, 2,
                   "[-d DIR (default .)] [-k OPENS (default 5)] [-s BYTES (default 2 MiB)]", &dir);
    if (rc >= 0)
        return rc;
    char shared[4096], mine[4096], loop[4096];
    snprintf(shared, sizeof shared, "%s/known-io-shared.dat", dir);
    snprintf(mine, sizeof mine, "%s/known-io-rank%d.dat", dir, rank);
    snprintf(loop, sizeof loop, "%s/known-io-loop.dat", dir);
    if (rank == 0) {
        MPI_File_delete(shared, MPI_INFO_NULL);
        MPI_File_delete(loop, MPI_INFO_NULL);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    shared_file(shared, rank, size);
    if (rank == 0) {
        /* the first A bytes are rank 0's: fill()'s seed 0 */
        own_file(shared, rank, A, 0);
    }
    own_file(mine, rank, s, 1);
    for (long i = 0; i < k; i++) {
        MPI_File fh;
        open_file(MPI_COMM_WORLD, loop, MPI_MODE_CREATE | MPI_MODE_RDWR, &fh);
        MPI_File_close(&fh);
    }
    row("%d:%s:%d:open:%ld:0", rank, loop, size, k);
    row("%d:%s:%d:close:%ld:0", rank, loop, size, k);
    if (rank == 0)
        row("all:%s:%d:total:%ld:0", loop, size, 2 * k * size);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_delete(mine, MPI_INFO_NULL);
    if (rank == 0) {
        MPI_File_delete(shared, MPI_INFO_NULL);
        MPI_File_delete(loop, MPI_INFO_NULL);
        printf("expect=io ranks=%d", size);
    }
    print_rows(rank, size);
    if (rank == 0)
        known_end();
    return 0;
}

const struct known_workload known_io = { "io", "MPI-IO in every access family: io.txt's rows", run_io };
