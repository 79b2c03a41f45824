/* slt.c: the late-sender module (see slt.h): whether it is on, and its
 * place in the report. Its figures come from the tokens (link/tokens.h),
 * accounted by slt_account.c, named by slt_partners.c, written by
 * slt_report.c. Cold. */
#include "agree.h"
#include "config.h"
#include "log.h"
#include "module.h"
#include "nodes.h"
#include "slt.h"
#include "tokens.h"

int prof_slt_asked;

/* Late sender inserts communication: it is asked for when every rank asked
 * for it or a rider takes it in (wait states), else it is off everywhere
 * and rank 0 says why. It accounts the tokens' figures whenever the tokens
 * run (for the model too: partners.txt names the sending sites); its own
 * report only when asked. */
static int start(void)
{
    double asked = prof_config.eval_slt || prof_tokens_late();
    int same = prof_agree(&asked, 1, NULL);
    if (same == 0)
        prof_log_once("MPIPROF_EVAL_SLT is not the same on every rank; late-sender analysis is off");
    prof_slt_asked = same == 1 && asked;
    if (prof_slt_asked) {
        prof_tokens_want(prof_slt_found);
        prof_sync_want();    /* senders' times compared with receivers' (and wait states') */
    }
    return prof_tokens_wanted() ? 0 : -1;
}

/* The partners name their sending sites by record key. */
static int keeps_key(uint64_t key)
{
    (void)key;
    return 1;
}

const struct prof_module prof_mod_slt = {
    .name = "late sender",
    .start = start,
    .msg_waited = prof_slt_msg_waited,
    .reqs_waited = prof_slt_reqs_waited,
    .keeps_key = keeps_key,
    .named = prof_slt_named,
    .columns = prof_slt_columns,
    .figures = prof_slt_figures,
    .writer = &prof_report_slt,
    .in_snapshots = 1,
};
