/* sites.c: per call site figures over all ranks for sites.txt: sums,
 * least and most with the rank of each, by PMPI_Reduce over per-id arrays
 * in bounded chunks; texts from the lowest rank that has each id, sent by
 * those ranks alone, so that rank 0 holds O(sites) whatever the number of
 * ranks (cold). */
#include <float.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "branch.h"
#include "buf.h"
#include "gather.h"
#include "sites.h"

enum { CALLS, RANKS, SENT, RECV, NSUMS };

struct chunk {
    uint64_t sums[NSUMS][PROF_SITES_CHUNK];
    double t[PROF_SITES_CHUNK];
    struct { double t; int rank; } tmin[PROF_SITES_CHUNK], tmax[PROF_SITES_CHUNK];
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
        in->tmin[i].t = DBL_MAX;
        in->tmax[i].t = -1;
        in->tmin[i].rank = in->tmax[i].rank = rank;
        in->fn[i] = -1;
        in->owner[i] = INT_MAX;
        if (!b)
            continue;
        double t = b->s.ticks * sec_per_tick;
        in->sums[CALLS][i] = b->s.calls;
        in->sums[RANKS][i] = 1;
        in->sums[SENT][i] = b->s.bytes_sent;
        in->sums[RECV][i] = b->s.bytes_recv;
        in->t[i] = in->tmin[i].t = in->tmax[i].t = t;
        in->fn[i] = (int)b->fn;
        in->owner[i] = rank;
    }
    for (int k = 0; k < NSUMS; k++)
        PMPI_Reduce(in->sums[k], res->sums[k], len, MPI_UINT64_T, MPI_SUM, 0, comm);
    PMPI_Reduce(in->t, res->t, len, MPI_DOUBLE, MPI_SUM, 0, comm);
    PMPI_Reduce(in->tmin, res->tmin, len, MPI_DOUBLE_INT, MPI_MINLOC, 0, comm);
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
        s->min_s = res->tmin[i].t;
        s->min_rank = res->tmin[i].rank;
        s->max_s = res->tmax[i].t;
        s->max_rank = res->tmax[i].rank;
        owner[lo + i] = res->owner[i];
    }
}

enum { TAG_LEN = 1, TAG_TEXT };

/* This rank's "site\0ancestors\0" for every id it is the owner of, in id
 * order, to rank 0: the length, then the text in bounded chunks. */
static int send_texts(MPI_Comm comm, int rank, int nid, const struct prof_branch *const *by_id, const int *owner)
{
    struct prof_buf b = { 0 };
    for (int i = 0; i < nid; i++)
        if (owner[i] == rank)
            prof_buf_printf(&b, "%s%c%s%c", by_id[i]->site, 0, by_id[i]->ancestors, 0);
    int failed = b.failed;
    uint64_t len = failed ? 0 : b.len;
    PMPI_Send(&len, 1, MPI_UINT64_T, 0, TAG_LEN, comm);
    for (uint64_t off = 0; off < len; off += PROF_GATHER_CHUNK)
        PMPI_Send(b.p + off, (int)(len - off < PROF_GATHER_CHUNK ? len - off : PROF_GATHER_CHUNK), MPI_CHAR, 0,
                  TAG_TEXT, comm);
    prof_buf_free(&b);
    return failed ? -1 : 0;
}

/* Rank 0: owner r's texts into its sites; -1 when they are missing. */
static int recv_texts(MPI_Comm comm, int r, int nid, const int *owner, struct prof_site *sites)
{
    static char scratch[PROF_GATHER_CHUNK];
    uint64_t len;
    PMPI_Recv(&len, 1, MPI_UINT64_T, r, TAG_LEN, comm, MPI_STATUS_IGNORE);
    char *all = malloc(len + 1);
    for (uint64_t off = 0; off < len; off += PROF_GATHER_CHUNK)
        PMPI_Recv(all ? all + off : scratch, (int)(len - off < PROF_GATHER_CHUNK ? len - off : PROF_GATHER_CHUNK),
                  MPI_CHAR, r, TAG_TEXT, comm, MPI_STATUS_IGNORE);
    int rc = all && len ? 0 : -1;
    const char *p = all;
    for (int i = 0; rc == 0 && i < nid; i++)
        if (owner[i] == r) {
            sites[i].site = strdup(p);
            p += strlen(p) + 1;
            sites[i].ancestors = strdup(p);
            p += strlen(p) + 1;
        }
    free(all);
    return rc;
}

/* Texts of the sites: rank 0's own, and from each other rank that is the
 * lowest to have some id (learnt from a broadcast), one rank at a time, so
 * that rank 0 holds one rank's texts at once and exchanges with those
 * ranks only. */
static int gather_texts(MPI_Comm comm, int rank, int nid, const struct prof_branch *const *by_id, int *owner,
                        struct prof_site *sites)
{
    PMPI_Bcast(owner, nid, MPI_INT, 0, comm);
    int mine = 0, failed = 0, any;
    for (int i = 0; i < nid && !mine; i++)
        mine = owner[i] == rank;
    if (rank != 0 && mine)
        failed = send_texts(comm, rank, nid, by_id, owner) != 0;
    for (int i = 0; rank == 0 && i < nid; i++) {
        if (owner[i] == 0) {
            sites[i].site = strdup(by_id[i]->site);
            sites[i].ancestors = strdup(by_id[i]->ancestors);
        } else if (owner[i] != INT_MAX && !sites[i].site) {
            failed |= recv_texts(comm, owner[i], nid, owner, sites) != 0;
        }
        if (owner[i] != INT_MAX && !sites[i].site)
            sites[i].site = strdup("-");
        if (owner[i] != INT_MAX && !sites[i].ancestors)
            sites[i].ancestors = strdup("-");
    }
    PMPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, comm);
    return any ? -1 : 0;
}

int prof_sites_reduce(MPI_Comm comm, const struct prof_branch *br, int nbr, double sec_per_tick,
                      struct prof_site **out, int *n)
{
    int rank, maxid = 0, nid;
    PMPI_Comm_rank(comm, &rank);
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
        any = gather_texts(comm, rank, nid, by_id, owner, sites) != 0;
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
