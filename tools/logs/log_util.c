/* log_util.c - small helpers shared by the `pct logs` files. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "log_util.h"

_Noreturn void fatal(const char *what, const char *detail)
{
    cli_fatal("pct logs", what, detail);
}

void *xrealloc(void *p, size_t size)
{
    void *q = realloc(p, size > 0 ? size : 1);
    if (q == NULL)
        fatal("out of memory", NULL);
    return q;
}

void buf_grow(struct buf *b, size_t extra)
{
    size_t cap = b->cap > 0 ? b->cap : 65536;
    while (cap - b->len < extra)
        cap *= 2;
    b->data = xrealloc(b->data, cap);
    b->cap = cap;
}

double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static struct cli_output output;

void output_start(void)
{
    cli_output_start(&output, "pct logs", "line", '\n', STDOUT_FILENO, 0);
}

void write_out(const char *p, size_t n, uint64_t lines)
{
    cli_output_write(&output, p, n, lines);
}
