/* slt_partners.c: late sender, at finalize: which branch of the partner rank
 * sent a receive's messages. A token carries the key of the sending
 * record; the partners' ranks name it (keyids.c; cold). */
#include <stdlib.h>
#include "branch.h"
#include "slt.h"

/* The partners whose branch is asked for: a known rank and a key. */
static int asked(const struct prof_partner *p)
{
    return prof_partner_used(p) && p->rank >= 0 && p->key;
}

int prof_slt_partner_ids(MPI_Comm comm, struct prof_branch *v, int n)
{
    int nq = 0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k <= PROF_PARTNERS; k++)
            nq += asked(&v[i].partners.p[k]);
    int *rank = calloc((size_t)nq + 1, sizeof *rank);
    uint64_t *key = calloc((size_t)nq + 1, sizeof *key);
    int64_t *id = malloc(((size_t)nq + 1) * sizeof *id);
    int ok = rank && key && id;
    nq = 0;
    for (int i = 0; ok && i < n; i++)
        for (int k = 0; k <= PROF_PARTNERS; k++)
            if (asked(&v[i].partners.p[k])) {
                rank[nq] = v[i].partners.p[k].rank;
                key[nq++] = v[i].partners.p[k].key;
            }
    int rc = prof_branch_ids_ask(comm, v, n, ok ? nq : 0, rank, key, id);
    nq = 0;
    for (int i = 0; ok && rc == 0 && i < n; i++)
        for (int k = 0; k <= PROF_PARTNERS; k++)
            if (asked(&v[i].partners.p[k]))
                v[i].partners.p[k].brid = (int32_t)id[nq++];
    free(rank);
    free(key);
    free(id);
    return ok ? rc : -1;
}
