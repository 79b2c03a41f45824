/* record.h: the statistics kept per (function, call site) and per function.
 * Times are in clock ticks until the report converts them (clock.h). */
#ifndef PROF_RECORD_H
#define PROF_RECORD_H

#include <stdint.h>

struct prof_stats {
    uint64_t calls;
    uint64_t ticks;        /* total time inside the PMPI call */
    uint64_t min_ticks;
    uint64_t max_ticks;
    uint64_t bytes_sent;   /* bytes the calls read from their send buffers */
    uint64_t bytes_recv;   /* bytes the calls wrote to their receive buffers */
    uint64_t msgs_sent;    /* point-to-point messages sent (MPInside #reqs_S) */
    uint64_t msgs_recv;    /* point-to-point messages received (#reqs_R) */
};

/* What one call moved. */
struct prof_traffic {
    uint64_t bytes_sent, bytes_recv;
    uint32_t msgs_sent, msgs_recv;
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
}

/* A call site: the function and the return addresses of depth frames,
 * innermost first (frames live in the table's frame pool). */
struct prof_record {
    uint64_t key;          /* hash of fn and frames; 0 = empty slot */
    uint32_t fn;
    uint32_t depth;        /* frames actually captured (<= configured depth) */
    struct prof_stats s;
};

#endif
