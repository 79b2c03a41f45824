/* buf.h: a growable text buffer for report rows (cold). On no memory it
 * keeps what it has and sets failed, which the report then states. */
#ifndef PROF_BUF_H
#define PROF_BUF_H

#include <stddef.h>

struct prof_buf {
    char *p;
    size_t len, cap;
    int failed;
};

void prof_buf_printf(struct prof_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void prof_buf_free(struct prof_buf *b);

#endif
