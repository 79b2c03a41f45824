/* modules.c: the one list of analysis modules (module.h), and their start,
 * finish and report steps (cold: MPI_Init, MPI_Finalize). */
#include <string.h>
#include "module.h"

extern const struct prof_module prof_mod_model, prof_mod_collwait, prof_mod_waits, prof_mod_slt, prof_mod_tokens,
    prof_mod_nodes, prof_mod_shadow, prof_mod_rma, prof_mod_io, prof_mod_comms;

/* In the order they start and take each event: the model agrees a
 * collective's clocks before collective wait's barrier; late sender
 * starts after the analyses that ride on the tokens (wait states take it
 * in), the tokens after every analysis that wants them, the nodes set
 * their clocks on one timeline when an analysis before them wants it, and
 * the shadows start when an analysis before them that needs them did. */
const struct prof_module *const prof_modules[] = {
    &prof_mod_model,
    &prof_mod_collwait,
    &prof_mod_waits,
    &prof_mod_slt,
    &prof_mod_tokens,
    &prof_mod_nodes,
    &prof_mod_shadow,
    &prof_mod_rma,
    &prof_mod_io,
    &prof_mod_comms,
    NULL,
};

struct prof_events prof_events;
int prof_events_p2p;
static bool started[PROF_MODULES_MAX];
static bool written[PROF_MODULES_MAX];

#define EACH_MODULE(m) for (int m = 0; prof_modules[m] && m < PROF_MODULES_MAX; m++)

/* Append module mod's handler of each event to that event's array. */
#define ADD_HANDLER(type, name)                \
    if (mod->name) {                           \
        int k = 0;                             \
        while (prof_events.name[k])            \
            k++;                               \
        prof_events.name[k] = mod->name;       \
    }

void prof_modules_start(const int *on)
{
    EACH_MODULE(m) {
        const struct prof_module *mod = prof_modules[m];
        if (!on[m] || (mod->start && mod->start() != 0))
            continue;
        started[m] = true;
        PROF_EVENTS(ADD_HANDLER)
        prof_events_p2p |= mod->msg_sent || mod->msg_received || mod->p2p_end || mod->msg_arrived ||
                           mod->msg_waited;
        if (mod->around && !prof_around_on) {
            prof_around = *mod->around;
            prof_around_on = 1;
        }
    }
}

void prof_modules_begin_run(uint64_t t)
{
    EACH_MODULE(m)
        if (started[m] && prof_modules[m]->begin)
            prof_modules[m]->begin(t);
}

void prof_modules_finish(void)
{
    memset(&prof_events, 0, sizeof prof_events);
    prof_events_p2p = 0;
    EACH_MODULE(m)
        if (started[m] && prof_modules[m]->finish)
            prof_modules[m]->finish();
}

void prof_modules_columns(struct prof_report_ctx *ctx)
{
    EACH_MODULE(m)
        if (started[m] && prof_modules[m]->columns)
            prof_modules[m]->columns(ctx);
}

void prof_modules_figures(struct prof_report_ctx *ctx, struct prof_rank_data *rd, uint64_t t_end)
{
    EACH_MODULE(m)
        if (started[m] && prof_modules[m]->figures)
            prof_modules[m]->figures(ctx, rd, t_end);
}

bool prof_module_on(int m)
{
    return m >= 0 && m < PROF_MODULES_MAX && started[m];
}

bool prof_modules_keep_key(uint64_t key)
{
    EACH_MODULE(m)
        if (started[m] && prof_modules[m]->keeps_key && prof_modules[m]->keeps_key(key))
            return true;
    return false;
}

void prof_modules_named(struct prof_branch *v, int n)
{
    EACH_MODULE(m)
        if (started[m] && prof_modules[m]->named)
            prof_modules[m]->named(v, n);
}

/* A module's agree step is collective: it runs where the module started on
 * every rank (a start may fail on one rank alone). */
void prof_modules_agree(MPI_Comm comm)
{
    int mine[PROF_MODULES_MAX], all[PROF_MODULES_MAX];
    EACH_MODULE(m)
        mine[m] = started[m];
    int n = 0;
    while (n < PROF_MODULES_MAX && prof_modules[n])
        n++;
    if (n && PMPI_Allreduce(mine, all, n, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS)
        return;
    EACH_MODULE(m)
        written[m] = all[m] && (!prof_modules[m]->agree || prof_modules[m]->agree(comm));
}

bool prof_module_written(int m)
{
    return m >= 0 && m < PROF_MODULES_MAX && written[m];
}
