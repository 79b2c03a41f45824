/* fuzz_truth.c: the late-sender time of every receive, as the profiler
 * defines it (fuzz.c), from the program's own CLOCK_MONOTONIC stamps (one
 * clock for all processes of a node): per rank and charged site, the sum
 * of clamp(send_start - wait_start, 0, wait_end - wait_start), the receives
 * one call completed each from the send before it (issue 50). The send
 * starts are gathered with PMPI_ calls, so the profile does not see them.
 * Cold: once, after every schedule. */
#include <stdio.h>
#include <stdlib.h>
#include "fuzz.h"

const char *const fz_site_name[S_NSITE] = {
    "op_recv", "op_irecv", "op_sendrecv", "op_sendrecv_replace", "op_probe", "op_iprobe",
    "op_mprobe", "op_improbe", "op_mrecv", "op_imrecv", "op_recv_init",
};

static const char *const via_name[] = { "wait", "test", "waitall", "testall", "waitany", "testany", "waitsome",
                                         "testsome" };

uint64_t fz_key(int ordinal, int lane, int id)
{
    return (uint64_t)ordinal << 32 | (uint64_t)lane << 28 | (uint64_t)id;
}

static void *grow(void *p, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return p;
    *cap = *cap ? 2 * *cap : 256;
    p = realloc(p, *cap * size);
    if (!p) {
        fprintf(stderr, "fuzz: out of memory\n");
        abort();
    }
    return p;
}

void fz_add_send(struct fz_recs *R, uint64_t key, int64_t t_ns)
{
    R->s = grow(R->s, &R->caps, R->ns, sizeof *R->s);
    R->s[R->ns++] = (struct fz_srec){ key, t_ns };
}

void fz_add_recv(struct fz_recs *R, uint64_t key, int site, int64_t t0, int64_t t1, int eval, int via)
{
    R->r = grow(R->r, &R->capr, R->nr, sizeof *R->r);
    R->r[R->nr++] = (struct fz_rrec){ key, t0, t1, (short)site, (char)eval, (signed char)via };
}

void fz_recs_merge(struct fz_recs *into, struct fz_recs *from)
{
    for (size_t i = 0; i < from->ns; i++)
        fz_add_send(into, from->s[i].key, from->s[i].t_ns);
    for (size_t i = 0; i < from->nr; i++)
        fz_add_recv(into, from->r[i].key, from->r[i].site, from->r[i].t0_ns, from->r[i].t1_ns, from->r[i].eval,
                    from->r[i].via);
    free(from->s);
    free(from->r);
    *from = (struct fz_recs){ 0 };
}

static int by_key(const void *a, const void *b)
{
    uint64_t x = ((const struct fz_srec *)a)->key, y = ((const struct fz_srec *)b)->key;
    return x < y ? -1 : x > y;
}

/* An evaluated receive and its wait until sent, clamped to its call. */
struct part {
    const struct fz_rrec *q;
    int64_t late;
};

/* By completion call (lane, interval; a call that measured one receive is
 * its own), then by how long the call waited for each receive's send. */
static int by_call(const void *a, const void *b)
{
    const struct part *x = a, *y = b;
    int64_t k[4] = { (int64_t)(x->q->key >> 28 & 15), x->q->t0_ns, x->q->t1_ns, x->late };
    int64_t l[4] = { (int64_t)(y->q->key >> 28 & 15), y->q->t0_ns, y->q->t1_ns, y->late };
    for (int i = 0; i < 4; i++)
        if (k[i] != l[i])
            return k[i] < l[i] ? -1 : 1;
    return x->q < y->q ? -1 : x->q > y->q;
}

/* Whether p and q were completed by one call (a Wait variant). */
static int one_call(const struct part *p, const struct part *q)
{
    return p->q->via >= 0 && q->q->via >= 0 && (p->q->key >> 28 & 15) == (q->q->key >> 28 & 15) &&
           p->q->t0_ns == q->q->t0_ns && p->q->t1_ns == q->q->t1_ns;
}

long fz_truth(struct fz_lane *L, struct fz_recs *R)
{
    int rank = L->rank, np = L->np;
    int sz = (int)sizeof(struct fz_srec), mine = (int)R->ns * sz, *counts = calloc((size_t)np, sizeof *counts),
        *displs = calloc((size_t)np, sizeof *displs), total = 0;
    PMPI_Allgather(&mine, 1, MPI_INT, counts, 1, MPI_INT, MPI_COMM_WORLD);
    for (int r = 0; r < np; r++) {
        displs[r] = total;
        total += counts[r];
    }
    struct fz_srec *all = malloc((size_t)total + 1);
    PMPI_Allgatherv(R->s, mine, MPI_BYTE, all, counts, displs, MPI_BYTE, MPI_COMM_WORLD);
    size_t n = (size_t)total / sizeof *all;
    qsort(all, n, sizeof *all, by_key);
    double late[S_NSITE] = { 0 };
    long calls[S_NSITE] = { 0 }, missing = 0;
    struct part *p = malloc((R->nr + 1) * sizeof *p);
    size_t nparts = 0;
    for (size_t i = 0; i < R->nr; i++) {
        const struct fz_rrec *q = &R->r[i];
        calls[q->site]++;
        if (!q->eval)
            continue;
        struct fz_srec want = { q->key, 0 }, *s = bsearch(&want, all, n, sizeof *all, by_key);
        if (!s) {
            missing++;
            continue;
        }
        int64_t d = s->t_ns - q->t0_ns, span = q->t1_ns - q->t0_ns;
        p[nparts++] = (struct part){ q, d < 0 ? 0 : d > span ? span : d };
    }
    /* The receives one call completed: each from the send before it (in the
     * order they were sent) to its own, so that they add up to the call's
     * wait until the last was sent. */
    qsort(p, nparts, sizeof *p, by_call);
    for (size_t i = 0; i < nparts; i++) {
        const struct fz_rrec *q = p[i].q;
        int64_t before = i > 0 && one_call(&p[i - 1], &p[i]) ? p[i - 1].late : 0;
        double x = (double)(p[i].late - before) * 1e-9;
        late[q->site] += x;
        if (L->detail)
            fz_say(L, "late rank=%d s=%llu l=%d id=%d site=%s via=%s late_s=%.6f wait_s=%.6f\n", rank,
                   (unsigned long long)(L->first + (q->key >> 32)), (int)(q->key >> 28 & 15), (int)(q->key & 0xfffffff),
                   fz_site_name[q->site], q->via < 0 ? "itself" : via_name[q->via], x,
                   (double)(q->t1_ns - q->t0_ns) * 1e-9);
    }
    free(p);
    for (int k = 0; k < S_NSITE; k++)
        if (calls[k])
            fz_say(L, "truth rank=%d site=%s late_s=%.6f n=%ld\n", rank, fz_site_name[k], late[k], calls[k]);
    if (missing)
        fz_say(L, "truth rank=%d BAD %ld receives without a send start\n", rank, missing);
    free(all);
    free(counts);
    free(displs);
    return missing;
}
