/* log_marks.h - where the bytes of a set are in a chunk of lines: a bit per
 * byte, computed a window at a time by the library's pct_find_all (one
 * classification per 64 bytes with the widest vectors the CPU has), then
 * read a line at a time. Every line is scanned for its end and for bytes
 * that change how it is written: this is that scan. */
#ifndef PCT_TOOLS_LOG_MARKS_H
#define PCT_TOOLS_LOG_MARKS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "pct.h"

/* 16 KiB: its bytes are still in the nearest caches when their lines are
 * processed, and its bits (2 KiB) too. */
#define LOG_MARKS_WINDOW ((size_t)16 << 10)

struct log_marks {
    const pct_set *set;
    const char *from, *to;                    /* the window the bits describe */
    uint64_t bits[LOG_MARKS_WINDOW / 64 + 2]; /* two more: read by log_marks_near */
};

/* Forgets the window (a new chunk may lie where the last one did). */
static inline void log_marks_start(struct log_marks *m, const pct_set *set)
{
    m->set = set;
    m->from = m->to = NULL;
    memset(m->bits, 0, sizeof m->bits);
}

/* The first byte of [p, e) in the set, or e. e is the chunk's end: the
 * same for every call between two log_marks_start. */
static inline const char *log_marks_next(struct log_marks *m, const char *p, const char *e)
{
    for (;;) {
        if (p >= e)
            return e;
        if (p < m->from || p >= m->to) {
            size_t len = (size_t)(e - p) < LOG_MARKS_WINDOW ? (size_t)(e - p) : LOG_MARKS_WINDOW;
            pct_find_all(p, len, m->set, m->bits);
            m->from = p;
            m->to = p + len;
        }
        size_t at = (size_t)(p - m->from), words = ((size_t)(m->to - m->from) + 63) / 64;
        uint64_t word = m->bits[at / 64] >> (at % 64);
        if (word != 0)
            return p + __builtin_ctzll(word);
        for (size_t k = at / 64 + 1; k < words; k++)
            if (m->bits[k] != 0)
                return m->from + 64 * k + __builtin_ctzll(m->bits[k]);
        p = m->to;
    }
}

/* log_marks_next for a byte usually less than 128 bytes away (a quoted
 * field's end): from the two 64-bit windows at p, with selects instead of
 * a loop whose length varies. Words past the window's are stale and are
 * ignored by the bound; whatever is not settled here log_marks_next does. */
static inline const char *log_marks_near(struct log_marks *m, const char *p, const char *e)
{
    if (p >= m->from && p < m->to) {
        const size_t at = (size_t)(p - m->from), i = at / 64;
        const unsigned s = (unsigned)(at % 64);
        const uint64_t *b = m->bits + i;
        const uint64_t x1 = b[0] >> s | b[1] << 1 << (63 - s);
        const uint64_t x2 = b[1] >> s | b[2] << 1 << (63 - s);
        if ((x1 | x2) != 0) {
            /* x1, or x2 64 bytes on: masks, not a branch on which */
            const uint64_t in_x2 = (uint64_t)0 - (uint64_t)(x1 == 0);
            const size_t k = (size_t)__builtin_ctzll(x1 | (x2 & in_x2)) + (size_t)(in_x2 & 64);
            if (k < (size_t)(m->to - p))
                return p + k;
        }
    }
    return log_marks_next(m, p, e);
}

/* Where the '"' of a chunk of lines are: their marks, and the chunk's end
 * (for log_marks_next). */
struct quote_marks {
    struct log_marks *marks;
    const char *chunk_end;
};

#endif
