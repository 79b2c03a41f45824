/* region.h: MPI_Pcontrol. Level 0 stops collecting and 1 resumes (mpiP's
 * and IPM's convention); 2 "name" opens a named region inside the regions
 * open and -2 "name" closes it. A region is a path of names ("solve",
 * "solve/halo"), a node of this process's region tree; every call is
 * recorded in the innermost region open when it ends (its record's region,
 * table.h), so a call counts in exactly one path and in the total.
 * Process-wide state: a Pcontrol on any thread opens or closes for all.
 * MPIPROF_REGIONS=off ignores every level. Cold, except prof_region_now. */
#ifndef PROF_REGION_H
#define PROF_REGION_H

#include <stdint.h>

#define PROF_REGIONS_MAX 256     /* distinct paths a process keeps (node ids 1..) */
#define PROF_REGION_DEPTH 32     /* regions open at once */
#define PROF_REGION_NAME 64      /* bytes of a name kept (longer ones are cut) */
#define PROF_REGION_PATH (PROF_REGION_DEPTH * PROF_REGION_NAME)

/* The node of the innermost open region, 0 when none (hot: read at the end
 * of every profiled call). */
extern uint32_t prof_region;

static inline uint32_t prof_region_now(void)
{
    return __atomic_load_n(&prof_region, __ATOMIC_RELAXED);
}

/* A region path of this process. */
struct prof_region_node {
    uint32_t parent;             /* 0: opened outside any region */
    char name[PROF_REGION_NAME];
    uint64_t entries;            /* times opened */
    uint64_t ticks;              /* time open (closed at MPI_Finalize if still open) */
    uint64_t opened;             /* clock when it was last opened, while open */
};

/* What went wrong with this process's MPI_Pcontrol calls (the report's notes). */
struct prof_region_trouble {
    uint64_t stray_closes;       /* -2 naming no open region */
    uint64_t crossed;            /* -2 naming an outer region: the inner ones closed with it */
    uint64_t left_open;          /* still open at MPI_Finalize */
    uint64_t too_many;           /* opened beyond PROF_REGIONS_MAX paths or PROF_REGION_DEPTH */
    uint64_t no_name;            /* 2 or -2 with a NULL or empty name */
};

/* prof_pcontrol_before, prof_pcontrol_after: the profiler's side of
 * MPI_Pcontrol(level, name), around the call's own record (C and Fortran
 * entries; name is NULL for levels other than 2 and -2, namelen its length).
 * Resuming and opening happen before, stopping and closing after: a Pcontrol
 * call counts inside what it opens or closes, and is counted when it stops
 * or resumes collecting. */
void prof_pcontrol_before(int level, const char *name, size_t namelen);
void prof_pcontrol_after(int level, const char *name, size_t namelen);

/* prof_regions_finish: at MPI_Finalize, close what is open at t_end; the
 * number of nodes (ids 1..n). */
int prof_regions_finish(uint64_t t_end, struct prof_region_trouble *trouble);

/* prof_regions_peek: a copy of the nodes 0..n (n returned) into out
 * (PROF_REGIONS_MAX + 1 of them), the regions open counted as if closed at
 * now; nothing changes (snapshot.c). */
int prof_regions_peek(uint64_t now, struct prof_region_node *out);

/* prof_region_get: node id (1..n; 0: the array, for rd->region_nodes). prof_region_path: its path, names
 * joined by '/', into out. */
const struct prof_region_node *prof_region_get(uint32_t id);
void prof_region_path(uint32_t id, char *out, size_t size);

#endif
