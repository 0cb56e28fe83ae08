/* cli.c - what the commands of the pct tool share. */
#define _GNU_SOURCE /* F_SETPIPE_SZ */

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "pct.h"

/* The output cli_fatal flushes, and whether it is already failing. */
static struct cli_output *current_output;
static int output_failing;

_Noreturn void cli_fatal(const char *prog, const char *what, const char *detail)
{
    /* What was made before the error goes out first, if it can. */
    struct cli_output *o = current_output;
    if (o != NULL && !output_failing && o->len > 0) {
        output_failing = 1;
        for (size_t done = 0; done < o->len;) {
            ssize_t got = write(o->fd, o->buf + done, o->len - done);
            if (got < 0 && errno == EINTR)
                continue;
            if (got <= 0)
                break;
            done += (size_t)got;
        }
        o->len = 0;
    }
    if (detail != NULL)
        fprintf(stderr, "%s: %s: %s\n", prog, what, detail);
    else
        fprintf(stderr, "%s: %s\n", prog, what);
    exit(CLI_EXIT_TROUBLE);
}

void cli_output_start(struct cli_output *o, const char *prog, const char *unit, char delimiter,
                      int fd, size_t cap)
{
    memset(o, 0, sizeof *o);
    o->prog = prog;
    o->unit = unit;
    o->delimiter = delimiter;
    o->fd = fd;
    if (cap > 0) {
        o->buf = malloc(cap);
        if (o->buf == NULL)
            cli_fatal(prog, "out of memory", NULL);
        o->cap = cap;
    }
#ifdef SIGPIPE
    signal(SIGPIPE, SIG_IGN);
#endif
    cli_widen_pipe(fd);
    current_output = o;
}

static _Noreturn void output_failed(struct cli_output *o, int err, const char *p, size_t written)
{
    unsigned long long units = o->units;
    for (const char *e = p + written; (p = memchr(p, o->delimiter, (size_t)(e - p))) != NULL; p++)
        units++;
    output_failing = 1;
    const char *s = units == 1 ? "" : "s";
    if (err == EPIPE)
        fprintf(stderr, "%s: output closed (broken pipe) after %llu %s%s; stopped\n", o->prog,
                units, o->unit, s);
    else
        fprintf(stderr, "%s: write error: %s, after %llu %s%s; stopped\n", o->prog, strerror(err),
                units, o->unit, s);
    exit(CLI_EXIT_TROUBLE);
}

void cli_output_write(struct cli_output *o, const char *p, size_t n, unsigned long long units)
{
    for (size_t done = 0; done < n;) {
        ssize_t got = write(o->fd, p + done, n - done);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            output_failed(o, errno, p, done);
        }
        done += (size_t)got;
    }
    o->units += units;
}

void cli_output_flush(struct cli_output *o)
{
    size_t n = o->len;
    o->len = 0; /* cli_fatal must not write it again */
    cli_output_write(o, o->buf, n, o->pending);
    o->pending = 0;
}

void cli_output_put(struct cli_output *o, const char *p, size_t n, unsigned long long units)
{
    if (o->cap - o->len < n) {
        cli_output_flush(o);
        if (n >= o->cap) {
            cli_output_write(o, p, n, units);
            return;
        }
    }
    memcpy(o->buf + o->len, p, n);
    o->len += n;
    o->pending += units;
}

void cli_output_end(struct cli_output *o)
{
    if (o->cap > 0)
        cli_output_flush(o);
    free(o->buf);
    o->buf = NULL;
    o->cap = 0;
    if (current_output == o)
        current_output = NULL;
}

void cli_print_implementations(FILE *stream)
{
    for (size_t i = 0; pct_implementation_name(i) != NULL; i++)
        fprintf(stream, "%s%s", i > 0 ? ", " : "", pct_implementation_name(i));
}

void cli_use_implementation(const char *prog, const char *name)
{
    if (pct_use_implementation(name) == 0)
        return;
    fprintf(stderr, "%s: unknown or unavailable implementation '%s' (available: ", prog, name);
    cli_print_implementations(stderr);
    fputs(")\n", stderr);
    exit(CLI_EXIT_TROUBLE);
}

void cli_widen_pipe(int fd)
{
#if defined(F_SETPIPE_SZ)
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode))
        (void)fcntl(fd, F_SETPIPE_SZ, 1 << 20);
#else
    (void)fd;
#endif
}

int cli_is_output_file(const struct stat *st)
{
    struct stat out;
    if (fstat(STDOUT_FILENO, &out) != 0 || !S_ISREG(out.st_mode) || !S_ISREG(st->st_mode))
        return 0;
    return out.st_dev == st->st_dev && out.st_ino == st->st_ino;
}
