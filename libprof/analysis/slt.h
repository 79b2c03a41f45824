/* slt.h: late-sender analysis by the stuttering method
 * (MPIPROF_EVAL_SLT; MPInside's "Late Senders"), on the tokens of the
 * point-to-point messages (link/tokens.h): a receive's send-late time is
 * the part of its blocking call that passed before its message's token
 * was sent; the core reports it in the msg_waited and reqs_waited events
 * (events.h), which this module accounts per call site and partner
 * (slt.txt). On when every rank asked for it, or wait states take it in. */
#ifndef PROF_SLT_H
#define PROF_SLT_H

#include <mpi.h>
#include <stdint.h>

/* prof_slt_asked: 1 when late-sender analysis is on, on every rank (set
 * once at MPI_Init; its report). */
extern int prof_slt_asked;

/* slt.txt (slt_report.c); and the module's report steps there (module.h:
 * columns, figures, named). */
struct prof_writer;
struct prof_report_ctx;
struct prof_rank_data;
struct prof_branch;
extern const struct prof_writer prof_report_slt;
void prof_slt_columns(struct prof_report_ctx *ctx);
void prof_slt_figures(struct prof_report_ctx *ctx, struct prof_rank_data *rd, uint64_t t_end);
void prof_slt_named(struct prof_branch *v, int n);

/* The module's handlers of the waits (slt_account.c; events.h). */
struct prof_ev_wait;
void prof_slt_msg_waited(const struct prof_ev_wait *ev);
void prof_slt_reqs_waited(const struct prof_ev_wait *ev);
/* prof_slt_found: a receive evaluated when its token came, or its part of
 * its call made anew (link/tokens.h). */
struct prof_later;
void prof_slt_found(const struct prof_later *l, int eval, uint64_t key, uint64_t late, uint64_t wait,
                    uint64_t sent);

/* prof_slt_partner_ids (slt_partners.c, the module's named step): collective
 * over comm (ranks as in the partners' ranks); set each partner's brid to
 * the id of the branch that sent it (from the record key its tokens
 * carried), asking the partner's rank. Returns 0, or -1 when out of memory
 * (ids stay 0). */
int prof_slt_partner_ids(MPI_Comm comm, struct prof_branch *v, int n);

#endif
