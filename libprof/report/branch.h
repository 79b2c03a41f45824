/* branch.h: call sites ("branches") at finalize: the threads' records
 * merged per (function, call stack), named once per job, merged again per
 * printed call stack, and numbered with ids that are the same on every rank
 * for the same printed stack (cold). */
#ifndef PROF_BRANCH_H
#define PROF_BRANCH_H

#include <stdint.h>
#include <mpi.h>
#include "record.h"

struct prof_thread;
/* A branch's calls that ended in one MPI_Pcontrol region (region.h). */
struct prof_region_stats {
    uint32_t region;
    struct prof_stats s;
};

struct prof_branch {
    uint64_t key;          /* hash of the function and each frame's text (after describe) */
    int id;                /* global branch id, 1.. (prof_branches_number) */
    uint32_t fn;
    struct prof_stats s;
    struct prof_partners partners;
    void **frames;         /* this rank's return addresses, innermost first */
    uint32_t depth;        /* how many; 0 for an overflow record */
    uint32_t via;          /* 1: frames[0] is in a library that passes MPI calls through (via.h), and
                              the site is frames[1] */
    char *site;            /* the call site: "func@file:line" (see symbolize.h), through a library
                              "func@file:line(via_LIBFRAME)" */
    char *ancestors;       /* the callers, innermost first, ';'-separated; "-" if none */
    char *names;           /* the callers' function names, space-separated (branches.human) */
    uint64_t *rkeys;       /* the keys of the records merged here: late sender (tokens carry them), windows (rma.h) */
    int nrkeys;
    struct prof_region_stats *regions; /* s split by region, by node id; none outside regions */
    int nregions;
};

struct prof_branches {
    struct prof_branch *v;
    int n;
};

/* prof_branches_collect: merge the call sites of every thread on the list
 * threads (thread.h) into b, one entry per distinct (function, return
 * addresses); no names yet. Local. Returns 0, or -1 when out of memory (b
 * is then empty). */
int prof_branches_collect(struct prof_branches *b, struct prof_thread *threads);

/* prof_branches_describe: collective over comm; name every frame and merge
 * the branches whose stacks print the same. The distinct frames of all
 * ranks (module key + offset, symbolize.h) are united along a binomial
 * tree; each is named by the lowest rank that has it, and the names are
 * shared with every rank. Memory: O(distinct frames of the job) per rank.
 * *symbolize_ns gets the time spent naming and sharing names. Returns 0, or
 * -1 on every rank when some rank ran out of memory before the names were
 * shared, or on this rank alone after. */
int prof_branches_describe(MPI_Comm comm, struct prof_branches *b, uint64_t *symbolize_ns);

/* prof_branches_number: collective over comm; set every branch's id to its
 * position (from 1) in the sorted union of all ranks' keys. Rank 0 holds
 * the union only: O(distinct branches), not O(ranks x branches). A rank
 * with failed set takes part and makes every rank return -1. */
int prof_branches_number(MPI_Comm comm, struct prof_branches *b, int failed);

void prof_branches_free(struct prof_branches *b);

/* prof_branch_ids_ask: collective over comm (keyids.c): for each of nq
 * questions (rank[j] in comm, record key[j]), id[j] gets the id of the
 * branch of that rank that merged the key, among its branches v (n of
 * them; 0: none, or a rank outside comm). Returns 0, or -1 when some rank
 * ran out of memory (ids 0). */
int prof_branch_ids_ask(MPI_Comm comm, const struct prof_branch *v, int n, int nq, const int *rank,
                        const uint64_t *key, int64_t *id);

/* prof_branches_sort_time: the largest time first, equal times by id (the
 * order of branches.txt). */
void prof_branches_sort_time(struct prof_branches *b);

/* prof_branches_describe_local: as prof_branches_describe, on this rank
 * alone (snapshot.c): each frame named here, names kept for the next call,
 * so the keys are the ones prof_branches_describe gives. Returns 0 or -1
 * (out of memory, or no view of the modules). */
int prof_branches_describe_local(struct prof_branches *b);

/* prof_branches_number_local: ids 1..n in key order, this rank's only (the
 * snapshot's keys map them to the job's: tools/mpiprof-merge). */
void prof_branches_number_local(struct prof_branches *b);

#endif
