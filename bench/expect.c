/* expect.c: the tally behind BENCH_EXPECT (expect.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "expect.h"

#define MAX_CLAIMS 24

static int on = -1;         /* -1: BENCH_EXPECT not read yet */
static int n_claims;
static struct {
    const char *fn;
    long long calls, sent, recv;
} claim[MAX_CLAIMS];

void bench_expect_claim(const char *const *fns)
{
    if (on < 0) {
        const char *v = getenv(BENCH_EXPECT_ENV);
        on = v && strcmp(v, "1") == 0;
    }
    for (; on && *fns; fns++) {
        if (n_claims == MAX_CLAIMS) {
            fprintf(stderr, "bench_expect_claim: more than %d functions claimed\n", MAX_CLAIMS);
            abort();
        }
        claim[n_claims++].fn = *fns;
    }
}

void bench_expect_add(const char *fn, long n, long long sent, long long recv)
{
    if (on <= 0)
        return;
    for (int i = 0; i < n_claims; i++) {
        if (strcmp(claim[i].fn, fn) == 0) {
            claim[i].calls += n;
            claim[i].sent += sent;
            claim[i].recv += recv;
            return;
        }
    }
    fprintf(stderr, "bench_expect_add: %s is not claimed\n", fn);
    abort();
}

void bench_expect_run(const struct bench_expect_calls *per, long x, long n)
{
    for (; per && per->fn; per++)
        bench_expect_add(per->fn, n * per->calls, (long long)n * per->sent_x * x, (long long)n * per->recv_x * x);
}

void bench_expect_print(const char *prog, int rank)
{
    if (on <= 0)
        return;
    /* one write of the whole line, so that the lines of processes sharing
     * the launcher's output never interleave */
    char line[4096];
    int len = snprintf(line, sizeof line, "expect=%s rank=%d rows=", prog, rank);
    for (int i = 0; i < n_claims && len < (int)sizeof line; i++)
        len += snprintf(line + len, sizeof line - (size_t)len, "%s%s:%lld:%lld:%lld", i ? "," : "", claim[i].fn,
                        claim[i].calls, claim[i].sent, claim[i].recv);
    if (len >= (int)sizeof line - 1) {
        fprintf(stderr, "bench_expect_print: the line of rank %d is longer than %zu bytes\n", rank, sizeof line);
        abort();
    }
    line[len++] = '\n';
    fflush(stdout);
    fwrite(line, 1, (size_t)len, stdout);
    fflush(stdout);
}
