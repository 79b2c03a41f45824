/* sites.h: one figure per call site (branch id) across ranks, combined by
 * reductions over the tool communicator for sites.txt (cold: finalize). */
#ifndef PROF_SITES_H
#define PROF_SITES_H

#include <stdint.h>
#include <mpi.h>

struct prof_branch;

/* One call site over all ranks that called it. */
struct prof_site {
    int id;                     /* branch id, 1.. */
    int fn;
    int ranks;                  /* ranks that called it */
    int min_rank, max_rank;     /* the lowest rank with the least, and with the most time there */
    uint64_t calls, bytes_sent, bytes_recv;
    double time_s, min_s, max_s; /* sum, least and most over those ranks */
    char *site, *ancestors;     /* from the lowest rank that has the id */
};

/* prof_sites_reduce: collective over comm. Combines every rank's branches
 * (ids 1..max over all ranks, each rank's ids distinct) with reductions in
 * chunks of PROF_SITES_CHUNK ids, and the site texts rank 0 lacks from
 * the lowest rank that has each, one message per such rank; on rank 0
 * *out gets the sites sorted by total time (most first) and *n their
 * number; elsewhere *out = NULL, *n = 0. Rank 0 holds O(sites), never
 * O(ranks) nor O(ranks x sites). Returns 0, or -1 when out of memory
 * (on any rank; then *out = NULL everywhere). */
#define PROF_SITES_CHUNK 4096
int prof_sites_reduce(MPI_Comm comm, const struct prof_branch *br, int nbr, double sec_per_tick,
                      struct prof_site **out, int *n);

void prof_sites_free(struct prof_site *s, int n);

#endif
