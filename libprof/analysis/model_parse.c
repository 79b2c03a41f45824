/* model_parse.c: the MPIPROF_MODEL string and the model's formulas (T(b),
 * the collectives' costs; model.h), apart from the clock so that the
 * option parser, its unit test and mpiprof-known need no MPI calls. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "model.h"

struct prof_model prof_model;

/* "NAME=number" at *p (NAME matched case-insensitively): the number, p past it. */
static int item(const char **p, const char *name, double *v)
{
    size_t n = strlen(name);
    if (strncasecmp(*p, name, n) != 0 || (*p)[n] != '=')
        return 0;
    char *end;
    const char *s = *p + n + 1;
    *v = strtod(s, &end);
    if (end == s || (*end != ',' && *end != '\0') || (*end == ',' && end[1] == '\0') || !isfinite(*v))
        return -1;
    *p = *end == ',' ? end + 1 : end;
    return 1;
}

int prof_model_parse(const char *text, struct prof_model *m)
{
    struct prof_model r = { 0, 0, 0, 1, 0, 0, PROF_MODEL_EAGER };
    int lat = 0, bw = 0, cpu = 0, o = 0, g = 0, eager = 0;
    const char *p = text;
    if (strncasecmp(p, "perfect", 7) == 0 && (p[7] == '\0' || p[7] == ',' || p[7] == '+')) {
        r.perfect = 1;
        if (p[7] == '+') {
            char *end;
            r.cpu = strtod(p + 8, &end);
            if (end == p + 8 || *end != '\0' || !(r.cpu > 0) || !isfinite(r.cpu))
                return -1;
            *m = r;
            return 0;
        }
        p += p[7] == ',' ? 8 : 7;
        if (*p == '\0' && p[-1] == ',')
            return -1;
    }
    while (*p) {
        double v;
        int k;
        if ((k = item(&p, "lat", &v)) != 0) {
            if (k < 0 || r.perfect || lat++ || v < 0)
                return -1;
            r.lat = v * 1e-6;
        } else if ((k = item(&p, "bw", &v)) != 0) {
            if (k < 0 || r.perfect || bw++ || !(v > 0))
                return -1;
            r.bw = v * 1e6;
        } else if ((k = item(&p, "cpu", &v)) != 0) {
            if (k < 0 || cpu++ || !(v > 0))
                return -1;
            r.cpu = v;
        } else if ((k = item(&p, "o", &v)) != 0) {
            if (k < 0 || r.perfect || o++ || v < 0)
                return -1;
            r.o = v * 1e-6;
        } else if ((k = item(&p, "g", &v)) != 0) {
            if (k < 0 || r.perfect || g++ || v < 0)
                return -1;
            r.g = v * 1e-6;
        } else if ((k = item(&p, "eager", &v)) != 0) {
            if (k < 0 || r.perfect || eager++ || v < 0)
                return -1;
            r.eager = v;
        } else {
            return -1;
        }
    }
    if (!r.perfect && !(lat && bw))
        return -1;
    *m = r;
    return 0;
}

double prof_model_time(const struct prof_model *m, double bytes)
{
    return m->perfect ? 0 : 2 * m->o + m->lat + bytes / m->bw;
}

unsigned prof_model_log2(int p)
{
    unsigned k = 0;
    while ((1 << k) < p)
        k++;
    return k;
}

static double min2(double a, double b)
{
    return a < b ? a : b;
}

double prof_model_coll_time(const struct prof_model *m, enum prof_model_coll k, int p, double x)
{
    if (m->perfect || p < 2)
        return 0;
    double lg = prof_model_log2(p), t0 = prof_model_time(m, 0), part = (double)(p - 1) / p * x / m->bw;
    switch (k) {
    case PROF_MC_BARRIER:              /* dissemination */
        return lg * t0;
    case PROF_MC_BCAST:                /* binomial tree; scatter and ring allgather */
        return min2(lg * prof_model_time(m, x), (lg + p - 1) * t0 + 2 * part);
    case PROF_MC_REDUCE:               /* binomial tree; reduce-scatter and gather */
    case PROF_MC_ALLREDUCE:            /* recursive doubling; reduce-scatter and allgather */
        return min2(lg * prof_model_time(m, x), 2 * lg * t0 + 2 * part);
    case PROF_MC_SCAN:                 /* recursive doubling */
        return lg * prof_model_time(m, x);
    case PROF_MC_GATHER:               /* binomial tree (scatter too) */
    case PROF_MC_ALLGATHER:            /* recursive doubling */
    case PROF_MC_REDUCE_SCATTER:       /* recursive halving */
        return lg * t0 + part;
    case PROF_MC_ALLTOALL:             /* Bruck; pairwise exchange */
        return min2(lg * prof_model_time(m, x / 2), (p - 1) * prof_model_time(m, x / p));
    case PROF_MC_NEIGHBOR:             /* every neighbour at once, through one link */
        return prof_model_time(m, x);
    }
    return 0;
}

void prof_model_text(char *buf, size_t size)
{
    if (prof_model.perfect)
        snprintf(buf, size, "perfect,cpu=%g", prof_model.cpu);
    else
        snprintf(buf, size, "lat=%gus,bw=%gMB/s,cpu=%g,o=%gus,g=%gus,eager=%.0fB", prof_model.lat * 1e6,
                 prof_model.bw * 1e-6, prof_model.cpu, prof_model.o * 1e6, prof_model.g * 1e6, prof_model.eager);
}
