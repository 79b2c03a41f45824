/* buf.c: growable text buffer (cold: report writing). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "buf.h"

void prof_buf_printf(struct prof_buf *b, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        size_t room = b->cap - b->len;
        va_start(ap, fmt);
        int n = vsnprintf(b->p ? b->p + b->len : NULL, room, fmt, ap);
        va_end(ap);
        if (n < 0 || b->failed)
            return;
        if ((size_t)n < room) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = b->cap ? b->cap : 4096;
        while (cap - b->len <= (size_t)n)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->failed = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
}

void prof_buf_free(struct prof_buf *b)
{
    free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
}
