/* keys.c: sorted keys and their union over the ranks along a binomial
 * tree (cold: finalize; keys.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "keys.h"

int prof_u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

int prof_keys_unique(const struct prof_key_kind *k, char *v, int n)
{
    qsort(v, (size_t)n, k->size, k->cmp);
    int u = 0;
    for (int i = 0; i < n; i++) {
        if (u > 0 && k->cmp(v + (size_t)(u - 1) * k->size, v + (size_t)i * k->size) == 0) {
            if (k->combine)
                k->combine(v + (size_t)(u - 1) * k->size, v + (size_t)i * k->size);
        } else if (u++ != i) {
            memcpy(v + (size_t)(u - 1) * k->size, v + (size_t)i * k->size, k->size);
        }
    }
    return u;
}

/* Union of two sorted unique arrays into out (room for na + nb). */
static int merge(const struct prof_key_kind *k, const char *a, int na, const char *b, int nb, char *out)
{
    int i = 0, j = 0, n = 0;
    size_t s = k->size;
    while (i < na || j < nb) {
        int c = i == na ? 1 : j == nb ? -1 : k->cmp(a + i * s, b + j * s);
        char *o = out + (size_t)n++ * s;
        if (c <= 0)
            memcpy(o, a + (size_t)i++ * s, s);
        if (c > 0)
            memcpy(o, b + (size_t)j++ * s, s);
        else if (c == 0 && k->combine)
            k->combine(o, b + (size_t)j++ * s);
        else if (c == 0)
            j++;
    }
    return n;
}

/* A rank without memory can still drain the chunks it is sent. */
#define CHUNK PROF_KEYS_CHUNK
static char scratch[CHUNK];

static int chunk(size_t bytes, size_t off)
{
    return (int)(bytes - off < CHUNK ? bytes - off : CHUNK);
}

static void send_keys(const char *keys, int n, size_t size, int to, MPI_Comm comm)
{
    size_t bytes = n > 0 ? (size_t)n * size : 0;
    PMPI_Send(&n, 1, MPI_INT, to, 0, comm);
    for (size_t off = 0; off < bytes; off += CHUNK)
        PMPI_Send(keys + off, chunk(bytes, off), MPI_BYTE, to, 1, comm);
}

/* Receive into a new array; NULL (after draining) when out of memory, with
 * *n = -1 when the sender itself had failed. */
static char *recv_keys(int *n, size_t size, int from, MPI_Comm comm)
{
    PMPI_Recv(n, 1, MPI_INT, from, 0, comm, MPI_STATUS_IGNORE);
    if (*n < 0)
        return NULL;
    size_t bytes = (size_t)*n * size;
    char *keys = malloc(bytes + 1);
    for (size_t off = 0; off < bytes; off += CHUNK)
        PMPI_Recv(keys ? keys + off : scratch, chunk(bytes, off), MPI_BYTE, from, 1, comm, MPI_STATUS_IGNORE);
    return keys;
}

int prof_all_agree(int ok, MPI_Comm comm)
{
    int all;
    PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
    return all;
}

/* prof_keys_union: this rank's n sorted unique keys
 * (malloc'd, taken over; n < 0 when this rank failed). Binomial tree: each
 * rank merges its children's unions into its own, then sends that to its
 * parent (n = -1 if it failed); rank 0 broadcasts the result. Returns the
 * union on every rank, its length in *total, or NULL on every rank when
 * some rank failed. Rank 0 holds the union only, never ranks x keys. */
void *prof_keys_union(MPI_Comm comm, const struct prof_key_kind *k, char *keys, int n, int *total)
{
    int rank, size, ok = n >= 0 && keys;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    for (int mask = 1; mask < size; mask <<= 1) {
        if (rank & mask) {
            send_keys(keys, ok ? n : -1, k->size, rank - mask, comm);
            break;
        }
        if (rank + mask >= size)
            continue;
        int m;
        char *theirs = recv_keys(&m, k->size, rank + mask, comm);
        char *both = theirs && ok ? malloc(((size_t)n + m + 1) * k->size) : NULL;
        if (both) {
            n = merge(k, keys, n, theirs, m, both);
            free(keys);
            keys = both;
        } else {
            ok = 0;
        }
        free(theirs);
    }
    *total = ok ? n : -1;
    PMPI_Bcast(total, 1, MPI_INT, 0, comm);
    if (rank != 0) {
        free(keys);
        keys = *total >= 0 ? malloc((size_t)*total * k->size + 1) : NULL;
    }
    if (!prof_all_agree(*total >= 0 && keys != NULL, comm)) {
        free(keys);
        *total = -1;
        return NULL;
    }
    size_t bytes = (size_t)*total * k->size;
    for (size_t off = 0; off < bytes; off += CHUNK)
        PMPI_Bcast(keys + off, chunk(bytes, off), MPI_BYTE, 0, comm);
    return keys;
}
