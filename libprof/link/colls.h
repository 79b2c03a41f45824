/* colls.h: the blocking collectives the profiler synchronizes in (its
 * barriers and tokens before them: collective wait, wait states): that
 * every rank profiles the same ones, and which analysis measures a
 * collective's arrivals when more than one would. Cold (MPI_Init), and
 * one call per collective entered with those analyses on. */
#ifndef PROF_COLLS_H
#define PROF_COLLS_H

struct prof_ev_coll;

/* prof_colls_same: collective over the tool's communicator, at MPI_Init:
 * 0 when every rank profiles the same blocking collectives, and with
 * nonblocking the same nonblocking ones too (an analysis that
 * synchronizes in them needs it), else -1 after saying, once, that what
 * (the analysis' name) is off. */
int prof_colls_same(const char *what, int nonblocking);

/* prof_colls_claim: at its start, an analysis that measures the arrivals
 * at some collectives itself (wait states, with the causes) says which:
 * claims(ev) is 1 for those. prof_colls_claimed: whether one claimed the
 * collective of ev (collective wait leaves it to that one, which books
 * the synchronization wait in the call's record too). */
void prof_colls_claim(int (*claims)(const struct prof_ev_coll *ev));
int prof_colls_claimed(const struct prof_ev_coll *ev);

#endif
