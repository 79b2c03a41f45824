/* intopts.c: integer and list options of the small bench programs (see
 * intopts.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "intopts.h"

/* One integer of text in lo..hi into *v; 0 if it is not one. */
static int integer(const char *text, long lo, long hi, long *v)
{
    char *end;
    *v = strtol(text, &end, 10);
    return *text != '\0' && *end == '\0' && *v >= lo && *v <= hi;
}

/* The comma-separated items of arg, each given to item(o, word, err); 2 on
 * the first it refuses (err set), on an empty list, or on an overlong arg. */
static int each_item(const char *prog, char flag, const char *arg, const void *o,
                     int (*item)(const char *prog, const void *o, const char *word, int first, char *err,
                                 size_t errlen),
                     char *err, size_t errlen)
{
    char buf[1024], *save = NULL;
    if (strlen(arg) >= sizeof buf) {
        snprintf(err, errlen, "%s: -%c: list too long", prog, flag);
        return 2;
    }
    snprintf(buf, sizeof buf, "%s", arg);
    int first = 1;
    for (char *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save), first = 0)
        if (item(prog, o, w, first, err, errlen))
            return 2;
    if (first) {
        snprintf(err, errlen, "%s: -%c: empty list", prog, flag);
        return 2;
    }
    return 0;
}

static int word_item(const char *prog, const void *p, const char *w, int first, char *err, size_t errlen)
{
    const struct bench_wordopt *o = p;
    int k = 0;
    while (o->words[k] && strcmp(o->words[k], w) != 0)
        k++;
    if (!o->words[k]) {
        int len = snprintf(err, errlen, "%s: -%c: '%s' is not one of ", prog, o->flag, w);
        for (int j = 0; o->words[j] && len > 0 && (size_t)len < errlen; j++)
            len += snprintf(err + len, errlen - (size_t)len, "%s%s", j ? ", " : "", o->words[j]);
        return 2;
    }
    if (first)
        *o->set = 0;
    *o->set |= 1u << k;
    return 0;
}

static int list_item(const char *prog, const void *p, const char *w, int first, char *err, size_t errlen)
{
    const struct bench_listopt *o = p;
    long v;
    if (first)
        *o->n = 0;
    if (!integer(w, o->lo, o->hi, &v)) {
        snprintf(err, errlen, "%s: -%c: '%s' is not an integer in %ld..%ld", prog, o->flag, w, o->lo, o->hi);
        return 2;
    }
    if (*o->n == o->max) {
        snprintf(err, errlen, "%s: -%c: more than %d values", prog, o->flag, o->max);
        return 2;
    }
    o->values[(*o->n)++] = v;
    return 0;
}

/* The option of flag c: its kind (0 integer, 1 words, 2 integers) and
 * entry, or -1. */
static int find(const struct bench_optset *s, int c, const void **o)
{
    for (int i = 0; i < s->n_ints; i++)
        if (s->ints[i].flag == c)
            return *o = &s->ints[i], 0;
    for (int i = 0; i < s->n_words; i++)
        if (s->words[i].flag == c)
            return *o = &s->words[i], 1;
    for (int i = 0; i < s->n_lists; i++)
        if (s->lists[i].flag == c)
            return *o = &s->lists[i], 2;
    return -1;
}

static void spec_add(char *spec, size_t size, size_t *len, char flag)
{
    if (*len + 3 < size) {
        spec[(*len)++] = flag;
        spec[(*len)++] = ':';
        spec[*len] = '\0';
    }
}

int bench_optset_parse(const char *prog, int argc, char **argv, const struct bench_optset *s, char *err,
                       size_t errlen)
{
    char spec[128] = ":h";
    size_t len = 2;
    for (int i = 0; i < s->n_ints; i++)
        spec_add(spec, sizeof spec, &len, s->ints[i].flag);
    for (int i = 0; i < s->n_words; i++)
        spec_add(spec, sizeof spec, &len, s->words[i].flag);
    for (int i = 0; i < s->n_lists; i++)
        spec_add(spec, sizeof spec, &len, s->lists[i].flag);
    opterr = 0;
    for (int c; (c = getopt(argc, argv, spec)) != -1;) {
        if (c == 'h')
            return 1;
        if (c == ':') {
            snprintf(err, errlen, "%s: option -%c needs a value (try -h)", prog, optopt);
            return 2;
        }
        const void *o = NULL;
        int kind = find(s, c, &o), rc = 0;
        if (kind < 0) {
            snprintf(err, errlen, "%s: unknown option '-%c' (try -h)", prog, optopt);
            return 2;
        }
        if (kind == 1) {
            rc = each_item(prog, (char)c, optarg, o, word_item, err, errlen);
        } else if (kind == 2) {
            rc = each_item(prog, (char)c, optarg, o, list_item, err, errlen);
        } else {
            const struct bench_intopt *io = o;
            if (!integer(optarg, io->lo, io->hi, io->value)) {
                snprintf(err, errlen, "%s: -%c: '%s' is not an integer in %ld..%ld", prog, c, optarg, io->lo,
                         io->hi);
                rc = 2;
            }
        }
        if (rc)
            return rc;
    }
    if (optind < argc) {
        snprintf(err, errlen, "%s: unexpected argument '%s' (try -h)", prog, argv[optind]);
        return 2;
    }
    return 0;
}

int bench_intopts_parse(const char *prog, int argc, char **argv, const struct bench_intopt *opts, int n,
                        char *err, size_t errlen)
{
    const struct bench_optset s = { opts, n, NULL, 0, NULL, 0 };
    return bench_optset_parse(prog, argc, argv, &s, err, errlen);
}

int bench_parse_outcome(int rc, int rank, const char *err, void (*usage)(void))
{
    if (rc == 0)
        return -1;
    if (rank == 0 && rc == 1)
        usage();
    else if (rank == 0)
        fprintf(stderr, "%s\n", err);
    return rc == 1 ? 0 : 2;
}
