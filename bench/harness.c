/* harness.c: the shared harness of the bench/ drivers (see harness.h):
 * command line and its files, lengths, repetitions, process counts, groups,
 * the reduction of times over the processes, header and table output,
 * buffer patterns and checks. Called from the drivers' main loops; only
 * bench_buf_check and bench_sum_check run inside timed loops (with -check). */
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "expect.h"
#include "harness.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "?"
#endif

#define COL_WIDTH 13         /* table columns, as IMB prints them */
#define RANKS_PER_LINE 16    /* rank lists in table titles */
#define GROUPS_SHOWN 64      /* more groups: the first and last 32 */

const char *const bench_byte_float_header[] = {
    "MPI_Datatype                   : MPI_BYTE",
    "MPI_Datatype for reductions    : MPI_FLOAT",
    "MPI_Op                         : MPI_SUM",
    NULL,
};

/* ---- command line ------------------------------------------------------ */

/* The error of a parse: one line, prefixed by the program name. */
struct parse_err {
    const char *prog;
    char *buf;
    size_t len;
};

static int perr(const struct parse_err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int perr(const struct parse_err *e, const char *fmt, ...)
{
    va_list ap;
    int n = snprintf(e->buf, e->len, "%s: ", e->prog);
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < e->len)
        vsnprintf(e->buf + n, e->len - (size_t)n, fmt, ap);
    va_end(ap);
    return 2;
}

/* to_long: s, whole, as a decimal integer in lo..hi. */
static int to_long(const char *s, long lo, long hi, long *v)
{
    char *end;
    if (*s == '\0' || *s == ' ' || *s == '+')
        return -1;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (errno || *end != '\0' || x < lo || x > hi)
        return -1;
    *v = x;
    return 0;
}

/* to_double: s, whole, as a finite number in (lo, hi]. */
static int to_double(const char *s, double lo, double hi, double *v)
{
    char *end;
    if (*s == '\0' || *s == ' ')
        return -1;
    errno = 0;
    double x = strtod(s, &end);
    if (errno || *end != '\0' || !(x > lo) || !(x <= hi))
        return -1;
    *v = x;
    return 0;
}

/* trim: s without leading and trailing blanks and the newline, in place. */
static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = '\0';
    return s;
}

static int find_name(const struct bench_suite *s, const char *name)
{
    for (int i = 0; s->names[i]; i++)
        if (strcasecmp(s->names[i], name) == 0)
            return i;
    return -1;
}

/* add_long: append v to a growing array. */
static int add_long(long **a, int *n, int *cap, long v)
{
    if (*n == *cap) {
        int c = *cap ? 2 * *cap : 32;
        long *p = realloc(*a, (size_t)c * sizeof *p);
        if (!p)
            return -1;
        *a = p;
        *cap = c;
    }
    (*a)[(*n)++] = v;
    return 0;
}

/* select_name: add benchmark name (from where) to the selection, once. */
static int select_name(const struct bench_suite *s, struct bench_opts *o, int *cap, const char *name,
                       const char *where, const struct parse_err *e)
{
    int k = find_name(s, name);
    if (k < 0)
        return perr(e, "%sunknown benchmark '%s' (try -h for the list)", where, name);
    for (int i = 0; i < o->n_selected; i++)
        if (o->selected[i] == k)
            return 0;
    if (o->n_selected == *cap) {
        int c = *cap ? 2 * *cap : 16;
        int *p = realloc(o->selected, (size_t)c * sizeof *p);
        if (!p)
            return perr(e, "out of memory");
        o->selected = p;
        *cap = c;
    }
    o->selected[o->n_selected++] = k;
    return 0;
}

/* read_lengths: the -msglen file: one nonnegative length per line, lines
 * starting with '#' and blank lines ignored. */
static int read_lengths(const char *path, struct bench_opts *o, const struct parse_err *e)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return perr(e, "-msglen: cannot read '%s': %s", path, strerror(errno));
    char line[256];
    int cap = 0, lineno = 0, rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        lineno++;
        char *t = trim(line);
        long v;
        if (*t == '#' || *t == '\0')
            continue;
        if (to_long(t, 0, INT_MAX, &v) != 0)
            rc = perr(e, "-msglen %s: line %d: '%s' is not a length in 0..%d", path, lineno, t, INT_MAX);
        else if (add_long(&o->lengths, &o->n_lengths, &cap, v) != 0)
            rc = perr(e, "out of memory");
    }
    fclose(f);
    if (rc == 0 && o->n_lengths == 0)
        rc = perr(e, "-msglen %s: no length in the file", path);
    return rc;
}

/* read_input: the -input file: one benchmark name per line, lines starting
 * with '#' and blank lines ignored. */
static int read_input(const struct bench_suite *s, const char *path, struct bench_opts *o, int *cap,
                      const struct parse_err *e)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return perr(e, "-input: cannot read '%s': %s", path, strerror(errno));
    char line[256], where[300];
    int lineno = 0, rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        lineno++;
        char *t = trim(line);
        if (*t == '#' || *t == '\0')
            continue;
        snprintf(where, sizeof where, "-input %s: line %d: ", path, lineno);
        rc = select_name(s, o, cap, t, where, e);
    }
    fclose(f);
    return rc;
}

static int parse_msglog(const char *v, struct bench_opts *o, const struct parse_err *e)
{
    char a[32], b[32];
    const char *colon = strchr(v, ':');
    long lo = 0, hi;
    if (strlen(v) >= sizeof a)
        return perr(e, "-msglog: '%s' is not [A:]B with 0 <= A <= B <= %d", v, BENCH_MAX_LOG);
    if (colon) {
        memcpy(a, v, (size_t)(colon - v));
        a[colon - v] = '\0';
        strcpy(b, colon + 1);
    } else {
        strcpy(a, "0");
        strcpy(b, v);
    }
    if (to_long(a, 0, BENCH_MAX_LOG, &lo) != 0 || to_long(b, 0, BENCH_MAX_LOG, &hi) != 0 || lo > hi)
        return perr(e, "-msglog: '%s' is not [A:]B with 0 <= A <= B <= %d", v, BENCH_MAX_LOG);
    o->msglog_min = (int)lo;
    o->msglog_max = (int)hi;
    return 0;
}

static int parse_map(const char *v, int nprocs, struct bench_opts *o, const struct parse_err *e)
{
    char p[32];
    const char *x = strchr(v, 'x');
    long pp, qq;
    if (!x || (size_t)(x - v) >= sizeof p)
        return perr(e, "-map: '%s' is not PxQ", v);
    memcpy(p, v, (size_t)(x - v));
    p[x - v] = '\0';
    if (to_long(p, 1, nprocs, &pp) != 0 || to_long(x + 1, 1, nprocs, &qq) != 0)
        return perr(e, "-map: '%s' is not PxQ with P and Q in 1..%d", v, nprocs);
    if (pp * qq < nprocs)
        return perr(e, "-map: %ldx%ld has fewer than the %d processes", pp, qq, nprocs);
    o->map_p = (int)pp;
    o->map_q = (int)qq;
    return 0;
}

/* standard_lengths: 0, 2^a, ..., 2^b. */
static int standard_lengths(struct bench_opts *o, int a, int b)
{
    int cap = 0;
    if (add_long(&o->lengths, &o->n_lengths, &cap, 0) != 0)
        return -1;
    for (int i = a; i <= b; i++)
        if (add_long(&o->lengths, &o->n_lengths, &cap, 1L << i) != 0)
            return -1;
    return 0;
}

/* value_flag: the flags that take a value, and the value's rule. */
static int value_flag(const struct bench_suite *s, const char *flag, const char *v, int nprocs,
                      struct bench_opts *o, int *sel_cap, const struct parse_err *e)
{
    long l;
    double d;
    if (strcmp(flag, "-npmin") == 0) {
        if (to_long(v, 1, INT_MAX, &l) != 0)
            return perr(e, "-npmin: '%s' is not an integer in 1..%d", v, INT_MAX);
        o->npmin = (int)l;
    } else if (strcmp(flag, "-multi") == 0) {
        if (to_long(v, 0, 1, &l) != 0)
            return perr(e, "-multi: '%s' is not 0 or 1", v);
        o->multi = (int)l;
    } else if (strcmp(flag, "-iter") == 0) {
        if (to_long(v, 1, INT_MAX, &l) != 0)
            return perr(e, "-iter: '%s' is not an integer in 1..%d", v, INT_MAX);
        o->iter = l;
    } else if (strcmp(flag, "-time") == 0) {
        if (to_double(v, 0, 1e6, &d) != 0)
            return perr(e, "-time: '%s' is not a number of seconds in (0, 1e6]", v);
        o->time_s = d;
    } else if (strcmp(flag, "-mem") == 0) {
        if (to_double(v, 0, 1e6, &d) != 0)
            return perr(e, "-mem: '%s' is not a number of GiB in (0, 1e6]", v);
        o->mem_gib = d;
    } else if (strcmp(flag, "-msglog") == 0) {
        return parse_msglog(v, o, e);
    } else if (strcmp(flag, "-map") == 0) {
        return parse_map(v, nprocs, o, e);
    } else if (strcmp(flag, "-msglen") == 0) {
        if (strlen(v) >= sizeof o->lengths_file)
            return perr(e, "-msglen: file name too long");
        strcpy(o->lengths_file, v);
    } else if (strcmp(flag, "-dir") == 0) {
        if (!s->has_dir)
            return perr(e, "unknown option '-dir' (try -h)");
        struct stat st;
        if (!v[0] || strlen(v) >= sizeof o->dir - 64)
            return perr(e, "-dir: '%s' is empty or too long", v);
        const char *why = stat(v, &st) != 0 ? strerror(errno) : !S_ISDIR(st.st_mode) ? "not a directory"
                        : access(v, W_OK | X_OK) != 0 ? strerror(errno) : NULL;
        if (why)
            return perr(e, "-dir: cannot use '%s': %s", v, why);
        strcpy(o->dir, v);
    } else {   /* -input, the last of takes_value's list */
        return read_input(s, v, o, sel_cap, e);
    }
    return 0;
}

static int takes_value(const char *a)
{
    static const char *const flags[] = { "-npmin", "-multi", "-input", "-msglen", "-msglog",
                                         "-map", "-iter", "-time", "-mem", "-dir", NULL };
    for (int i = 0; flags[i]; i++)
        if (strcmp(a, flags[i]) == 0)
            return 1;
    return 0;
}

static int is_help(const char *a)
{
    return strcmp(a, "-h") == 0 || strcmp(a, "-help") == 0 || strcmp(a, "--help") == 0;
}

int bench_parse(const struct bench_suite *s, int argc, char **argv, int nprocs,
                struct bench_opts *o, char *err, size_t errlen)
{
    struct parse_err e = { s->prog, err, errlen };
    int sel_cap = 0, rc = 0;

    memset(o, 0, sizeof *o);
    o->multi = -1;
    o->msglog_min = o->msglog_max = -1;
    for (int i = 1; i < argc; i++)          /* -h wins over everything (5.1.2) */
        if (is_help(argv[i]))
            return 1;
    for (int i = 1; rc == 0 && i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-')
            rc = select_name(s, o, &sel_cap, a, "", &e);
        else if (strcmp(a, "-check") == 0)
            o->check = 1;
        else if (strcmp(a, "-percentiles") == 0)
            o->percentiles = 1;
        else if (!takes_value(a))
            rc = perr(&e, "unknown option '%s' (try -h)", a);
        else if (i + 1 >= argc)
            rc = perr(&e, "option '%s' needs a value (try -h)", a);
        else
            rc = value_flag(s, a, argv[++i], nprocs, o, &sel_cap, &e);
    }
    if (rc == 0 && o->lengths_file[0] && o->msglog_min >= 0)
        rc = perr(&e, "-msglen and -msglog exclude each other");
    if (rc == 0 && o->lengths_file[0])
        rc = read_lengths(o->lengths_file, o, &e);
    else if (rc == 0 && o->msglog_min >= 0 && standard_lengths(o, o->msglog_min, o->msglog_max) != 0)
        rc = perr(&e, "out of memory");
    else if (rc == 0 && o->msglog_min < 0 && standard_lengths(o, s->minmsglog, s->maxmsglog) != 0)
        rc = perr(&e, "out of memory");
    if (rc == 0 && o->n_selected == 0)          /* default: all */
        for (int k = 0; rc == 0 && s->names[k]; k++)
            rc = select_name(s, o, &sel_cap, s->names[k], "", &e);
    if (rc != 0)
        bench_opts_free(o);
    return rc;
}

void bench_opts_free(struct bench_opts *o)
{
    free(o->lengths);
    free(o->selected);
    o->lengths = NULL;
    o->selected = NULL;
    o->n_lengths = o->n_selected = 0;
}

void bench_usage(const struct bench_suite *s, FILE *f)
{
    fprintf(f,
            "Usage: mpirun -np P %s [benchmark ...] [-npmin P_min] [-multi 0|1]\n"
            "         [-input FILE] [-msglen FILE | -msglog [A:]B] [-map PxQ]\n"
            "         [-iter N] [-time S] [-mem GB] [-check] [-percentiles]%s [-h]\n"
            "IMB-style benchmarks (%s). Benchmark names, any case (default: all):\n ",
            s->prog, s->has_dir ? " [-dir DIR]" : "", s->title);
    for (int i = 0; s->names[i]; i++)
        fprintf(f, " %s", s->names[i]);
    fprintf(f,
            "\n"
            "  -npmin P_min   run on P_min, 2 P_min, 4 P_min, ..., P processes (default %d)\n"
            "  -multi 0|1     Multi- versions: P/Q groups of Q processes at once; 0 shows\n"
            "                 min/max/avg over all groups, 1 every group\n"
            "  -input FILE    also run the benchmarks named in FILE, one per line\n"
            "  -msglen FILE   message lengths from FILE, one per line\n"
            "  -msglog [A:]B  message lengths 0, 2^A, ..., 2^B (default %d:%d, B <= %d)\n"
            "  -map PxQ       number the processes along the rows of a P x Q matrix\n"
            "                 filled column by column\n"
            "  -iter N        MSGSPERSAMPLE = N (non-aggregate modes: at most N)\n"
            "  -time S        at most S seconds per length (estimated by one execution)\n"
            "  -mem GB        at most GB GiB of message buffers per process\n"
            "  -check         verify every received buffer, add a defects column\n"
            "                 (the times are then not valid benchmark data)\n"
            "  -percentiles   time each repetition alone; add t_p50[usec] and t_p99[usec]\n"
            "%s"
            "  -h             show this help and exit\n",
            s->npmin > 0 ? s->npmin : 2, s->minmsglog, s->maxmsglog, BENCH_MAX_LOG,
            s->has_dir ? "  -dir DIR       where the benchmark files go (default: the working directory)\n" : "");
}

/* ---- setup --------------------------------------------------------------- */

/* map_order: order[i] = world rank of process i: with -map PxQ (P, Q > 1)
 * world ranks fill a P x Q matrix column by column (w = i + j P) and are
 * numbered along its rows, world ranks >= nprocs left out (5.1.2.6). */
static void map_order(const struct bench_opts *o, int nprocs, int *order)
{
    int k = 0;
    if (o->map_p > 1 && o->map_q > 1) {
        for (int i = 0; i < o->map_p; i++)
            for (int j = 0; j < o->map_q; j++)
                if ((long)i + (long)j * o->map_p < nprocs)
                    order[k++] = i + j * o->map_p;
    } else {
        for (k = 0; k < nprocs; k++)
            order[k] = k;
    }
}

/* share: world rank 0's options to every rank (two MPI_Bcast: the fixed
 * part with the status, then the lengths and the selection). */
static int share(struct bench_run *r, int status)
{
    struct {
        int status;
        struct bench_opts o;
    } head = { status, r->opt };
    MPI_Bcast(&head, (int)sizeof head, MPI_BYTE, 0, r->world);
    if (head.status != 0)
        return head.status;
    if (r->wrank != 0) {
        r->opt = head.o;
        r->opt.lengths = malloc((size_t)head.o.n_lengths * sizeof(long));
        r->opt.selected = malloc((size_t)head.o.n_selected * sizeof(int));
    }
    long *all = malloc((size_t)(head.o.n_lengths + head.o.n_selected) * sizeof *all);
    if (!all || !r->opt.lengths || !r->opt.selected) {
        fprintf(stderr, "%s: out of memory\n", r->suite->prog);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int i = 0; r->wrank == 0 && i < head.o.n_lengths; i++)
        all[i] = r->opt.lengths[i];
    for (int i = 0; r->wrank == 0 && i < head.o.n_selected; i++)
        all[head.o.n_lengths + i] = r->opt.selected[i];
    MPI_Bcast(all, head.o.n_lengths + head.o.n_selected, MPI_LONG, 0, r->world);
    for (int i = 0; i < head.o.n_lengths; i++)
        r->opt.lengths[i] = all[i];
    for (int i = 0; i < head.o.n_selected; i++)
        r->opt.selected[i] = (int)all[head.o.n_lengths + i];
    free(all);
    return 0;
}

int bench_init(struct bench_run *r, const struct bench_suite *s, int argc, char **argv)
{
    char err[512] = "";
    int status = 0;

    memset(r, 0, sizeof *r);
    r->suite = s;
    MPI_Comm_dup(MPI_COMM_WORLD, &r->world);
    MPI_Comm_rank(r->world, &r->wrank);
    MPI_Comm_size(r->world, &r->wsize);
    if (r->wrank == 0) {
        status = bench_parse(s, argc, argv, r->wsize, &r->opt, err, sizeof err);
        if (status == 1)
            bench_usage(s, stdout);
        else if (status == 2)
            fprintf(stderr, "%s\n", err);
        fflush(NULL);
    }
    status = share(r, status);
    if (status != 0) {
        bench_opts_free(&r->opt);
        MPI_Comm_free(&r->world);
        return status == 1 ? 0 : 2;
    }
    const char *c = getenv(BENCH_CORRUPT_ENV);
    r->corrupt = c && *c && strcmp(c, "0") != 0;
    r->order = malloc((size_t)r->wsize * sizeof *r->order);
    if (r->wrank == 0) {
        r->out = stdout;
        r->gathered = malloc((size_t)r->wsize * BENCH_GATHERED * sizeof *r->gathered);
        r->longs = malloc((size_t)r->wsize * sizeof *r->longs);
    }
    if (!r->order || (r->wrank == 0 && (!r->gathered || !r->longs))) {
        fprintf(stderr, "%s: out of memory\n", s->prog);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    map_order(&r->opt, r->wsize, r->order);
    return -1;
}

void bench_fini(struct bench_run *r)
{
    bench_opts_free(&r->opt);
    free(r->order);
    free(r->gathered);
    free(r->longs);
    MPI_Comm_free(&r->world);
}

/* ---- lengths, repetitions, process counts --------------------------------- */

int bench_lengths(const struct bench_opts *o, long unit, long *out)
{
    int n = 0;
    for (int i = 0; i < o->n_lengths; i++)
        if (o->lengths[i] == 0 || o->lengths[i] >= unit)
            out[n++] = o->lengths[i];
    return n;
}

long bench_reps(const struct bench_run *r, long x)
{
    return bench_reps_of(r, x, r->suite->msgspersample);
}

long bench_reps_of(const struct bench_run *r, long x, long per_sample)
{
    long n = per_sample, iter = r->opt.iter;
    if (iter > 0 && (per_sample == r->suite->msgspersample || iter < per_sample))
        n = iter;
    if (x > 0 && r->suite->overall_vol / x < n)
        n = r->suite->overall_vol / x;
    return n < 1 ? 1 : n;
}

int bench_counts(const struct bench_run *r, int single, const char *name, int *out)
{
    if (!single)
        return bench_nprocs(r, out);
    if (r->wsize < 2) {
        bench_print_note(r, "%s needs 2 processes: not run", name);
        return 0;
    }
    out[0] = 2;
    return 1;
}

int bench_main(const struct bench_suite *s, int argc, char **argv,
               void (*run)(struct bench_run *r, int b, long *lens, struct bench_stat *rows))
{
    struct bench_run r;
    MPI_Init(&argc, &argv);
    int rc = bench_init(&r, s, argc, argv);
    if (rc >= 0) {
        MPI_Finalize();
        return rc;
    }
    long *lens = malloc(((size_t)r.opt.n_lengths + 1) * sizeof *lens);
    struct bench_stat *rows = malloc(((size_t)r.wsize + 1) * sizeof *rows);
    if (!lens || !rows) {
        fprintf(stderr, "%s: out of memory\n", s->prog);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    bench_print_header(&r);
    for (int i = 0; i < r.opt.n_selected; i++)
        run(&r, r.opt.selected[i], lens, rows);
    free(lens);
    free(rows);
    bench_expect_print(s->prog, r.wrank);
    bench_fini(&r);
    MPI_Finalize();
    return 0;
}

int bench_nprocs(const struct bench_run *r, int *out)
{
    long p = r->wsize, q = r->opt.npmin > 0 ? r->opt.npmin : r->suite->npmin > 0 ? r->suite->npmin : 2;
    int n = 0;
    if (q > p)
        q = p;
    for (; q < p; q *= 2)
        out[n++] = (int)q;
    out[n++] = (int)p;
    return n;
}

/* ---- groups ---------------------------------------------------------------- */

void bench_group_create(const struct bench_run *r, int q, int multi, struct bench_group *g)
{
    int pos = 0, color;
    while (r->order[pos] != r->wrank)
        pos++;
    g->q = q;
    g->n_groups = multi ? r->wsize / q : 1;
    color = pos / q < g->n_groups ? pos / q : MPI_UNDEFINED;
    MPI_Comm_split(MPI_COMM_WORLD, color, pos, &g->comm);
    g->group = color == MPI_UNDEFINED ? -1 : color;
    g->rank = -1;
    if (g->comm != MPI_COMM_NULL)
        MPI_Comm_rank(g->comm, &g->rank);
}

void bench_group_free(struct bench_group *g)
{
    if (g->comm != MPI_COMM_NULL)
        MPI_Comm_free(&g->comm);
}

void bench_barriers(const struct bench_group *g)
{
    if (g->comm == MPI_COMM_NULL)
        return;
    for (int i = 0; i < BENCH_N_BARR; i++)
        MPI_Barrier(g->comm);
}

/* ---- reductions over all processes ---------------------------------------- */

long bench_world_min(struct bench_run *r, long v)
{
    MPI_Gather(&v, 1, MPI_LONG, r->longs, 1, MPI_LONG, 0, r->world);
    if (r->wrank == 0) {
        long m = LONG_MAX;
        for (int i = 0; i < r->wsize; i++)
            if (r->longs[i] < m)
                m = r->longs[i];
        for (int i = 0; i < r->wsize; i++)
            r->longs[i] = m;
    }
    MPI_Scatter(r->longs, 1, MPI_LONG, &v, 1, MPI_LONG, 0, r->world);
    return v;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void bench_reps_begin(const struct bench_run *r, struct bench_reps_times *rt, long n)
{
    rt->t = r->opt.percentiles ? malloc(((size_t)n + 1) * sizeof *rt->t) : NULL;
    rt->n = 0;
}

void bench_tail(struct bench_reps_times *rt, double out_us[2])
{
    out_us[0] = out_us[1] = -1;
    if (rt->t && rt->n > 0) {
        qsort(rt->t, (size_t)rt->n, sizeof *rt->t, by_value);
        /* nearest rank: the ceil(p n)-th smallest */
        out_us[0] = rt->t[(rt->n + 1) / 2 - 1] * 1e6;
        out_us[1] = rt->t[(99 * rt->n + 99) / 100 - 1] * 1e6;
    }
    free(rt->t);
    rt->t = NULL;
    rt->n = 0;
}

/* stat_of: min/max/avg time and summed defects of the gathered entries of
 * group k (k = -1: of every active process). */
static struct bench_stat stat_of(const struct bench_run *r, int k)
{
    struct bench_stat s = { k, 0, 0, 0, 0, -1, -1, 0, 0 };
    int n = 0;
    for (int i = 0; i < r->wsize; i++) {
        const double *e = &r->gathered[BENCH_GATHERED * i];
        if (e[0] < 0 || (k >= 0 && (int)e[0] != k))
            continue;
        if (n == 0 || e[1] < s.tmin_us)
            s.tmin_us = e[1];
        if (n == 0 || e[1] > s.tmax_us)
            s.tmax_us = e[1];
        s.tavg_us += e[1];
        s.defects += e[2];
        s.p50_us = e[3] > s.p50_us ? e[3] : s.p50_us;
        s.p99_us = e[4] > s.p99_us ? e[4] : s.p99_us;
        s.pure_us = e[5] > s.pure_us ? e[5] : s.pure_us;
        s.cpu_us = e[6] > s.cpu_us ? e[6] : s.cpu_us;
        n++;
    }
    if (n > 0)
        s.tavg_us /= n;
    return s;
}

int bench_stats(struct bench_run *r, const struct bench_group *g, const struct bench_mine *m,
                struct bench_stat *rows, int max_rows)
{
    double mine[BENCH_GATHERED] = { g->group, m->t_us, m->defects, m->tail_us[0], m->tail_us[1], m->pure_us,
                                    m->cpu_us };
    MPI_Gather(mine, BENCH_GATHERED, MPI_DOUBLE, r->gathered, BENCH_GATHERED, MPI_DOUBLE, 0, r->world);
    if (r->wrank != 0)
        return 0;
    if (r->opt.multi != 1) {
        rows[0] = stat_of(r, -1);
        return 1;
    }
    int n = 0;
    for (int k = 0; k < g->n_groups && n < max_rows; k++)
        rows[n++] = stat_of(r, k);
    return n;
}

long bench_time_cap(struct bench_run *r, const struct bench_group *g, long reps, void (*run)(void *arg),
                    void *arg)
{
    if (r->opt.time_s <= 0)
        return reps;
    long cap = LONG_MAX;
    if (g->comm != MPI_COMM_NULL) {
        bench_barriers(g);
        double t0 = MPI_Wtime();
        run(arg);
        double dt = MPI_Wtime() - t0;
        if (dt > 0)
            cap = r->opt.time_s / dt >= (double)LONG_MAX ? LONG_MAX : (long)(r->opt.time_s / dt);
    }
    cap = bench_world_min(r, cap);
    if (cap < 1)
        cap = 1;
    return reps < cap ? reps : cap;
}

/* ---- output ---------------------------------------------------------------- */

static const char *thread_level(void)
{
    int level;
    MPI_Query_thread(&level);
    switch (level) {
    case MPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    default: return "MPI_THREAD_MULTIPLE";
    }
}

static void rule(FILE *f)
{
    fprintf(f, "#----------------------------------------------------------------------------\n");
}

void bench_print_header(const struct bench_run *r)
{
    FILE *f = r->out;
    const struct bench_opts *o = &r->opt;
    if (!f)
        return;
    struct utsname u;
    char date[64] = "?", lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int v, sv, len = 0;
    time_t now = time(NULL);
    if (uname(&u) != 0)
        memset(&u, 0, sizeof u);
    if (ctime_r(&now, date))
        date[strcspn(date, "\n")] = '\0';
    MPI_Get_version(&v, &sv);
    MPI_Get_library_version(lib, &len);
    lib[strcspn(lib, "\n")] = '\0';
    long lmin = o->lengths[0], lmax = o->lengths[0];
    for (int i = 1; i < o->n_lengths; i++) {
        lmin = o->lengths[i] < lmin ? o->lengths[i] : lmin;
        lmax = o->lengths[i] > lmax ? o->lengths[i] : lmax;
    }

    rule(f);
    fprintf(f, "# %s %s: IMB 3.0 methodology, %s\n", r->suite->prog, PACKAGE_VERSION, r->suite->title);
    rule(f);
    fprintf(f, "# Date                  : %s\n", date);
    fprintf(f, "# Machine               : %s\n", u.machine);
    fprintf(f, "# System                : %s\n", u.sysname);
    fprintf(f, "# Release               : %s\n", u.release);
    fprintf(f, "# Version               : %s\n", u.version);
    fprintf(f, "# MPI Version           : %d.%d\n", v, sv);
    fprintf(f, "# MPI Thread Environment: %s\n", thread_level());
    fprintf(f, "# MPI Library           : %.100s\n", lib);
    fprintf(f, "#\n");
    fprintf(f, "# Minimum message length in bytes: %ld\n", lmin);
    fprintf(f, "# Maximum message length in bytes: %ld\n", lmax);
    fprintf(f, "#\n");
    for (int i = 0; r->suite->header && r->suite->header[i]; i++)
        fprintf(f, "# %s\n", r->suite->header[i]);
    fprintf(f, "#\n");
    if (o->lengths_file[0])
        fprintf(f, "# !! message lengths from -msglen %s (%d lengths)\n", o->lengths_file, o->n_lengths);
    if (o->msglog_min >= 0)
        fprintf(f, "# !! message lengths from -msglog %d:%d\n", o->msglog_min, o->msglog_max);
    if (o->iter > 0)
        fprintf(f, "# !! -iter %ld: MSGSPERSAMPLE %ld (non-aggregate: at most %ld)\n", o->iter, o->iter, o->iter);
    if (o->time_s > 0)
        fprintf(f, "# !! -time %g: at most %g s per length (one more execution per length to estimate it)\n",
                o->time_s, o->time_s);
    if (o->mem_gib > 0)
        fprintf(f, "# !! -mem %g: at most %g GiB of message buffers per process\n", o->mem_gib, o->mem_gib);
    if (o->check)
        fprintf(f, "# !! -check: received buffers verified; results are NOT valid benchmark data\n");
    if (o->dir[0])
        fprintf(f, "# !! -dir %s: the files go there\n", o->dir);
    if (o->percentiles)
        fprintf(f, "# !! -percentiles: each repetition timed alone; t_p50, t_p99: the largest over the processes\n");
    fprintf(f, "#\n");
    fprintf(f, "# List of Benchmarks to run:\n");
    for (int i = 0; i < o->n_selected; i++)
        fprintf(f, "# %s%s\n", o->multi >= 0 ? "(Multi-)" : "", r->suite->names[o->selected[i]]);
    fflush(f);
}

/* print_ranks: "# <label>" then the ranks, RANKS_PER_LINE per line. */
static void print_ranks(FILE *f, const char *label, const int *ranks, int n)
{
    size_t pad = strlen(label);
    fprintf(f, "# %s", label);
    for (int i = 0; i < n; i++) {
        if (i > 0 && i % RANKS_PER_LINE == 0)
            fprintf(f, "\n# %*s", (int)pad, "");
        fprintf(f, " %5d", ranks[i]);
    }
    fprintf(f, "\n");
}

/* print_map_rows: the active processes as rows of the -map matrix. */
static void print_map_rows(const struct bench_run *r, int q)
{
    int shown = 0;
    for (int i = 0; i < r->opt.map_p && shown < q; i++) {
        int in_row = 0;
        for (long j = 0; j < r->opt.map_q; j++)
            in_row += i + j * r->opt.map_p < r->wsize;
        if (in_row > q - shown)
            in_row = q - shown;
        print_ranks(r->out, "", r->order + shown, in_row);
        shown += in_row;
    }
}

void bench_print_title(const struct bench_run *r, const struct bench_group *g, const char *name)
{
    FILE *f = r->out;
    if (!f)
        return;
    int idle = r->wsize - g->n_groups * g->q;
    rule(f);
    fprintf(f, "# Benchmarking %s%s\n", g->n_groups > 1 ? "Multi-" : "", name);
    if (g->n_groups > 1) {
        char label[32];
        fprintf(f, "# ( %d groups of %d processes each running simultaneous )\n", g->n_groups, g->q);
        for (int k = 0; k < g->n_groups; k++) {
            if (g->n_groups > GROUPS_SHOWN && k == GROUPS_SHOWN / 2) {
                fprintf(f, "#  ...\n");
                k = g->n_groups - GROUPS_SHOWN / 2;
            }
            snprintf(label, sizeof label, "Group %d:", k);
            print_ranks(f, label, r->order + (size_t)k * g->q, g->q);
        }
    } else if (r->opt.map_p > 1 && r->opt.map_q > 1) {
        fprintf(f, "# #processes = %d; rank order (rowwise):\n", g->q);
        print_map_rows(r, g->q);
    } else {
        fprintf(f, "# #processes = %d\n", g->q);
    }
    if (idle > 0)
        fprintf(f, "# ( %d additional process%s idle )\n", idle, idle > 1 ? "es" : "");
    if (r->opt.check)
        fprintf(f, "# -check: defects = received bytes (floats for reductions) that differ from the\n"
                   "# expected values, summed over the processes; NOT valid benchmark data\n");
    rule(f);
    fflush(f);
}

void bench_print_note(const struct bench_run *r, const char *fmt, ...)
{
    va_list ap;
    if (!r->out)
        return;
    fprintf(r->out, "# ");
    va_start(ap, fmt);
    vfprintf(r->out, fmt, ap);
    va_end(ap);
    fprintf(r->out, "\n");
    fflush(r->out);
}

void bench_print_columns(const struct bench_run *r, const struct bench_layout *l)
{
    FILE *f = r->out;
    if (!f)
        return;
    if (r->opt.multi == 1)
        fprintf(f, "%*s", COL_WIDTH, "group");
    if (!l->no_bytes)
        fprintf(f, "%*s", COL_WIDTH, "#bytes");
    fprintf(f, "%*s", COL_WIDTH, "#repetitions");
    if (l->overlap)
        fprintf(f, "%*s%*s%*s%*s", COL_WIDTH, "t_ovrl[usec]", COL_WIDTH, "t_pure[usec]", COL_WIDTH, "t_CPU[usec]",
                COL_WIDTH, "overlap[%]");
    else if (l->t_single)
        fprintf(f, "%*s", COL_WIDTH, "t[usec]");
    else
        fprintf(f, "%*s%*s%*s", COL_WIDTH, "t_min[usec]", COL_WIDTH, "t_max[usec]", COL_WIDTH, "t_avg[usec]");
    if (r->opt.percentiles)
        fprintf(f, "%*s%*s", COL_WIDTH, "t_p50[usec]", COL_WIDTH, "t_p99[usec]");
    if (l->n_msg > 0)
        fprintf(f, "%*s", COL_WIDTH, "Mbytes/sec");
    if (r->opt.check && !l->no_defects)
        fprintf(f, "%*s", COL_WIDTH, "defects");
    fprintf(f, "\n");
}

void bench_print_mode(const struct bench_run *r, const char *mode)
{
    if (r->out)
        fprintf(r->out, "#\n#    MODE: %s\n#\n", mode);
}

void bench_print_row(const struct bench_run *r, const struct bench_layout *l, long bytes, long reps,
                     const struct bench_stat *st)
{
    FILE *f = r->out;
    if (!f)
        return;
    if (r->opt.multi == 1)
        fprintf(f, "%*d", COL_WIDTH, st->group < 0 ? 0 : st->group);
    if (!l->no_bytes)
        fprintf(f, "%*ld", COL_WIDTH, bytes);
    fprintf(f, "%*ld", COL_WIDTH, reps);
    if (l->overlap) {
        double least = st->pure_us < st->cpu_us ? st->pure_us : st->cpu_us;
        double ov = least > 0 ? (st->pure_us + st->cpu_us - st->tmax_us) / least : 0.0;
        ov = ov < 0 ? 0 : ov > 1 ? 1 : ov;     /* clamped to [0, 100] %, as IMB prints it */
        fprintf(f, "%*.2f%*.2f%*.2f%*.2f", COL_WIDTH, st->tmax_us, COL_WIDTH, st->pure_us, COL_WIDTH, st->cpu_us,
                COL_WIDTH, 100 * ov);
    } else if (l->t_single)
        fprintf(f, "%*.2f", COL_WIDTH, st->tmax_us);
    else
        fprintf(f, "%*.2f%*.2f%*.2f", COL_WIDTH, st->tmin_us, COL_WIDTH, st->tmax_us, COL_WIDTH, st->tavg_us);
    for (int k = 0; r->opt.percentiles && k < 2; k++) {
        double v = k ? st->p99_us : st->p50_us;
        if (v < 0)
            fprintf(f, "%*s", COL_WIDTH, "-");
        else
            fprintf(f, "%*.2f", COL_WIDTH, v);
    }
    if (l->n_msg > 0)   /* MB = 2^20 bytes, t in us: n_msg x / 1.048576 / t */
        fprintf(f, "%*.2f", COL_WIDTH, st->tmax_us > 0 ? l->n_msg * (double)bytes / 1.048576 / st->tmax_us : 0.0);
    if (r->opt.check && !l->no_defects)
        fprintf(f, "%*.0f", COL_WIDTH, st->defects);
    fprintf(f, "\n");
    fflush(f);
}

/* ---- buffers --------------------------------------------------------------- */

/* BUF_VALUE(rank, i) of the guide (5.2.5), as a float. */
static inline float buf_value(int rank, long i)
{
    return (float)(0.1 * (rank + 1) + (float)i);
}

/* Byte p of process rank's pattern. */
static inline unsigned char pattern_byte(int rank, size_t p)
{
    float v = buf_value(rank, (long)(p / sizeof(float)));
    unsigned char b[sizeof v];
    memcpy(b, &v, sizeof v);
    return b[p % sizeof v];
}

void bench_buf_fill_at(void *buf, size_t n, int rank, size_t off)
{
    unsigned char *b = buf;
    for (size_t k = 0; k < n; k++)
        b[k] = pattern_byte(rank, off + k);
}

void bench_buf_fill(void *buf, size_t n, int rank)
{
    bench_buf_fill_at(buf, n, rank, 0);
}

long bench_buf_check(const struct bench_run *r, void *buf, size_t n, int rank, size_t off)
{
    unsigned char *b = buf;
    long bad = 0;
    if (n == 0)
        return 0;
    if (r->corrupt)
        b[0] ^= 0xff;
    for (size_t k = 0; k < n; k++)
        bad += b[k] != pattern_byte(rank, off + k);
    return bad;
}

long bench_sum_check(const struct bench_run *r, float *buf, long n, int nranks, long off)
{
    long bad = 0;
    if (n <= 0)
        return 0;
    if (r->corrupt)
        buf[0] = -buf[0] - 1.0f;
    for (long i = 0; i < n; i++) {
        double want = 0;
        for (int q = 0; q < nranks; q++)
            want += buf_value(q, off + i);
        double diff = buf[i] - want, tol = nranks * (double)FLT_EPSILON * want;
        bad += diff > tol || -diff > tol;
    }
    return bad;
}
