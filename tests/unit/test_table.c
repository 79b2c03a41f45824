/* test_table.c: the call-site table keeps one record per (function,
 * region, frames, via), exact counts under collisions, and sends new sites to the
 * per-function overflow record once it holds its maximum of sites, in a
 * power of two of slots at most 3/4 full; the slots filled are listed in
 * the order they were. */
#include <stdio.h>
#include <stdlib.h>
#include "table.h"

static int failures;
#define CHECK(cond) do { if (!(cond)) { printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); failures++; } } while (0)

int main(void)
{
    struct prof_table t;
    CHECK(prof_table_init(&t, 3, 1, 3072) == 0);
    CHECK(t.mask == 4095 && t.max_sites == 3072);
    struct prof_table small;
    CHECK(prof_table_init(&small, 1, 0, 4) == 0 && small.mask == 7);
    prof_table_free(&small);
    CHECK(prof_table_init(&small, 1, 0, 1000000) == 0 && small.mask == 2097151);
    prof_table_free(&small);

    void *a[3] = { (void *)0x1000, (void *)0x2000, (void *)0x3000 };
    void *b[3] = { (void *)0x1000, (void *)0x2000, (void *)0x3001 };
    struct prof_record *ra = prof_table_record(&t, 5, 0, a, 3, 0);
    struct prof_stats *sa = &ra->s;
    struct prof_stats *sb = &prof_table_record(&t, 5, 0, b, 3, 0)->s;
    struct prof_stats *sa1 = &prof_table_record(&t, 5, 0, a, 1, 0)->s;
    struct prof_stats *sa6 = &prof_table_record(&t, 6, 0, a, 3, 0)->s;
    struct prof_record *ra2 = prof_table_record(&t, 5, 2, a, 3, 0);     /* the same site in region 2 */
    CHECK(sa != sb && sa != sa1 && sa != sa6 && sb != sa1 && &ra2->s != sa);
    CHECK(prof_table_record(&t, 5, 0, a, 3, 0) == ra && prof_table_record(&t, 5, 2, a, 3, 0) == ra2);
    CHECK(ra->fn == 5 && ra->depth == 3 && ra->region == 0 && ra2->region == 2 &&
          prof_table_frames(&t, ra)[2] == a[2]);
    /* A call through a library (via.h): its own record, one frame more than the depth kept. */
    void *v[4] = { (void *)0x1000, (void *)0x2000, (void *)0x3000, (void *)0x4000 };
    struct prof_record *rv = prof_table_record(&t, 5, 0, v, 4, 1);
    CHECK(rv != ra && rv->via == 1 && ra->via == 0 && rv->depth == 4 && prof_table_frames(&t, rv)[3] == v[3]);
    CHECK(prof_table_record(&t, 5, 0, v, 3, 0) == ra && prof_table_record(&t, 5, 0, v, 4, 1) == rv);
    CHECK(t.used == 6);

    struct prof_traffic t1 = { 100, 0, 1, 0 }, t2 = { 0, 7, 0, 1 }, t3 = { 1, 1, 1, 1 }, none = { 0 };
    prof_stats_add(sa, 10, &t1);
    prof_stats_add(sa, 30, &t2);
    prof_stats_add(sa, 20, &t3);
    CHECK(sa->calls == 3 && sa->ticks == 60 && sa->min_ticks == 10 && sa->max_ticks == 30);
    CHECK(sa->bytes_sent == 101 && sa->bytes_recv == 8);
    CHECK(sa->msgs_sent == 2 && sa->msgs_recv == 2);

    struct prof_stats m = { 0 };
    prof_stats_merge(&m, sa);
    prof_stats_add(sb, 5, &none);
    prof_stats_merge(&m, sb);
    CHECK(m.calls == 4 && m.ticks == 65 && m.min_ticks == 5 && m.max_ticks == 30);
    CHECK(m.bytes_sent == 101 && m.msgs_sent == 2 && m.msgs_recv == 2);

    /* Fill to the maximum: every later new site goes to the overflow record of its function. */
    unsigned limit = t.max_sites;
    for (uintptr_t i = 0; t.used < limit; i++) {
        void *f[1] = { (void *)(0x100000 + i * 16) };
        prof_stats_add(&prof_table_record(&t, 7, 0, f, 1, 0)->s, 1, &none);
    }
    void *late[1] = { (void *)0xdead0 };
    struct prof_record *o = prof_table_record(&t, 9, 0, late, 1, 0);
    CHECK(o == &t.overflow[9] && o->fn == 9 && o->depth == 0);
    CHECK(t.overflow_calls == 1);
    CHECK(prof_table_record(&t, 5, 0, a, 3, 0) == ra);     /* old sites still found */

    /* Partners: distinct ranks, then the others bucket. */
    struct prof_partners ps = { 0 };
    for (int r = 0; r < PROF_PARTNERS + 3; r++)
        prof_partners_add(&ps, r, 1, 10, 5);
    prof_partners_add(&ps, 2, 2, 20, 1);
    CHECK(ps.p[2].rank == 2 && ps.p[2].count == 3 && ps.p[2].bytes == 30 && ps.p[2].ticks == 6);
    CHECK(ps.p[PROF_PARTNERS].rank == PROF_PEER_OTHERS && ps.p[PROF_PARTNERS].count == 3);
    struct prof_partners merged = { 0 };
    prof_partners_merge(&merged, &ps);
    prof_partners_merge(&merged, &ps);
    CHECK(merged.p[2].count == 6 && merged.p[PROF_PARTNERS].count == 6 && merged.p[PROF_PARTNERS].bytes == 60);
    CHECK(t.used == limit);

    prof_table_free(&t);
    printf("%s: %d failures\n", __FILE__, failures);
    return failures ? 1 : 0;
}
