/* snapshot.c: the snapshots of MPIPROF_SNAPSHOT and the partial report of
 * MPIPROF_PARTIAL (cold: one every interval, at MPI_Abort, at an exit
 * without MPI_Finalize; the hot path only compares the clock, snapshot.h).
 *
 * A snapshot is one text file per rank: a line "# mpiprof-snapshot rank=R
 * ranks=N elapsed_s=E why=WHY", the report's first line, then for each table of
 * the report that one rank can write alone a line "@ FILE" and that file's
 * column line and rows for this rank, exactly as MPI_Finalize writes them,
 * with this rank's own branch ids; last "@ keys" and one line "id key" per
 * branch, the key that numbers branches over the job (branch.h), so that
 * mpiprof-merge can give every branch its job-wide id. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "agree.h"
#include "branch.h"
#include "clock.h"
#include "config.h"
#include "due.h"
#include "log.h"
#include "module.h"
#include "prof.h"
#include "report.h"
#include "run.h"
#include "snapshot.h"

static struct {
    double seconds;          /* the interval, 0: none */
    int partial;             /* MPIPROF_PARTIAL */
    char dir[4200];          /* DIR.partial/snapshots */
    int failed;              /* a snapshot could not be written: said once */
} snap;

/* The tables a rank writes alone, then the files of the modules that
 * started and go in snapshots (module.h); matrix.*, sites.txt (over the
 * ranks), branches.human, model.txt, rma.txt and io.txt are not in them. */
static const struct prof_writer *const tables[] = {
    &prof_report_summary, &prof_report_functions, &prof_report_branches, &prof_report_partners,
    &prof_report_threads, &prof_report_sizes, &prof_report_regions,
};

static void take(uint64_t now);

static void next_due(void)
{
    uint64_t ticks = (uint64_t)(snap.seconds / prof_clock_stop());
    __atomic_store_n(&prof_due, prof_clock() + ticks, __ATOMIC_RELAXED);
}

void prof_partial_abort(int errorcode)
{
    char why[128];
    snprintf(why, sizeof why, "MPI_Abort with error code %d on rank %d", errorcode, prof_run.rank);
    if (prof_run.started && !prof_run.finished)
        prof_partial_write(why);
}

/* dir's snapshots, snapshots/, PARTIAL, and dir itself. */
static void clean_dir(const char *dir)
{
    char sub[4200], path[4500];
    snprintf(sub, sizeof sub, "%s/snapshots", dir);
    DIR *d = opendir(sub);
    for (struct dirent *e; d && (e = readdir(d));)
        if (strncmp(e->d_name, "rank.", 5) == 0 || strncmp(e->d_name, ".rank.", 6) == 0) {
            snprintf(path, sizeof path, "%s/%s", sub, e->d_name);
            unlink(path);
        }
    if (d)
        closedir(d);
    rmdir(sub);
    snprintf(path, sizeof path, "%s/PARTIAL", dir);
    unlink(path);
    rmdir(dir);
}

/* Rank 0: DIR.partial, its snapshots/ and PARTIAL; its name in dir (empty
 * when it cannot be made: said once). */
static void make_partial_dir(char *dir, size_t size)
{
    char base[4096], path[4200];
    prof_report_base(base, sizeof base);
    dir[0] = '\0';
    if (prof_run.unwritable)         /* said already */
        return;
    snprintf(path, sizeof path, "%s.partial", base);
    if (prof_report_make_dir(path, dir, size) != 0) {
        prof_log_once("cannot create '%s': %s; no snapshots and no partial report", path, strerror(errno));
        dir[0] = '\0';
        return;
    }
    static struct prof_report_ctx ctx;
    prof_report_first_line(&ctx);
    snprintf(path, sizeof path, "%s/PARTIAL", dir);
    FILE *f = fopen(path, "w");
    if (f) {
        fprintf(f, "%s\n# A partial report: the job has not reached MPI_Finalize, which writes the report in\n"
                   "# %s and removes this directory. snapshots/rank.R: what rank R had at its last\n"
                   "# snapshot, at MPI_Abort or at its exit (the first line says which); a rank killed by\n"
                   "# a signal has none. 'mpiprof-merge %s' makes them the report's tables.\n",
                ctx.first_line, base, dir);
        fclose(f);
    }
    snprintf(path, sizeof path, "%s/snapshots", dir);
    if (!f || mkdir(path, 0777) != 0) {
        prof_log_once("cannot write in '%s': %s; no snapshots and no partial report", dir, strerror(errno));
        clean_dir(dir);
        dir[0] = '\0';
    }
}

void prof_partial_start(void)
{
    double v[2] = { prof_config.snapshot, prof_config.partial };
    int same = prof_agree(v, 2, NULL);
    if (same == 0)
        prof_log_once("MPIPROF_SNAPSHOT or MPIPROF_PARTIAL is not the same on every rank; no snapshots and no "
                      "partial report");
    if (same != 1 || (v[0] <= 0 && !v[1]))
        return;
    char dir[4096] = "";
    if (prof_run.rank == 0)
        make_partial_dir(dir, sizeof dir);
    PMPI_Bcast(dir, sizeof dir, MPI_CHAR, 0, prof_run.comm);
    if (!dir[0])
        return;
    snprintf(prof_run.partial_dir, sizeof prof_run.partial_dir, "%s", dir);
    snprintf(snap.dir, sizeof snap.dir, "%s/snapshots", dir);
    snap.partial = v[1] != 0;
    snap.seconds = v[0];
    if (snap.seconds > 0) {
        prof_due_fn = take;
        next_due();
    }
}

void prof_snapshot_stop(void)
{
    __atomic_store_n(&prof_due, UINT64_MAX, __ATOMIC_RELAXED);
}

/* This rank's figures so far, as MPI_Finalize gathers them (local). */
static void collect(struct prof_rank_data *rd, struct prof_branches *b, struct prof_region_node *nodes,
                    uint64_t now)
{
    memset(rd, 0, sizeof *rd);
    rd->rank = prof_run.rank;
    rd->sec_per_tick = prof_clock_stop();
    rd->elapsed_ticks = now - prof_run.t_init;
    rd->nregions = prof_regions_peek(now, nodes);
    rd->region_nodes = nodes;
    struct prof_thread *threads = prof_thread_hold();
    prof_merge_threads(rd, threads);
    int ok = prof_branches_collect(b, threads) == 0;
    prof_thread_release();
    if (ok && prof_branches_describe_local(b) == 0) {
        prof_branches_number_local(b);
        prof_branches_sort_time(b);
        rd->branches = b->v;
        rd->nbranches = b->n;
    }
}

static void table(struct prof_buf *out, const struct prof_writer *w, const struct prof_report_ctx *ctx,
                  const struct prof_rank_data *rd)
{
    prof_buf_printf(out, "@ %s\n", w->file);
    prof_report_columns(out, ctx, w);
    w->rows(out, ctx, rd);
}

static void format(struct prof_buf *out, const struct prof_rank_data *rd, const struct prof_branches *b,
                   const char *why)
{
    static struct prof_report_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.nranks = prof_run.size;
    ctx.threaded = rd->nthreads > 1;
    prof_modules_columns(&ctx);
    ctx.regions = rd->nregions > 0;
    prof_report_first_line(&ctx);
    prof_buf_printf(out, "# mpiprof-snapshot rank=%d ranks=%d elapsed_s=%.6f why=%s\n%s\n", rd->rank, prof_run.size,
                    rd->elapsed_ticks * rd->sec_per_tick, why, ctx.first_line);
    for (size_t k = 0; k < sizeof tables / sizeof tables[0]; k++)
        if (!tables[k]->wanted || tables[k]->wanted(&ctx))
            table(out, tables[k], &ctx, rd);
    for (int m = 0; prof_modules[m] && m < PROF_MODULES_MAX; m++)
        if (prof_module_on(m) && prof_modules[m]->in_snapshots &&
            (!prof_modules[m]->writer->wanted || prof_modules[m]->writer->wanted(&ctx)))
            table(out, prof_modules[m]->writer, &ctx, rd);
    prof_buf_printf(out, "@ keys\n");
    for (int i = 0; i < rd->nbranches; i++)
        prof_buf_printf(out, "%d %016llx\n", b->v[i].id, (unsigned long long)b->v[i].key);
}

/* text to dir/rank.R through a temporary name; 0 or -1 (errno set). */
static int write_atomically(const struct prof_buf *text)
{
    char tmp[4300], path[4300];
    snprintf(tmp, sizeof tmp, "%s/.rank.%d.tmp", snap.dir, prof_run.rank);
    snprintf(path, sizeof path, "%s/rank.%d", snap.dir, prof_run.rank);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return -1;
    int rc = fwrite(text->p, 1, text->len, f) == text->len ? 0 : -1;
    rc |= fclose(f);
    if (rc == 0)
        rc = rename(tmp, path);
    if (rc != 0)
        unlink(tmp);
    return rc;
}

static void write_snapshot(uint64_t now, const char *why)
{
    static struct prof_rank_data rd;
    static struct prof_region_node nodes[PROF_REGIONS_MAX + 1];
    struct prof_branches b = { 0 };
    struct prof_buf text = { 0 };
    collect(&rd, &b, nodes, now);
    format(&text, &rd, &b, why);
    if ((text.failed || rd.nbranches != b.n || write_atomically(&text) != 0) && !snap.failed++)
        prof_log_local("cannot write the snapshot in '%s': %s; later ones will be tried", snap.dir,
                       text.failed || rd.nbranches != b.n ? "out of memory" : strerror(errno));
    prof_buf_free(&text);
    prof_branches_free(&b);
    for (int f = 0; f < PROF_FN_COUNT; f++)
        free(rd.sizes[f]);
    free((void *)rd.threads);
    free((void *)rd.region_fn);
}

static void take(uint64_t now)
{
    uint64_t due = __atomic_load_n(&prof_due, __ATOMIC_RELAXED);
    /* One thread takes it; the others go on. */
    if (now < due || !__atomic_compare_exchange_n(&prof_due, &due, UINT64_MAX, 0, __ATOMIC_ACQUIRE,
                                                  __ATOMIC_RELAXED))
        return;
    write_snapshot(now, "snapshot");
    prof_profiler_add(prof_tl, now);     /* the profiler's time, not the program's */
    if (!prof_run.finished)
        next_due();
}

void prof_partial_write(const char *why)
{
    if (!snap.partial || !snap.dir[0])
        return;
    prof_snapshot_stop();
    write_snapshot(prof_clock(), why);
}

void prof_partial_clean(void)
{
    if (prof_run.partial_dir[0])
        clean_dir(prof_run.partial_dir);
}
