/* harness.h: the shared harness of the bench/ drivers (IMB methodology,
 * Intel MPI Benchmarks 3.0 guide sections 5 and 6): command line, message
 * lengths, repetition rule, process counts, active/idle processes and
 * groups (-map, -multi), timing and its reduction over the processes, the
 * output header and tables, buffer initialization and checking.
 * Called by each driver's main loop (bench/mpi1.c, ...); nothing here is hot
 * except what a driver puts inside its timed loop (bench_buf_check). */
#ifndef BENCH_HARNESS_H
#define BENCH_HARNESS_H

#include <stddef.h>
#include <stdio.h>
#include <mpi.h>

#define BENCH_N_WARMUP 2   /* warm-up executions at the largest length (5.2.6) */
#define BENCH_N_BARR 2     /* MPI_Barrier(MY_COMM) before each timed loop (5.2.7) */
#define BENCH_MAX_LOG 30   /* -msglog limit: 2^30 bytes */
#define BENCH_GATHERED 7  /* per process: group and struct bench_mine (bench_stats) */
#define BENCH_CORRUPT_ENV "BENCH_CHECK_CORRUPT"  /* test-only hook, see bench_buf_check */

/* What a driver fixes: its name, its benchmarks and its standard settings. */
struct bench_suite {
    const char *prog;               /* "mpiprof-mpi1": error and usage prefix */
    const char *title;              /* "MPI-1 part": first header line */
    const char *const *names;       /* benchmark names, NULL-terminated */
    long msgspersample;             /* MSGSPERSAMPLE: 1000 for MPI-1 */
    long msgs_nonaggr;              /* MSGS_NONAGGR: non-aggregate repetitions (EXT, IO); 0 if none */
    long overall_vol;               /* OVERALL_VOL in bytes: 40 MiB for MPI-1 */
    int minmsglog, maxmsglog;       /* standard lengths 0, 2^min .. 2^max */
    const char *const *header;      /* driver lines of the header ("MPI_Datatype ..."), NULL-terminated */
    int npmin;                      /* P_min without -npmin; 0: 2 */
    int has_dir;                    /* takes -dir DIR (IMB-IO: where files go) */
};

/* The header lines of MPI_BYTE messages and MPI_FLOAT MPI_SUM reductions
 * (IMB-MPI1, IMB-EXT). */
extern const char *const bench_byte_float_header[];

/* The command line, parsed by world rank 0 and shared with every rank. */
struct bench_opts {
    int npmin;          /* -npmin; 0 when not given (default 2) */
    int multi;          /* -multi 0|1; -1 when not given (primary benchmarks) */
    int map_p, map_q;   /* -map PxQ; 0 when not given */
    int check;          /* -check */
    int percentiles;    /* -percentiles: t_p50 and t_p99 columns from per-repetition times */
    long iter;          /* -iter: repetition cap; 0 = none */
    double time_s;      /* -time: seconds per length cap; 0 = none */
    double mem_gib;     /* -mem: buffer memory cap per process, GiB; 0 = none */
    int msglog_min, msglog_max;   /* -msglog a:b; -1 when not given */
    int n_lengths;      /* the message lengths in the order run */
    long *lengths;
    int n_selected;     /* selected benchmarks: indices into suite->names */
    int *selected;
    char lengths_file[256];       /* -msglen FILE, "" when not given */
    char dir[1024];               /* -dir DIR; "" when not given */
};

/* A run: the suite, the options, this process in MPI_COMM_WORLD, the rank
 * order of -map and rank 0's scratch for gathering. One per program. */
struct bench_run {
    const struct bench_suite *suite;
    struct bench_opts opt;
    MPI_Comm world;     /* a duplicate of MPI_COMM_WORLD for the harness's own calls */
    int wrank, wsize;
    int *order;         /* order[i] = world rank of process i in -map order */
    double *gathered;   /* world rank 0: BENCH_GATHERED doubles per world rank */
    long *longs;        /* world rank 0: 1 long per world rank */
    int corrupt;        /* BENCH_CHECK_CORRUPT set (test hook) */
    FILE *out;          /* stdout of world rank 0, NULL elsewhere */
};

/* The processes running one benchmark at one process count (5.2.2): the
 * first q processes in -map order, or with -multi, wsize/q disjoint groups
 * of q consecutive processes each. The rest are idle (comm MPI_COMM_NULL). */
struct bench_group {
    MPI_Comm comm;      /* MY_COMM, MPI_COMM_NULL on an idle process */
    int q;              /* processes per group */
    int n_groups;       /* 1 without -multi */
    int group;          /* this process's group, -1 when idle */
    int rank;           /* rank in comm, -1 when idle */
};

/* One line of a table: the times of one group (-multi 1) or of all active
 * processes, in microseconds, and the defects summed over them. */
struct bench_stat {
    int group;          /* -1: over all groups */
    double tmin_us, tmax_us, tavg_us;
    double defects;
    double p50_us, p99_us;  /* -percentiles: the largest over the processes; < 0: none */
    double pure_us, cpu_us; /* overlap tables: the largest t_pure and t_CPU over the processes */
};

/* What one process measured for one table row (bench_stats). */
struct bench_mine {
    double t_us;            /* its time per repetition (t_ovrl in overlap tables) */
    double defects;
    double tail_us[2];      /* -percentiles: p50, p99 (bench_tail); -1: none */
    double pure_us, cpu_us; /* overlap tables: t_pure, t_CPU */
};

/* Per-repetition times for -percentiles: bench_reps_begin makes room for
 * n (nothing without -percentiles), bench_rep_start and bench_rep_done
 * around one repetition store its time (seconds; no clock read without
 * -percentiles), bench_tail gives the sample's median and 99th
 * percentile (nearest rank, us; -1 for both when no repetition was timed
 * alone, as in an aggregate sample whose transfers complete together) and
 * frees the room. */
struct bench_reps_times {
    double *t;          /* NULL without -percentiles */
    long n;             /* stored so far */
};
void bench_reps_begin(const struct bench_run *r, struct bench_reps_times *rt, long n);
static inline double bench_rep_start(const struct bench_reps_times *rt)
{
    return rt->t ? MPI_Wtime() : 0;
}
static inline void bench_rep_done(struct bench_reps_times *rt, double t0)
{
    if (rt->t)
        rt->t[rt->n++] = MPI_Wtime() - t0;
}
void bench_tail(struct bench_reps_times *rt, double out_us[2]);

/* Table columns. t_single: one time column t[usec] (= t_max) instead of
 * t_min/t_max/t_avg; overlap: t_ovrl (= t_max), t_pure, t_CPU and
 * overlap[%] = 100 (t_pure + t_CPU - t_ovrl) / min(t_pure, t_CPU) (4.2.5.2,
 * clamped to [0, 100] as IMB prints it) instead; n_msg > 0 adds Mbytes/sec = n_msg * bytes / 2^20 / t_max;
 * no_bytes leaves out #bytes (Barrier). -multi 1 adds a group column,
 * -percentiles t_p50 and t_p99, -check a defects column. */
struct bench_layout {
    int t_single;
    int n_msg;
    int no_bytes;
    int no_defects;     /* no defects column even with -check (IMB-EXT Window) */
    int overlap;        /* t_ovrl, t_pure, t_CPU, overlap[%] instead of the times (IMB-IO I- variants) */
};

/* bench_init: after MPI_Init. World rank 0 parses argv (and the -msglen and
 * -input files), every rank receives the result (two MPI_Bcast calls).
 * Returns -1 to run, else the exit status to return after MPI_Finalize:
 * 0 after -h (usage printed), 2 after a bad command line (one line on
 * stderr, printed by world rank 0). Collective over MPI_COMM_WORLD. */
int bench_init(struct bench_run *r, const struct bench_suite *s, int argc, char **argv);
void bench_fini(struct bench_run *r);

/* bench_main: a driver's whole program: MPI_Init, bench_init, the header,
 * run(r, b, lens, rows) for each selected benchmark b (an index into
 * s->names; lens has room for every message length, rows for one row per
 * process), bench_fini, MPI_Finalize. Returns the exit status. */
int bench_main(const struct bench_suite *s, int argc, char **argv,
               void (*run)(struct bench_run *r, int b, long *lens, struct bench_stat *rows));

/* bench_counts: the process counts of a benchmark into out (at most 32):
 * 2 for a single transfer one (none, with a note naming it, on 1
 * process), else bench_nprocs. Returns how many. */
int bench_counts(const struct bench_run *r, int single, const char *name, int *out);

/* bench_parse: the command line alone, no MPI: 0 to run, 1 for -h, 2 on a
 * bad command line with the one-line message in err. nprocs bounds -map.
 * Allocates o->lengths and o->selected (bench_opts_free). */
int bench_parse(const struct bench_suite *s, int argc, char **argv, int nprocs,
                struct bench_opts *o, char *err, size_t errlen);
void bench_opts_free(struct bench_opts *o);
void bench_usage(const struct bench_suite *s, FILE *f);

/* bench_lengths: the lengths that apply to a benchmark whose element is unit
 * bytes (4 for MPI_FLOAT reductions): every length except 0 < x < unit.
 * Writes at most o->n_lengths values to out; returns how many. */
int bench_lengths(const struct bench_opts *o, long unit, long *out);

/* bench_reps: repetitions for length x (5.2.8): MSGSPERSAMPLE for x = 0,
 * else max(1, min(MSGSPERSAMPLE, OVERALL_VOL / x)); -iter N sets
 * MSGSPERSAMPLE (5.2.1), above or below the suite's. */
long bench_reps(const struct bench_run *r, long x);
/* bench_reps_of: the same with per_sample for MSGSPERSAMPLE: the suite's
 * (which -iter replaces) or MSGS_NONAGGR for non-aggregate modes (5.2.8;
 * -iter only lowers it, to at most N). */
long bench_reps_of(const struct bench_run *r, long x, long per_sample);

/* bench_nprocs: the process counts (5.1.2.2): P_min, 2 P_min, 4 P_min, ...,
 * the largest 2^k P_min < P, then P; P_min from -npmin (default 2, at most
 * P). Writes at most 32 values to out; returns how many. */
int bench_nprocs(const struct bench_run *r, int *out);

/* bench_group_create / _free: MY_COMM for q processes per group (MPI_Comm_split
 * of MPI_COMM_WORLD, keys in -map order); multi: groups as with -multi.
 * Collective over MPI_COMM_WORLD. */
void bench_group_create(const struct bench_run *r, int q, int multi, struct bench_group *g);
void bench_group_free(struct bench_group *g);

/* bench_barriers: N_BARR MPI_Barrier on MY_COMM (active processes only). */
void bench_barriers(const struct bench_group *g);

/* bench_world_min: the minimum of v over all processes (MPI_Gather and
 * MPI_Scatter on the harness's world, never a benchmarked function). */
long bench_world_min(struct bench_run *r, long v);

/* bench_stats: gather every process's figures (ignored when idle) to
 * world rank 0, which fills rows: one per group with -multi 1,
 * else one over all active processes. Returns the row count on world rank
 * 0, 0 elsewhere. Collective over MPI_COMM_WORLD. */
int bench_stats(struct bench_run *r, const struct bench_group *g, const struct bench_mine *m,
                struct bench_stat *rows, int max_rows);

/* Output, world rank 0 only (no-ops elsewhere). */
void bench_print_header(const struct bench_run *r);
void bench_print_title(const struct bench_run *r, const struct bench_group *g, const char *name);
void bench_print_note(const struct bench_run *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void bench_print_columns(const struct bench_run *r, const struct bench_layout *l);
/* bench_print_mode: "#", "#    MODE: mode", "#" (IMB-EXT and IMB-IO). */
void bench_print_mode(const struct bench_run *r, const char *mode);
void bench_print_row(const struct bench_run *r, const struct bench_layout *l, long bytes, long reps,
                     const struct bench_stat *st);

/* bench_time_cap: with -time S, after N_BARR barriers the active processes
 * execute the pattern once (run(arg)); returns reps reduced so that
 * reps * (the slowest process's time of that execution) <= S, at least 1.
 * Without -time, returns reps and does nothing. Collective over
 * MPI_COMM_WORLD. */
long bench_time_cap(struct bench_run *r, const struct bench_group *g, long reps, void (*run)(void *arg),
                    void *arg);

/* Buffers (5.2.5): seen as floats, value i of process rank is
 * BUF_VALUE(rank, i) = 0.1 (rank + 1) + i; a byte buffer of n bytes holds
 * the first n bytes of that array. Ranks are ranks in MY_COMM. */
void bench_buf_fill(void *buf, size_t n, int rank);
/* bench_buf_fill_at: n bytes of process rank's pattern from byte offset off. */
void bench_buf_fill_at(void *buf, size_t n, int rank, size_t off);

/* bench_buf_check: bytes of buf (n bytes) that differ from process rank's
 * pattern starting at byte offset off. With BENCH_CHECK_CORRUPT set, the
 * first byte of buf is inverted first (test hook: one defect per call with
 * n > 0). */
long bench_buf_check(const struct bench_run *r, void *buf, size_t n, int rank, size_t off);

/* bench_sum_check: floats of buf (n) that differ from the MPI_SUM over
 * ranks 0..nranks-1 of their patterns at float index off.. (tolerance: the
 * rounding of nranks float additions). The same hook negates buf[0]. */
long bench_sum_check(const struct bench_run *r, float *buf, long n, int nranks, long off);

#endif
