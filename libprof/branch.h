/* branch.h: call sites ("branches") at finalize: the threads' records
 * merged per (function, call stack), described as text, and numbered with
 * ids that are the same on every rank for the same call stack (cold). */
#ifndef PROF_BRANCH_H
#define PROF_BRANCH_H

#include <stdint.h>
#include <mpi.h>
#include "record.h"

struct prof_branch {
    uint64_t key;          /* hash of the function and each frame's module+offset */
    int id;                /* global branch id, 1.. (prof_branches_number) */
    uint32_t fn;
    struct prof_stats s;
    struct prof_partners partners;
    char *site;            /* the call site: "func@file:line" (see symbolize.h) */
    char *ancestors;       /* the callers, innermost first, ';'-separated; "-" if none */
    char *names;           /* the callers' function names, space-separated (branches.human) */
};

struct prof_branches {
    struct prof_branch *v;
    int n;
};

/* prof_branches_collect: merge every thread's call sites into b, one entry
 * per distinct (function, stack), symbolizing each distinct address once.
 * Returns 0, or -1 when out of memory (b is then empty). */
int prof_branches_collect(struct prof_branches *b);

/* prof_branches_number: collective over comm; set every branch's id to its
 * position (from 1) in the sorted union of all ranks' keys. Rank 0 holds
 * the union only: O(distinct branches), not O(ranks x branches). */
int prof_branches_number(MPI_Comm comm, struct prof_branches *b);

void prof_branches_free(struct prof_branches *b);

#endif
