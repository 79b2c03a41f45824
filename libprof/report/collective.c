/* collective.c: the report files written by every rank at once with MPI-IO
 * (cold: finalize, called by report.c). Per file, rank P's rows go at the
 * sum of the lengths of ranks 0..P-1 (PMPI_Exscan), rank 0's header
 * first. Only PMPI_ calls, made once the wrappers are off (finalize.c), so
 * none of them is counted as the program's. */
#include <stdio.h>
#include <string.h>
#include "clock.h"
#include "collective.h"

/* The most bytes one PMPI_File_write_at_all call takes (its count is an
 * int): a longer text takes several rounds, the same number on every rank. */
#define ROUND_BYTES (1u << 30)

/* MPI error rc while doing what on the file name, on one line, into why: -1. */
static int failed(int rc, const char *what, const char *name, char *why, int whysz)
{
    char s[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (PMPI_Error_string(rc, s, &len) != MPI_SUCCESS)
        len = snprintf(s, sizeof s, "MPI error %d", rc);
    s[len] = '\0';
    for (char *c = s; *c; c++)
        if (*c == '\n' || *c == '\t')
            *c = ' ';
    snprintf(why, (size_t)whysz, "cannot %s %s with MPI-IO: %s", what, name, s);
    return -1;
}

/* Collective: -1 on every rank when some rank failed, why then the first
 * such rank's; 0 when none did. */
static int agree(MPI_Comm comm, int rc, char *why, int whysz)
{
    int rank, size, first;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    int mine = rc ? rank : size;
    PMPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
    if (first == size)
        return 0;
    PMPI_Bcast(why, whysz, MPI_CHAR, first, comm);
    return -1;
}

/* Collective: opens the n files on every rank; 0, or -1 on every rank with
 * the files that every rank opened closed again (one that some ranks could
 * not open stays open on the others: closing is collective). rounds: the
 * most rounds any rank's texts need, on every rank. */
static int open_all(MPI_Comm comm, const char *dir, const char *const *names, int n, MPI_File *fh, int *rounds,
                    char *why, int whysz)
{
    int v[PROF_COLLECTIVE_FILES + 1], all[PROF_COLLECTIVE_FILES + 1], rc = 0;
    for (int k = 0; k < n; k++) {
        char path[4300];
        snprintf(path, sizeof path, "%s/%s", dir, names[k]);
        int e = PMPI_File_open(comm, path, MPI_MODE_WRONLY | MPI_MODE_CREATE, MPI_INFO_NULL, &fh[k]);
        v[k] = e != MPI_SUCCESS;
        if (e != MPI_SUCCESS && !rc)
            rc = failed(e, "open", names[k], why, whysz);
    }
    v[n] = *rounds;
    PMPI_Allreduce(v, all, n + 1, MPI_INT, MPI_MAX, comm);
    *rounds = all[n];
    int any = 0;
    for (int k = 0; k < n; k++)
        any |= all[k];
    if (!any)
        return 0;
    for (int k = 0; k < n; k++)
        if (!all[k])
            PMPI_File_close(&fh[k]);
    return agree(comm, rc, why, whysz);
}

/* Collective: rank 0's heads, then every rank's texts at off, in rounds
 * rounds, into the open files fh, closed after; 0, or -1 on every rank. */
static int write_all(MPI_Comm comm, const char *const *names, const struct prof_buf *head,
                     const struct prof_buf *texts, const uint64_t *off, int n, int rounds, MPI_File *fh, char *why,
                     int whysz)
{
    int rc = 0;
    for (int k = 0; k < n; k++) {
        uint64_t at = off[k];
        int e = MPI_SUCCESS;
        if (head) {
            e = PMPI_File_write_at(fh[k], 0, head[k].p, (int)head[k].len, MPI_CHAR, MPI_STATUS_IGNORE);
            at += head[k].len;
        }
        for (int r = 0; r < rounds; r++) {
            size_t from = (size_t)r * ROUND_BYTES;
            size_t m = texts[k].len > from ? texts[k].len - from : 0;
            m = m < ROUND_BYTES ? m : ROUND_BYTES;
            int e2 = PMPI_File_write_at_all(fh[k], (MPI_Offset)(at + from), m ? texts[k].p + from : NULL, (int)m,
                                            MPI_CHAR, MPI_STATUS_IGNORE);
            e = e != MPI_SUCCESS ? e : e2;
        }
        int e3 = PMPI_File_close(&fh[k]);
        e = e != MPI_SUCCESS ? e : e3;
        if (e != MPI_SUCCESS && !rc)
            rc = failed(e, "write", names[k], why, whysz);
    }
    return agree(comm, rc, why, whysz);
}

int prof_collective_write(MPI_Comm comm, const char *dir, const char *const *names, const struct prof_buf *head,
                          const struct prof_buf *texts, int n, char *why, int whysz, uint64_t *open_ns)
{
    uint64_t len[PROF_COLLECTIVE_FILES], off[PROF_COLLECTIVE_FILES] = { 0 };
    MPI_File fh[PROF_COLLECTIVE_FILES];
    int rank, rounds = 0, rc = 0;
    PMPI_Comm_rank(comm, &rank);
    for (int k = 0; k < n; k++) {
        len[k] = texts[k].len + (head ? head[k].len : 0);
        int r = (int)((texts[k].len + ROUND_BYTES - 1) / ROUND_BYTES);
        rounds = r > rounds ? r : rounds;
    }
    PMPI_Exscan(len, off, n, MPI_UINT64_T, MPI_SUM, comm);
    if (rank == 0)
        memset(off, 0, sizeof off);      /* Exscan leaves rank 0's undefined */

    /* A file's error handler is MPI_FILE_NULL's when it is opened: the
     * program's, which may abort; ours returns, and the program's is put
     * back at the end. */
    MPI_Errhandler program;
    PMPI_File_get_errhandler(MPI_FILE_NULL, &program);
    PMPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN);
    uint64_t t0 = prof_clock_mono_ns();
    rc = open_all(comm, dir, names, n, fh, &rounds, why, whysz);
    *open_ns = prof_clock_mono_ns() - t0;
    if (rc == 0)
        rc = write_all(comm, names, head, texts, off, n, rounds, fh, why, whysz);
    PMPI_File_set_errhandler(MPI_FILE_NULL, program);
    PMPI_Errhandler_free(&program);
    return rc;
}
