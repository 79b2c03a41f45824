/* keyids.c: at finalize, which branch of another rank merged a record key
 * of that rank (tokens carry record keys: late sender's sending sites,
 * wait states' causes). Each rank asks the ranks concerned for the branch
 * ids of the keys it holds: two all-to-all exchanges over the tool's
 * communicator (counts, then keys, answered with ids). Memory: the keys
 * this rank asks and is asked, and four counts per rank (cold). */
#include <stdlib.h>
#include "branch.h"

struct key_id {
    uint64_t key;
    int64_t id;
};

static int by_key(const void *a, const void *b)
{
    uint64_t x = ((const struct key_id *)a)->key, y = ((const struct key_id *)b)->key;
    return x < y ? -1 : x > y;
}

/* Every rank's ok, or 0 (collective). */
static int all_ok(int ok, MPI_Comm comm)
{
    int all = 0;
    PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
    return all;
}

int prof_branch_ids_ask(MPI_Comm comm, const struct prof_branch *v, int n, int nq, const int *rank,
                        const uint64_t *key, int64_t *id)
{
    int size, nmine = 0;
    PMPI_Comm_size(comm, &size);
    for (int j = 0; j < nq; j++)
        id[j] = 0;
    for (int i = 0; i < n; i++)
        nmine += v[i].nrkeys;
    struct key_id *mine = malloc(((size_t)nmine + 1) * sizeof *mine);
    int *cnt = calloc(5 * (size_t)size + 1, sizeof *cnt);  /* send counts, displs, recv counts, displs, fill */
    uint64_t *ask = malloc(((size_t)nq + 1) * sizeof *ask);
    int64_t *ids = malloc(((size_t)nq + 1) * sizeof *ids);
    uint64_t *asks_in = NULL;
    int64_t *ids_out = NULL;
    int rc = -1;
    if (!all_ok(mine && cnt && ask && ids, comm))
        goto out;
    int *scnt = cnt, *sdis = cnt + size, *rcnt = cnt + 2 * size, *rdis = cnt + 3 * size, *fill = cnt + 4 * size;
    nmine = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < v[i].nrkeys; j++)
            mine[nmine++] = (struct key_id){ v[i].rkeys[j], v[i].id };
    qsort(mine, (size_t)nmine, sizeof *mine, by_key);
    /* The questions, grouped by rank in the order asked. */
    for (int j = 0; j < nq; j++)
        if (rank[j] >= 0 && rank[j] < size)
            scnt[rank[j]]++;
    for (int r = 1; r < size; r++)
        sdis[r] = sdis[r - 1] + scnt[r - 1];
    PMPI_Alltoall(scnt, 1, MPI_INT, rcnt, 1, MPI_INT, comm);
    int nin = 0;
    for (int r = 0; r < size; r++) {
        rdis[r] = nin;
        nin += rcnt[r];
    }
    asks_in = malloc(((size_t)nin + 1) * sizeof *asks_in);
    ids_out = malloc(((size_t)nin + 1) * sizeof *ids_out);
    if (!all_ok(asks_in && ids_out, comm))
        goto out;
    for (int j = 0; j < nq; j++)
        if (rank[j] >= 0 && rank[j] < size)
            ask[sdis[rank[j]] + fill[rank[j]]++] = key[j];
    PMPI_Alltoallv(ask, scnt, sdis, MPI_UINT64_T, asks_in, rcnt, rdis, MPI_UINT64_T, comm);
    for (int j = 0; j < nin; j++) {
        struct key_id q = { asks_in[j], 0 };
        const struct key_id *hit = bsearch(&q, mine, (size_t)nmine, sizeof q, by_key);
        ids_out[j] = hit ? hit->id : 0;
    }
    PMPI_Alltoallv(ids_out, rcnt, rdis, MPI_INT64_T, ids, scnt, sdis, MPI_INT64_T, comm);
    /* The answers come back in the order asked. */
    for (int r = 0; r < size; r++)
        fill[r] = 0;
    for (int j = 0; j < nq; j++)
        if (rank[j] >= 0 && rank[j] < size)
            id[j] = ids[sdis[rank[j]] + fill[rank[j]]++];
    rc = 0;
out:
    free(asks_in);
    free(ids_out);
    free(mine);
    free(cnt);
    free(ask);
    free(ids);
    return rc;
}
