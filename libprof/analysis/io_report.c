/* io_report.c: io.txt, written when some rank opened a file (cold). Per
 * file (its id, the same on every rank, the size of the communicator that
 * opened it and its name, last): first, from the lowest rank that has it,
 * the job's line ("all ... total": calls and bytes of every rank, the
 * slowest rank's time, their bandwidth); then per rank the opens, closes,
 * syncs, seeks and views, the reads and writes per access family, and per
 * access size. */
#include <stdio.h>
#include "io.h"
#include "report.h"

#define NAME(c) #c,
static const char *const columns[] = { PROF_IO_COLUMNS(NAME) };

/* One row of the file f: who, what, calls, bytes, seconds, name. */
static void row(struct prof_buf *b, const char *who, const struct prof_io_file *f, const char *what,
                const char *what2, double calls, double bytes, double sec)
{
    prof_buf_printf(b, "%s %d %d %s%s%s %.0f %.0f %.9f %.3f ", who, f->id, f->procs, what, what2[0] ? "." : "",
                    what2, calls, bytes, sec, sec > 0 ? bytes / sec / 1e6 : 0.0);
    prof_report_word(b, f->name);
    prof_buf_printf(b, "\n");
}

static void tally_row(struct prof_buf *b, const char *who, const struct prof_io_file *f, const char *what,
                      const char *what2, const struct prof_tally *t, double sec_per_tick)
{
    if (t->calls || t->ticks)
        row(b, who, f, what, what2, (double)t->calls, (double)t->bytes, t->ticks * sec_per_tick);
}

static void file_rows(struct prof_buf *b, const struct prof_rank_data *rd, const struct prof_io_file *f)
{
    char who[16];
    snprintf(who, sizeof who, "%d", rd->rank);
    if (f->owner == rd->rank)
        row(b, "all", f, "total", "", f->job_calls, f->job_bytes, f->job_slowest * rd->sec_per_tick);
    for (int i = 0; i < PROF_IO_OPS; i++)
        tally_row(b, who, f, prof_io_op_name[i], "", &f->op[i], rd->sec_per_tick);
    for (int d = 0; d < 2; d++)
        for (int a = 0; a < PROF_IO_ACCESSES; a++)
            tally_row(b, who, f, prof_io_dir_name[d], prof_io_access_name[a], &f->rw[d][a], rd->sec_per_tick);
    for (int d = 0; d < 2; d++)
        for (int k = 0; k < PROF_IO_BINS; k++) {
            char size[32];
            snprintf(size, sizeof size, "size.%s", prof_io_bin_name[k]);
            tally_row(b, who, f, prof_io_dir_name[d], size, &f->size[d][k], rd->sec_per_tick);
        }
}

static void write_rows(struct prof_buf *b, const struct prof_report_ctx *ctx, const struct prof_rank_data *rd)
{
    (void)ctx;
    int n;
    struct prof_io_file *const *v = prof_io_files(&n);
    for (int i = 0; i < n; i++)
        file_rows(b, rd, v[i]);
}

const struct prof_writer prof_io_writer = {
    .file = "io.txt", PROF_COLUMNS_OF(columns), .rows = write_rows,
};
