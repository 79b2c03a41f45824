/* elfsyms.c: the function symbols of an ELF file (elfsyms.h; cold). The
 * header, the section headers and one symbol table with its strings are
 * read with pread (no mapping: unmapping a file costs every thread of the
 * process a TLB flush, ~0.3 ms a module here), every offset checked
 * against the file's size: a truncated or foreign file gives -1. */
#define _GNU_SOURCE            /* ElfW */
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "elfsyms.h"

/* n bytes at off of the file, malloc'd; NULL when out of the file. */
static void *load(int fd, uint64_t size, uint64_t off, uint64_t n)
{
    if (off > size || n > size - off || n == 0)
        return NULL;
    char *p = malloc((size_t)n);
    for (size_t got = 0; p && got < n;) {
        ssize_t r = pread(fd, p + got, (size_t)n - got, (off_t)(off + got));
        if (r <= 0) {
            free(p);
            return NULL;
        }
        got += (size_t)r;
    }
    return p;
}

/* The functions of the symbol table section of type want, or -1. */
static int walk(int fd, uint64_t size, const ElfW(Shdr) *sh, unsigned nsh, uint32_t want,
                void (*each)(void *, const char *, uintptr_t, size_t), void *ctx)
{
    for (unsigned i = 0; i < nsh; i++) {
        if (sh[i].sh_type != want || sh[i].sh_link >= nsh || sh[i].sh_entsize != sizeof(ElfW(Sym)))
            continue;
        const ElfW(Shdr) *st = &sh[sh[i].sh_link];
        ElfW(Sym) *sym = load(fd, size, sh[i].sh_offset, sh[i].sh_size);
        char *names = load(fd, size, st->sh_offset, st->sh_size);
        int n = -1;
        if (sym && names && names[st->sh_size - 1] == '\0') {
            n = 0;
            for (size_t k = 0; k < sh[i].sh_size / sizeof *sym; k++) {   /* st_info & 0xf: the type, in both classes */
                if ((sym[k].st_info & 0xf) != STT_FUNC || sym[k].st_shndx == SHN_UNDEF || !sym[k].st_size ||
                    sym[k].st_name >= st->sh_size)
                    continue;
                each(ctx, names + sym[k].st_name, (uintptr_t)sym[k].st_value, (size_t)sym[k].st_size);
                n++;
            }
        }
        free(sym);
        free(names);
        return n;
    }
    return -1;
}

int prof_elf_functions(const char *path, void (*each)(void *ctx, const char *name, uintptr_t value, size_t size),
                       void *ctx)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat sb;
    ElfW(Ehdr) eh;
    ElfW(Shdr) *sh = NULL;
    int n = -1;
    if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && pread(fd, &eh, sizeof eh, 0) == (ssize_t)sizeof eh &&
        memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 &&
        eh.e_ident[EI_CLASS] == (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32) &&
        eh.e_shentsize == sizeof *sh &&
        (sh = load(fd, (uint64_t)sb.st_size, eh.e_shoff, (uint64_t)eh.e_shnum * sizeof *sh)) != NULL) {
        n = walk(fd, (uint64_t)sb.st_size, sh, eh.e_shnum, SHT_SYMTAB, each, ctx);
        if (n < 0)
            n = walk(fd, (uint64_t)sb.st_size, sh, eh.e_shnum, SHT_DYNSYM, each, ctx);
    }
    free(sh);
    close(fd);
    return n;
}
