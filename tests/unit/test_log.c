/* test_log.c: a diagnostic is one line written with one write(2): stderr is
 * a SOCK_SEQPACKET socket, where each write(2) is one record and one read(2)
 * returns one record, so a line written in pieces shows up cut. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "log.h"

static int failures;
#define CHECK(cond) do { if (!(cond)) { printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); failures++; } } while (0)

static size_t format(char *buf, size_t size, const char *prefix, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t n = prof_log_format(buf, size, prefix, fmt, ap);
    va_end(ap);
    return n;
}

/* The first record on the socket into text, or "" when there is none. */
static const char *record(int fd, char *text)
{
    ssize_t n = recv(fd, text, 2 * PROF_LOG_LINE - 1, MSG_DONTWAIT);
    text[n > 0 ? n : 0] = '\0';
    return text;
}

int main(void)
{
    static char got[2 * PROF_LOG_LINE], none[2 * PROF_LOG_LINE], cut[2 * PROF_LOG_LINE], after[2 * PROF_LOG_LINE];
    char buf[64];
    CHECK(format(buf, sizeof buf, "mpiprof: ", "%s=%d", "a", 5) == 13);
    CHECK(strcmp(buf, "mpiprof: a=5\n") == 0);
    /* Too long: cut, still one line ending in a newline. */
    CHECK(format(buf, 16, "mpiprof: ", "%s", "0123456789") == 15);
    CHECK(strcmp(buf, "mpiprof: 01234\n") == 0);
    CHECK(format(buf, 8, "mpiprof: ", "%s", "x") == 7);
    CHECK(strcmp(buf, "mpipro\n") == 0);

    int sv[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv) != 0) {
        perror("socketpair");
        return 1;
    }
    int saved = dup(2);
    dup2(sv[0], 2);
    prof_log_set_rank(3);
    prof_log_local("cannot %s '%s'", "write", "x/y");
    record(sv[1], got);
    prof_log_once("not rank 0: %d", 1);
    record(sv[1], none);
    prof_log_set_rank(0);
    char big[PROF_LOG_LINE * 2];
    memset(big, 'z', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    prof_log_once("%s", big);
    record(sv[1], cut);
    size_t cut_len = strlen(cut);
    int cut_ok = cut_len == PROF_LOG_LINE - 1 && strncmp(cut, "mpiprof: zzz", 12) == 0 && cut[cut_len - 1] == '\n';
    record(sv[1], after);
    dup2(saved, 2);
    close(saved);
    CHECK(strcmp(got, "mpiprof: rank 3: cannot write 'x/y'\n") == 0);
    CHECK(strcmp(none, "") == 0);
    CHECK(cut_ok);
    CHECK(strcmp(after, "") == 0);
    if (failures)
        printf("got '%s'\n", got);
    printf("%s\n", failures ? "FAILED" : "ok");
    return failures != 0;
}
