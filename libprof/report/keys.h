/* keys.h: sorted keys and their union over the ranks (cold: finalize).
 * Call sites, frames and files are numbered the same way on every rank by
 * their position in the sorted union of every rank's keys. */
#ifndef PROF_KEYS_H
#define PROF_KEYS_H

#include <stddef.h>
#include <mpi.h>

/* A kind of key: its size, its order, and what to do with two equal ones. */
struct prof_key_kind {
    size_t size;
    int (*cmp)(const void *, const void *);
    void (*combine)(void *into, const void *from);   /* NULL: keep into */
};

/* Keys travel in chunks of this many bytes. */
#define PROF_KEYS_CHUNK (64u << 10)

/* prof_keys_unique: sort n keys and keep one of each (combined); returns
 * how many. */
int prof_keys_unique(const struct prof_key_kind *k, char *v, int n);

/* prof_keys_union: collective over comm. keys: this rank's n sorted unique
 * keys (malloc'd, taken over; n < 0 when this rank failed). Returns the
 * union on every rank, its length in *total, or NULL on every rank when
 * some rank failed. Rank 0 holds the union only, never ranks x keys. */
void *prof_keys_union(MPI_Comm comm, const struct prof_key_kind *k, char *keys, int n, int *total);

/* prof_all_agree: collective; whether ok is true on every rank. */
int prof_all_agree(int ok, MPI_Comm comm);

/* prof_u64_cmp: the order of uint64_t keys. */
int prof_u64_cmp(const void *a, const void *b);

#endif
