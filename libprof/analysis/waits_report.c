/* waits_report.c: waits.txt (waits.h), at MPI_Finalize (cold): the
 * charges' call sites named (keyids.c), every rank's charges gathered at
 * rank 0 and merged per class and causing region, most waiting caused
 * first. Rank 0 holds the job's charges for the merge: O(ranks x causes
 * each rank saw). */
#include <stdlib.h>
#include <string.h>
#include "branch.h"
#include "eager.h"
#include "log.h"
#include "nodes.h"
#include "report.h"
#include "run.h"
#include "waits.h"

#define NAME(c) #c,
static const char *const class_name[] = { PROF_WAIT_CLASSES(NAME) };
static const char *const columns[] = { PROF_WAITS_COLUMNS(NAME) };
#undef NAME

void prof_waits_named(struct prof_wait_charge **v, int n, struct prof_branch *br, int nbr)
{
    int nq = 3 * n;
    int *rank = calloc((size_t)nq + 1, sizeof *rank);
    uint64_t *key = calloc((size_t)nq + 1, sizeof *key);
    int64_t *id = malloc(((size_t)nq + 1) * sizeof *id);
    int ok = rank && key && id;
    for (int i = 0; ok && i < n; i++) {
        rank[3 * i] = v[i]->waiter;
        key[3 * i] = v[i]->key;
        rank[3 * i + 1] = v[i]->cause_from ? v[i]->cause_rank : -1;    /* 0: MPI_Init */
        key[3 * i + 1] = v[i]->cause_from;
        rank[3 * i + 2] = v[i]->cause_rank;
        key[3 * i + 2] = v[i]->cause_to;
    }
    if (prof_branch_ids_ask(prof_run.comm, br, nbr, ok ? nq : 0, rank, key, id) != 0 || !ok) {
        prof_log_once("out of memory while naming the causes of waits; waits.txt shows them as -1");
        ok = 0;
    }
    for (int i = 0; ok && i < n; i++) {
        v[i]->brid = (int32_t)id[3 * i];
        v[i]->from_id = v[i]->cause_from ? (id[3 * i + 1] ? (int32_t)id[3 * i + 1] : -1) : 0;
        v[i]->to_id = id[3 * i + 2] ? (int32_t)id[3 * i + 2] : -1;
    }
    free(rank);
    free(key);
    free(id);
}

/* One charge as it travels to rank 0, and one row of waits.txt. */
struct sent {
    int32_t cls, waiter, brid, rank, from, to;
    double s;
    uint64_t n;
};

struct row {
    int32_t cls, rank, from, to;
    double s;
    uint64_t n;
    int ranks;              /* distinct ranks that waited */
    char *at;               /* the sites they waited at: "brid,brid,..." */
};

static struct row *rows;
static int nrows;

static int by_cause(const void *a, const void *b)
{
    const struct sent *x = a, *y = b;
    int32_t kx[] = { x->cls, x->rank, x->from, x->to, x->brid, x->waiter };
    int32_t ky[] = { y->cls, y->rank, y->from, y->to, y->brid, y->waiter };
    for (int i = 0; i < 6; i++)
        if (kx[i] != ky[i])
            return kx[i] < ky[i] ? -1 : 1;
    return 0;
}

static int by_caused(const void *a, const void *b)
{
    const struct row *x = a, *y = b;
    if (x->cls != y->cls)
        return x->cls < y->cls ? -1 : 1;
    if (x->s != y->s)
        return x->s > y->s ? -1 : 1;
    int32_t kx[] = { x->rank, x->from, x->to }, ky[] = { y->rank, y->from, y->to };
    for (int i = 0; i < 3; i++)
        if (kx[i] != ky[i])
            return kx[i] < ky[i] ? -1 : 1;
    return 0;
}

/* Rank 0: the gathered charges (sorted by cause) merged into rows. */
static void merge(struct sent *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, by_cause);
    rows = calloc((size_t)n + 1, sizeof *rows);
    for (int i = 0; rows && i < n;) {
        int j = i;
        struct row *r = &rows[nrows++];
        *r = (struct row){ v[i].cls, v[i].rank, v[i].from, v[i].to, 0, 0, 0, NULL };
        struct prof_buf at = { 0 };
        int last_brid = -2;
        for (; j < n && v[j].cls == r->cls && v[j].rank == r->rank && v[j].from == r->from && v[j].to == r->to;
             j++) {
            r->s += v[j].s;
            r->n += v[j].n;
            if (v[j].brid != last_brid)
                prof_buf_printf(&at, "%s%d", last_brid == -2 ? "" : ",", v[j].brid);
            last_brid = v[j].brid;
        }
        for (int a = i; a < j; a++) {
            int seen = 0;
            for (int b = i; b < a && !seen; b++)
                seen = v[b].waiter == v[a].waiter;
            r->ranks += !seen;
        }
        r->at = at.p;
        i = j;
    }
    if (rows)
        qsort(rows, (size_t)nrows, sizeof *rows, by_caused);
}

int prof_waits_agree(struct prof_wait_charge **v, int n, double sec_per_tick)
{
    MPI_Comm comm = prof_run.comm;
    struct sent *mine = malloc(((size_t)n + 1) * sizeof *mine);
    int bytes = mine ? n * (int)sizeof *mine : 0;
    for (int i = 0; mine && i < n; i++)
        mine[i] = (struct sent){ v[i]->cls, v[i]->waiter, v[i]->brid, v[i]->cause_rank, v[i]->from_id, v[i]->to_id,
                                 (double)v[i]->ticks * sec_per_tick, v[i]->n };
    int *counts = NULL, *displs = NULL, total = 0;
    if (prof_run.rank == 0) {
        counts = calloc((size_t)prof_run.size, sizeof *counts);
        displs = calloc((size_t)prof_run.size, sizeof *displs);
    }
    PMPI_Gather(&bytes, 1, MPI_INT, counts, 1, MPI_INT, 0, comm);
    struct sent *in = NULL;
    if (prof_run.rank == 0 && counts && displs) {
        for (int r = 0; r < prof_run.size; r++) {
            displs[r] = total;
            total += counts[r];
        }
        in = malloc((size_t)total + 1);
    }
    int ok = prof_run.rank != 0 || in;
    PMPI_Bcast(&ok, 1, MPI_INT, 0, comm);
    if (ok)
        PMPI_Gatherv(mine, bytes, MPI_BYTE, in, counts, displs, MPI_BYTE, 0, comm);
    else if (prof_run.rank == 0)
        prof_log_once("out of memory while gathering the waits' causes; waits.txt lists none");
    if (prof_run.rank == 0 && ok) {
        prof_nodes_waits_on();
        for (int i = 0; i < total / (int)sizeof *in; i++)
            prof_nodes_waited(in[i].waiter, in[i].rank, in[i].s);
        merge(in, total / (int)sizeof *in);
    }
    free(in);
    free(counts);
    free(displs);
    free(mine);
    return 1;
}

/* The text of call site id (0: the program's start). */
static const char *site_of(const struct prof_rank_data *rd, int id)
{
    if (id == 0)
        return "MPI_Init";
    for (int i = 0; i < rd->nsites; i++)
        if (rd->sites[i].id == id)
            return rd->sites[i].site ? rd->sites[i].site : "-";
    return "-";
}

static void write_rows(struct prof_buf *b, const struct prof_report_ctx *ctx, const struct prof_rank_data *rd)
{
    (void)ctx;
    if (rd->rank != 0)
        return;
    for (int i = 0; i < nrows; i++) {
        const struct row *r = &rows[i];
        prof_buf_printf(b, "%s %.9f %llu %d %d %d %d %s ", class_name[r->cls], r->s, (unsigned long long)r->n,
                        r->ranks, r->rank, r->from, r->to, r->at ? r->at : "-");
        prof_report_word(b, site_of(rd, r->from));
        prof_buf_printf(b, " ");
        prof_report_word(b, site_of(rd, r->to));
        prof_buf_printf(b, "\n");
    }
}

/* The eager limits late receiver used (eager.h), then the columns. */
static void write_columns(struct prof_buf *b, const struct prof_report_ctx *ctx)
{
    char line[256];
    (void)ctx;
    prof_eager_line(line, sizeof line);
    prof_buf_printf(b, "%s", line);
    prof_report_column_line(b, columns, sizeof columns / sizeof columns[0]);
}

const struct prof_writer prof_report_waits = {
    .file = "waits.txt", .columns = write_columns, .rows = write_rows, .merged = 1
};
