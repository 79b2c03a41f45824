/* modules.c: the one list of analysis modules (module.h), and their start
 * and finish (cold: MPI_Init, MPI_Finalize). */
#include <string.h>
#include "module.h"

extern const struct prof_module prof_mod_comms;

const struct prof_module *const prof_modules[] = {
    &prof_mod_comms,
    NULL,
};

struct prof_events prof_events;
static bool started[PROF_MODULES_MAX];

static void add(prof_ev_msg_fn *list, prof_ev_msg_fn h)
{
    if (!h)
        return;
    while (*list)
        list++;
    *list = h;
}

void prof_modules_start(const int *on)
{
    for (int m = 0; prof_modules[m] && m < PROF_MODULES_MAX; m++) {
        const struct prof_module *mod = prof_modules[m];
        if (!on[m] || (mod->start && mod->start() != 0))
            continue;
        started[m] = true;
        add(prof_events.msg_sent, mod->msg_sent);
        add(prof_events.msg_received, mod->msg_received);
    }
}

void prof_modules_finish(void)
{
    memset(&prof_events, 0, sizeof prof_events);
    for (int m = 0; prof_modules[m] && m < PROF_MODULES_MAX; m++)
        if (started[m] && prof_modules[m]->finish)
            prof_modules[m]->finish();
}

bool prof_module_on(int m)
{
    return m >= 0 && m < PROF_MODULES_MAX && started[m];
}
