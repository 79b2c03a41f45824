/* model_parse.c: the MPIPROF_MODEL string and the model's formulas (T(b),
 * the collectives' costs; model.h), apart from the clock so that the
 * option parser, its unit test and mpiprof-known need no MPI calls. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "model.h"

struct prof_model prof_model;

/* A table= file: the one in force (the last one read whole) and the one
 * being read; why the last one read was refused. */
static struct prof_model_table table, reading;
static char why[512];

const char *prof_model_why(void)
{
    return why;
}

/* The names of the shapes in a table file (enum prof_model_coll's order). */
static const char *const shape_name[] = { "barrier", "bcast", "reduce", "allreduce", "scan", "gather",
                                          "allgather", "alltoall", "reduce_scatter", "neighbor", "p2p" };

/* The curve of shape k measured on the most processes not above p, else on
 * the fewest; NULL when none. */
static const struct prof_model_curve *curve(const struct prof_model_table *t, int k, int p)
{
    const struct prof_model_curve *best = NULL;
    for (const struct prof_model_curve *c = t->c; c < t->c + t->n; c++) {
        if (c->shape != k)
            continue;
        if (!best || (c->p <= p && (best->p > p || c->p > best->p)) || (c->p > p && best->p > p && c->p < best->p))
            best = c;
    }
    return best;
}

/* c's time of x bytes: straight lines between its points, the first's time
 * below it, and past the last on the last two's line (not falling). */
static double curve_at(const struct prof_model_curve *c, double x)
{
    int i = 1;
    if (c->n == 1 || x <= c->x[0])
        return c->t[0];
    while (i < c->n - 1 && x > c->x[i])
        i++;
    double slope = (c->t[i] - c->t[i - 1]) / (c->x[i] - c->x[i - 1]);
    if (x > c->x[i] && slope < 0)
        slope = 0;
    return c->t[i - 1] + (x - c->x[i - 1]) * slope;
}

/* A row "SHAPE P BYTES USEC" of file's line ln into t: 0, or -1 and why. */
static int table_row(struct prof_model_table *t, const char *file, int ln, const char *line)
{
    char name[32];
    int p, k, used = 0;
    double x, us;
    if (sscanf(line, "%31s %d %lf %lf %n", name, &p, &x, &us, &used) != 4 || line[used] != '\0') {
        snprintf(why, sizeof why, "%s line %d: expected SHAPE PROCESSES BYTES USEC", file, ln);
        return -1;
    }
    for (k = 0; k <= PROF_MC_P2P && strcasecmp(name, shape_name[k]) != 0; k++)
        ;
    if (k > PROF_MC_P2P || p < 2 || !(x >= 0) || !(us >= 0) || !isfinite(x) || !isfinite(us)) {
        snprintf(why, sizeof why, "%s line %d: %s", file, ln,
                 k > PROF_MC_P2P ? "unknown shape (p2p, barrier, bcast, reduce, allreduce, scan, gather, "
                                   "allgather, alltoall, reduce_scatter, neighbor)"
                                 : "processes below 2, or bytes or time negative");
        return -1;
    }
    struct prof_model_curve *c = t->c;
    while (c < t->c + t->n && !(c->shape == k && c->p == p))
        c++;
    if (c == t->c + PROF_MODEL_CURVES || (c < t->c + t->n && c->n == PROF_MODEL_POINTS)) {
        snprintf(why, sizeof why, "%s line %d: more than %d curves or %d sizes in one", file, ln, PROF_MODEL_CURVES,
                 PROF_MODEL_POINTS);
        return -1;
    }
    if (c == t->c + t->n)
        *c = (struct prof_model_curve){ .shape = k, .p = p }, t->n++;
    if (c->n && x <= c->x[c->n - 1]) {
        snprintf(why, sizeof why, "%s line %d: the bytes of %s on %d processes do not increase", file, ln, name, p);
        return -1;
    }
    c->x[c->n] = x;
    c->t[c->n++] = us * 1e-6;
    t->sum += k + p + x + us;
    return 0;
}

/* Read file (path, len bytes of it) into table: 0, or -1 and why. */
static int table_read(const char *path, size_t len)
{
    char file[sizeof prof_model.path], line[256];
    if (len >= sizeof file) {
        snprintf(why, sizeof why, "table file name longer than %zu bytes", sizeof file - 1);
        return -1;
    }
    snprintf(file, sizeof file, "%.*s", (int)len, path);
    FILE *f = fopen(file, "r");
    if (!f) {
        snprintf(why, sizeof why, "cannot read table %s: %s", file, strerror(errno));
        return -1;
    }
    memset(&reading, 0, sizeof reading);
    int ln = 0, rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        ln++;
        line[strcspn(line, "\n")] = '\0';
        if (line[strspn(line, " \t")] != '\0' && line[strspn(line, " \t")] != '#')
            rc = table_row(&reading, file, ln, line);
    }
    fclose(f);
    const struct prof_model_curve *c = curve(&reading, PROF_MC_P2P, 2);
    if (rc == 0 && (!c || c->n < 2)) {
        snprintf(why, sizeof why, "%s: no p2p curve of two sizes or more (mpiprof-calibrate writes one)", file);
        rc = -1;
    } else if (rc == 0 && !(c->t[c->n - 1] > c->t[c->n - 2])) {
        snprintf(why, sizeof why, "%s: the p2p time of its two largest sizes does not grow (no bandwidth)", file);
        rc = -1;
    }
    if (rc == 0)
        table = reading;
    return rc;
}

/* "table=FILE" at *p (table= in any letter case): 1, p past it and r's
 * table read; 0 when not there; -1. */
static int table_item(const char **p, struct prof_model *r)
{
    if (strncasecmp(*p, "table=", 6) != 0)
        return 0;
    const char *s = *p + 6;
    size_t n = strcspn(s, ",");
    if (n == 0 || (s[n] == ',' && s[n + 1] == '\0') || table_read(s, n) != 0)
        return -1;
    snprintf(r->path, sizeof r->path, "%.*s", (int)n, s);
    r->table = &table;
    *p = s[n] ? s + n + 1 : s + n;
    return 1;
}

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
    struct prof_model r = { 0, 0, 0, 1, 0, 0, PROF_MODEL_EAGER, NULL, "" };
    int lat = 0, bw = 0, cpu = 0, o = 0, g = 0, eager = 0, tab = 0;
    const char *p = text;
    why[0] = '\0';
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
        } else if ((k = table_item(&p, &r)) != 0) {
            if (k < 0 || r.perfect || tab++)
                return -1;
        } else {
            return -1;
        }
    }
    if (!r.perfect && !(tab ? !lat && !bw : lat && bw))
        return -1;
    if (tab) {      /* lat: the time of 0 bytes; bw: the two largest sizes' */
        const struct prof_model_curve *c = curve(&table, PROF_MC_P2P, 2);
        r.lat = curve_at(c, 0);
        r.bw = (c->x[c->n - 1] - c->x[c->n - 2]) / (c->t[c->n - 1] - c->t[c->n - 2]);
    }
    *m = r;
    return 0;
}

double prof_model_wire(const struct prof_model *m, double bytes)
{
    return m->perfect ? 0 : bytes / m->bw;
}

double prof_model_time(const struct prof_model *m, double bytes)
{
    if (m->perfect)
        return 0;
    return 2 * m->o + (m->table ? curve_at(curve(m->table, PROF_MC_P2P, 2), bytes) : m->lat + bytes / m->bw);
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

/* What the algorithms give (prof_model_coll_time). */
static double algorithms(const struct prof_model *m, enum prof_model_coll k, int p, double x)
{
    double lg = prof_model_log2(p), t0 = prof_model_time(m, 0), part = prof_model_wire(m, (double)(p - 1) / p * x);
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
    case PROF_MC_P2P:
        return prof_model_time(m, x);
    }
    return 0;
}

double prof_model_coll_time(const struct prof_model *m, enum prof_model_coll k, int p, double x)
{
    if (m->perfect || p < 2)
        return 0;
    double mine = algorithms(m, k, p, x);
    const struct prof_model_curve *c = m->table ? curve(m->table, k, p) : NULL;
    if (!c)
        return mine;
    double measured = curve_at(c, x), there = algorithms(m, k, c->p, x);
    return there > 0 ? measured * mine / there : measured;
}

void prof_model_text(char *buf, size_t size)
{
    if (prof_model.perfect)
        snprintf(buf, size, "perfect,cpu=%g", prof_model.cpu);
    else if (prof_model.table)
        snprintf(buf, size, "table=%s(lat=%gus,bw=%gMB/s),cpu=%g,o=%gus,g=%gus,eager=%.0fB", prof_model.path,
                 prof_model.lat * 1e6, prof_model.bw * 1e-6, prof_model.cpu, prof_model.o * 1e6, prof_model.g * 1e6,
                 prof_model.eager);
    else
        snprintf(buf, size, "lat=%gus,bw=%gMB/s,cpu=%g,o=%gus,g=%gus,eager=%.0fB", prof_model.lat * 1e6,
                 prof_model.bw * 1e-6, prof_model.cpu, prof_model.o * 1e6, prof_model.g * 1e6, prof_model.eager);
}
