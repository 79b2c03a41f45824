/* slt_partners.c: late sender, at finalize: which branch of the partner rank
 * sent a receive's messages. A token carries the key of the sending
 * record; each rank asks the partner ranks for the branch ids of the keys
 * it holds (two all-to-all exchanges over the tool's communicator: counts,
 * then keys, answered with ids). Memory: the keys this rank asks and is
 * asked, and one count per rank (cold). */
#include <stdlib.h>
#include "branch.h"
#include "slt.h"

struct key_id {
    uint64_t key;
    int64_t id;
};

static int by_key(const void *a, const void *b)
{
    uint64_t x = ((const struct key_id *)a)->key, y = ((const struct key_id *)b)->key;
    return x < y ? -1 : x > y;
}

/* The partners whose branch is asked for: a known rank and a key. */
static int asked(const struct prof_partner *p)
{
    return p->count && p->rank >= 0 && p->key;
}

int prof_slt_partner_ids(MPI_Comm comm, struct prof_branch *v, int n)
{
    int size, nmine = 0, nask = 0, ok;
    PMPI_Comm_size(comm, &size);
    for (int i = 0; i < n; i++) {
        nmine += v[i].nrkeys;
        for (int k = 0; k <= PROF_PARTNERS; k++)
            nask += asked(&v[i].partners.p[k]);
    }
    struct key_id *mine = malloc(((size_t)nmine + 1) * sizeof *mine);
    int *cnt = calloc(4 * (size_t)size, sizeof *cnt);       /* send counts, displs, recv counts, displs */
    uint64_t *ask = malloc(((size_t)nask + 1) * sizeof *ask);
    int64_t *ids = malloc(((size_t)nask + 1) * sizeof *ids);
    ok = mine && cnt && ask && ids;
    int all_ok;
    PMPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm);
    int rc = -1;
    uint64_t *asks_in = NULL;
    int64_t *ids_out = NULL;
    if (!all_ok)
        goto out;
    int *scnt = cnt, *sdis = cnt + size, *rcnt = cnt + 2 * size, *rdis = cnt + 3 * size;
    nmine = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < v[i].nrkeys; j++)
            mine[nmine++] = (struct key_id){ v[i].rkeys[j], v[i].id };
    qsort(mine, (size_t)nmine, sizeof *mine, by_key);
    /* The questions, grouped by rank in the order of the branches. */
    for (int i = 0; i < n; i++)
        for (int k = 0; k <= PROF_PARTNERS; k++)
            if (asked(&v[i].partners.p[k]) && v[i].partners.p[k].rank < size)
                scnt[v[i].partners.p[k].rank]++;
    for (int r = 1; r < size; r++)
        sdis[r] = sdis[r - 1] + scnt[r - 1];
    int *fill = calloc((size_t)size + 1, sizeof *fill);
    PMPI_Alltoall(scnt, 1, MPI_INT, rcnt, 1, MPI_INT, comm);
    int nin = 0;
    for (int r = 0; r < size; r++) {
        rdis[r] = nin;
        nin += rcnt[r];
    }
    asks_in = malloc(((size_t)nin + 1) * sizeof *asks_in);
    ids_out = malloc(((size_t)nin + 1) * sizeof *ids_out);
    ok = fill && asks_in && ids_out;
    PMPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm);
    if (!all_ok) {
        free(fill);
        goto out;
    }
    for (int i = 0; i < n; i++)
        for (int k = 0; k <= PROF_PARTNERS; k++) {
            const struct prof_partner *p = &v[i].partners.p[k];
            if (asked(p) && p->rank < size)
                ask[sdis[p->rank] + fill[p->rank]++] = p->key;
        }
    free(fill);
    PMPI_Alltoallv(ask, scnt, sdis, MPI_UINT64_T, asks_in, rcnt, rdis, MPI_UINT64_T, comm);
    for (int j = 0; j < nin; j++) {
        struct key_id q = { asks_in[j], 0 };
        const struct key_id *hit = bsearch(&q, mine, (size_t)nmine, sizeof q, by_key);
        ids_out[j] = hit ? hit->id : 0;
    }
    PMPI_Alltoallv(ids_out, rcnt, rdis, MPI_INT64_T, ids, scnt, sdis, MPI_INT64_T, comm);
    /* The answers come back in the order asked. */
    int *next = calloc((size_t)size + 1, sizeof *next);
    for (int i = 0; next && i < n; i++)
        for (int k = 0; k <= PROF_PARTNERS; k++) {
            struct prof_partner *p = &v[i].partners.p[k];
            if (asked(p) && p->rank < size)
                p->brid = (int32_t)ids[sdis[p->rank] + next[p->rank]++];
        }
    rc = next ? 0 : -1;
    free(next);
out:
    free(asks_in);
    free(ids_out);
    free(mine);
    free(cnt);
    free(ask);
    free(ids);
    return rc;
}
