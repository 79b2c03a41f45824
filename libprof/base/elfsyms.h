/* elfsyms.h: the functions an ELF file on disk names in its symbol table
 * (.symtab, else .dynsym when stripped), for core/via.c's function-name
 * patterns (cold: a module's first lookup). Reads the file, not the
 * loaded image: static functions are only in .symtab, which is never
 * loaded. Thread safe (no state). */
#ifndef PROF_ELFSYMS_H
#define PROF_ELFSYMS_H

#include <stddef.h>
#include <stdint.h>

/* prof_elf_functions: call each(ctx, name, value, size) for every defined
 * function symbol of non-zero size in the file at path (value as the file
 * says: add the module's load bias). Returns how many, or -1 when the file
 * cannot be read or is not an ELF file of this machine's class. */
int prof_elf_functions(const char *path, void (*each)(void *ctx, const char *name, uintptr_t value, size_t size),
                       void *ctx);

#endif
