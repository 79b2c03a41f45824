/* intopts.h: command lines of the small bench programs (mpiprof-jacobi,
 * mpiprof-overhead, mpiprof-sites, mpiprof-coarray): integer options
 * "-x N" with a range, comma-separated lists of words or integers, and -h.
 * (The IMB-style drivers use harness.h.) Not MPI-aware: the caller decides
 * which rank prints. */
#ifndef BENCH_INTOPTS_H
#define BENCH_INTOPTS_H

#include <stddef.h>

struct bench_intopt {
    char flag;        /* 'n' for -n */
    long lo, hi;      /* accepted range */
    long *value;      /* holds the default, gets the value */
};

/* "-s a,b": a set of words; bit k of *set for words[k]. */
struct bench_wordopt {
    char flag;
    const char *const *words;   /* the accepted words, NULL-terminated (at most 32) */
    unsigned *set;              /* holds the default, gets the words named */
};

/* "-z 10,50": integers in lo..hi, at most max of them, in the order given. */
struct bench_listopt {
    char flag;
    long lo, hi;
    int max;
    long *values;     /* room for max; hold the default, get the list */
    int *n;           /* holds the default's length, gets the list's */
};

/* All the options of a program. */
struct bench_optset {
    const struct bench_intopt *ints;
    int n_ints;
    const struct bench_wordopt *words;
    int n_words;
    const struct bench_listopt *lists;
    int n_lists;
};

/* bench_intopts_parse: 0 to run, 1 for -h, 2 on a bad command line with
 * one line in err ("prog: ..."). */
int bench_intopts_parse(const char *prog, int argc, char **argv, const struct bench_intopt *opts, int n,
                        char *err, size_t errlen);

/* bench_optset_parse: the same with lists too; an unknown word, an empty
 * list, an integer out of range or too many integers is a bad command
 * line. */
int bench_optset_parse(const char *prog, int argc, char **argv, const struct bench_optset *set, char *err,
                       size_t errlen);

/* bench_parse_outcome: what a parse's result rc means: -1 to run (rc 0);
 * else, printed by rank 0 only, the usage (rc 1) or err on stderr (rc 2),
 * and the exit status to return after MPI_Finalize (0 or 2). */
int bench_parse_outcome(int rc, int rank, const char *err, void (*usage)(void));

#endif
