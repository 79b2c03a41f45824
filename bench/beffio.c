/* beffio.c: mpiprof-beffio, the effective I/O bandwidth benchmark
 * b_eff_io (Rabenseifner, Koniges, Prost, Hedges: "The Parallel Effective
 * I/O Bandwidth Benchmark: b_eff_io", sections 3, 5 and 6).
 *
 * For each partition (section 6: 2^round(0.35 log2 P), 2^round(0.70 log2
 * P) and P processes, small = 1 when P = 3, medium = 3 when P = 4; each
 * distinct size once) the first q processes run the access methods initial
 * write, rewrite and read, each over the pattern types of Table 1 (all
 * rewrite patterns: release 2's longer option; only type 0's counts in
 * release 2's value):
 *   0  strided collective: each call scatters L bytes of memory in chunks
 *      of l bytes (a file view of the process's chunk in every q l bytes),
 *      MPI_File_write_all / read_all;
 *   1  the same, one call per chunk (L = l);
 *   2  noncollective, one file per process, MPI_File_write / read;
 *   3  as 2, the files assembled into one file of segments of LSEG bytes;
 *   4  as 3, collective.
 * Chunk sizes 1 kB, 32 kB, 1 MB, MPART = max(2 MB, node memory / 128),
 * and the non-wellformed +8 byte ones; a pattern's time share is
 * T_partition / 3 x U / 64 (T split evenly over the partitions). Types 0 to
 * 2 are time-driven: batches of 1, 2, 4, ... calls while the slowest
 * process's elapsed time and its rate say the next batch still fits (the
 * decision collective: MPI_Allreduce of the elapsed time, section 5); U =
 * 0 patterns run once. Types 3 and 4 are size-driven: per chunk size the
 * repetitions type 2 reached, LSEG their bytes rounded up to 1 MB. Rewrite
 * and read repeat what the initial write did.
 *
 * A pattern type's bandwidth is its bytes over the time from opening to
 * closing its file (the slowest process). An access method's value is
 * the mean over the types with type 0 weighted double; release 1's
 * partition value is 25 % write + 25 % rewrite + 50 % read of those;
 * release 2's is the geometric mean of the write average (the five
 * initial-write types and the type-0 rewrite, each once) and the read
 * average (type 0 double). b_eff_io is the largest partition value; both weightings are
 * printed, release 2's as the result. MB = 2^20 bytes.
 *
 * Files: DIR/beffio_p<q>_t<type> (type 2: _<rank>), created by the
 * initial write, deleted after the partition's reads, and removed by an
 * exit, signal or MPI-IO error handler if the run stops in the middle.
 *
 * BENCH_EXPECT (expect.h): the file functions of the patterns, tallied
 * from the repetitions each row ran (B.reps) after the type's file is
 * closed and timed. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <mpi.h>
#include "expect.h"
#include "files.h"

#define PROG "mpiprof-beffio"
#define KB 1024L
#define MB (1024L * 1024L)
#define NTYPES 5
#define NROWS 9                 /* the most patterns of one type (type 0) */
#define SUM_U 64.0

enum method { WRITE, REWRITE, READ, NMETHODS };
static const char *const method_name[NMETHODS] = { "write", "rewrite", "read" };

/* A pattern of Table 1: chunk l on disk, L in memory per call (0: := l),
 * time units U. MPART is l = -1. */
struct pattern {
    long l, L;
    int U;
};

static const struct pattern table[3][NROWS] = {
    { { MB, MB, 0 }, { -1, 0, 4 }, { MB, 2 * MB, 4 }, { MB, MB, 4 }, { 32 * KB, MB, 2 }, { KB, MB, 2 },
      { 32 * KB + 8, MB + 256, 2 }, { KB + 8, MB + 8 * KB, 2 }, { MB + 8, MB + 8, 2 } },
    { { MB, 0, 0 }, { -1, 0, 4 }, { MB, 0, 2 }, { 32 * KB, 0, 1 }, { KB, 0, 1 }, { 32 * KB + 8, 0, 1 },
      { KB + 8, 0, 1 }, { MB + 8, 0, 2 } },
    { { MB, 0, 0 }, { -1, 0, 2 }, { MB, 0, 2 }, { 32 * KB, 0, 1 }, { KB, 0, 1 }, { 32 * KB + 8, 0, 1 },
      { KB + 8, 0, 1 }, { MB + 8, 0, 2 } },
};
static const int nrows[3] = { 9, 8, 8 };

/* Every call of these is a pattern's, or next to its tally. */
static const char *const claimed[] = { "MPI_File_open", "MPI_File_close", "MPI_File_delete", "MPI_File_set_view",
                                       "MPI_File_write", "MPI_File_write_all", "MPI_File_read", "MPI_File_read_all",
                                       NULL };
/* The access of io_call: [READ or not][collective]. */
static const char *const io_fn[2][2] = { { "MPI_File_write", "MPI_File_write_all" },
                                         { "MPI_File_read", "MPI_File_read_all" } };

struct opts {
    double T;                   /* -T: scheduled seconds for the whole run */
    double mem_mb;              /* -M: memory per node, MB (MPART) */
    char dir[1024];             /* -dir */
    char hints[1024];           /* -hints FILE, "" for none */
};

static struct {
    struct opts o;
    MPI_Comm comm;              /* the partition's processes */
    int rank, q, wrank;
    long mpart;
    char *buf;
    MPI_Info info[NTYPES];
    long reps[NTYPES][NROWS];   /* what the initial write did */
    long lseg;
} B;

static char files[NTYPES][1100];    /* this partition's files, by pattern type */

/* ---- command line --------------------------------------------------------- */

static void usage(FILE *f)
{
    fprintf(f, "Usage: mpirun -np P " PROG " [-T TIME] [-M MB] [-dir DIR] [-hints FILE] [-h]\n"
               "  -T TIME      scheduled time of the whole run: seconds, or with s, m, h (default 30m)\n"
               "  -M MB        memory per node in MB, for MPART = max(2 MB, M / 128) (default: this node's)\n"
               "  -dir DIR     where the files go (default: the working directory)\n"
               "  -hints FILE  MPI_Info hints per pattern type: lines 'TYPE KEY VALUE' (TYPE 0..4)\n"
               "  -h           show this help and exit\n");
}

static int bad(const char *fmt, const char *v)
{
    fprintf(stderr, PROG ": ");
    fprintf(stderr, fmt, v);
    fprintf(stderr, " (try -h)\n");
    return 2;
}

/* 0 to run, 1 after -h, 2 after a bad argument (one line on stderr). */
static int parse(int argc, char **argv, struct opts *o)
{
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
    o->T = 1800;
    o->mem_mb = pages > 0 && psize > 0 ? (double)pages * (double)psize / MB : 1024;
    snprintf(o->dir, sizeof o->dir, ".");
    o->hints[0] = '\0';
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "-help") || !strcmp(argv[i], "--help"))
            return 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end;
        if (strcmp(a, "-T") && strcmp(a, "-M") && strcmp(a, "-dir") && strcmp(a, "-hints"))
            return bad("unknown argument '%s'", a);
        if (!v)
            return bad("%s needs a value", a);
        i++;
        if (!strcmp(a, "-T")) {
            double t = strtod(v, &end), unit = !strcmp(end, "m") ? 60 : !strcmp(end, "h") ? 3600 : 1;
            if (end == v || (*end && strcmp(end, "s") && unit == 1) || !(t * unit >= 1 && t * unit <= 86400))
                return bad("-T: '%s' is not a time from 1 s to 24 h (e.g. 30s, 15m)", v);
            o->T = t * unit;
        } else if (!strcmp(a, "-M")) {
            double m = strtod(v, &end);
            if (end == v || *end || !(m >= 1 && m <= 1e9))
                return bad("-M: '%s' is not a number of MB from 1 to 1e9", v);
            o->mem_mb = m;
        } else {
            char *dst = !strcmp(a, "-dir") ? o->dir : o->hints;
            struct stat st;
            if (strlen(v) >= sizeof o->dir - 64)
                return bad("'%s' is too long", v);
            if (dst == o->dir && (stat(v, &st) != 0 || !S_ISDIR(st.st_mode) || access(v, W_OK | X_OK) != 0))
                return bad("-dir: cannot use '%s' (not a writable directory)", v);
            if (dst == o->hints && access(v, R_OK) != 0)
                return bad("-hints: cannot read '%s'", v);
            snprintf(dst, sizeof o->dir, "%s", v);
        }
    }
    return 0;
}

/* -hints FILE into one MPI_Info per pattern type; 2 on a bad line. */
static int read_hints(const char *path)
{
    for (int t = 0; t < NTYPES; t++)
        B.info[t] = MPI_INFO_NULL;
    if (!path[0])
        return 0;
    FILE *f = fopen(path, "r");
    char line[1024], key[256], value[512];
    int n = 0, t;
    if (!f)
        return bad("-hints: cannot read '%s'", path);
    while (fgets(line, sizeof line, f)) {
        n++;
        if (line[0] == '#' || strspn(line, " \t\r\n") == strlen(line))
            continue;
        if (sscanf(line, "%d %255s %511s", &t, key, value) != 3 || t < 0 || t >= NTYPES) {
            fclose(f);
            fprintf(stderr, PROG ": -hints: %s:%d: not 'TYPE KEY VALUE' with TYPE 0..4 (try -h)\n", path, n);
            return 2;
        }
        if (B.info[t] == MPI_INFO_NULL)
            MPI_Info_create(&B.info[t]);
        MPI_Info_set(B.info[t], key, value);
    }
    fclose(f);
    return 0;
}

/* ---- one pattern type ------------------------------------------------------ */

static long chunk(const struct pattern *p)
{
    return p->l < 0 ? B.mpart : p->l;
}

static long per_call(const struct pattern *p)
{
    return p->L ? p->L : chunk(p);
}

/* Type t's rows (types 3 and 4 are type 2's). */
static const struct pattern *rows_of(int t, int *n)
{
    int k = t < 3 ? t : 2;
    *n = nrows[k];
    return table[k];
}

static double max_over(double v)
{
    double m;
    MPI_Allreduce(&v, &m, 1, MPI_DOUBLE, MPI_MAX, B.comm);
    return m;
}

static int collective(int t)
{
    return t == 0 || t == 1 || t == 4;
}

static void io_call(MPI_File fh, int t, int m, long len)
{
    MPI_Status st;
    int coll = collective(t);
    if (m == READ && coll)
        MPI_File_read_all(fh, B.buf, (int)len, MPI_BYTE, &st);
    else if (m == READ)
        MPI_File_read(fh, B.buf, (int)len, MPI_BYTE, &st);
    else if (coll)
        MPI_File_write_all(fh, B.buf, (int)len, MPI_BYTE, &st);
    else
        MPI_File_write(fh, B.buf, (int)len, MPI_BYTE, &st);
}

/* The view of a pattern at disp: types 0 and 1 a chunk of l bytes of this
 * process in every q l bytes; types 3 and 4 the process's segment; type 2
 * keeps its contiguous file and pointer. */
static void set_view(MPI_File fh, int t, const struct pattern *p, MPI_Offset disp, MPI_Datatype *ft)
{
    if (*ft != MPI_DATATYPE_NULL)
        MPI_Type_free(ft);
    if (t <= 1) {
        MPI_Datatype block, byte = MPI_BYTE;
        int bl = (int)chunk(p);
        MPI_Aint d = (MPI_Aint)B.rank * chunk(p);
        MPI_Type_create_struct(1, &bl, &d, &byte, &block);
        MPI_Type_create_resized(block, 0, (MPI_Aint)B.q * chunk(p), ft);
        MPI_Type_commit(ft);
        MPI_Type_free(&block);
        MPI_File_set_view(fh, disp, MPI_BYTE, *ft, "native", B.info[t]);
    } else if (t >= 3) {
        MPI_File_set_view(fh, disp + (MPI_Offset)B.rank * B.lseg, MPI_BYTE, MPI_BYTE, "native", B.info[t]);
    }
}

/* One pattern: fixed >= 0 calls, or once (U = 0), or time-driven within
 * budget seconds: batches of 1, 2, 4, ... calls while the slowest
 * process's elapsed time plus the next batch at its rate fits. Returns the
 * calls; *elapsed the slowest process's time. */
static long run_pattern(MPI_File fh, int t, int m, const struct pattern *p, long fixed, double budget,
                        double *elapsed)
{
    long len = per_call(p), done = 0, batch = fixed >= 0 ? fixed : 1;
    double t0 = MPI_Wtime();
    for (;;) {
        for (long i = 0; i < batch; i++)
            io_call(fh, t, m, len);
        done += batch;
        *elapsed = max_over(MPI_Wtime() - t0);
        if (fixed >= 0 || p->U == 0 || *elapsed + *elapsed / (double)done * 2.0 * (double)batch > budget)
            return done;
        batch *= 2;
    }
}

/* The repetitions of type t's row r: what the initial write of the
 * time-driven types 0 to 2 did (type 2's for types 3 and 4). */
static long *reps_of(int t, int r)
{
    return &B.reps[t < 3 ? t : 2][r];
}

/* BENCH_EXPECT: run_type's calls of type t with method m, its rows done:
 * the open, a view per row (not type 2), each row's repetitions, the close. */
static void tally_type(int t, int m)
{
    int n;
    const struct pattern *rows = rows_of(t, &n);
    bench_expect_add("MPI_File_open", 1, 0, 0);
    bench_expect_add("MPI_File_close", 1, 0, 0);
    if (t != 2)
        bench_expect_add("MPI_File_set_view", n, 0, 0);
    for (int r = 0; r < n; r++) {
        long long bytes = *reps_of(t, r) * (long long)per_call(&rows[r]);
        bench_expect_add(io_fn[m == READ][collective(t)], *reps_of(t, r), m == READ ? 0 : bytes, m == READ ? bytes : 0);
    }
}

static void file_name(int t, char *out, size_t size)
{
    int n = snprintf(out, size, "%s/beffio_p%d_t%d", B.o.dir, B.q, t);
    if (t == 2)
        snprintf(out + n, size - (size_t)n, "_%d", B.rank);
}

/* Pattern type t with access method m: every row, then the type's
 * bandwidth (MB/s), printed by world rank 0 with the rows. */
static double run_type(int t, int m, double t_method, FILE *out)
{
    char *name = files[t];
    int n;
    const struct pattern *rows = rows_of(t, &n);
    MPI_Comm fc = t == 2 ? MPI_COMM_SELF : B.comm;
    int amode = m == WRITE ? MPI_MODE_CREATE | MPI_MODE_WRONLY : m == REWRITE ? MPI_MODE_WRONLY : MPI_MODE_RDONLY;
    file_name(t, name, sizeof files[t]);
    bench_files_about(name);
    if (m == WRITE) {
        bench_files_keep(name);
        if (t == 2 || B.rank == 0) {
            MPI_File_delete(name, MPI_INFO_NULL);    /* no such file: fine */
            bench_expect_add("MPI_File_delete", 1, 0, 0);
        }
    }
    if (m == WRITE && t >= 3) {
        B.lseg = 0;
        for (int r = 0; r < n; r++)
            B.lseg += chunk(&rows[r]) * B.reps[2][r];
        B.lseg = (B.lseg + MB - 1) / MB * MB;
        B.lseg = B.lseg > 0 ? B.lseg : MB;
    }
    MPI_Barrier(B.comm);
    double t_open = MPI_Wtime(), mine = 0;
    MPI_File fh;
    int rc = MPI_File_open(fc, name, amode, B.info[t], &fh);
    if (rc != MPI_SUCCESS)
        bench_files_fail(rc);
    bench_files_watch(fh);
    MPI_Offset disp = 0;
    MPI_Datatype ft = MPI_DATATYPE_NULL;
    for (int r = 0; r < n; r++) {
        set_view(fh, t, &rows[r], disp, &ft);
        long fixed = m == WRITE && t < 3 ? -1 : *reps_of(t, r), len = per_call(&rows[r]);
        double e;
        long done = run_pattern(fh, t, m, &rows[r], fixed, t_method * rows[r].U / SUM_U, &e);
        if (m == WRITE && t < 3)
            *reps_of(t, r) = done;
        double bytes = (double)done * (double)len * B.q;
        if (out)
            fprintf(out, "%d %s %d %ld %ld %ld %.0f %.6f %.3f\n", B.q, method_name[m], t, chunk(&rows[r]), len, done,
                    bytes, e, e > 0 ? bytes / e / MB : 0.0);
        mine += (double)done * (double)len;
        disp += t <= 1 ? (MPI_Offset)done * len * B.q : (MPI_Offset)done * len;
    }
    MPI_File_close(&fh);
    if (ft != MPI_DATATYPE_NULL)
        MPI_Type_free(&ft);
    double secs = max_over(MPI_Wtime() - t_open), bytes;
    tally_type(t, m);
    MPI_Allreduce(&mine, &bytes, 1, MPI_DOUBLE, MPI_SUM, B.comm);
    double bw = secs > 0 ? bytes / secs / MB : 0;
    if (out)
        fprintf(out, "%d %s %d all - - %.0f %.6f %.3f\n", B.q, method_name[m], t, bytes, secs, bw);
    return bw;
}

/* ---- partitions ------------------------------------------------------------ */

/* The partition sizes of section 6, each once, smallest first. */
static int partitions(int size, int *out)
{
    double lg = log2((double)size);
    int s = (int)lround(pow(2, round(lg * 0.35))), m = (int)lround(pow(2, round(lg * 0.70))), n = 0;
    if (size == 3)
        s = 1;
    if (size == 4)
        m = 3;
    int c[3] = { s, m, size };
    for (int i = 0; i < 3; i++)
        if (c[i] >= 1 && c[i] <= size && (n == 0 || c[i] > out[n - 1]))
            out[n++] = c[i];
    return n;
}

/* Both weightings of one partition's bandwidths bw[method][type]. */
static void weigh(double bw[NMETHODS][NTYPES], double *r1, double *r2)
{
    double avg[NMETHODS];
    for (int m = 0; m < NMETHODS; m++)
        avg[m] = (2 * bw[m][0] + bw[m][1] + bw[m][2] + bw[m][3] + bw[m][4]) / 6;
    *r1 = 0.25 * avg[WRITE] + 0.25 * avg[REWRITE] + 0.5 * avg[READ];
    double w = (bw[WRITE][0] + bw[WRITE][1] + bw[WRITE][2] + bw[WRITE][3] + bw[WRITE][4] + bw[REWRITE][0]) / 6;
    *r2 = sqrt(w * avg[READ]);
}

/* One partition of q processes (the first q of MPI_COMM_WORLD): its
 * release-1 and release-2 values (world rank 0). */
static void run_partition(int q, double t_part, FILE *out, double *r1, double *r2)
{
    double bw[NMETHODS][NTYPES] = { { 0 } };
    MPI_Comm_split(MPI_COMM_WORLD, B.wrank < q ? 0 : MPI_UNDEFINED, B.wrank, &B.comm);
    *r1 = *r2 = 0;
    if (B.comm != MPI_COMM_NULL) {
        B.q = q;
        MPI_Comm_rank(B.comm, &B.rank);
        for (int m = 0; m < NMETHODS; m++)
            for (int t = 0; t < NTYPES; t++)
                bw[m][t] = run_type(t, m, t_part / NMETHODS, out);
        MPI_Barrier(B.comm);
        for (int t = 0; t < NTYPES; t++) {
            if (files[t][0] && (t == 2 || B.rank == 0)) {
                MPI_File_delete(files[t], MPI_INFO_NULL);
                bench_expect_add("MPI_File_delete", 1, 0, 0);
            }
            bench_files_drop(files[t]);
            files[t][0] = '\0';
        }
        weigh(bw, r1, r2);
        if (out) {
            fprintf(out, "%d b_eff_io release1 - - - - - %.3f\n", q, *r1);
            fprintf(out, "%d b_eff_io release2 - - - - - %.3f\n", q, *r2);
        }
        MPI_Comm_free(&B.comm);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* The usage aspects the result must be reported with (section 3). */
static void header(FILE *out, int size, const int *parts, int nparts)
{
    char host[MPI_MAX_PROCESSOR_NAME] = "", *all = B.wrank == 0 ? malloc((size_t)size * sizeof host) : NULL;
    int len, per_node = 0, vlen;
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    MPI_Get_processor_name(host, &len);
    MPI_Gather(host, (int)sizeof host, MPI_CHAR, all, (int)sizeof host, MPI_CHAR, 0, MPI_COMM_WORLD);
    MPI_Get_library_version(version, &vlen);
    for (int r = 0; all && r < size; r++)
        per_node += strcmp(all + (size_t)r * sizeof host, host) == 0;
    free(all);
    if (!out)
        return;
    version[strcspn(version, "\n")] = '\0';
    fprintf(out, "# " PROG " %s: b_eff_io release 2 (all rewrite patterns run), MB = 2^20 bytes\n", PACKAGE_VERSION);
    fprintf(out, "# processes: %d, %d on the node of rank 0 (%s); partitions:", size, per_node, host);
    for (int i = 0; i < nparts; i++)
        fprintf(out, " %d", parts[i]);
    fprintf(out, "\n# scheduled time T = %.0f s (%.1f s per partition); memory per node %.0f MB, MPART = %ld bytes\n",
            B.o.T, B.o.T / nparts, B.o.mem_mb, B.mpart);
    struct statfs fs;
    fprintf(out, "# directory %s (filesystem type 0x%lx, statfs(2)); hints %s; MPI: %s\n", B.o.dir,
            statfs(B.o.dir, &fs) == 0 ? (unsigned long)fs.f_type : 0UL, B.o.hints[0] ? B.o.hints : "none", version);
    fprintf(out, "# partition method type l L reps bytes time_s MB_s\n");
}

int main(int argc, char **argv)
{
    int size, rc = 0, parts[3];
    bench_expect_claim(claimed);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &B.wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (B.wrank == 0) {
        rc = parse(argc, argv, &B.o);
        if (rc == 1)
            usage(stdout);
        if (rc == 0)
            rc = read_hints(B.o.hints) ? 2 : 0;
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rc != 0) {
        MPI_Finalize();
        return rc == 1 ? 0 : 2;
    }
    MPI_Bcast(&B.o, (int)sizeof B.o, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (B.wrank != 0 && read_hints(B.o.hints) != 0)
        MPI_Abort(MPI_COMM_WORLD, 2);
    B.mpart = (long)(B.o.mem_mb * MB / 128);
    B.mpart = B.mpart > 2 * MB ? B.mpart : 2 * MB;
    long most = B.mpart > 2 * MB ? B.mpart : 2 * MB;
    B.buf = calloc((size_t)most + 8 * KB, 1);
    int ok = B.buf != NULL, all_ok;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all_ok) {
        if (B.wrank == 0)
            fprintf(stderr, PROG ": cannot allocate %ld bytes (MPART); lower -M\n", most);
        MPI_Finalize();
        return 2;
    }
    bench_files_guard(PROG);
    FILE *out = B.wrank == 0 ? stdout : NULL;
    int nparts = partitions(size, parts);
    header(out, size, parts, nparts);
    double best1 = 0, best2 = 0;
    for (int i = 0; i < nparts; i++) {
        double r1, r2;
        run_partition(parts[i], B.o.T / nparts, out, &r1, &r2);
        best1 = r1 > best1 ? r1 : best1;
        best2 = r2 > best2 ? r2 : best2;
    }
    if (out) {
        printf("max b_eff_io release1 - - - - - %.3f\n", best1);
        printf("max b_eff_io release2 - - - - - %.3f\n", best2);
        printf("# b_eff_io = %.3f MB/s (release 2: geometric mean of the write and read averages; "
               "release 1's 25/25/50 %% weighting gives %.3f MB/s)\n", best2, best1);
    }
    for (int t = 0; t < NTYPES; t++)
        if (B.info[t] != MPI_INFO_NULL)
            MPI_Info_free(&B.info[t]);
    free(B.buf);
    bench_expect_print(PROG, B.wrank);
    MPI_Finalize();
    return 0;
}
