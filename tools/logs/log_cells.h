/* log_cells.h - rows as cells: the TSV writer's values (the same decoding,
 * the same nulls) without the text between them, for a consumer in the
 * same process (pct.logs.read_frame) that would otherwise split and
 * unescape the TSV again. Never written to a file: native byte order.
 *
 * A row is its cells in --fields order, then '\n'. A cell is a 4-byte
 * header, len << 2 | tag (len < 2^30: no value is longer than --max-line,
 * at most 256 MiB, nor a long line's piece), and by tag:
 *   LOG_CELL_TEXT  a 4-byte log_cell_hash of the text, then its len bytes
 *                  (UTF-8 repaired as in TSV: only `origin` may hold
 *                  other bytes);
 *   LOG_CELL_NULL  nothing (TSV's \N; len 0);
 *   LOG_CELL_TIME  a NAME_iso field: 8 bytes of int64 nanoseconds UTC
 *                  (INT64_MIN: no valid time), then its ISO 8601 text as
 *                  TSV has it (len: 8 + the text's);
 *   LOG_CELL_PIECE len bytes of a line longer than --max-line, which the
 *                  next cells continue; the last piece is a TEXT cell (its
 *                  hash then covers that piece only).
 * The hash is computed on the engine's threads, so the consumer can look
 * a value up without reading it twice. Each call of the output callback
 * holds whole cells; only a long line's row goes on in the next calls. */
#ifndef PCT_TOOLS_LOG_CELLS_H
#define PCT_TOOLS_LOG_CELLS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum log_cell_tag {
    LOG_CELL_TEXT,
    LOG_CELL_NULL,
    LOG_CELL_TIME,
    LOG_CELL_PIECE
};

#define LOG_CELL_HEAD 4

/* A hash of p[0..n) from its length and 24 of its bytes (the first,
 * middle and last 8), with one multiplication: values that differ
 * elsewhere, or that collide, only cost a lookup's comparison of the
 * bytes. Constant time: the engine hashes every text it writes. */
static inline uint32_t log_cell_hash(const char *p, size_t n)
{
    uint64_t a = 0, b = 0, c = 0;
    if (n >= 8) {
        memcpy(&a, p, 8);
        memcpy(&b, p + n / 2 - 4, 8);
        memcpy(&c, p + n - 8, 8);
    } else {
        for (size_t k = 0; k < n; k++)
            a |= (uint64_t)(unsigned char)p[k] << (8 * k);
    }
    const uint64_t x = a ^ (b << 21 | b >> 43) ^ (c << 42 | c >> 22) ^ n;
    return (uint32_t)((x * 0x9E3779B97F4A7C15u) >> 32);
}

/* A cell as read back: its tag, its bytes (TEXT: after the hash; TIME: the
 * 8 bytes of nanoseconds, then the text) and, for TEXT, its hash. */
struct log_cell {
    int tag;
    const char *p;
    size_t n;
    uint32_t hash;
};

/* Reads the cell at the start of p[0..n): its size in bytes (header, hash
 * and value), or 0 when p does not hold all of it. */
static inline size_t log_cell_read(const char *p, size_t n, struct log_cell *c)
{
    uint32_t head;
    if (n < LOG_CELL_HEAD)
        return 0;
    memcpy(&head, p, LOG_CELL_HEAD);
    c->tag = (int)(head & 3);
    c->n = head >> 2;
    c->hash = 0;
    const size_t extra = c->tag == LOG_CELL_TEXT ? sizeof c->hash : 0;
    if (n - LOG_CELL_HEAD < extra + c->n)
        return 0;
    if (extra)
        memcpy(&c->hash, p + LOG_CELL_HEAD, sizeof c->hash);
    c->p = p + LOG_CELL_HEAD + extra;
    return LOG_CELL_HEAD + extra + c->n;
}

#endif
