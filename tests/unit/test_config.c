/* test_config.c: MPIPROF_* parsing: defaults, valid values, bad values fall
 * back to the default, unknown names are ignored, the options string lists
 * what is in force, MPIPROF_FUNCTIONS selects by glob, a module's switch
 * (a module list of two, FAKE with a switch and ALWAYS without, standing
 * in for modules.c's), MPIPROF_VIA's library and function patterns
 * (via_patterns.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "config.h"
#include "fn_table.h"
#include "log.h"
#include "model.h"
#include "module.h"
#include "via_patterns.h"

static const struct prof_module fake = { .name = "fake", .option = "FAKE" };
static const struct prof_module always = { .name = "always" };
const struct prof_module *const prof_modules[] = { &fake, &always, NULL };

static int failures;
#define CHECK(cond) do { if (!(cond)) { printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); failures++; } } while (0)

static unsigned char on[PROF_FN_COUNT];

static int fn(const char *name)
{
    for (int f = 0; f < PROF_FN_COUNT; f++)
        if (strcmp(prof_fn_name[f], name) == 0)
            return f;
    printf("FAIL: no function %s\n", name);
    exit(1);
}

static void clear(void)
{
    const char *names[] = { "MPIPROF_OUTPUT", "MPIPROF_STACK_DEPTH", "MPIPROF_FUNCTIONS", "MPIPROF_QUIET",
                            "MPIPROF_EVAL_SLT", "MPIPROF_EVAL_COLLECTIVE_WAIT", "MPIPROF_MODEL",
                            "MPIPROF_PRELOAD", "MPIPROF_NOSUCH", "MPIPROF_FAKE", "MPIPROF_VIA" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        unsetenv(names[i]);
}

/* Load the configuration; return what it printed on stderr. */
static int near(double a, double b)
{
    double d = a > b ? a - b : b - a;
    return d <= 1e-12 * (a > b ? a : b);
}

static const char *load(void)
{
    static char text[8192];
    FILE *tmp = tmpfile();
    fflush(stderr);
    int saved = dup(2);
    dup2(fileno(tmp), 2);
    prof_config_load(on, PROF_FN_COUNT);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    size_t n = fread(text, 1, sizeof text - 1, tmp);
    text[n] = '\0';
    fclose(tmp);
    return text;
}

int main(void)
{
    prof_log_set_rank(0);

    clear();
    load();
    CHECK(prof_config.stack_depth == 1);
    CHECK(!prof_config.quiet);
    CHECK(prof_config.output[0] == '\0');
    CHECK(strcmp(prof_config.options, "") == 0);
    CHECK(on[fn("MPI_Send")] && on[fn("MPI_Allreduce")]);

    clear();
    setenv("MPIPROF_STACK_DEPTH", "5", 1);
    setenv("MPIPROF_QUIET", "yes", 1);
    setenv("MPIPROF_OUTPUT", "/tmp/x", 1);
    load();
    CHECK(prof_config.stack_depth == 5);
    CHECK(prof_config.quiet);
    CHECK(strcmp(prof_config.output, "/tmp/x") == 0);
    CHECK(strcmp(prof_config.options, "OUTPUT=/tmp/x;STACK_DEPTH=5;QUIET=yes") == 0);

    const char *bad_depth[] = { "banana", "0", "33", "-1", "2x", "" };
    for (size_t i = 0; i < sizeof bad_depth / sizeof bad_depth[0]; i++) {
        clear();
        setenv("MPIPROF_STACK_DEPTH", bad_depth[i], 1);
        load();
        CHECK(prof_config.stack_depth == 1);
        CHECK(strstr(prof_config.options, "STACK_DEPTH") == NULL);
    }

    clear();
    setenv("MPIPROF_STACK_DEPTH", "banana", 1);
    CHECK(strcmp(load(), "mpiprof: MPIPROF_STACK_DEPTH='banana' is not valid; expected an integer "
                         "from 1 to 32; using the default '1'\n") == 0);

    clear();
    setenv("MPIPROF_NOSUCH", "1", 1);
    const char *unknown = load();
    CHECK(strstr(unknown, "mpiprof: unknown variable MPIPROF_NOSUCH (value '1') ignored; known variables: "
                          "MPIPROF_OUTPUT, MPIPROF_STACK_DEPTH") != NULL);
    CHECK(strstr(unknown, "MPIPROF_TEST_") == NULL);      /* the testing variables are not offered */

    clear();
    setenv("MPIPROF_QUIET", "maybe", 1);
    CHECK(strstr(load(), "MPIPROF_QUIET='maybe' is not valid") != NULL);
    CHECK(!prof_config.quiet);

    /* Only rank 0 speaks. */
    prof_log_set_rank(1);
    clear();
    setenv("MPIPROF_NOSUCH", "1", 1);
    CHECK(strcmp(load(), "") == 0);
    prof_log_set_rank(0);

    clear();
    setenv("MPIPROF_FUNCTIONS", "MPI_Send,MPI_*reduce,MPI_Nosuch", 1);
    load();
    CHECK(on[fn("MPI_Send")] && on[fn("MPI_Allreduce")] && on[fn("MPI_Reduce")]);
    CHECK(!on[fn("MPI_Recv")] && !on[fn("MPI_Barrier")] && !on[fn("MPI_Isend")]);

    clear();
    setenv("MPIPROF_FUNCTIONS", "MPI_Nosuch", 1);
    /* nothing selected: the message names what an empty default means */
    CHECK(strstr(load(), "MPIPROF_FUNCTIONS='MPI_Nosuch' is not valid; expected a comma-separated list of MPI "
                         "function names or globs, e.g. MPI_Send,MPI_*reduce*; using the default (every MPI "
                         "function)\n") != NULL);
    CHECK(on[fn("MPI_Send")] && on[fn("MPI_Recv")]);

    /* MPIPROF_VIA: items with .so are library file names, the others
     * function names and file names; + adds to the default lists, none
     * empties both. */
    {
        static char libs[PROF_VIA_LIST_MAX], funcs[PROF_VIA_LIST_MAX];
        struct prof_via_set set;
        CHECK(prof_via_patterns("libfoo*.so*,Foo_*", libs, funcs) == 0);
        CHECK(strcmp(libs, "libfoo*.so*,Foo_*") == 0 && strcmp(funcs, "Foo_*") == 0);
        CHECK(prof_via_patterns("+Foo_*,libbar.so.1", libs, funcs) == 0);
        CHECK(strncmp(libs, "libmpi.so*,", 11) == 0 && strstr(libs, ",libbar.so.1") != NULL);
        CHECK(strncmp(funcs, "H5*,", 4) == 0 && strstr(funcs, ",Foo_*") != NULL);
        CHECK(prof_via_patterns("none", libs, funcs) == 0 && !libs[0] && !funcs[0]);
        const char *bad_via[] = { "H5::*", "a,,b", "+", "none,H5*", "dir/libx.so", "H5*,", "f(x)" };
        for (size_t i = 0; i < sizeof bad_via / sizeof bad_via[0]; i++)
            CHECK(prof_via_patterns(bad_via[i], libs, funcs) == -1);
        prof_via_patterns("", libs, funcs);
        prof_via_set_make(&set, funcs);
        const char *yes[] = { "H5FD__mpio_write", "H5Dwrite", "MatMult", "PetscSFBcast", "_ZN5boost3mpi4comm4sendEv",
                              "ncmpio_file_write", "fftw_mpi_execute_r2r" };
        const char *no[] = { "write_block", "main", "Matrix_mult", "h5_write", "", "_ZN3foo3MPIEv", "Mat" };
        for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
            CHECK(prof_via_match(&set, yes[i]));
        for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
            CHECK(!prof_via_match(&set, no[i]));
        prof_via_set_free(&set);
        prof_via_set_make(&set, "lib_*,exact,*_mpi_x,[ab]c?");
        CHECK(prof_via_match(&set, "lib_meta") && prof_via_match(&set, "exact") && !prof_via_match(&set, "exactly"));
        CHECK(prof_via_match(&set, "foo_mpi_x") && prof_via_match(&set, "bcd") && !prof_via_match(&set, "cc"));
        prof_via_set_free(&set);
    }
    clear();
    setenv("MPIPROF_VIA", "H5::*", 1);
    CHECK(strstr(load(), "MPIPROF_VIA='H5::*' is not valid; expected none, or a comma-separated list of library "
                         "file name patterns") != NULL);
    CHECK(prof_config.via[0] == '\0');
    clear();
    setenv("MPIPROF_VIA", "+H5*,libfoo.so*", 1);
    CHECK(strcmp(load(), "") == 0 && strcmp(prof_config.via, "+H5*,libfoo.so*") == 0);
    clear();
    setenv("MPIPROF_VIA", "", 1);
    CHECK(strcmp(load(), "") == 0 && prof_config.via[0] == '\0');

    /* Models: accepted and listed, each read as the numbers it says. */
    const struct {
        const char *text;
        struct {
            int perfect;
            double lat, bw, cpu, o, g, eager;
        } m;
    } models_ok[] = {
        { "PERFECT", { 1, 0, 0, 1, 0, 0, PROF_MODEL_EAGER } },
        { "perfect+2.5", { 1, 0, 0, 2.5, 0, 0, PROF_MODEL_EAGER } },
        { "Perfect,CPU=0.5", { 1, 0, 0, 0.5, 0, 0, PROF_MODEL_EAGER } },
        { "LAT=1.5,BW=1000", { 0, 1.5e-6, 1e9, 1, 0, 0, PROF_MODEL_EAGER } },
        { "bw=10,lat=0,cpu=0.5", { 0, 0, 1e7, 0.5, 0, 0, PROF_MODEL_EAGER } },
        { "lat=2,bw=100,o=0.5,G=3,Eager=0", { 0, 2e-6, 1e8, 1, 0.5e-6, 3e-6, 0 } },
    };
    for (size_t i = 0; i < sizeof models_ok / sizeof models_ok[0]; i++) {
        struct prof_model m;
        clear();
        setenv("MPIPROF_MODEL", models_ok[i].text, 1);
        CHECK(strcmp(load(), "") == 0);
        CHECK(strcmp(prof_config.model, models_ok[i].text) == 0 && strstr(prof_config.options, "MODEL=") != NULL);
        CHECK(prof_model_parse(models_ok[i].text, &m) == 0 && m.perfect == models_ok[i].m.perfect &&
              near(m.lat, models_ok[i].m.lat) && near(m.bw, models_ok[i].m.bw) && near(m.cpu, models_ok[i].m.cpu) &&
              near(m.o, models_ok[i].m.o) && near(m.g, models_ok[i].m.g) && near(m.eager, models_ok[i].m.eager));
    }
    const char *models_bad[] = { "warp9", "PERFECTO", "PERFECT+", "perfect,", "perfect,lat=1", "perfect+0",
                                 "LAT=1", "lat=-1,bw=1", "LAT=1,BW=0", "LAT=x,BW=1", "lat=,bw=1",
                                 "LAT=1,LAT=2,BW=1", "lat=1,bw=1,cpu=abc", "lat=1,bw=1,cpu=0", "lat=1,bw=1,",
                                 "perfect,o=1", "lat=1,bw=1,o=-1", "lat=1,bw=1,g=1,g=2", "lat=1,bw=1,eager=x",
                                 "perfect,netlat=1,netbw=1",
                                 "lat=1,bw=1,netlat=1,netbw=1,nodes=0", "lat=1,bw=1,netlat=1,netbw=1,nodes=1.5",
                                 "lat=1,bw=1,netlat=1,netbw=1,nodes=2,nodes=3", "lat=1,bw=1,netlat=1,netbw=0",
                                 "lat=1,bw=1,netlat=1,netbw=1,nodes=2,ppn=0" };
    for (size_t i = 0; i < sizeof models_bad / sizeof models_bad[0]; i++) {
        clear();
        setenv("MPIPROF_MODEL", models_bad[i], 1);
        char want[512];
        snprintf(want, sizeof want, "MPIPROF_MODEL='%s' is not valid; expected perfect, perfect+<cpu factor>, "
                 "perfect,cpu=<factor>, lat=<us>,bw=<MB/s>[,cpu=<factor>][,o=<us>][,g=<us>][,eager=<bytes>] or "
                 "table=<file>[,...], either with [,netlat=<us>,netbw=<MB/s> or ,nettable=<file>]"
                 "[,netg=<us>][,nodes=<n>[,ppn=<k>][,place=block|cyclic]]; using the default (no model)\n",
                 models_bad[i]);
        CHECK(strstr(load(), want) != NULL);
        CHECK(prof_config.model[0] == '\0' && strstr(prof_config.options, "MODEL") == NULL);
    }
    /* A placement refused: the message says why. */
    const struct {
        const char *text, *why;
    } places_bad[] = {
        { "lat=1,bw=1,nodes=2", "a placement (nodes=, ppn=, place=) needs the network between nodes" },
        { "lat=1,bw=1,netlat=1,netbw=1,ppn=2", "ppn= and place= need nodes=" },
        { "lat=1,bw=1,netlat=1,netbw=1,nodes=2,place=ring", "place=ring: the placement is block or cyclic" },
        { "lat=1,bw=1,netlat=1", "the network between nodes is netlat= with netbw=, or nettable=" },
        { "lat=1,bw=1,netbw=1", "the network between nodes is netlat= with netbw=, or nettable=" },
    };
    for (size_t i = 0; i < sizeof places_bad / sizeof places_bad[0]; i++) {
        clear();
        setenv("MPIPROF_MODEL", places_bad[i].text, 1);
        char want[512];
        snprintf(want, sizeof want, "MPIPROF_MODEL='%s' is not valid (%s", places_bad[i].text, places_bad[i].why);
        CHECK(strstr(load(), want) != NULL && prof_config.model[0] == '\0');
    }
    /* A placement that does not hold the job's ranks, as the launcher
     * gives their number: refused before MPI_Init, and fitting ones taken. */
    const struct {
        const char *size, *text, *why;
    } fits[] = {
        { "4", "lat=1,bw=1,netlat=1,netbw=1,nodes=3,ppn=1", "nodes=3 with ppn=1 holds 3 of the job's 4 ranks" },
        { "4", "lat=1,bw=1,netlat=1,netbw=1,nodes=5", "nodes=5 is more nodes than the job's 4 ranks" },
        { "4", "lat=1,bw=1,netlat=1,netbw=1,nodes=3", "nodes=3 with ppn=2 in blocks leaves nodes without ranks" },
        { "4", "lat=1,bw=1,netlat=1,netbw=1,nodes=3,place=cyclic", NULL },
        { "4", "lat=1,bw=1,netlat=1,netbw=1,nodes=2,ppn=2", NULL },
        { "8", "lat=1,bw=1,netlat=1,netbw=1,nodes=2,ppn=2", "nodes=2 with ppn=2 holds 4 of the job's 8 ranks" },
    };
    for (size_t i = 0; i < sizeof fits / sizeof fits[0]; i++) {
        clear();
        setenv("OMPI_COMM_WORLD_SIZE", fits[i].size, 1);
        setenv("MPIPROF_MODEL", fits[i].text, 1);
        const char *said = load();
        if (fits[i].why)
            CHECK(strstr(said, fits[i].why) != NULL && prof_config.model[0] == '\0');
        else
            CHECK(strcmp(said, "") == 0 && strcmp(prof_config.model, fits[i].text) == 0);
        unsetenv("OMPI_COMM_WORLD_SIZE");
    }
    /* A table that cannot be read: the message says why. */
    clear();
    setenv("MPIPROF_MODEL", "table=/nonexistent/t,cpu=2", 1);
    CHECK(strstr(load(), "MPIPROF_MODEL='table=/nonexistent/t,cpu=2' is not valid (cannot read table "
                         "/nonexistent/t: No such file or directory); expected perfect,") != NULL &&
          prof_config.model[0] == '\0');
    clear();
    setenv("MPIPROF_MODEL", "", 1);
    CHECK(strstr(load(), "MPIPROF_MODEL is empty; expected perfect,") != NULL && prof_config.model[0] == '\0');

    /* A module's switch: off by default, yes/no values, listed in the
     * options; a module without one is always asked for, and names no
     * variable. */
    clear();
    CHECK(strcmp(load(), "") == 0 && !prof_module_asked[0] && prof_module_asked[1] && !prof_module_asked[2]);
    setenv("MPIPROF_FAKE", "on", 1);
    setenv("MPIPROF_QUIET", "1", 1);
    CHECK(strcmp(load(), "") == 0 && prof_module_asked[0]);
    CHECK(strcmp(prof_config.options, "QUIET=1;FAKE=on") == 0);
    setenv("MPIPROF_FAKE", "maybe", 1);
    CHECK(strcmp(load(), "mpiprof: MPIPROF_FAKE='maybe' is not valid; expected 0/1, no/yes, off/on, false/true; "
                         "using the default '0'\n") == 0);
    CHECK(!prof_module_asked[0] && prof_module_asked[1] && strcmp(prof_config.options, "QUIET=1") == 0);
    clear();
    setenv("MPIPROF_NOSUCH", "1", 1);
    CHECK(strstr(load(), ", MPIPROF_PRELOAD, MPIPROF_FAKE\n") != NULL);     /* the modules' after the options' */

    printf("%s: %d failures\n", __FILE__, failures);
    return failures ? 1 : 0;
}
