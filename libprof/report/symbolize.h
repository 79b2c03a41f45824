/* symbolize.h: return addresses -> a rank-independent identity (the
 * module's key and the offset from its load address, whatever ASLR did),
 * function name and, where debug information exists (elfutils libdw),
 * source file and line. Cold: used at MPI_Finalize (branch.c). */
#ifndef PROF_SYMBOLIZE_H
#define PROF_SYMBOLIZE_H

#include <stddef.h>
#include <stdint.h>

/* prof_fnv: FNV-1a of n bytes, continuing from h (PROF_FNV0 to start). */
#define PROF_FNV0 0xcbf29ce484222325ULL
static inline uint64_t prof_fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ s[i]) * 0x100000001b3ULL;
    return h;
}

/* The identity of a frame. module: a hash of the module's ELF build-id
 * (else of its path, size and modification time), so different binaries
 * never share a key and the same binary at another path or address does;
 * PROF_MODULE_ANON, offset 0, for code outside every module's mapped
 * segments (JIT code, anonymous mmap): one identity for all of it. */
struct prof_frame_id {
    uint64_t module;
    uint64_t offset;
};
#define PROF_MODULE_ANON 0
/* The module of every Python frame (python.h), whose offset is then a hash
 * of its function, file and line. */
#define PROF_MODULE_PYTHON 0x7079746f6eULL

struct prof_frame_info {
    char module[256];      /* basename of the executable or library, "[anon]" outside any, "python" */
    uint64_t offset;       /* of the return address from the module's load address */
    char func[256];        /* function name, "" if unknown */
    char file[512];        /* source file (basename), "" if unknown */
    int line;              /* 0 if unknown */
    char inlined[512];     /* func inlined: "(inlined_in_F@file:line)" for each function it was inlined
                              into, innermost first (libdw); "" if not */
};

/* prof_modules_begin/end: take and drop a snapshot of the loaded modules
 * and their mapped segments (dl_iterate_phdr; no file is read but a
 * module without build-id is stat'ed). Returns 0, or -1 when out of memory.
 * Not thread safe. */
int prof_modules_begin(void);
void prof_modules_end(void);

/* prof_frame_identify: the identity of the return address addr (between
 * prof_modules_begin and _end). */
void prof_frame_identify(void *addr, struct prof_frame_id *id);

/* prof_symbolize_begin/end: open and close the symbol sources (libdw's
 * view of this process), between prof_modules_begin and _end. Not thread
 * safe. */
void prof_symbolize_begin(void);
void prof_symbolize_end(void);

/* prof_symbolize: describe the return address addr. */
void prof_symbolize(void *addr, struct prof_frame_info *out);

/* prof_frame_text: "func@file:line" (followed by the inline chain, when
 * inlined), else "func@module+0xoff", else "module+0xoff", "[anon]"
 * outside any module: one token, no spaces. */
void prof_frame_text(const struct prof_frame_info *fi, char *buf, unsigned size);

#endif
