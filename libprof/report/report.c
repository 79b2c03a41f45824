/* report.c: the report directory and its files (cold: finalize). Rank 0
 * chooses a directory that does not exist yet; then every rank writes its
 * rows with MPI-IO (collective.c), rank 0 each file's header first, or rank
 * 0 writes the headers and pulls the rows of every rank (gather.c); in the
 * summary form, rank 0 writes the files of figures over the ranks alone. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "agree.h"
#include "clock.h"
#include "collective.h"
#include "config.h"
#include "gather.h"
#include "log.h"
#include "module.h"
#include "region.h"
#include "report.h"
#include "run.h"

static const struct prof_writer *const writers[] = {
    &prof_report_summary, &prof_report_functions,
    &prof_report_matrix_time, &prof_report_matrix_calls, &prof_report_matrix_bytes,
    &prof_report_branches, &prof_report_partners, &prof_report_branches_human,
    &prof_report_threads, &prof_report_sites,
    &prof_report_sizes, &prof_report_regions, &prof_report_region_functions, &prof_report_region_branches,
};
#define NWRITERS ((int)(sizeof writers / sizeof writers[0]) + PROF_MODULES_MAX)
_Static_assert(NWRITERS <= PROF_COLLECTIVE_FILES && NWRITERS <= PROF_GATHER_FILES, "too many report files");

void prof_report_column_line(struct prof_buf *b, const char *const *names, int n)
{
    prof_buf_printf(b, "#");
    for (int i = 0; i < n; i++)
        prof_buf_printf(b, " %s", names[i]);
    prof_buf_printf(b, "\n");
}

void prof_report_columns(struct prof_buf *b, const struct prof_report_ctx *ctx, const struct prof_writer *w)
{
    if (w->columns)
        w->columns(b, ctx);
    else
        prof_report_column_line(b, w->names, w->nnames);
}

void prof_report_model_line(struct prof_buf *b, const struct prof_report_ctx *ctx)
{
    if (ctx->model)
        prof_buf_printf(b, "# model: %s real_elapsed_s=%.9f model_elapsed_s=%.9f predicted_speedup=%.3f\n",
                        ctx->model_text, ctx->real_max, ctx->model_max,
                        ctx->model_max > 0 ? ctx->real_max / ctx->model_max : 0.0);
}

void prof_report_word(struct prof_buf *b, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c <= ' ' || c == '\\' || c == 0x7f)
            prof_buf_printf(b, "\\x%02x", c);
        else
            prof_buf_printf(b, "%c", c);
    }
}

void prof_report_region(struct prof_buf *b, uint32_t id)
{
    char path[PROF_REGION_PATH];
    prof_region_path(id, path, sizeof path);
    prof_report_word(b, id ? path : "whole");
}

void prof_report_row_end(struct prof_buf *b, uint32_t region)
{
    if (region) {
        prof_buf_printf(b, " ");
        prof_report_region(b, region);
    }
    prof_buf_printf(b, "\n");
}

static const struct prof_stats *sort_fn;

static int by_time(const void *a, const void *b)
{
    const struct prof_stats *x = &sort_fn[*(const int *)a], *y = &sort_fn[*(const int *)b];
    if (x->ticks != y->ticks)
        return x->ticks < y->ticks ? 1 : -1;
    return *(const int *)a - *(const int *)b;
}

int prof_report_fn_order(const struct prof_stats *fn, int order[PROF_FN_COUNT])
{
    int n = 0;
    for (int f = 0; f < PROF_FN_COUNT; f++)
        if (fn[f].calls)
            order[n++] = f;
    sort_fn = fn;
    qsort(order, (size_t)n, sizeof order[0], by_time);
    return n;
}

/* mkdir -p for the parents of path; the last component is left to the caller. */
static int make_parents(const char *path)
{
    char p[4096];
    snprintf(p, sizeof p, "%s", path);
    for (char *s = strchr(p + 1, '/'); s; s = strchr(s + 1, '/')) {
        *s = '\0';
        if (mkdir(p, 0777) != 0 && errno != EEXIST)
            return -1;
        *s = '/';
    }
    return 0;
}

/* Rank 0: where the report goes when the directory asked for cannot be
 * made (prof_report_probe), and the one asked for. */
static char moved_to[4096], asked[4096];

void prof_report_base(char *out, size_t size)
{
    if (moved_to[0])
        snprintf(out, size, "%s", moved_to);
    else if (prof_config.output[0])
        snprintf(out, size, "%s", prof_config.output);
    else
        snprintf(out, size, "mpiprof.%s.%dp", prof_run.app, prof_run.size);
    for (size_t n = strlen(out); n > 1 && out[n - 1] == '/'; n--)
        out[n - 1] = '\0';
}

/* Why no report directory base can be made (an errno), or 0: its parents
 * made, base made and taken away again, as MPI_Finalize will (access()
 * says yes to root where mkdir says no, as in /sys). */
static int unusable(const char *base)
{
    char parent[4096];
    if (make_parents(base) != 0)
        return errno;
    snprintf(parent, sizeof parent, "%s", base);
    char *slash = strrchr(parent, '/');
    if (!slash)
        snprintf(parent, sizeof parent, ".");
    else
        slash[slash == parent] = '\0';
    struct stat st;
    int err = stat(parent, &st) != 0 ? errno : !S_ISDIR(st.st_mode) ? ENOTDIR : 0;
    if (!err && mkdir(base, 0777) == 0)
        rmdir(base);
    else if (!err && errno != EEXIST)
        err = errno;
    return err;
}

/* $TMPDIR, else /tmp. */
static const char *tmp_dir(void)
{
    const char *tmp = getenv("TMPDIR");
    return tmp && *tmp ? tmp : "/tmp";
}

/* The place for a report that cannot go to base: the default name in the
 * working directory, else in tmp_dir, the first that can be made, into
 * out; 0, or -1 when none can. */
static int fallback(const char *base, char *out, size_t size)
{
    for (int k = 0; k < 2; k++) {
        snprintf(out, size, "%s%smpiprof.%s.%dp", k ? tmp_dir() : "", k ? "/" : "", prof_run.app, prof_run.size);
        if (strcmp(out, base) != 0 && unusable(out) == 0)
            return 0;
    }
    return -1;
}

int prof_report_probe(void)
{
    char base[4096], alt[4096];
    prof_report_base(base, sizeof base);
    int err = unusable(base);
    if (!err)
        return 0;
    if (fallback(base, alt, sizeof alt) == 0) {
        prof_log_once("cannot create the report directory '%s': %s; the report goes to '%s' instead", base,
                      strerror(err), alt);
        snprintf(asked, sizeof asked, "%s", base);
        snprintf(moved_to, sizeof moved_to, "%s", alt);
        return 0;
    }
    prof_log_once("cannot create the report directory '%s': %s, nor one in the working directory or in %s; "
                  "the report will be lost unless that changes before MPI_Finalize", base, strerror(err), tmp_dir());
    return -1;
}

static int make(const char *name, const void *unused)
{
    (void)unused;
    return mkdir(name, 0777);
}

/* Renaming onto an empty directory replaces it; onto a report or a file fails. */
static int move_to(const char *name, const void *from)
{
    return rename((const char *)from, name);
}

/* The first of base, base.1, base.2, ... that take(name) does not find
 * taken (errno EEXIST; renaming, also ENOTEMPTY or ENOTDIR: a report or a
 * file there), into out; 0, or -1 (errno from take, or EEXIST when 9999
 * variants are taken). */
static int first_free(const char *base, char *out, size_t outsz, int (*take)(const char *name, const void *arg),
                      const void *arg)
{
    int renaming = take == move_to;
    for (int i = 0; i < 10000; i++) {
        if (i == 0)
            snprintf(out, outsz, "%s", base);
        else
            snprintf(out, outsz, "%s.%d", base, i);
        if (take(out, arg) == 0)
            return 0;
        if (errno != EEXIST && !(renaming && (errno == ENOTEMPTY || errno == ENOTDIR)))
            return -1;
    }
    errno = EEXIST;
    return -1;
}

int prof_report_make_dir(const char *given, char *out, size_t outsz)
{
    char base[4096];
    snprintf(base, sizeof base, "%s", given);
    for (size_t n = strlen(base); n > 1 && base[n - 1] == '/'; n--)
        base[n - 1] = '\0';
    if (make_parents(base) != 0 || first_free(base, out, outsz, make, NULL) != 0)
        return -1;
    return 0;
}

/* Rank 0: the directory the report is written in, base's name with
 * ".writing-PID" (renamed to base by publish, once complete), into dir.
 * Returns 0, or -1 with why it failed in why. */
static int make_dir(const char *base, char *dir, size_t dirsz, char *why, size_t whysz)
{
    snprintf(dir, dirsz, "%s.writing-%ld", base, (long)getpid());
    if (make_parents(base) != 0) {
        snprintf(why, whysz, "cannot create the parent directories of '%s': %s", base, strerror(errno));
        return -1;
    }
    if (mkdir(dir, 0777) != 0) {
        snprintf(why, whysz, "cannot create the report directory '%s': %s", base, strerror(errno));
        return -1;
    }
    return 0;
}

/* A file's first lines: the report's first line, its notes, note (a
 * "# note: ...\n" line of this writing, or ""), the file's column line. */
static void head(struct prof_buf *b, const struct prof_report_ctx *ctx, const struct prof_writer *w,
                 const char *note)
{
    prof_buf_printf(b, "%s\n%s%s", ctx->first_line, ctx->notes, note);
    prof_report_columns(b, ctx, w);
}

/* Rank 0: the files in dir, with their first lines. Returns 0, or -1 with
 * why it failed in why. */
static int open_files(const struct prof_report_ctx *ctx, const char *dir, const struct prof_writer *const *use,
                      int n, const char *note, FILE **files, char *why, size_t whysz)
{
    for (int k = 0; k < n; k++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", dir, use[k]->file);
        files[k] = fopen(path, "w");
        if (!files[k]) {
            snprintf(why, whysz, "cannot write '%s': %s", path, strerror(errno));
            while (k--)
                fclose(files[k]);
            return -1;
        }
        struct prof_buf b = { 0 };
        head(&b, ctx, use[k], note);
        fwrite(b.p, 1, b.len, files[k]);
        prof_buf_free(&b);
    }
    return 0;
}

/* Rank 0: make_dir at base and, unless files is NULL, open_files there. */
static int make_report(const struct prof_report_ctx *ctx, const char *base, char *dir, size_t dirsz,
                       const struct prof_writer *const *use, int n, FILE **files, char *why, size_t whysz)
{
    if (make_dir(base, dir, dirsz, why, whysz) != 0)
        return -1;
    return files ? open_files(ctx, dir, use, n, "", files, why, whysz) : 0;
}

/* The last line of summary.txt, written once every file is: the report is
 * complete. */
static int complete(const char *dir)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/summary.txt", dir);
    FILE *f = fopen(path, "a");
    if (!f)
        return -1;
    int rc = fputs("# complete\n", f) < 0;
    return fclose(f) | rc ? -1 : 0;
}

/* Rank 0: make_report at base, else at the fallback (base then names it). */
static int open_report(const struct prof_report_ctx *ctx, const char **base, char *dir, size_t dirsz,
                       const struct prof_writer *const *use, int n, FILE **files)
{
    char why[4400], also[4400], alt[4096];
    if (make_report(ctx, *base, dir, dirsz, use, n, files, why, sizeof why) == 0)
        return 0;
    if (fallback(*base, alt, sizeof alt) != 0 ||
        make_report(ctx, alt, dir, dirsz, use, n, files, also, sizeof also) != 0) {
        prof_log_once("%s; no report written", why);
        return -1;
    }
    prof_log_once("%s; the report goes to '%s' instead", why, alt);
    snprintf(asked, sizeof asked, "%s", *base);
    snprintf(moved_to, sizeof moved_to, "%s", alt);
    *base = moved_to;
    return 0;
}

/* Whether some node runs more ranks than it has processors online
 * (collective over comm; prof_run.oversubscribed, nodes.c). There the
 * MPI's collectives poll, each of their rounds a turn of every rank on the
 * cores, and MPI-IO's opens and writes take seconds where the pull, whose
 * ranks sleep while they wait (wait.h), takes tenths (mpiprof(1), MEMORY
 * AND SCALE). */
static int oversubscribed(MPI_Comm comm)
{
    int any = 0;
    PMPI_Allreduce(&prof_run.oversubscribed, &any, 1, MPI_INT, MPI_MAX, comm);
    return any;
}

/* An option's value when every rank has the same, else its auto (said
 * once when they differ). Collective. */
static int agreed(int value, int automatic, const char *name)
{
    double v = value;
    int same = prof_agree(&v, 1, NULL);
    if (same == 0)
        prof_log_once("MPIPROF_%s is not the same on every rank; using auto", name);
    return same == 1 ? value : automatic;
}

/* Whether the rows go through MPI-IO (collective.c) rather than to rank 0
 * (gather.c): MPIPROF_REPORT_WRITE, the same on every rank (else auto,
 * said once); auto: from PROF_REPORT_COLLECTIVE_RANKS ranks on, on nodes
 * that are not oversubscribed. Collective. */
static int use_mpiio(MPI_Comm comm, int nranks)
{
    int how = agreed(prof_config.report_write, PROF_WRITE_AUTO, "REPORT_WRITE");
    if (how == PROF_WRITE_AUTO)
        return nranks >= PROF_REPORT_COLLECTIVE_RANKS && !oversubscribed(comm);
    return how == PROF_WRITE_COLLECTIVE;
}

int prof_report_summary_form(int nranks)
{
    return nranks >= agreed(prof_config.report_form, PROF_REPORT_SUMMARY_RANKS, "REPORT_FORM");
}

/* The files of this report: the per-rank form's (the writers that this
 * run wants, then the modules'), or the summary form's (its summary.txt
 * and functions.txt, then the merged ones); returns how many. */
static int choose_writers(const struct prof_report_ctx *ctx, const struct prof_writer **use)
{
    int n = 0;
    if (ctx->summary) {
        use[n++] = &prof_report_summary_spread;
        use[n++] = &prof_report_functions_spread;
    }
    for (size_t k = 0; k < sizeof writers / sizeof writers[0]; k++)
        if ((!writers[k]->wanted || writers[k]->wanted(ctx)) && (!ctx->summary || writers[k]->merged))
            use[n++] = writers[k];
    for (int m = 0; prof_modules[m] && m < PROF_MODULES_MAX; m++) {
        const struct prof_writer *w = prof_modules[m]->writer;
        if (prof_module_written(m) && w && (!w->wanted || w->wanted(ctx)) && (!ctx->summary || w->merged))
            use[n++] = w;
    }
    return n;
}

/* Collective: every rank's texts into the files of dir with MPI-IO, rank
 * 0's first lines first. When MPI-IO fails, rank 0 opens the files again
 * (files), their notes saying why, and pulls the rows (gather.c); times
 * says which was done. 0, -1 when a write failed on rank 0, -2 on every
 * rank when rank 0 could not open the files either (said). */
static int write_mpiio(MPI_Comm comm, const struct prof_report_ctx *ctx, const struct prof_writer *const *use,
                       int n, const struct prof_buf *texts, const char *dir, FILE **files,
                       struct prof_finalize_times *times)
{
    struct prof_buf heads[NWRITERS];
    const char *names[NWRITERS];
    char why[1024] = "", note[1200], also[4400];
    int rank, ok = 1;
    PMPI_Comm_rank(comm, &rank);
    memset(heads, 0, sizeof heads);
    for (int k = 0; k < n; k++) {
        names[k] = use[k]->file;
        if (rank == 0)
            head(&heads[k], ctx, use[k], "");
    }
    times->how = PROF_WROTE_MPIIO;
    int rc = prof_collective_write(comm, dir, names, rank == 0 ? heads : NULL, texts, n, why, (int)sizeof why,
                                   &times->open_ns);
    for (int k = 0; k < n; k++)
        prof_buf_free(&heads[k]);
    if (rc == 0)
        return 0;
    times->how = PROF_WROTE_MPIIO_FAILED;
    if (rank == 0) {
        snprintf(note, sizeof note, "# note: %s; rank 0 wrote the files, receiving each rank's rows in turn\n", why);
        prof_log_once("%s; rank 0 writes the report's files itself", why);
        ok = open_files(ctx, dir, use, n, note, files, also, sizeof also) == 0;
        if (!ok)
            prof_log_once("%s; no report written", also);
    }
    PMPI_Bcast(&ok, 1, MPI_INT, 0, comm);
    return ok ? prof_gather_write(comm, texts, n, files) : -2;
}

/* The message's words for how the rows were written, and their times. */
static void transfer_words(char *out, size_t size, const struct prof_finalize_times *times)
{
    if (times->how == PROF_WROTE_PULL)
        snprintf(out, size, "gather %.2f", times->gather_ns * 1e-9);
    else if (times->how == PROF_WROTE_SUMMARY)
        snprintf(out, size, "summary form: reduce %.2f", times->gather_ns * 1e-9);
    else if (times->how == PROF_WROTE_MPIIO)
        snprintf(out, size, "MPI-IO open %.2f, write_at_all %.2f", times->open_ns * 1e-9, times->gather_ns * 1e-9);
    else
        snprintf(out, size, "MPI-IO open %.2f (failed), gather %.2f", times->open_ns * 1e-9, times->gather_ns * 1e-9);
}

int prof_report_write(MPI_Comm comm, const struct prof_report_ctx *ctx,
                      const struct prof_rank_data *rd, const char *base, struct prof_finalize_times *times)
{
    uint64_t t0 = prof_clock_mono_ns();
    FILE *files[NWRITERS] = { 0 };
    const struct prof_writer *use[NWRITERS];
    char dir[4096] = "";
    int ok = 1, n = choose_writers(ctx, use);
    int mpiio = !ctx->summary && use_mpiio(comm, ctx->nranks);
    if (rd->rank == 0)
        ok = open_report(ctx, &base, dir, sizeof dir, use, n, mpiio ? NULL : files) == 0;
    PMPI_Bcast(&ok, 1, MPI_INT, 0, comm);
    if (!ok)
        return -1;
    if (mpiio)
        PMPI_Bcast(dir, sizeof dir, MPI_CHAR, 0, comm);

    struct prof_buf texts[NWRITERS];
    memset(texts, 0, sizeof texts);
    for (int k = 0; k < n; k++)
        use[k]->rows(&texts[k], ctx, rd);
    int failed = 0;
    for (int k = 0; k < n; k++)
        failed |= texts[k].failed;
    if (failed)
        prof_log_local("out of memory while formatting the report; its rows for this rank are incomplete");

    uint64_t t1 = prof_clock_mono_ns();
    int rc = 0;
    if (ctx->summary)           /* the rows are rank 0's: nothing to transfer (spread.c reduced them) */
        rc = rd->rank == 0 ? prof_gather_own(texts, n, files) : 0;
    else if (mpiio)
        rc = write_mpiio(comm, ctx, use, n, texts, dir, files, times);
    else
        rc = prof_gather_write(comm, texts, n, files);
    uint64_t t2 = prof_clock_mono_ns();
    for (int k = 0; k < n; k++)
        prof_buf_free(&texts[k]);
    if (rd->rank != 0 || rc == -2)
        return rc == -2 ? -1 : 0;
    for (int k = 0; k < n; k++)
        rc |= files[k] ? fclose(files[k]) : 0;
    if (rc != 0 || complete(dir) != 0) {
        prof_log_once("writing the report in '%s' failed (disk full?); it is incomplete", dir);
        return -1;
    }
    char done[4200];
    if (first_free(base, done, sizeof done, move_to, dir) != 0) {
        prof_log_once("cannot name the report '%s' (%s); it stays in '%s'", base, strerror(errno), dir);
        return -1;
    }
    uint64_t t3 = prof_clock_mono_ns();
    if (!ctx->summary)
        times->gather_ns = t2 - t1 - times->open_ns;
    times->write_ns = (t1 - t0) + (t3 - t2);
    char words[128];
    transfer_words(words, sizeof words, times);
    if (asked[0])
        prof_log_once("report written to %s, as '%s' could not be made", done, asked);
    else if (!prof_config.quiet)
        prof_log_once("report written to %s (%d rank%s, %.2f s at MPI_Finalize: merge %.2f, symbolize %.2f, "
                      "%s, write %.2f)", done, ctx->nranks, ctx->nranks == 1 ? "" : "s",
                      (t3 - times->t_begin) * 1e-9, times->merge_ns * 1e-9, times->symbolize_ns * 1e-9, words,
                      times->write_ns * 1e-9);
    return 0;
}
