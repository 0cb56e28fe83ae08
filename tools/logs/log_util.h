/* log_util.h - small helpers shared by the `pct logs` files: fatal errors
 * and whole writes (tools/cli.c with the command's name), growable buffers,
 * byte spans. */
#ifndef PCT_TOOLS_LOG_UTIL_H
#define PCT_TOOLS_LOG_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Prints "pct logs: what[: detail]" and exits with status 2. */
_Noreturn void fatal(const char *what, const char *detail);
void *xrealloc(void *p, size_t size);

struct buf {
    char *data;
    size_t len, cap;
};

/* Makes room for extra more bytes after len (doubling, from 64 KiB). */
void buf_grow(struct buf *b, size_t extra);

static inline void buf_reserve(struct buf *b, size_t extra)
{
    if (b->cap - b->len < extra || b->data == NULL)
        buf_grow(b, extra);
}

/* A scratch buffer's data, with room for n bytes; what it held is
 * forgotten. */
static inline char *buf_room(struct buf *b, size_t n)
{
    if (b->cap < n) {
        b->len = 0;
        buf_reserve(b, n);
    }
    return b->data;
}

double now_seconds(void);

/* Where a session's output goes: an fd (write(2), all of it), or a function
 * (log_session.h). Once a write fails, failed is set, error says why (with
 * how many lines were written) and nothing more is written. */
struct log_sink {
    int fd; /* -1: fn */
    int (*fn)(void *ctx, const char *p, size_t n, uint64_t lines);
    void *ctx;
    uint64_t lines; /* written */
    int failed;
    char error[160];
};

/* Writes n bytes that end lines lines; 0, or -1 when the sink has failed. */
int sink_write(struct log_sink *k, const char *p, size_t n, uint64_t lines);

/* The longest name log_quote_name writes, its NUL included. */
#define LOG_QUOTED_NAME_MAX 1024

/* name as it appears in a message: a backslash as \\, control bytes
 * (newline, ESC...), DEL and C1 controls (U+0080-U+009F) as \xHH, so that
 * a name cannot forge a line of its own or a terminal escape; cut with
 * "..." past LOG_QUOTED_NAME_MAX. Returns out. Every message that names a
 * file (or echoes an argument) goes through here. */
const char *log_quote_name(char out[LOG_QUOTED_NAME_MAX], const char *name);

static inline int is_hex(unsigned char c)
{
    return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

/* Words of 8 bytes: testing for bytes >= 0x80 a word at a time. */
#define SWAR_HIGHS 0x8080808080808080ULL

static inline uint64_t swar_load(const char *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/* 0x80 in each of the 8 bytes at p that is not an ASCII digit. x = byte ^
 * '0' is a digit's value; (x & 0x7f) + 0x76 reaches 0x80 from 10 on, with
 * no carry into the next byte. */
static inline uint64_t swar_nondigits(const char *p)
{
    uint64_t x = swar_load(p) ^ 0x3030303030303030ULL;
    return (((x & 0x7f7f7f7f7f7f7f7fULL) + 0x7676767676767676ULL) | x) & SWAR_HIGHS;
}

/* The bits of the first n (1..8) bytes of an 8-byte load. */
static inline uint64_t swar_first(size_t n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return ~0ULL << (8 * (8 - n));
#else
    return ~0ULL >> (8 * (8 - n));
#endif
}

/* A piece of a line: no copy, no terminator. */
struct span {
    const char *p;
    size_t n;
};

static inline struct span span_of(const char *a, const char *b)
{
    struct span s = {a, (size_t)(b - a)};
    return s;
}

static inline int span_is(struct span s, const char *text)
{
    size_t n = strlen(text);
    return s.n == n && memcmp(s.p, text, n) == 0;
}

#endif
