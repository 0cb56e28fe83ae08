/* log_util.c - small helpers shared by the `pct logs` files. */
#define _DEFAULT_SOURCE /* madvise */

#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "log_oom.h"
#include "log_util.h"

_Noreturn void fatal(const char *what, const char *detail)
{
    cli_fatal("pct logs", what, detail);
}

_Thread_local struct log_oom_point *log_oom_current;

_Noreturn void log_oom_jump(int why)
{
    struct log_oom_point *pt = log_oom_current;
    if (pt == NULL)
        fatal(why == LOG_FAULT_OOM ? "out of memory" : "internal decoding error", NULL);
    log_oom_current = pt->outer;
    pt->why = why;
    longjmp(pt->jump, 1);
}

/* Counted down by each xrealloc while positive (tests only): buffers grow
 * rarely, so the atomic costs nothing that shows. */
static _Atomic long fail_countdown;

void log_oom_fail_at(long n)
{
    atomic_store(&fail_countdown, n > 0 ? n : 0);
}

void *xrealloc(void *p, size_t size)
{
    if (atomic_load_explicit(&fail_countdown, memory_order_relaxed) > 0 &&
        atomic_fetch_sub(&fail_countdown, 1) == 1)
        log_oom_jump(LOG_FAULT_OOM);
    void *q = realloc(p, size > 0 ? size : 1);
    if (q == NULL)
        log_oom_jump(LOG_FAULT_OOM);
    return q;
}

/* Maps in the whole pages of [p, p + n) at once, ready to be written: on
 * some VMs a page fault costs ~10 us (measured here), and a buffer of a few
 * hundred KiB that is about to be filled would take one per page; asked for
 * in one call, the pages cost ~0.5 us each. Only a speed-up: on a kernel
 * without MADV_POPULATE_WRITE (before 5.14) nothing is done. */
static void populate(char *p, size_t n)
{
#if defined(MADV_POPULATE_WRITE)
    /* Asked every time: buffers grow rarely, glibc answers from memory, and a
     * cached static would be written by several worker threads at once. */
    const long size = sysconf(_SC_PAGESIZE);
    const uintptr_t page = size > 0 ? (uintptr_t)size : 4096;
    const uintptr_t from = ((uintptr_t)p + page - 1) & ~(page - 1);
    const uintptr_t to = ((uintptr_t)p + n) & ~(page - 1);
    if (to > from)
        (void)madvise((void *)from, to - from, MADV_POPULATE_WRITE);
#else
    (void)p;
    (void)n;
#endif
}

/* How much of a grown buffer is populated: what was asked for, up to
 * POPULATE_MOST (callers reserve for the worst case, 13 times a line for
 * instance, and use much less), and at least the next POPULATE_LEAST bytes
 * (most buffers reserve a line's room at a time, and fill far more). */
#define POPULATE_LEAST ((size_t)128 << 10)
#define POPULATE_MOST ((size_t)1 << 20)

void buf_grow(struct buf *b, size_t extra)
{
    size_t cap = b->cap > 0 ? b->cap : 65536;
    while (cap - b->len < extra)
        cap *= 2;
    b->data = xrealloc(b->data, cap);
    b->cap = cap;
    size_t n = extra < POPULATE_LEAST  ? POPULATE_LEAST
               : extra > POPULATE_MOST ? POPULATE_MOST
                                       : extra;
    populate(b->data + b->len, n < cap - b->len ? n : cap - b->len);
}

double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The lines a failed write got out: those counted, and the newlines in the
 * part written. */
static void sink_failed(struct log_sink *k, int err, const char *p, size_t written)
{
    uint64_t lines = k->lines;
    for (const char *e = p + written; (p = memchr(p, '\n', (size_t)(e - p))) != NULL; p++)
        lines++;
    const char *s = lines == 1 ? "" : "s";
    k->failed = 1;
    if (k->fd < 0)
        snprintf(k->error, sizeof k->error,
                 "output callback failed (%d), after %llu line%s; stopped", err,
                 (unsigned long long)lines, s);
    else if (err == EPIPE)
        snprintf(k->error, sizeof k->error,
                 "output closed (broken pipe) after %llu line%s; stopped",
                 (unsigned long long)lines, s);
    else
        snprintf(k->error, sizeof k->error, "write error: %s, after %llu line%s; stopped",
                 strerror(err), (unsigned long long)lines, s);
}

int sink_write(struct log_sink *k, const char *p, size_t n, uint64_t lines)
{
    if (k->failed)
        return -1;
    if (k->fd < 0) {
        int status = k->fn(k->ctx, p, n, lines);
        if (status != 0) {
            sink_failed(k, status, p, 0);
            return -1;
        }
    } else {
        for (size_t done = 0; done < n;) {
            ssize_t got = write(k->fd, p + done, n - done);
            if (got < 0) {
                if (errno == EINTR)
                    continue;
                sink_failed(k, errno, p, done);
                return -1;
            }
            done += (size_t)got;
        }
    }
    k->lines += lines;
    return 0;
}

const char *log_quote_name(char out[LOG_QUOTED_NAME_MAX], const char *name)
{
    static const char hex[] = "0123456789abcdef";
    size_t o = 0;
    for (const unsigned char *p = (const unsigned char *)name; *p != '\0'; p++) {
        if (o + 8 + 4 >= LOG_QUOTED_NAME_MAX) { /* the longest escape, "...", NUL */
            memcpy(out + o, "...", 3);
            o += 3;
            break;
        }
        int c1 = p[0] == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F;
        if (*p == '\\') {
            out[o++] = '\\';
            out[o++] = '\\';
        } else if (*p < 0x20 || *p == 0x7f || c1) {
            for (int k = 0; k <= c1; k++) {
                out[o++] = '\\';
                out[o++] = 'x';
                out[o++] = hex[p[k] >> 4];
                out[o++] = hex[p[k] & 15];
            }
            p += c1;
        } else {
            out[o++] = (char)*p;
        }
    }
    out[o] = '\0';
    return out;
}
