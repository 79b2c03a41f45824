/* log.c: diagnostics, one line each, on stderr (cold). Each line is
 * formatted into a buffer and written with one write(2), so another rank's
 * or the program's own output cannot land inside it. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>
#include "log.h"

static int world_rank = -1;

void prof_log_set_rank(int rank)
{
    world_rank = rank;
}

size_t prof_log_format(char *buf, size_t size, const char *prefix, const char *fmt, va_list ap)
{
    int n = snprintf(buf, size, "%s", prefix);
    size_t len = n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
    n = vsnprintf(buf + len, size - len, fmt, ap);
    len += n < 0 ? 0 : (size_t)n < size - len ? (size_t)n : size - len - 1;
    if (len == size - 1)
        len--;              /* keep room for the newline of a truncated line */
    buf[len++] = '\n';
    buf[len] = '\0';
    return len;
}

static void write_line(const char *prefix, const char *fmt, va_list ap)
{
    char line[PROF_LOG_LINE];
    size_t len = prof_log_format(line, sizeof line, prefix, fmt, ap);
    for (size_t done = 0; done < len;) {
        ssize_t w = write(STDERR_FILENO, line + done, len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        done += (size_t)w;
    }
}

void prof_log_once(const char *fmt, ...)
{
    va_list ap;
    if (world_rank != 0)
        return;
    va_start(ap, fmt);
    write_line("mpiprof: ", fmt, ap);
    va_end(ap);
}

void prof_log_local(const char *fmt, ...)
{
    char prefix[48];
    va_list ap;
    snprintf(prefix, sizeof prefix, "mpiprof: rank %d: ", world_rank);
    va_start(ap, fmt);
    write_line(prefix, fmt, ap);
    va_end(ap);
}
