/* record.h: the statistics kept per (function, call site) and per function.
 * Times are in clock ticks until the report converts them (clock.h). */
#ifndef PROF_RECORD_H
#define PROF_RECORD_H

#include <stdint.h>
#include <string.h>

struct prof_stats {
    uint64_t calls;
    uint64_t ticks;        /* total time inside the PMPI call */
    uint64_t min_ticks;
    uint64_t max_ticks;
    uint64_t bytes_sent;   /* bytes the calls read from their send buffers */
    uint64_t bytes_recv;   /* bytes the calls wrote to their receive buffers */
    uint64_t msgs_sent;    /* point-to-point messages sent (MPInside #reqs_S) */
    uint64_t msgs_recv;    /* point-to-point messages received (#reqs_R) */
    uint64_t recv_wait_ticks; /* waiting for received data (p2p.c) */
    uint64_t sync_calls;   /* collective wait: calls preceded by a barrier (collwait.c) */
    uint64_t sync_ticks;   /* and the barriers' time, part of ticks */
    uint64_t slt_calls;    /* late sender: receives whose send-late time was measured (slt.c) */
    uint64_t slt_skipped;  /* receives completed by a profiled call but not measured */
    uint64_t slt_skipped_ticks; /* and their receive wait */
    uint64_t late_ticks;   /* their send-late time */
    uint64_t slt_wait_ticks; /* their receive wait: send-late + transfer */
};

/* What one call moved. */
struct prof_traffic {
    uint64_t bytes_sent, bytes_recv;
    uint64_t msgs_sent, msgs_recv;
};

/* prof_stats_add: one call of dt ticks (hot). */
static inline void prof_stats_add(struct prof_stats *s, uint64_t dt, const struct prof_traffic *tr)
{
    if (s->calls == 0 || dt < s->min_ticks)
        s->min_ticks = dt;
    if (dt > s->max_ticks)
        s->max_ticks = dt;
    s->calls++;
    s->ticks += dt;
    s->bytes_sent += tr->bytes_sent;
    s->bytes_recv += tr->bytes_recv;
    s->msgs_sent += tr->msgs_sent;
    s->msgs_recv += tr->msgs_recv;
}

/* prof_stats_merge: into += from (cold: finalize). */
static inline void prof_stats_merge(struct prof_stats *into, const struct prof_stats *from)
{
    if (from->calls == 0)
        return;
    if (into->calls == 0 || from->min_ticks < into->min_ticks)
        into->min_ticks = from->min_ticks;
    if (from->max_ticks > into->max_ticks)
        into->max_ticks = from->max_ticks;
    into->calls += from->calls;
    into->ticks += from->ticks;
    into->bytes_sent += from->bytes_sent;
    into->bytes_recv += from->bytes_recv;
    into->msgs_sent += from->msgs_sent;
    into->msgs_recv += from->msgs_recv;
    into->recv_wait_ticks += from->recv_wait_ticks;
    into->sync_calls += from->sync_calls;
    into->sync_ticks += from->sync_ticks;
    into->slt_calls += from->slt_calls;
    into->slt_skipped += from->slt_skipped;
    into->slt_skipped_ticks += from->slt_skipped_ticks;
    into->late_ticks += from->late_ticks;
    into->slt_wait_ticks += from->slt_wait_ticks;
}

/* Partners of a point-to-point call site: the ranks (in MPI_COMM_WORLD) it
 * sent to or received from. PROF_PARTNERS distinct ranks, then one bucket
 * for all others, so memory stays bounded. */
#define PROF_PARTNERS 8
#define PROF_PEER_OTHERS (-1)

struct prof_partner {
    int32_t rank;          /* world rank, or PROF_PEER_OTHERS */
    int32_t brid;          /* at finalize: the branch id of key on rank (0: unknown) */
    uint64_t key;          /* late sender: the sending call site's record key (0: unknown) */
    uint64_t count;        /* messages (or completed requests) */
    uint64_t bytes;
    uint64_t ticks;        /* the share of the site's time spent with this partner */
    uint64_t late_ticks;   /* late sender: send-late time of these messages */
    uint64_t wait_ticks;   /* late sender: their receive wait */
};

struct prof_partners {
    struct prof_partner p[PROF_PARTNERS + 1];   /* p[PROF_PARTNERS]: the others */
};

/* prof_partner_used: a slot that holds a partner: messages, or (late
 * sender) the wait of a call that moved none with it: a probe's, the
 * posting site's of a persistent receive, whose messages count on its
 * MPI_Start. */
static inline int prof_partner_used(const struct prof_partner *p)
{
    return p->count || p->wait_ticks || p->late_ticks;
}

/* prof_partner_slot: the slot of the partner rank from the sending site
 * key: its own, a free one, or the others' (hot for p2p). */
static inline struct prof_partner *prof_partner_slot(struct prof_partners *ps, int32_t rank, uint64_t key)
{
    for (int i = 0; i < PROF_PARTNERS; i++)
        if (!prof_partner_used(&ps->p[i]) || (ps->p[i].rank == rank && ps->p[i].key == key))
            return &ps->p[i];
    return &ps->p[PROF_PARTNERS];
}

/* prof_partners_among_others: whether the partner rank from the sending
 * site key is counted among the others (no slot of its own: all taken). */
static inline int prof_partners_among_others(struct prof_partners *ps, int32_t rank, uint64_t key)
{
    return prof_partner_slot(ps, rank, key) == &ps->p[PROF_PARTNERS];
}

/* prof_partners_add_from: count messages to/from rank, sent by the site
 * key (0: not known; a partner is a rank and a sending site), with their
 * bytes and time (hot for p2p). Its slot. prof_partners_add: the same with
 * key 0. */
static inline struct prof_partner *prof_partners_add_from(struct prof_partners *ps, int32_t rank, uint64_t key,
                                                          uint64_t count, uint64_t bytes, uint64_t ticks)
{
    struct prof_partner *p = prof_partner_slot(ps, rank, key);
    int others = p == &ps->p[PROF_PARTNERS];
    p->rank = others ? PROF_PEER_OTHERS : rank;
    p->key = others ? 0 : key;
    p->count += count;
    p->bytes += bytes;
    p->ticks += ticks;
    return p;
}

static inline void prof_partners_add(struct prof_partners *ps, int32_t rank, uint64_t count, uint64_t bytes,
                                     uint64_t ticks)
{
    prof_partners_add_from(ps, rank, 0, count, bytes, ticks);
}

/* prof_partners_add_slt: the same with the messages' send-late time and
 * receive wait (late sender); count 0: a wait of the site with that
 * partner that moved no message here (prof_partner_used). */
static inline void prof_partners_add_slt(struct prof_partners *ps, int32_t rank, uint64_t key, uint64_t count,
                                         uint64_t bytes, uint64_t ticks, uint64_t late, uint64_t wait)
{
    struct prof_partner *p = prof_partners_add_from(ps, rank, key, count, bytes, ticks);
    p->late_ticks += late;
    p->wait_ticks += wait;
}

/* prof_partners_rekey: the figures m of messages from rank counted with no
 * sending site (key 0) moved to the site key (late sender: a token that
 * came after its receive completed; cold): 1, or 0 when they stay (among
 * the others, where no site is kept, or not found). A slot emptied closes
 * up: prof_partner_slot takes the first free one. */
static inline int prof_partners_rekey(struct prof_partners *ps, int32_t rank, uint64_t key,
                                       const struct prof_partner *m)
{
    struct prof_partner *p = prof_partner_slot(ps, rank, 0);
    if (p == &ps->p[PROF_PARTNERS] || !prof_partner_used(p) || p->count < m->count || p->wait_ticks < m->wait_ticks)
        return 0;
    p->count -= m->count;
    p->bytes -= m->bytes < p->bytes ? m->bytes : p->bytes;
    p->ticks -= m->ticks < p->ticks ? m->ticks : p->ticks;
    p->wait_ticks -= m->wait_ticks;
    if (!prof_partner_used(p)) {
        struct prof_partner *last = &ps->p[PROF_PARTNERS - 1];
        memmove(p, p + 1, (size_t)(last - p) * sizeof *p);
        memset(last, 0, sizeof *last);
    }
    prof_partners_add_slt(ps, rank, key, m->count, m->bytes, m->ticks, m->late_ticks, m->wait_ticks);
    return 1;
}

/* prof_partners_merge: into += from (cold). */
static inline void prof_partners_merge(struct prof_partners *into, const struct prof_partners *from)
{
    for (int i = 0; i <= PROF_PARTNERS; i++)
        if (prof_partner_used(&from->p[i]))
            prof_partners_add_slt(into, from->p[i].rank, from->p[i].key, from->p[i].count, from->p[i].bytes,
                                  from->p[i].ticks, from->p[i].late_ticks, from->p[i].wait_ticks);
}

/* A call site: the function and the return addresses of depth frames,
 * innermost first (frames live in the table's frame pool). */
struct prof_record {
    uint64_t key;          /* hash of fn and frames; 0 = empty slot */
    uint32_t fn;
    uint32_t region;       /* the MPI_Pcontrol region the calls ended in (region.h; 0: none) */
    uint32_t depth;        /* frames actually captured (<= configured depth; one more with via) */
    uint32_t via;          /* 1: frames[0] is in a library that passes MPI calls through (via.h),
                              frames[1] the first frame outside them */
    struct prof_stats s;
    struct prof_partners partners;
};

#endif
