/* config.c: parse MPIPROF_* from the environment (cold, once, at MPI_Init).
 * Every bad name or value is reported once by rank 0, naming the variable,
 * the value and what is accepted; the option then keeps its default. */
#define _GNU_SOURCE            /* FNM_CASEFOLD */
#include <ctype.h>
#include <limits.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "clock.h"
#include "config.h"
#include "fn_table.h"
#include "log.h"
#include "model.h"
#include "module.h"
#include "via_patterns.h"

struct prof_config prof_config;
bool prof_module_asked[PROF_MODULES_MAX];

/* The problems prof_config_load said (each one line by rank 0). */
static int problems;
#define complain(...) (problems++, prof_log_once(__VA_ARGS__))

int prof_config_problems(void)
{
    return problems;
}

enum kind { STRING, DEPTH, SITES, FUNCS, VIA, BOOL, MODEL, SECONDS, SKEW, WRITE, FORM, CLOCK, PPM, TOKEN };

struct option {
    const char *name;
    enum kind kind;
    const char *def;
    const char *accepted;
    void *dst;
    size_t size;
};

#define PROF_OPTION_ROW(name, field, kind, def, acc) \
    { "MPIPROF_" #name, kind, def, acc, &prof_config.field, sizeof prof_config.field },
static const struct option options[] = { PROF_OPTIONS(PROF_OPTION_ROW) };
#define NOPTIONS (sizeof options / sizeof options[0])

/* The launcher's own variables: neither offered nor in report headers. */
static int launchers(const struct option *o)
{
    return o->dst == &prof_config.check || o->dst == prof_config.launched;
}

static int parse_bool(const char *v, bool *out)
{
    static const char *const yes[] = { "1", "yes", "on", "true" };
    static const char *const no[] = { "0", "no", "off", "false" };
    for (int i = 0; i < 4; i++) {
        if (strcasecmp(v, yes[i]) == 0) { *out = true; return 0; }
        if (strcasecmp(v, no[i]) == 0) { *out = false; return 0; }
    }
    return -1;
}

/* A decimal integer from 1 to max. */
static int parse_count(const char *v, long max, int *out)
{
    char *end;
    long n = strtol(v, &end, 10);
    if (end == v || *end != '\0' || n < 1 || n > max)
        return -1;
    *out = (int)n;
    return 0;
}

/* The words an option accepts and what each stands for. */
struct word {
    const char *word;
    int value;
};
static const struct word skews[] = { { "", 0 }, { "late", PROF_SKEW_LATE }, { "sent", PROF_SKEW_SENT } };
static const struct word writes[] = {
    { "auto", PROF_WRITE_AUTO }, { "collective", PROF_WRITE_COLLECTIVE }, { "pull", PROF_WRITE_PULL }
};
static const struct word clocks[] = {
    { "auto", PROF_CLOCK_AUTO }, { "tsc", PROF_CLOCK_ASK_TSC }, { "monotonic", PROF_CLOCK_ASK_MONOTONIC }
};
static const struct word token_places[] = {
    { "before", PROF_TOKEN_BEFORE }, { "after", PROF_TOKEN_AFTER }, { "next", PROF_TOKEN_NEXT },
    { "batch", PROF_TOKEN_BATCH }
};
static const struct word forms[] = { { "auto", PROF_REPORT_SUMMARY_RANKS }, { "ranks", INT_MAX }, { "summary", 1 } };

/* v as one of the n words w (in any case). */
static int parse_word(const char *v, const struct word *w, size_t n, int *out)
{
    for (size_t i = 0; i < n; i++)
        if (strcasecmp(v, w[i].word) == 0) {
            *out = w[i].value;
            return 0;
        }
    return -1;
}

/* 0 (none), or from 0.1 to 10^6 seconds. */
static int parse_seconds(const char *v, double *out)
{
    char *end;
    double s = strtod(v, &end);
    if (end == v || *end != '\0' || !(s == 0 || (s >= 0.1 && s <= 1e6)))
        return -1;
    *out = s;
    return 0;
}

/* A number of ppm, within PROF_MAX_DRIFT_PPM either way. */
static int parse_ppm(const char *v, double *out)
{
    char *end;
    double p = strtod(v, &end);
    if (end == v || *end != '\0' || !(p >= -PROF_MAX_DRIFT_PPM && p <= PROF_MAX_DRIFT_PPM))
        return -1;
    *out = p;
    return 0;
}

static int select_glob(const char *g, unsigned char *enabled, int nfn)
{
    int hits = 0;
    for (int f = 0; f < nfn; f++)
        if (fnmatch(g, prof_fn_name[f], FNM_CASEFOLD) == 0)
            enabled[f] = 1, hits++;
    return hits;
}

bool prof_config_yes(const char *name)
{
    const char *v = getenv(name);
    bool yes = false;
    return v && parse_bool(v, &yes) == 0 && yes;
}

/* Select functions: a glob that matches no MPI function is reported and
 * skipped; a value that selects nothing at all is invalid (one message). */
static int parse_functions(const char *v, unsigned char *enabled, int nfn)
{
    char list[4096], *save = NULL;
    int any = 0;
    snprintf(list, sizeof list, "%s", v);
    memset(enabled, 0, (size_t)nfn);
    for (char *g = strtok_r(list, ",", &save); g; g = strtok_r(NULL, ",", &save))
        any += select_glob(g, enabled, nfn);
    if (!any)
        return -1;
    snprintf(list, sizeof list, "%s", v);
    for (char *g = strtok_r(list, ",", &save); g; g = strtok_r(NULL, ",", &save))
        if (select_glob(g, enabled, nfn) == 0)
            complain("MPIPROF_FUNCTIONS: '%s' matches no wrapped MPI function; ignored", g);
    return 0;
}

static int parse(const struct option *o, const char *v, unsigned char *enabled, int nfn)
{
    switch (o->kind) {
    case STRING:
        if (strlen(v) >= o->size)
            return -1;
        strcpy(o->dst, v);
        return 0;
    case DEPTH:
        return parse_count(v, PROF_MAX_DEPTH, o->dst);
    case SITES:
        return parse_count(v, PROF_MAX_SITES_LIMIT, o->dst);
    case BOOL:
        return parse_bool(v, o->dst);
    case SECONDS:
        return parse_seconds(v, o->dst);
    case SKEW:
        return parse_word(v, skews, sizeof skews / sizeof skews[0], o->dst);
    case WRITE:
        return parse_word(v, writes, sizeof writes / sizeof writes[0], o->dst);
    case CLOCK:
        return parse_word(v, clocks, sizeof clocks / sizeof clocks[0], o->dst);
    case PPM:
        return parse_ppm(v, o->dst);
    case TOKEN:
        return parse_word(v, token_places, sizeof token_places / sizeof token_places[0], o->dst);
    case FORM:
        if (parse_word(v, forms, sizeof forms / sizeof forms[0], o->dst) == 0)
            return 0;
        return parse_count(v, INT_MAX, o->dst);
    case MODEL: {
        struct prof_model m;
        if (prof_model_parse(v, &m) != 0 || strlen(v) >= o->size)
            return -1;
        /* A placement that cannot hold the job's ranks, when the launcher
         * says how many (before MPI_Init; the model's start checks again). */
        const char *np = getenv("OMPI_COMM_WORLD_SIZE") ? getenv("OMPI_COMM_WORLD_SIZE") : getenv("PMI_SIZE");
        long size = np ? strtol(np, NULL, 10) : 0;
        if (size > 0 && size <= INT_MAX && prof_model_place(&m, (int)size, NULL) != 0)
            return -1;
        strcpy(o->dst, v);
        return 0;
    }
    case VIA: {
        static char libs[PROF_VIA_LIST_MAX], funcs[PROF_VIA_LIST_MAX];
        if (strlen(v) >= o->size || prof_via_patterns(v, libs, funcs) != 0)
            return -1;
        strcpy(o->dst, v);
        return 0;
    }
    case FUNCS:
        if (strlen(v) >= o->size || parse_functions(v, enabled, nfn) != 0)
            return -1;
        strcpy(o->dst, v);
        return 0;
    }
    return -1;
}

/* The default as the messages name it: quoted, or what an empty one means. */
static const char *default_text(const struct option *o, char *buf, size_t size)
{
    if (o->def[0])
        snprintf(buf, size, "'%s'", o->def);
    else
        snprintf(buf, size, "%s", o->kind == FUNCS ? "(every MPI function)" : o->kind == MODEL ? "(no model)" : "(none)");
    return buf;
}

/* The module whose switch MPIPROF_<option> is name (len bytes), or -1. */
static int module_named(const char *name, size_t len)
{
    for (int m = 0; prof_modules[m] && m < PROF_MODULES_MAX; m++)
        if (prof_modules[m]->option && len == 8 + strlen(prof_modules[m]->option) &&
            strncmp(name + 8, prof_modules[m]->option, len - 8) == 0)
            return m;
    return -1;
}

/* A module's switch (a yes/no value, default no): 0, or -1 when bad. */
static int module_switch(int m, const char *name, const char *value, char *options, size_t size)
{
    bool yes;
    if (parse_bool(value, &yes) != 0) {
        complain("%s='%s' is not valid; expected 0/1, no/yes, off/on, false/true; using the default '0'", name,
                 value);
        return -1;
    }
    prof_module_asked[m] = yes;
    size_t n = strlen(options);
    snprintf(options + n, size - n, "%s%s=%s", n ? ";" : "", prof_modules[m]->option, value);
    return 0;
}

void prof_config_load(unsigned char *enabled, int nfn)
{
    extern char **environ;
    unsigned char scratch[PROF_FN_COUNT];
    const char *given[NOPTIONS] = { 0 };
    char def[64], modules_given[256] = "";

    memset(&prof_config, 0, sizeof prof_config);
    memset(prof_module_asked, 0, sizeof prof_module_asked);
    for (int m = 0; prof_modules[m] && m < PROF_MODULES_MAX; m++)
        prof_module_asked[m] = !prof_modules[m]->option;   /* always on */
    for (size_t i = 0; i < NOPTIONS; i++)
        parse(&options[i], options[i].def, scratch, nfn);
    memset(enabled, 1, (size_t)nfn);

    for (char **e = environ; *e; e++) {
        if (strncmp(*e, "MPIPROF_", 8) != 0)
            continue;
        const char *eq = strchr(*e, '=');
        size_t len = eq ? (size_t)(eq - *e) : strlen(*e);
        const char *value = eq ? eq + 1 : "";
        const struct option *o = NULL;
        for (size_t i = 0; i < NOPTIONS; i++)
            if (strlen(options[i].name) == len && strncmp(options[i].name, *e, len) == 0)
                o = &options[i];
        int m = o ? -1 : module_named(*e, len);
        if (m >= 0) {
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)len, *e);
            module_switch(m, name, value, modules_given, sizeof modules_given);
            continue;
        }
        if (!o) {
            char known[1024] = "";
            for (size_t i = 0; i < NOPTIONS; i++)    /* the testing and the launcher's own not offered */
                if (strncmp(options[i].name, "MPIPROF_TEST_", 13) != 0 && !launchers(&options[i]))
                    snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", known[0] ? ", " : "",
                             options[i].name);
            for (int k = 0; prof_modules[k] && k < PROF_MODULES_MAX; k++)
                if (prof_modules[k]->option)
                    snprintf(known + strlen(known), sizeof known - strlen(known), ", MPIPROF_%s", prof_modules[k]->option);
            complain("unknown variable %.*s (value '%s') ignored; known variables: %s", (int)len, *e, value,
                     known);
            continue;
        }
        if (value[0] == '\0' && o->kind != STRING && o->kind != VIA) {
            complain("%s is empty; expected %s; using the default %s", o->name, o->accepted,
                     default_text(o, def, sizeof def));
            continue;
        }
        if (parse(o, value, enabled, nfn) != 0) {
            const char *why = o->kind == MODEL ? prof_model_why() : "";
            complain("%s='%s' is not valid%s%s%s; expected %s; using the default %s", o->name, value,
                     why[0] ? " (" : "", why, why[0] ? ")" : "", o->accepted, default_text(o, def, sizeof def));
            parse(o, o->def, scratch, nfn);
            if (o->kind == FUNCS)
                memset(enabled, 1, (size_t)nfn);
            continue;
        }
        given[o - options] = value;
    }
    /* The options in force, for report headers; the launcher's PRELOAD is not one. */
    for (size_t i = 0; i < NOPTIONS; i++) {
        size_t n = strlen(prof_config.options);
        if (given[i] && options[i].dst != prof_config.preload && !launchers(&options[i]))
            snprintf(prof_config.options + n, sizeof prof_config.options - n, "%s%s=%s",
                     n ? ";" : "", options[i].name + strlen("MPIPROF_"), given[i]);
    }
    if (modules_given[0]) {
        size_t n = strlen(prof_config.options);
        snprintf(prof_config.options + n, sizeof prof_config.options - n, "%s%s", n ? ";" : "", modules_given);
    }
}
