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
int prof_model_nnodes = 1, prof_model_ppn;

/* The table= and nettable= files in force (the last one of each read
 * whole) and the one being read; why the last one read was refused. */
static struct prof_model_table table, net_table, reading;
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
 * below it, and past the last its time plus c->tail a byte. */
static double curve_at(const struct prof_model_curve *c, double x)
{
    int i = 1;
    if (c->n == 1 || x <= c->x[0])
        return c->t[0];
    if (x > c->x[c->n - 1])
        return c->t[c->n - 1] + (x - c->x[c->n - 1]) * c->tail;
    while (x > c->x[i])
        i++;
    return c->t[i - 1] + (x - c->x[i - 1]) * (c->t[i] - c->t[i - 1]) / (c->x[i] - c->x[i - 1]);
}

/* c's time per byte past its largest size: the least-squares slope of its
 * points from a sixteenth of that size up (two at least: in a table of
 * powers of two its last five), 0 when it falls. One noisy size among the
 * largest (small messages over TCP on a loaded node) does not make it. */
static double tail_of(const struct prof_model_curve *c)
{
    int n = c->n, i = n - 1;
    if (n < 2)
        return 0;
    while (i > 0 && c->x[i - 1] >= c->x[n - 1] / 16)
        i--;
    if (i == n - 1)
        i--;
    double k = n - i, sx = 0, st = 0, sxx = 0, sxt = 0;
    for (int j = i; j < n; j++)
        sx += c->x[j], st += c->t[j], sxx += c->x[j] * c->x[j], sxt += c->x[j] * c->t[j];
    double slope = (k * sxt - sx * st) / (k * sxx - sx * sx);
    return slope > 0 ? slope : 0;
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
    if (strcasecmp(name, "gap") == 0) {    /* mpiprof-calibrate's message rate */
        if (t->gap > 0 || p < 2 || !(us > 0) || !isfinite(us)) {
            snprintf(why, sizeof why, "%s line %d: %s", file, ln,
                     t->gap > 0 ? "a second gap row" : "a gap row needs 2 processes or more and a time above 0");
            return -1;
        }
        t->gap = us * 1e-6;
        t->sum += p + x + us;
        return 0;
    }
    for (k = 0; k <= PROF_MC_P2P && strcasecmp(name, shape_name[k]) != 0; k++)
        ;
    if (k > PROF_MC_P2P || p < 2 || !(x >= 0) || !(us >= 0) || !isfinite(x) || !isfinite(us)) {
        snprintf(why, sizeof why, "%s line %d: %s", file, ln,
                 k > PROF_MC_P2P ? "unknown shape (p2p, barrier, bcast, reduce, allreduce, scan, gather, "
                                   "allgather, alltoall, reduce_scatter, neighbor, gap)"
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

/* Read file (path, len bytes of it) into *into: 0, or -1 and why. */
static int table_read(const char *path, size_t len, struct prof_model_table *into)
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
        size_t len = strcspn(line, "\n");
        int whole = line[len] == '\n' || feof(f), c;
        line[len] = '\0';
        char first = line[strspn(line, " \t")];
        if (!whole && first == '#') {       /* a long comment (a long command in mpiprof-calibrate's) */
            while ((c = fgetc(f)) != EOF && c != '\n')
                ;
        } else if (!whole) {
            snprintf(why, sizeof why, "%s line %d: longer than %zu bytes", file, ln, sizeof line - 2);
            rc = -1;
        } else if (first != '\0' && first != '#') {
            rc = table_row(&reading, file, ln, line);
        }
    }
    fclose(f);
    for (int i = 0; i < reading.n; i++)
        reading.c[i].tail = tail_of(&reading.c[i]);
    const struct prof_model_curve *c = curve(&reading, PROF_MC_P2P, 2);
    if (rc == 0 && (!c || c->n < 2)) {
        snprintf(why, sizeof why, "%s: no p2p curve of two sizes or more (mpiprof-calibrate writes one)", file);
        rc = -1;
    } else if (rc == 0 && !(c->tail > 0)) {
        snprintf(why, sizeof why, "%s: the p2p time does not grow over its largest sizes (no bandwidth)", file);
        rc = -1;
    }
    if (rc == 0)
        *into = reading;
    return rc;
}

/* "NAME=FILE" at *p (NAME table or nettable, in any letter case): 1, p
 * past it and the table read into *into, its file in path[200]; 0 when
 * not there; -1. */
static int table_item(const char **p, const char *name, struct prof_model_table *into, char *path)
{
    size_t len = strlen(name);
    if (strncasecmp(*p, name, len) != 0 || (*p)[len] != '=')
        return 0;
    const char *s = *p + len + 1;
    size_t n = strcspn(s, ",");
    if (n == 0 || (s[n] == ',' && s[n + 1] == '\0') || table_read(s, n, into) != 0)
        return -1;
    snprintf(path, sizeof prof_model.path, "%.*s", (int)n, s);
    *p = s[n] ? s + n + 1 : s + n;
    return 1;
}

/* "place=block" or "place=cyclic" at *p: 1, p past it and *v set; 0 when
 * not there; -1. */
static int place_item(const char **p, int *v)
{
    if (strncasecmp(*p, "place=", 6) != 0)
        return 0;
    const char *s = *p + 6;
    size_t n = strcspn(s, ",");
    if (n == 5 && strncasecmp(s, "block", 5) == 0)
        *v = PROF_PLACE_BLOCK;
    else if (n == 6 && strncasecmp(s, "cyclic", 6) == 0)
        *v = PROF_PLACE_CYCLIC;
    else {
        snprintf(why, sizeof why, "place=%.*s: the placement is block or cyclic", (int)n, s);
        return -1;
    }
    if (s[n] == ',' && s[n + 1] == '\0')
        return -1;
    *p = s[n] ? s + n + 1 : s + n;
    return 1;
}

/* A count item's value v (nodes=, ppn=): a whole number 1..1000000. */
static int count_ok(double v)
{
    return v >= 1 && v <= 1e6 && v == (double)(int)v;
}

/* The curve's lat (its time of 0 bytes) and bw (its largest sizes'). */
static void table_figures(const struct prof_model_table *t, double *lat, double *bw)
{
    const struct prof_model_curve *c = curve(t, PROF_MC_P2P, 2);
    *lat = curve_at(c, 0);
    *bw = 1 / c->tail;
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
    struct prof_model r = { .cpu = 1, .eager = PROF_MODEL_EAGER, .place = PROF_PLACE_BLOCK };
    int tab = 0, ntab = 0, place = 0;
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
    /* The numbers: where each goes, its scale (us and MB/s to seconds and
     * bytes per second), whether 0 is allowed (else above 0; counts: whole
     * numbers 1..1000000), and whether perfect takes it; seen once. */
    double nodes_v = 0, ppn_v = 0;
    enum { N_LAT, N_BW, N_CPU, N_O, N_G, N_EAGER, N_NETLAT, N_NETBW, N_NETG, N_NODES, N_PPN, NNUMS };
    struct {
        const char *name;
        double *dst, scale;
        enum { ZERO_OK, ABOVE_0, COUNT } range;
        int perfect_ok, seen;
    } nums[NNUMS] = {
        [N_LAT] = { "lat", &r.lat, 1e-6, ZERO_OK, 0, 0 },
        [N_BW] = { "bw", &r.bw, 1e6, ABOVE_0, 0, 0 },
        [N_CPU] = { "cpu", &r.cpu, 1, ABOVE_0, 1, 0 },
        [N_O] = { "o", &r.o, 1e-6, ZERO_OK, 0, 0 },
        [N_G] = { "g", &r.g, 1e-6, ZERO_OK, 0, 0 },
        [N_EAGER] = { "eager", &r.eager, 1, ZERO_OK, 0, 0 },
        [N_NETLAT] = { "netlat", &r.net_lat, 1e-6, ZERO_OK, 0, 0 },
        [N_NETBW] = { "netbw", &r.net_bw, 1e6, ABOVE_0, 0, 0 },
        [N_NETG] = { "netg", &r.net_g, 1e-6, ZERO_OK, 0, 0 },
        [N_NODES] = { "nodes", &nodes_v, 1, COUNT, 0, 0 },
        [N_PPN] = { "ppn", &ppn_v, 1, COUNT, 0, 0 },
    };
    while (*p) {
        double v;
        int k = 0, i;
        for (i = 0; i < NNUMS && (k = item(&p, nums[i].name, &v)) == 0; i++)
            ;
        if (i < NNUMS) {
            if (k < 0 || (r.perfect && !nums[i].perfect_ok) || nums[i].seen++ ||
                (nums[i].range == ZERO_OK ? v < 0 : nums[i].range == ABOVE_0 ? !(v > 0) : !count_ok(v)))
                return -1;
            *nums[i].dst = v * nums[i].scale;
        } else if ((k = table_item(&p, "table", &table, r.path)) != 0) {
            if (k < 0 || r.perfect || tab++)
                return -1;
            r.table = &table;
        } else if ((k = table_item(&p, "nettable", &net_table, r.net_path)) != 0) {
            if (k < 0 || r.perfect || ntab++)
                return -1;
            r.net_table = &net_table;
        } else if ((k = place_item(&p, &r.place)) != 0) {
            if (k < 0 || r.perfect || place++)
                return -1;
        } else {
            return -1;
        }
    }
    int lat = nums[N_LAT].seen, bw = nums[N_BW].seen, nlat = nums[N_NETLAT].seen, nbw = nums[N_NETBW].seen,
        nodes = nums[N_NODES].seen, ppn = nums[N_PPN].seen;
    r.nodes = (int)nodes_v;
    r.ppn = (int)ppn_v;
    if (!r.perfect && !(tab ? !lat && !bw : lat && bw))
        return -1;
    if (ntab ? nlat || nbw : nlat != nbw) {
        snprintf(why, sizeof why, "the network between nodes is netlat= with netbw=, or nettable=");
        return -1;
    }
    r.net = nlat || ntab;
    if (nums[N_NETG].seen && !r.net) {
        snprintf(why, sizeof why, "netg= needs the network between nodes: netlat= and netbw=, or nettable=");
        return -1;
    }
    if ((nodes || ppn || place) && !r.net) {
        snprintf(why, sizeof why, "a placement (nodes=, ppn=, place=) needs the network between nodes: "
                                  "netlat= and netbw=, or nettable=");
        return -1;
    }
    if ((ppn || place) && !nodes) {
        snprintf(why, sizeof why, "ppn= and place= need nodes=");
        return -1;
    }
    if (tab)        /* lat: the time of 0 bytes; bw: the largest sizes' */
        table_figures(&table, &r.lat, &r.bw);
    if (ntab)
        table_figures(&net_table, &r.net_lat, &r.net_bw);
    if (tab && !nums[N_G].seen)
        r.g = table.gap;
    if (!nums[N_NETG].seen)
        r.net_g = ntab && net_table.gap > 0 ? net_table.gap : r.g;
    *m = r;
    return 0;
}

int prof_model_place(const struct prof_model *m, int size, int *node_of)
{
    if (!m->nodes)
        return 0;
    int ppn = m->ppn ? m->ppn : (size + m->nodes - 1) / m->nodes;
    why[0] = '\0';
    if (m->nodes > size)
        snprintf(why, sizeof why, "nodes=%d is more nodes than the job's %d ranks", m->nodes, size);
    else if ((long long)m->nodes * ppn < size)
        snprintf(why, sizeof why, "nodes=%d with ppn=%d holds %lld of the job's %d ranks", m->nodes, ppn,
                 (long long)m->nodes * ppn, size);
    else if (m->place == PROF_PLACE_BLOCK && (size + ppn - 1) / ppn < m->nodes)
        snprintf(why, sizeof why, "nodes=%d with ppn=%d in blocks leaves nodes without ranks for the job's %d "
                 "(place=cyclic fills them all)", m->nodes, ppn, size);
    if (why[0])
        return -1;
    for (int r = 0; node_of && r < size; r++)
        node_of[r] = m->place == PROF_PLACE_BLOCK ? r / ppn : r % m->nodes;
    return 0;
}

int prof_model_spread(const int *node_of, int size, const int *ranks, int n, int *most)
{
    int *on = calloc((size_t)(size > 0 ? size : 1), sizeof *on), nodes = 0;
    *most = 0;
    for (int i = 0; on && i < n; i++) {
        int r = ranks ? ranks[i] : i, k = r >= 0 && r < size ? node_of[r] : -1;
        if (k < 0 || k >= size)
            continue;
        nodes += on[k]++ == 0;
        *most = on[k] > *most ? on[k] : *most;
    }
    free(on);
    return nodes;
}

void prof_model_net_of(const struct prof_model *m, struct prof_model *net)
{
    *net = *m;
    if (!m->net)
        return;
    net->lat = m->net_lat;
    net->bw = m->net_bw;
    net->g = m->net_g;
    net->table = m->net_table;
    snprintf(net->path, sizeof net->path, "%s", m->net_path);
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

/* A collective of shape k over n nodes, one process a node, of x bytes:
 * by the network between nodes' table's curve of k, when it has one
 * (mpiprof-calibrate --hosts measures them); else its algorithms on that
 * network plus the local work that the node's measured curve of k holds
 * beyond the algorithms on the node's network (a reduction's arithmetic,
 * the copies of a process's own blocks: the same on any network). */
static double net_coll(const struct prof_model *m, const struct prof_model *net, enum prof_model_coll k, int n,
                       double x)
{
    double t = prof_model_coll_time(net, k, n, x);
    if (m->perfect || !m->table || !curve(m->table, k, n) || (net->table && curve(net->table, k, n)))
        return t;
    double local = prof_model_coll_time(m, k, n, x) - algorithms(m, k, n, x);
    return t + (local > 0 ? local : 0);
}

double prof_model_coll_placed(const struct prof_model *m, const struct prof_model *net, enum prof_model_coll k,
                              int p, int n, int q, double x, double *between)
{
    double share = p > 0 ? x * q / p : x, in = 0, out = 0;
    if (n < 2)
        in = prof_model_coll_time(m, k, p, x);
    else
        switch (k) {
        case PROF_MC_BARRIER:
            in = 2 * prof_model_coll_time(m, k, q, 0);
            out = net_coll(m, net, k, n, 0);
            break;
        case PROF_MC_BCAST:
        case PROF_MC_REDUCE:
            in = prof_model_coll_time(m, k, q, x);
            out = net_coll(m, net, k, n, x);
            break;
        case PROF_MC_ALLREDUCE:
        case PROF_MC_SCAN:
            in = prof_model_coll_time(m, PROF_MC_REDUCE, q, x) + prof_model_coll_time(m, PROF_MC_BCAST, q, x);
            out = net_coll(m, net, k, n, x);
            break;
        case PROF_MC_GATHER:
            in = prof_model_coll_time(m, k, q, share);
            out = net_coll(m, net, k, n, x);
            break;
        case PROF_MC_ALLGATHER:
            in = prof_model_coll_time(m, PROF_MC_GATHER, q, share) + prof_model_coll_time(m, PROF_MC_BCAST, q, x);
            out = net_coll(m, net, k, n, x);
            break;
        case PROF_MC_REDUCE_SCATTER:
            in = prof_model_coll_time(m, PROF_MC_REDUCE, q, x) + prof_model_coll_time(m, PROF_MC_GATHER, q, share);
            out = net_coll(m, net, k, n, x);
            break;
        case PROF_MC_ALLTOALL:
            in = prof_model_coll_time(m, k, q, share);
            out = net_coll(m, net, k, n, x * q);
            break;
        case PROF_MC_NEIGHBOR:
        case PROF_MC_P2P:
            out = prof_model_time(net, x);
            break;
        }
    if (between)
        *between = out;
    return in + out;
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
    /* The network between nodes and the placement (nodes=hosts: the real one). */
    size_t n = strlen(buf);
    if (!prof_model.net || n >= size)
        return;
    if (prof_model.net_table)
        snprintf(buf + n, size - n, ",nettable=%s(lat=%gus,bw=%gMB/s),netg=%gus", prof_model.net_path,
                 prof_model.net_lat * 1e6, prof_model.net_bw * 1e-6, prof_model.net_g * 1e6);
    else
        snprintf(buf + n, size - n, ",netlat=%gus,netbw=%gMB/s,netg=%gus", prof_model.net_lat * 1e6,
                 prof_model.net_bw * 1e-6, prof_model.net_g * 1e6);
    n = strlen(buf);
    if (n >= size)
        return;
    if (prof_model.nodes)
        snprintf(buf + n, size - n, ",nodes=%d,ppn=%d,place=%s", prof_model.nodes, prof_model_ppn,
                 prof_model.place == PROF_PLACE_CYCLIC ? "cyclic" : "block");
    else
        snprintf(buf + n, size - n, ",nodes=hosts(%d)", prof_model_nnodes);
}
