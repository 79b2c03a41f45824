/* gather.c: rank 0 pulls each rank's report text in turn over the tool's
 * communicator: a "go" token, the lengths, then the text in bounded chunks
 * (cold: finalize). Only PMPI_ calls. */
#include <stdint.h>
#include "gather.h"
#include "wait.h"

enum { TAG_GO = 1, TAG_LEN, TAG_TEXT };

static int write_all(FILE *f, const char *p, size_t n)
{
    return fwrite(p, 1, n, f) == n ? 0 : -1;
}

static void send_text(MPI_Comm comm, const struct prof_buf *texts, int n)
{
    uint64_t len[PROF_GATHER_FILES];
    int go;
    MPI_Request req;
    PMPI_Irecv(&go, 1, MPI_INT, 0, TAG_GO, comm, &req);
    prof_wait(&req);   /* rank 0 is busy with the ranks before: sleep */
    for (int k = 0; k < n; k++)
        len[k] = texts[k].len;
    PMPI_Send(len, n, MPI_UINT64_T, 0, TAG_LEN, comm);
    for (int k = 0; k < n; k++)
        for (size_t off = 0; off < texts[k].len; off += PROF_GATHER_CHUNK) {
            size_t m = texts[k].len - off < PROF_GATHER_CHUNK ? texts[k].len - off : PROF_GATHER_CHUNK;
            PMPI_Send(texts[k].p + off, (int)m, MPI_CHAR, 0, TAG_TEXT, comm);
        }
}

static char chunk[PROF_GATHER_CHUNK];

/* Rank from's text; the next rank is told to go first (if there is one),
 * so that it wakes up while this one's text arrives: one rank ahead, no more. */
static int recv_text(MPI_Comm comm, int from, int next, int n, FILE *const *files)
{
    uint64_t len[PROF_GATHER_FILES];
    int go = 1, rc = 0;
    if (from == 1)
        PMPI_Send(&go, 1, MPI_INT, from, TAG_GO, comm);
    if (next)
        PMPI_Send(&go, 1, MPI_INT, from + 1, TAG_GO, comm);
    PMPI_Recv(len, n, MPI_UINT64_T, from, TAG_LEN, comm, MPI_STATUS_IGNORE);
    for (int k = 0; k < n; k++)
        for (uint64_t off = 0; off < len[k]; off += PROF_GATHER_CHUNK) {
            size_t m = len[k] - off < PROF_GATHER_CHUNK ? (size_t)(len[k] - off) : PROF_GATHER_CHUNK;
            PMPI_Recv(chunk, (int)m, MPI_CHAR, from, TAG_TEXT, comm, MPI_STATUS_IGNORE);
            rc |= write_all(files[k], chunk, m);
        }
    return rc;
}

int prof_gather_own(const struct prof_buf *texts, int n, FILE *const *files)
{
    int rc = 0;
    for (int k = 0; k < n; k++)
        rc |= write_all(files[k], texts[k].p ? texts[k].p : "", texts[k].len);
    return rc;
}

int prof_gather_write(MPI_Comm comm, const struct prof_buf *texts, int n, FILE *const *files)
{
    int rank, size;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    if (rank != 0) {
        send_text(comm, texts, n);
        return 0;
    }
    int rc = prof_gather_own(texts, n, files);
    for (int r = 1; r < size; r++)
        rc |= recv_text(comm, r, r + 1 < size, n, files);
    return rc;
}
