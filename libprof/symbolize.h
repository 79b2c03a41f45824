/* symbolize.h: return addresses -> module+offset (the identity of a frame,
 * equal on every rank whatever ASLR did), function name and, where debug
 * information exists (elfutils libdw), source file and line. Cold: used
 * once per distinct address at MPI_Finalize. */
#ifndef PROF_SYMBOLIZE_H
#define PROF_SYMBOLIZE_H

#include <stdint.h>

struct prof_frame_info {
    char module[256];      /* basename of the executable or library, "?" if unknown */
    uint64_t offset;       /* of the return address from the module's load address */
    char func[256];        /* function name, "" if unknown */
    char file[512];        /* source file (basename), "" if unknown */
    int line;              /* 0 if unknown */
};

/* prof_symbolize_begin/end: open and close the symbol sources (libdw's
 * view of this process). Not thread safe. */
void prof_symbolize_begin(void);
void prof_symbolize_end(void);

/* prof_symbolize: describe the return address addr. */
void prof_symbolize(void *addr, struct prof_frame_info *out);

/* prof_frame_text: "func@file:line", else "func@module+0xoff", else
 * "module+0xoff": one token, no spaces. */
void prof_frame_text(const struct prof_frame_info *fi, char *buf, unsigned size);

#endif
