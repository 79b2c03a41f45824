/* intopts.c: integer options of the small bench programs (see intopts.h). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "intopts.h"

int bench_intopts_parse(const char *prog, int argc, char **argv, const struct bench_intopt *opts, int n,
                        char *err, size_t errlen)
{
    char spec[64] = ":h";
    size_t len = 2;
    for (int i = 0; i < n && len + 3 < sizeof spec; i++) {
        spec[len++] = opts[i].flag;
        spec[len++] = ':';
        spec[len] = '\0';
    }
    opterr = 0;
    for (int c; (c = getopt(argc, argv, spec)) != -1;) {
        if (c == 'h')
            return 1;
        if (c == ':') {
            snprintf(err, errlen, "%s: option -%c needs a value (try -h)", prog, optopt);
            return 2;
        }
        const struct bench_intopt *o = NULL;
        for (int i = 0; i < n; i++)
            if (opts[i].flag == c)
                o = &opts[i];
        if (!o) {
            snprintf(err, errlen, "%s: unknown option '-%c' (try -h)", prog, optopt);
            return 2;
        }
        char *end;
        long v = strtol(optarg, &end, 10);
        if (*optarg == '\0' || *end != '\0' || v < o->lo || v > o->hi) {
            snprintf(err, errlen, "%s: -%c: '%s' is not an integer in %ld..%ld", prog, c, optarg, o->lo, o->hi);
            return 2;
        }
        *o->value = v;
    }
    if (optind < argc) {
        snprintf(err, errlen, "%s: unexpected argument '%s' (try -h)", prog, argv[optind]);
        return 2;
    }
    return 0;
}
