/* test_elfsyms.c: the functions of elfsyms.h, read from this test's own
 * file: a static function is found (only .symtab has it) at its address
 * less the load bias, with its size, and a symbol that is not a function
 * is not; a file that is not ELF, a missing one and a truncated copy of
 * this one give -1, without a fault. */
#define _GNU_SOURCE            /* dl_iterate_phdr */
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "elfsyms.h"

static int failures;
#define CHECK(cond) do { if (!(cond)) { printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); failures++; } } while (0)

int elfsyms_test_data = 1;

__attribute__((noinline)) static int probe_function(int x)
{
    return x * 3 + elfsyms_test_data;
}

struct seen {
    uintptr_t probe, data;     /* values found; 0: not */
    size_t probe_size;
    int n;
};

static void each(void *ctx, const char *name, uintptr_t value, size_t size)
{
    struct seen *s = ctx;
    s->n++;
    if (strncmp(name, "probe_function", 14) == 0 && (name[14] == '\0' || name[14] == '.')) {
        s->probe = value;
        s->probe_size = size;
    }
    if (strcmp(name, "elfsyms_test_data") == 0)
        s->data = value;
}

static int bias_of(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    *(uintptr_t *)data = info->dlpi_addr;
    return 1;     /* the first module: the program */
}

int main(void)
{
    struct seen s = { 0 };
    uintptr_t bias = 0;
    dl_iterate_phdr(bias_of, &bias);
    int n = prof_elf_functions("/proc/self/exe", each, &s);
    CHECK(n > 0 && n == s.n);
    CHECK(s.probe + bias == (uintptr_t)probe_function);
    CHECK(s.probe_size > 0 && s.probe_size < 4096);
    CHECK(s.data == 0);
    CHECK(probe_function(1) == 4);

    struct seen none = { 0 };
    CHECK(prof_elf_functions("/nonexistent/elf", each, &none) == -1 && none.n == 0);
    CHECK(prof_elf_functions("/dev/null", each, &none) == -1 && none.n == 0);
    char path[] = "/tmp/test_elfsyms.XXXXXX";
    FILE *f = fdopen(mkstemp(path), "w");
    CHECK(f && fputs("not an ELF file\n", f) >= 0);
    if (f)
        fclose(f);
    CHECK(prof_elf_functions(path, each, &none) == -1 && none.n == 0);

    /* This file cut in half: its section headers (at the end) are gone. */
    FILE *in = fopen("/proc/self/exe", "rb");
    f = fopen(path, "wb");
    char *buf = malloc(1 << 24);
    size_t got = in && buf ? fread(buf, 1, 1 << 24, in) : 0;
    CHECK(got > 1024 && f && fwrite(buf, 1, got / 2, f) == got / 2);
    if (f)
        fclose(f);
    if (in)
        fclose(in);
    free(buf);
    CHECK(prof_elf_functions(path, each, &none) == -1 && none.n == 0);
    remove(path);

    printf("%s: %d failures\n", __FILE__, failures);
    return failures != 0;
}
