/* config.h: the MPIPROF_* options, parsed once at MPI_Init (cold).
 * PROF_OPTIONS is the one list of names, kinds, defaults and accepted values:
 * the parser, the report header and mpiprof(1) follow it. */
#ifndef PROF_CONFIG_H
#define PROF_CONFIG_H

#include <stdbool.h>

/*        name                  field                 kind    default accepted (for messages) */
#define PROF_OPTIONS(X) \
    X(OUTPUT,               output,               STRING, "",  "a directory path") \
    X(STACK_DEPTH,          stack_depth,          DEPTH,  "1", "an integer from 1 to 32") \
    X(MAX_SITES,            max_sites,            SITES,  "3072", "an integer from 1 to 1000000") \
    X(FUNCTIONS,            functions,            FUNCS,  "",  "a comma-separated list of MPI function names or globs, e.g. MPI_Send,MPI_*reduce*") \
    X(VIA,                  via,                  VIA,    "",  "none, or a comma-separated list of library file name patterns (with .so, e.g. libhdf5*.so*) and function name patterns (e.g. H5*,Petsc*; letters, digits, _ $ . and * ? [ ] ! -), with a leading +: added to the default lists") \
    X(PARTNERS,             partners,             BOOL,   "1", "0/1, no/yes, off/on, false/true") \
    X(QUIET,                quiet,                BOOL,   "0", "0/1, no/yes, off/on, false/true") \
    X(EVAL_SLT,             eval_slt,             BOOL,   "0", "0/1, no/yes, off/on, false/true") \
    X(MODEL,                model,                MODEL,  "",  "perfect, perfect+<cpu factor>, perfect,cpu=<factor>, lat=<us>,bw=<MB/s>[,cpu=<factor>][,o=<us>][,g=<us>][,eager=<bytes>] or table=<file>[,...], either with [,netlat=<us>,netbw=<MB/s> or ,nettable=<file>][,netg=<us>][,nodes=<n>[,ppn=<k>][,place=block|cyclic]]") \
    X(REGIONS,              regions,              BOOL,   "1", "0/1, no/yes, off/on, false/true") \
    X(SNAPSHOT,             snapshot,             SECONDS, "0", "seconds between snapshots, from 0.1 to 1000000 (0: none)") \
    X(CHAIN,                chain,                BOOL,   "0", "0/1, no/yes, off/on, false/true") \
    X(PARTIAL,              partial,              BOOL,   "1", "0/1, no/yes, off/on, false/true") \
    X(REPORT_WRITE,         report_write,         WRITE,  "auto", "auto (MPI-IO from " PROF_STR(PROF_REPORT_COLLECTIVE_RANKS) " ranks on, unless oversubscribed), collective (every rank writes its rows with MPI-IO) or pull (rank 0 receives each rank's rows in turn)") \
    X(REPORT_FORM,          report_form,          FORM,   "auto", "auto (the summary form from " PROF_STR(PROF_REPORT_SUMMARY_RANKS) " ranks on), ranks (files with a row per rank), summary (figures over the ranks only) or a number of ranks N from which the summary form is used") \
    X(CLOCK,                clock,                CLOCK,  "auto", "auto (the invariant TSC where the processor has one, else CLOCK_MONOTONIC), tsc or monotonic") \
    X(CHECK,                check,                BOOL,   "0", "0/1, no/yes, off/on, false/true") \
    X(PRELOAD,              preload,              STRING, "",  "the path of libmpiprof.so (read by the launcher only)") \
    X(LAUNCHED,             launched,             STRING, "",  "PID:FILE (set by the launcher only)") \
    X(TEST_SKEW,            test_skew,            SKEW,   "",  "late (halves every late-sender wait) or sent (doubles MPI_Send's bytes_sent in functions.txt): a deliberately wrong profiler, for testing mpiprof-validate") \
    X(TEST_DRIFT,           test_drift,           PPM,    "0", "a drift in ppm from -10000 to 10000 (0: none): this process's clock runs that much fast or slow, as another node's does, for testing") \
    X(TEST_TOKEN,           test_token,           TOKEN,  "before", "before (late sender's token goes before its message), after (after it: its receive is evaluated when the token comes), next (at the sender's next send, or its MPI_Finalize) or batch (with the others to that process, 32 in one message), for testing")

#define PROF_MAX_DEPTH 32
/* MPIPROF_REPORT_WRITE=auto: the report files are written with MPI-IO
 * (report/collective.c) from this many ranks on, unless a node is
 * oversubscribed, and pulled by rank 0 below (report/gather.c): MPI-IO's
 * fixed cost (its first open, then a few ms a file) is what the pull of
 * about 10 to 50 ranks costs (mpiprof(1), MEMORY AND SCALE). */
#define PROF_REPORT_COLLECTIVE_RANKS 64
/* MPIPROF_REPORT_FORM=auto: the summary form (figures over the ranks, no
 * row per rank: report.h) from this many ranks on. At 1024 ranks and 1000
 * call sites a rank, branches.txt alone has a million rows, about 150 MB,
 * and every per-rank file still passes through the writing (mpiprof(1),
 * MEMORY AND SCALE). */
#define PROF_REPORT_SUMMARY_RANKS 1024
#define PROF_STR(x) PROF_STR_(x)
#define PROF_STR_(x) #x
#define PROF_MAX_SITES_LIMIT 1000000
#define PROF_MAX_DRIFT_PPM 10000

struct prof_config {
    char output[4096];
    int stack_depth;
    int max_sites;
    char functions[4096];
    char via[1024];
    bool partners;
    bool quiet;
    bool eval_slt;
    char model[256];
    bool regions;
    double snapshot;
    bool chain;
    bool partial;
    int report_write;     /* REPORT_WRITE: PROF_WRITE_AUTO, _COLLECTIVE or _PULL */
    int report_form;      /* REPORT_FORM: the summary form from this many ranks on (ranks: INT_MAX) */
    char preload[4096];
    int clock;            /* CLOCK: PROF_CLOCK_AUTO, _ASK_TSC or _ASK_MONOTONIC (core/clock.h) */
    bool check;           /* CHECK: the launcher's check process (run/check.c) */
    char launched[4200];  /* LAUNCHED: the launcher's mark (run/launched.c) */
    int test_skew;        /* TEST_SKEW: PROF_SKEW_LATE or _SENT; 0 when unset */
    double test_drift;    /* TEST_DRIFT: ppm */
    int test_token;       /* TEST_TOKEN: PROF_TOKEN_BEFORE, _AFTER, _NEXT or _BATCH */
    char options[1024];   /* "NAME=value;..." of the variables set, for report headers */
};

/* MPIPROF_REPORT_WRITE: how the per-rank report files are written. */
enum { PROF_WRITE_AUTO, PROF_WRITE_COLLECTIVE, PROF_WRITE_PULL };

/* MPIPROF_TEST_TOKEN: where a message's token goes (link/tokens.c). */
enum { PROF_TOKEN_BEFORE, PROF_TOKEN_AFTER, PROF_TOKEN_NEXT, PROF_TOKEN_BATCH };

/* MPIPROF_TEST_SKEW: one figure made wrong on purpose. */
enum { PROF_SKEW_LATE = 1, PROF_SKEW_SENT = 2 };

extern struct prof_config prof_config;

/* prof_config_load: read MPIPROF_* from the environment into prof_config.
 * Bad names and values are reported (by rank 0 only) and replaced by the
 * default. enabled[fn] is set to 1 for every function MPIPROF_FUNCTIONS
 * selects. Not thread safe: called once from MPI_Init. */
void prof_config_load(unsigned char *enabled, int nfn);

/* prof_config_problems: the bad names and values prof_config_load has
 * reported so far (the launcher's check, run/check.c). */
int prof_config_problems(void);

/* prof_config_yes: the variable name is set to a yes value (1, yes, on,
 * true); read before prof_config_load, which reports bad values. */
bool prof_config_yes(const char *name);

#endif
