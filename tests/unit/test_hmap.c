/* test_hmap.c: the map of hmap.h against a plain array, through random
 * insertions, replacements and deletions that wrap around its end and
 * collide; a churn of one live key keeps it at its smallest size. */
#include <stdio.h>
#include <stdlib.h>
#include "hmap.h"

static int failures;
#define CHECK(cond) do { if (!(cond)) { printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); failures++; } } while (0)

#define KEYS 600

int main(void)
{
    struct prof_hmap m = { 0 };
    static int value[KEYS];    /* the reference: 0 absent, else the value's tag */
    static int tags[KEYS + 1];
    CHECK(prof_hmap_get(&m, 7) == NULL && prof_hmap_del(&m, 7) == NULL);
    srand(12345);
    for (int step = 0; step < 200000; step++) {
        int k = rand() % KEYS, op = rand() % 3;
        uint64_t key = (uint64_t)k << 40;   /* equal low bits: the hash must spread them */
        if (op < 2) {
            int tag = 1 + rand() % KEYS;
            CHECK(prof_hmap_put(&m, key, &tags[tag]) == 0);
            value[k] = tag;
        } else {
            void *v = prof_hmap_del(&m, key);
            CHECK(v == (value[k] ? &tags[value[k]] : NULL));
            value[k] = 0;
        }
        if (step % 997 == 0) {
            unsigned n = 0;
            for (int i = 0; i < KEYS; i++) {
                n += value[i] != 0;
                CHECK(prof_hmap_get(&m, (uint64_t)i << 40) == (value[i] ? &tags[value[i]] : NULL));
            }
            CHECK(m.n == n && 2 * m.n <= m.cap);
        }
    }
    prof_hmap_free(&m);
    for (int i = 0; i < 100000; i++) {
        CHECK(prof_hmap_put(&m, 1000 + (uint64_t)i, &tags[1]) == 0);
        CHECK(prof_hmap_del(&m, 1000 + (uint64_t)i) == &tags[1]);
    }
    CHECK(m.n == 0 && m.cap == 16);
    prof_hmap_free(&m);
    if (failures)
        printf("%d failures\n", failures);
    return failures != 0;
}
