/* sites.c: per call site figures over all ranks for sites.txt: sums,
 * least, most and the rank of the most, by PMPI_Reduce over per-id arrays
 * in bounded chunks; texts from the lowest rank that has each id (cold). */
#include <float.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "branch.h"
#include "sites.h"

enum { CALLS, RANKS, SENT, RECV, NSUMS };

struct chunk {
    uint64_t sums[NSUMS][PROF_SITES_CHUNK];
    double t[PROF_SITES_CHUNK], tmin[PROF_SITES_CHUNK];
    struct { double t; int rank; } tmax[PROF_SITES_CHUNK];
    int fn[PROF_SITES_CHUNK], owner[PROF_SITES_CHUNK];
};

static int by_time(const void *a, const void *b)
{
    const struct prof_site *x = a, *y = b;
    if (x->time_s != y->time_s)
        return x->time_s < y->time_s ? 1 : -1;
    return x->id - y->id;
}

/* One chunk of ids [lo, lo + len): this rank's figures in in, the
 * combined ones into sites and owner (lowest rank with the id) on rank 0. */
static void reduce_chunk(MPI_Comm comm, int rank, int lo, int len, const struct prof_branch *const *by_id,
                         double sec_per_tick, struct chunk *in, struct chunk *res, struct prof_site *sites,
                         int *owner)
{
    memset(in, 0, sizeof *in);
    for (int i = 0; i < len; i++) {
        const struct prof_branch *b = by_id[lo + i];
        in->tmin[i] = DBL_MAX;
        in->tmax[i].t = -1;
        in->tmax[i].rank = rank;
        in->fn[i] = -1;
        in->owner[i] = INT_MAX;
        if (!b)
            continue;
        double t = b->s.ticks * sec_per_tick;
        in->sums[CALLS][i] = b->s.calls;
        in->sums[RANKS][i] = 1;
        in->sums[SENT][i] = b->s.bytes_sent;
        in->sums[RECV][i] = b->s.bytes_recv;
        in->t[i] = in->tmin[i] = in->tmax[i].t = t;
        in->fn[i] = (int)b->fn;
        in->owner[i] = rank;
    }
    for (int k = 0; k < NSUMS; k++)
        PMPI_Reduce(in->sums[k], res->sums[k], len, MPI_UINT64_T, MPI_SUM, 0, comm);
    PMPI_Reduce(in->t, res->t, len, MPI_DOUBLE, MPI_SUM, 0, comm);
    PMPI_Reduce(in->tmin, res->tmin, len, MPI_DOUBLE, MPI_MIN, 0, comm);
    PMPI_Reduce(in->tmax, res->tmax, len, MPI_DOUBLE_INT, MPI_MAXLOC, 0, comm);
    PMPI_Reduce(in->fn, res->fn, len, MPI_INT, MPI_MAX, 0, comm);
    PMPI_Reduce(in->owner, res->owner, len, MPI_INT, MPI_MIN, 0, comm);
    for (int i = 0; rank == 0 && i < len; i++) {
        struct prof_site *s = &sites[lo + i];
        s->id = lo + i + 1;
        s->fn = res->fn[i];
        s->ranks = (int)res->sums[RANKS][i];
        s->calls = res->sums[CALLS][i];
        s->bytes_sent = res->sums[SENT][i];
        s->bytes_recv = res->sums[RECV][i];
        s->time_s = res->t[i];
        s->min_s = res->tmin[i];
        s->max_s = res->tmax[i].t;
        s->max_rank = res->tmax[i].rank;
        owner[lo + i] = res->owner[i];
    }
}

/* Texts of the sites whose lowest rank is not 0: owners learn which ids
 * are theirs from a broadcast, send "site\0ancestors\0" per id, in id
 * order, with one gather to rank 0. */
static int gather_texts(MPI_Comm comm, int rank, int size, int nid, const struct prof_branch *const *by_id,
                        int *owner, struct prof_site *sites)
{
    PMPI_Bcast(owner, nid, MPI_INT, 0, comm);
    size_t len = 0;
    for (int i = 0; i < nid; i++)
        if (owner[i] == rank && rank != 0)
            len += strlen(by_id[i]->site) + strlen(by_id[i]->ancestors) + 2;
    char *mine = malloc(len + 1);
    int mylen = (int)len, *lens = rank == 0 ? calloc((size_t)size, sizeof *lens) : NULL;
    int *displs = rank == 0 ? calloc((size_t)size, sizeof *displs) : NULL;
    int failed = !mine || (rank == 0 && (!lens || !displs)), any;
    PMPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, comm);
    char *all = NULL;
    if (!any) {
        size_t n = 0;
        for (int i = 0; i < nid; i++)
            if (owner[i] == rank && rank != 0) {
                n += (size_t)sprintf(mine + n, "%s", by_id[i]->site) + 1;
                n += (size_t)sprintf(mine + n, "%s", by_id[i]->ancestors) + 1;
            }
        PMPI_Gather(&mylen, 1, MPI_INT, lens, 1, MPI_INT, 0, comm);
        size_t total = 0;
        for (int r = 0; rank == 0 && r < size; r++) {
            displs[r] = (int)total;
            total += (size_t)lens[r];
        }
        all = rank == 0 ? malloc(total + 1) : NULL;
        failed = rank == 0 && !all;
        PMPI_Bcast(&failed, 1, MPI_INT, 0, comm);
        if (!failed)
            PMPI_Gatherv(mine, mylen, MPI_CHAR, all, lens, displs, MPI_CHAR, 0, comm);
        any = failed;
    }
    for (int i = 0; rank == 0 && !any && i < nid; i++) {
        const char *site = "-", *anc = "-";
        if (owner[i] == 0) {
            site = by_id[i]->site;
            anc = by_id[i]->ancestors;
        } else if (owner[i] != INT_MAX) {
            site = all + displs[owner[i]];
            anc = site + strlen(site) + 1;
            displs[owner[i]] += (int)(strlen(site) + strlen(anc) + 2);
        }
        sites[i].site = strdup(site);
        sites[i].ancestors = strdup(anc);
    }
    free(mine);
    free(lens);
    free(displs);
    free(all);
    return any ? -1 : 0;
}

int prof_sites_reduce(MPI_Comm comm, const struct prof_branch *br, int nbr, double sec_per_tick,
                      struct prof_site **out, int *n)
{
    int rank, size, maxid = 0, nid;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    for (int i = 0; i < nbr; i++)
        if (br[i].id > maxid)
            maxid = br[i].id;
    PMPI_Allreduce(&maxid, &nid, 1, MPI_INT, MPI_MAX, comm);
    const struct prof_branch **by_id = calloc((size_t)nid + 1, sizeof *by_id);
    struct chunk *in = malloc(sizeof *in), *res = rank == 0 ? malloc(sizeof *res) : NULL;
    struct prof_site *sites = rank == 0 ? calloc((size_t)nid + 1, sizeof *sites) : NULL;
    int *owner = malloc(((size_t)nid + 1) * sizeof *owner);
    int failed = !by_id || !in || !owner || (rank == 0 && (!res || !sites)), any;
    PMPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, comm);
    *out = NULL;
    *n = 0;
    if (!any) {
        for (int i = 0; i < nbr; i++)
            if (br[i].id >= 1)
                by_id[br[i].id - 1] = &br[i];
        for (int lo = 0; lo < nid; lo += PROF_SITES_CHUNK)
            reduce_chunk(comm, rank, lo, nid - lo < PROF_SITES_CHUNK ? nid - lo : PROF_SITES_CHUNK, by_id,
                         sec_per_tick, in, res, sites, owner);
        any = gather_texts(comm, rank, size, nid, by_id, owner, sites) != 0;
    }
    if (!any && rank == 0) {
        int m = 0;
        for (int i = 0; i < nid; i++)
            if (sites[i].ranks > 0)
                sites[m++] = sites[i];
            else
                free(sites[i].site), free(sites[i].ancestors);
        qsort(sites, (size_t)m, sizeof *sites, by_time);
        *out = sites;
        *n = m;
        sites = NULL;
    }
    prof_sites_free(sites, sites ? nid : 0);
    free(by_id);
    free(in);
    free(res);
    free(owner);
    return any ? -1 : 0;
}

void prof_sites_free(struct prof_site *s, int n)
{
    for (int i = 0; s && i < n; i++) {
        free(s[i].site);
        free(s[i].ancestors);
    }
    free(s);
}
