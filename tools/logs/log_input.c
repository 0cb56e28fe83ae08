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
    if (in->ranged) { /* the range's lines end at limit */
        if (in->offset >= in->limit)
            return 0;
        if (n > in->limit - in->offset)
            n = (size_t)(in->limit - in->offset);
    }
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

/* Full magic numbers of what is not a text log: a prefix as short as
 * "BZh" is also how a text line may start (a vhost log: "BZhost ..."). */
static const struct {
    const char *name;
    const char *magic;
    size_t len;
} magics[] = {
    {"gzip", "\x1f\x8b\x08", 3},
    {"zstd", "\x28\xb5\x2f\xfd", 4},
    {"xz",
     "\xfd"
     "7zXZ\0",
     6},
    {"7z", "7z\xbc\xaf\x27\x1c", 6},
    {"lz4", "\x04\x22\x4d\x18", 4},
    {"lzma", "\x5d\0\0", 3},
    {"zip", "PK\x03\x04", 4},
    {"zip", "PK\x05\x06", 4},
    {"ELF executable",
     "\x7f"
     "ELF",
     4},
    {"PNG image", "\x89PNG\r\n\x1a\n", 8},
};

const char *log_input_magic(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < sizeof magics / sizeof magics[0]; i++)
        if (n >= magics[i].len && memcmp(p, magics[i].magic, magics[i].len) == 0)
            return magics[i].name;
    /* zstd skippable frames (pzstd starts with one): 0x184D2A50..5F. */
    if (n >= 4 && (p[0] & 0xf0) == 0x50 && p[1] == 0x2a && p[2] == 0x4d && p[3] == 0x18)
        return "zstd";
    /* bzip2: "BZh", the block size '1'..'9', then a block's magic (pi) or
     * the end of an empty stream's (sqrt(pi)). */
    if (n >= 10 && memcmp(p, "BZh", 3) == 0 && p[3] >= '1' && p[3] <= '9' &&
        (memcmp(p + 4, "\x31\x41\x59\x26\x53\x59", 6) == 0 ||
         memcmp(p + 4, "\x17\x72\x45\x38\x50\x90", 6) == 0))
        return "bzip2";
    return NULL;
}

/* Text logs hold few control bytes (an escape sequence in a user agent, a
 * stray byte), random or binary data about one in ten. NULs do not count:
 * long runs are holes, taken out of text (drop_holes), short ones escaped.
 * A short input proves nothing either way: it is read as text, its control
 * bytes escaped. */
int log_input_looks_binary(const char *p, size_t n)
{
    if (n > HEAD_BYTES) /* what a plain file is judged by: its head */
        n = HEAD_BYTES;
    size_t controls = 0, nuls = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        nuls += c == 0;
        controls +=
            (c > 0 && c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != 0x1b) || c == 0x7f;
    }
    size_t text = n - nuls;
    return text >= 512 && controls * 32 > text;
}

/* What the first bytes are. Returns 0 for text (or a supported compressed
 * format, set up), -1 after reporting what cannot be read. */
static int detect_type(struct log_input *in)
{
    const struct buf *h = &in->head;
    const char *what = log_input_magic((const unsigned char *)h->data, h->len);
    if (what != NULL && strcmp(what, "gzip") == 0)
        return log_decompress_start(in, LOG_GZIP);
    if (what != NULL && strcmp(what, "zstd") == 0)
        return log_decompress_start(in, LOG_ZSTD);
    if (what == NULL && log_input_looks_binary(h->data, h->len))
        what = "binary";
    if (what == NULL)
        return 0;
    log_input_fault(in, "%s data, not a text log: not read", what);
    return -1;
}

/* Runs reported one by one; past them, a count at close. */
#define NUL_RUNS_REPORTED 100

static void nul_run_ended(struct log_input *in)
{
    uint64_t len = in->text_pos - in->nul_start;
    in->in_nul = 0;
    if (++in->nul_runs <= NUL_RUNS_REPORTED) {
        log_input_note(in,
                       "%llu NUL bytes at %sbyte %llu skipped (not text: a hole left by a "
                       "crash or a copytruncate?)",
                       (unsigned long long)len,
                       in->dec != NULL || in->pre != NULL ? "decompressed " : "",
                       (unsigned long long)(in->nul_start + (in->ranged ? in->start : 0)));
        return;
    }
    in->nul_unreported[0]++;
    in->nul_unreported[1] += len;
}

/* Length of the run of NULs at p[0..n). */
static size_t nul_span(const char *p, size_t n)
{
    size_t i = 0;
    while (i + 8 <= n) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        if (w != 0)
            break;
        i += 8;
    }
    while (i < n && p[i] == 0)
        i++;
    return i;
}

/* Takes the holes out of p[0..n), the next bytes of the text (after the
 * NULs held from the bytes before, which p starts with). A run that
 * reaches the end of p and is not yet a hole is held: the next bytes
 * decide. Returns the bytes left. */
static size_t drop_holes(struct log_input *in, char *p, size_t n)
{
    if (!in->in_nul && memchr(p, 0, n) == NULL) { /* nearly always */
        in->text_pos += n;
        return n;
    }
    size_t kept = 0, i = 0;
    while (i < n) {
        const char *z = in->in_nul ? p + i : memchr(p + i, 0, n - i);
        size_t k = z != NULL ? (size_t)(z - (p + i)) : n - i;
        memmove(p + kept, p + i, k);
        kept += k;
        i += k;
        in->text_pos += k;
        if (z == NULL)
            break;
        size_t run = nul_span(p + i, n - i);
        if (!in->in_nul && run < NUL_HOLE && i + run == n) {
            in->nul_held = run; /* not counted in text_pos yet */
            break;
        }
        if (!in->in_nul && run >= NUL_HOLE) {
            in->in_nul = 1;
            in->nul_start = in->text_pos;
        }
        if (in->in_nul) {
            i += run;
            in->text_pos += run;
            if (i < n)
                nul_run_ended(in);
            continue;
        }
        memmove(p + kept, p + i, run); /* a few NULs: text, escaped on output */
        kept += run;
        i += run;
        in->text_pos += run;
    }
    return kept;
}

/* The end of the text: a hole at its end ends there; NULs held are text. */
static size_t text_ended(struct log_input *in, char *dst)
{
    if (in->in_nul)
        nul_run_ended(in);
    size_t held = in->nul_held;
    in->nul_held = 0;
    if (held > 0 && dst != NULL)
        memset(dst, 0, held);
    in->text_pos += held;
    return held;
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
    in->nlink_at_open = (unsigned long)st.st_nlink;
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

/* Looks for the first newline in [from, to) of the file. Returns 1 and
 * *at its offset; 0 when there is none (the file may end before to); -1
 * after a read error (errno), *at where. */
static int find_newline(const struct log_input *in, uint64_t from, uint64_t to, uint64_t *at)
{
    char piece[16 << 10];
    while (from < to) {
        size_t n = to - from < sizeof piece ? (size_t)(to - from) : sizeof piece;
        ssize_t got = log_input_pread(in, piece, n, from);
        if (got < 0) {
            *at = from;
            return -1;
        }
        const char *nl = memchr(piece, '\n', (size_t)got);
        if (nl != NULL) {
            *at = from + (uint64_t)(nl - piece);
            return 1;
        }
        if ((size_t)got < n)
            return 0; /* the file's end */
        from += (uint64_t)got;
    }
    return 0;
}

int log_input_set_range(struct log_input *in, uint64_t start, uint64_t end)
{
    const char *refused = in->dec != NULL ? "is compressed"
                          : !in->regular  ? "is not a regular file (a pipe, socket or terminal)"
                                          : NULL;
    if (refused != NULL) {
        log_input_fault(in, "%s: a byte range needs a plain file", refused);
        log_input_close(in);
        return -1;
    }
    uint64_t size = in->size_at_open;
    if (end > size)
        end = size;
    /* The first line that starts at or after start: at 0, or after the
     * first newline at or after start - 1; none (first = end) if there is
     * none before the range's last byte. */
    uint64_t first = end, last = end, nl = 0;
    int found = 0;
    if (start == 0 && end > 0)
        first = 0;
    else if (start < end && (found = find_newline(in, start - 1, end - 1, &nl)) == 1)
        first = nl + 1;
    /* Its last line ends with the first newline at or after end - 1 (or
     * at the file's end). */
    if (found >= 0 && first < end) {
        found = find_newline(in, end - 1, size, &nl);
        last = found == 1 ? nl + 1 : size;
    }
    if (found < 0) {
        log_input_read_failed(in, nl, errno);
        log_input_close(in);
        return -1;
    }
    /* Read from first as a file that ends at last: what was read at the
     * open (the content type's bytes) is let go. */
    in->ranged = 1;
    in->limit = last;
    in->start = in->offset = first;
    in->size_at_open = last;
    in->head.len = in->head_pos = 0;
    in->eof = 0;
    if (lseek(in->fd, (off_t)first, SEEK_SET) < 0) {
        log_input_fault(in, "cannot seek to byte %llu: %s", (unsigned long long)first,
                        strerror(errno));
        log_input_close(in);
        return -1;
    }
    return 0;
}

int log_input_ready(const struct log_input *in)
{
    return in->head_pos < in->head.len || in->small_pos < in->small_len || in->eof ||
           fd_ready(in->fd);
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

/* Plain or decompressed text, with the holes taken out. dst has room for
 * more than the NULs held (n > NUL_HOLE). */
static size_t read_text(struct log_input *in, char *dst, size_t n)
{
    for (;;) {
        size_t held = in->nul_held;
        size_t got = in->dec != NULL ? log_decompress_read(in, dst + held, n - held)
                                     : read_plain(in, dst + held, n - held);
        if (got == 0)
            return text_ended(in, dst);
        memset(dst, 0, held);
        in->nul_held = 0;
        /* A hole as long as the file is read and dropped piece by piece:
         * memory stays bounded. */
        got = drop_holes(in, dst, held + got);
        if (got > 0)
            return got;
    }
}

size_t log_input_read(struct log_input *in, char *dst, size_t n)
{
    if (in->pre != NULL) /* its thread took the holes out */
        return log_prefetch_read(in, dst, n);
    if (n > sizeof in->small) /* nearly always */
        return read_text(in, dst, n);
    /* A small read goes through a buffer big enough for the NULs held. */
    if (in->small_pos == in->small_len) {
        in->small_pos = 0;
        in->small_len = read_text(in, in->small, sizeof in->small);
    }
    size_t k = in->small_len - in->small_pos;
    if (k > n)
        k = n;
    memcpy(dst, in->small + in->small_pos, k);
    in->small_pos += k;
    return k;
}

void log_input_continue_at(struct log_input *in, uint64_t offset)
{
    lseek(in->fd, (off_t)offset, SEEK_SET);
    in->offset = offset;
    in->head_pos = in->head.len;
    in->eof = 0;
    in->text_pos = offset - in->start;
    in->in_nul = 0;
    in->nul_held = in->small_pos = in->small_len = 0;
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
        else if (st.st_nlink == 0 && in->nlink_at_open > 0 && !in->is_stdin)
            /* Unlinked before it was opened (/proc/self/fd/N of a deleted
             * file) is no change: only an unlink during the read is. */
            log_input_fault(in, "file removed while being read: all %llu bytes were written", got);
    }
    text_ended(in, NULL);
    if (in->nul_unreported[0] > 0)
        log_input_note(in, "%llu more runs of NUL bytes (%llu bytes) skipped",
                       (unsigned long long)in->nul_unreported[0],
                       (unsigned long long)in->nul_unreported[1]);
    if (in->nul_runs > 0)
        in->failed = 1; /* damaged input: the exit status says so */
    log_decompress_end(in);
    if (!in->is_stdin)
        close(in->fd);
    free(in->head.data);
    in->head.data = NULL;
    return in->failed ? -1 : 0;
}
