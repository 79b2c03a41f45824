/* test_record.c: every counter of record.h is 64-bit: adds and merges go
 * past 2^32 without wrapping, and a partner whose message count passes 2^32
 * keeps its slot (issue 24 item 10). */
#include <stdint.h>
#include <stdio.h>
#include "record.h"

static int failures;
#define CHECK(cond) do { if (!(cond)) { printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); failures++; } } while (0)

#define G (UINT64_C(1) << 32)

static int slots_of(const struct prof_partners *ps, int32_t rank)
{
    int n = 0;
    for (int i = 0; i < PROF_PARTNERS; i++)
        n += ps->p[i].count && ps->p[i].rank == rank;
    return n;
}

int main(void)
{
    /* prof_stats_add: every field past 2^32. */
    struct prof_stats s = { 0 };
    struct prof_traffic big = { G + 1, G + 2, G - 1, G - 1 };
    prof_stats_add(&s, G + 7, &big);
    s.calls = G - 1;
    prof_stats_add(&s, G + 9, &big);
    prof_stats_add(&s, G + 8, &big);
    CHECK(s.calls == G + 1);
    CHECK(s.ticks == 3 * G + 24);
    CHECK(s.min_ticks == G + 7 && s.max_ticks == G + 9);
    CHECK(s.bytes_sent == 3 * (G + 1) && s.bytes_recv == 3 * (G + 2));
    CHECK(s.msgs_sent == 3 * (G - 1) && s.msgs_recv == 3 * (G - 1));

    /* prof_stats_merge: the sums, receive wait included. */
    struct prof_stats m = { 0 };
    s.recv_wait_ticks = G + 3;
    s.sync_calls = G + 4;
    s.sync_ticks = G + 5;
    prof_stats_merge(&m, &s);
    prof_stats_merge(&m, &s);
    CHECK(m.calls == 2 * (G + 1) && m.ticks == 2 * (3 * G + 24));
    CHECK(m.min_ticks == G + 7 && m.max_ticks == G + 9);
    CHECK(m.bytes_sent == 6 * (G + 1) && m.bytes_recv == 6 * (G + 2));
    CHECK(m.msgs_sent == 6 * (G - 1) && m.msgs_recv == 6 * (G - 1));
    CHECK(m.recv_wait_ticks == 2 * (G + 3));
    CHECK(m.sync_calls == 2 * (G + 4) && m.sync_ticks == 2 * (G + 5));
    s.slt_calls = G + 6;
    s.slt_skipped = G + 7;
    s.late_ticks = G + 8;
    s.slt_wait_ticks = G + 9;
    s.slt_skipped_ticks = G + 10;
    struct prof_stats m2 = { 0 };
    prof_stats_merge(&m2, &s);
    prof_stats_merge(&m2, &s);
    CHECK(m2.slt_calls == 2 * (G + 6) && m2.slt_skipped == 2 * (G + 7));
    CHECK(m2.late_ticks == 2 * (G + 8) && m2.slt_wait_ticks == 2 * (G + 9));
    CHECK(m2.slt_skipped_ticks == 2 * (G + 10));

    /* A partner passing 2^32 messages keeps its slot: rank 3 then ranks
     * 4..10 fill the 8 slots, rank 11 goes to the others bucket. */
    struct prof_partners ps = { 0 };
    prof_partners_add(&ps, 3, G - 1, G + 5, G + 6);
    prof_partners_add(&ps, 3, 1, 1, 1);
    for (int32_t r = 4; r <= 10; r++)
        prof_partners_add(&ps, r, 1, 10, 10);
    prof_partners_add(&ps, 11, G, G, G);
    prof_partners_add(&ps, 3, 1, 1, 1);
    CHECK(ps.p[0].rank == 3 && ps.p[0].count == G + 1);
    CHECK(ps.p[0].bytes == G + 7 && ps.p[0].ticks == G + 8);
    CHECK(slots_of(&ps, 3) == 1 && slots_of(&ps, 11) == 0);
    for (int32_t r = 4; r <= 10; r++)
        CHECK(slots_of(&ps, r) == 1);
    CHECK(ps.p[PROF_PARTNERS].rank == PROF_PEER_OTHERS && ps.p[PROF_PARTNERS].count == G);

    /* prof_partners_merge: counts add past 2^33, slots stay. */
    struct prof_partners into = { 0 };
    prof_partners_merge(&into, &ps);
    prof_partners_merge(&into, &ps);
    CHECK(into.p[0].rank == 3 && into.p[0].count == 2 * (G + 1) && into.p[0].bytes == 2 * (G + 7));
    CHECK(slots_of(&into, 3) == 1 && into.p[PROF_PARTNERS].count == 2 * G);

    /* Late sender: one rank, two sending sites, are two partners; send-late
     * time adds past 2^32. */
    struct prof_partners sl = { 0 };
    prof_partners_add_slt(&sl, 5, 11, 1, 0, 0, G + 1, 0);
    prof_partners_add_slt(&sl, 5, 12, 1, 0, 0, 1, 0);
    prof_partners_add_slt(&sl, 5, 11, 1, 0, 0, G, 0);
    CHECK(sl.p[0].key == 11 && sl.p[0].count == 2 && sl.p[0].late_ticks == 2 * G + 1);
    CHECK(sl.p[1].key == 12 && sl.p[1].count == 1 && slots_of(&sl, 5) == 2);

    /* A wait without messages (a probe's, a persistent receive's posting
     * site) takes a slot of its own, kept by a merge; a slot with nothing
     * in it is free. */
    struct prof_partners pw = { 0 }, pm = { 0 };
    prof_partners_add_slt(&pw, 7, 21, 0, 0, 0, 0, 0);
    CHECK(!prof_partner_used(&pw.p[0]));
    prof_partners_add_slt(&pw, 6, 22, 0, 0, 0, 3, 5);
    CHECK(pw.p[0].rank == 6 && pw.p[0].count == 0 && pw.p[0].late_ticks == 3 && pw.p[0].wait_ticks == 5);
    prof_partners_add_slt(&pw, 6, 22, 1, 4, 9, 0, 0);
    CHECK(slots_of(&pw, 6) == 1 && pw.p[0].count == 1 && pw.p[0].wait_ticks == 5);
    prof_partners_merge(&pm, &pw);
    CHECK(pm.p[0].rank == 6 && pm.p[0].key == 22 && pm.p[0].wait_ticks == 5 && !prof_partner_used(&pm.p[1]));

    if (failures)
        return 1;
    printf("test_record: all checks passed\n");
    return 0;
}
