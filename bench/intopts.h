/* intopts.h: command lines of the small bench programs (mpiprof-jacobi,
 * mpiprof-overhead, mpiprof-sites): integer options "-x N" with a range,
 * and -h. (The IMB-style drivers use harness.h.) Not MPI-aware: the caller
 * decides which rank prints. */
#ifndef BENCH_INTOPTS_H
#define BENCH_INTOPTS_H

#include <stddef.h>

struct bench_intopt {
    char flag;        /* 'n' for -n */
    long lo, hi;      /* accepted range */
    long *value;      /* holds the default, gets the value */
};

/* bench_intopts_parse: 0 to run, 1 for -h, 2 on a bad command line with
 * one line in err ("prog: ..."). */
int bench_intopts_parse(const char *prog, int argc, char **argv, const struct bench_intopt *opts, int n,
                        char *err, size_t errlen);

#endif
