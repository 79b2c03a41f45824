/* colls.c: the blocking collectives the profiler synchronizes in (see
 * colls.h). Cold. */
#include <stdbool.h>
#include "agree.h"
#include "colls.h"
#include "fn_table.h"
#include "log.h"
#include "prof.h"

static int (*claimer)(const struct prof_ev_coll *ev);

int prof_colls_same(const char *what, int nonblocking)
{
    static double v[PROF_FN_COUNT];
    static bool same[PROF_FN_COUNT];
    for (int f = 0; f < PROF_FN_COUNT; f++)
        v[f] = (prof_fn_coll[f] == 2 || (nonblocking && prof_fn_coll[f] == 3)) && prof_fn_on[f];
    int rc = prof_agree(v, PROF_FN_COUNT, same);
    for (int f = 0; rc == 0 && f < PROF_FN_COUNT; f++)
        if (!same[f])
            prof_log_once("MPIPROF_FUNCTIONS profiles %s on some ranks only; %s is off", prof_fn_name[f], what);
    return rc == 1 ? 0 : -1;
}

void prof_colls_claim(int (*claims)(const struct prof_ev_coll *ev))
{
    claimer = claims;
}

int prof_colls_claimed(const struct prof_ev_coll *ev)
{
    return claimer && claimer(ev);
}
