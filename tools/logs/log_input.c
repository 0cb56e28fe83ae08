/* log_input.c - opening, reading and checking one input of `pct logs`. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "log_decompress.h"
#include "log_input.h"
#include "log_prefetch.h"

/* Enough to tell the content type, and to find a NUL in binary data. */
#define HEAD_BYTES ((size_t)64 << 10)

static void report(const struct log_input *in, const char *format, va_list args)
{
    char name[LOG_QUOTED_NAME_MAX];
    log_quote_name(name, in->name);
    if (in->notes != NULL) {
        struct buf *b = in->notes;
        va_list again;
        va_copy(again, args);
        int n = vsnprintf(NULL, 0, format, again);
        va_end(again);
        size_t head = strlen("pct logs: ") + strlen(name) + 2;
        buf_reserve(b, head + (size_t)(n > 0 ? n : 0) + 2);
        b->len += (size_t)snprintf(b->data + b->len, head + 1, "pct logs: %s: ", name);
        if (n > 0)
            b->len += (size_t)vsnprintf(b->data + b->len, (size_t)n + 1, format, args);
        b->data[b->len++] = '\n';
        return;
    }
    fprintf(stderr, "pct logs: %s: ", name);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
}

void log_input_fault(struct log_input *in, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    report(in, format, args);
    va_end(args);
    in->failed = 1;
}

void log_input_note(const struct log_input *in, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    report(in, format, args);
    va_end(args);
}

void log_input_read_failed(struct log_input *in, uint64_t at, int err)
{
    log_input_fault(in, "read error after %llu bytes: %s", (unsigned long long)(at - in->start),
                    strerror(err));
}

ssize_t log_input_read_raw(struct log_input *in, void *dst, size_t n)
{
    for (;;) {
        ssize_t got = read(in->fd, dst, n);
        if (got >= 0) {
            in->offset += (uint64_t)got;
            return got;
        }
        if (errno != EINTR) {
            log_input_read_failed(in, in->offset, errno);
            return -1;
        }
    }
}

ssize_t log_input_pread(const struct log_input *in, void *dst, size_t n, uint64_t at)
{
    size_t done = 0;
    while (done < n) {
        ssize_t got = pread(in->fd, (char *)dst + done, n - done, (off_t)(at + done));
        if (got == 0)
            break;
        if (got < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        done += (size_t)got;
    }
    return (ssize_t)done;
}

/* 1 if a read of fd would not wait. */
static int fd_ready(int fd)
{
    struct pollfd p = {fd, POLLIN, 0};
    return poll(&p, 1, 0) > 0;
}

/* Fills in->head with the first bytes (fewer at the end of the input; a
 * live input: what has come so far, at least one byte). */
static void read_head(struct log_input *in)
{
    buf_reserve(&in->head, HEAD_BYTES);
    while (in->head.len < HEAD_BYTES) {
        ssize_t got =
            log_input_read_raw(in, in->head.data + in->head.len, HEAD_BYTES - in->head.len);
        if (got <= 0) {
            in->eof = 1;
            return;
        }
        in->head.len += (size_t)got;
        /* A live input shows its first lines as they come. */
        if (!in->regular && (in->head.len >= 8 || memchr(in->head.data, '\n', in->head.len)) &&
            !fd_ready(in->fd))
            return;
    }
}

/* Text logs hold few control bytes (a stray NUL from a sparse copy, an
 * escape sequence in a user agent); random or binary data about one in ten. */
static int looks_binary(const char *p, size_t n)
{
    size_t controls = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        controls += (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != 0x1b) || c == 0x7f;
    }
    return controls * 32 > n;
}

static int starts_with(const struct buf *b, const char *magic, size_t n)
{
    return b->len >= n && memcmp(b->data, magic, n) == 0;
}

/* What the first bytes are. Returns 0 for text (or a supported compressed
 * format, set up), -1 after reporting what cannot be read. */
static int detect_type(struct log_input *in)
{
    const struct buf *h = &in->head;
    const char *what = NULL;
    if (starts_with(h, "\x1f\x8b", 2))
        return log_decompress_start(in, LOG_GZIP);
    if (starts_with(h, "\x28\xb5\x2f\xfd", 4))
        return log_decompress_start(in, LOG_ZSTD);
    if (starts_with(h,
                    "\xfd"
                    "7zXZ\0",
                    6))
        what = "xz";
    else if (starts_with(h, "BZh", 3))
        what = "bzip2";
    else if (starts_with(h, "\x5d\0\0", 3))
        what = "lzma";
    else if (starts_with(h, "\x04\x22\x4d\x18", 4))
        what = "lz4";
    else if (starts_with(h, "PK\x03\x04", 4))
        what = "zip";
    else if (looks_binary(h->data, h->len))
        what = "binary";
    if (what == NULL)
        return 0;
    log_input_fault(in, "%s data, not a text log: not read", what);
    return -1;
}

static int open_fd(struct log_input *in);

int log_input_open(struct log_input *in, const char *name, struct buf *notes)
{
    memset(in, 0, sizeof *in);
    in->notes = notes;
    in->is_stdin = strcmp(name, "-") == 0;
    in->name = in->is_stdin ? "standard input" : name;
    in->fd = STDIN_FILENO;
    if (!in->is_stdin) {
        in->fd = open(name, O_RDONLY);
        if (in->fd < 0) {
            log_input_fault(in, "%s", strerror(errno));
            return -1;
        }
    }
    return open_fd(in);
}

int log_input_open_fd(struct log_input *in, int fd, const char *name, struct buf *notes)
{
    memset(in, 0, sizeof *in);
    in->notes = notes;
    in->is_stdin = 1; /* read as stdin is: from where it is, never closed */
    in->name = name;
    in->fd = fd;
    return open_fd(in);
}

/* The rest of an open: what in->fd is, its first bytes, its content type. */
static int open_fd(struct log_input *in)
{
    struct stat st;
    int ok = 0;
    if (fstat(in->fd, &st) != 0) {
        log_input_fault(in, "%s", strerror(errno));
    } else if (S_ISDIR(st.st_mode)) {
        log_input_fault(in, "is a directory");
    } else if (cli_is_output_file(&st)) {
        log_input_fault(in, "input file is output file");
    } else {
        ok = 1;
    }
    if (!ok) {
        if (!in->is_stdin)
            close(in->fd);
        return -1;
    }
    in->regular = S_ISREG(st.st_mode);
    cli_widen_pipe(in->fd); /* a pipe: fewer, larger reads (and polls) */
    if (in->regular) {
        /* stdin may have been read before: start where it is. */
        off_t at = lseek(in->fd, 0, SEEK_CUR);
        in->start = in->offset = at > 0 ? (uint64_t)at : 0;
        in->size_at_open = (uint64_t)st.st_size;
    }
    read_head(in);
    if (detect_type(in) != 0) {
        log_input_close(in);
        return -1;
    }
    in->live = !in->regular && in->dec == NULL;
    return 0;
}

int log_input_ready(const struct log_input *in)
{
    return in->head_pos < in->head.len || in->eof || fd_ready(in->fd);
}

/* Plain text: what is left of the head, then the file. */
static size_t read_plain(struct log_input *in, char *dst, size_t n)
{
    if (in->head_pos < in->head.len) {
        size_t k = in->head.len - in->head_pos;
        if (k > n)
            k = n;
        memcpy(dst, in->head.data + in->head_pos, k);
        in->head_pos += k;
        return k;
    }
    if (in->eof)
        return 0;
    ssize_t got = log_input_read_raw(in, dst, n);
    if (got <= 0) {
        in->eof = 1;
        return 0;
    }
    return (size_t)got;
}

size_t log_input_read(struct log_input *in, char *dst, size_t n)
{
    if (in->pre != NULL)
        return log_prefetch_read(in, dst, n);
    if (in->dec != NULL)
        return log_decompress_read(in, dst, n);
    return read_plain(in, dst, n);
}

int log_input_close(struct log_input *in)
{
    if (in->pre != NULL)
        return log_prefetch_close(in);
    struct stat st;
    if (in->regular && !in->failed && fstat(in->fd, &st) == 0) {
        unsigned long long got = in->offset - in->start, at_open = in->size_at_open - in->start,
                           now = (unsigned long long)st.st_size;
        if ((uint64_t)st.st_size < in->offset || in->offset < in->size_at_open)
            log_input_fault(in,
                            "file shrank while being read (%llu bytes when opened, %llu now): "
                            "the %llu bytes read were written",
                            at_open, now, got);
        else if (in->offset > in->size_at_open)
            log_input_fault(in,
                            "file grew while being read (%llu bytes when opened, %llu read): "
                            "all %llu were written",
                            at_open, got, got);
        else if (st.st_nlink == 0 && !in->is_stdin)
            log_input_fault(in, "file removed while being read: all %llu bytes were written", got);
    }
    log_decompress_end(in);
    if (!in->is_stdin)
        close(in->fd);
    free(in->head.data);
    in->head.data = NULL;
    return in->failed ? -1 : 0;
}
