/* scalar/output.h - writing decoded bytes, with the UTF-8 check of PCT_UTF8
 * and the U+FFFD replacement of PCT_UTF8_REPLACE applied on the way out.
 *
 * Every output byte is tagged with the input offset of the token (literal
 * byte or escape) that produced it, so a UTF-8 error can be reported at the
 * input offset where the ill-formed sequence starts.
 */
#ifndef PCT_SCALAR_OUTPUT_H
#define PCT_SCALAR_OUTPUT_H

#include <stddef.h>
#include <stdint.h>

#include "pct.h"
#include "scalar/utf8.h"

typedef struct pct_output {
    uint8_t *dst; /* NULL: count only (validate) */
    size_t length;
    unsigned check; /* 0, PCT_UTF8 or PCT_UTF8_REPLACE */
    pct_utf8_state utf8;
    size_t sequence_in;  /* input offset where the pending sequence starts */
    size_t sequence_out; /* output offset where it starts */
    size_t error;        /* PCT_UTF8: input offset of the ill-formed sequence */
} pct_output;

static inline void pct_output_init(pct_output *w, uint8_t *dst, unsigned flags)
{
    w->dst = dst;
    w->length = 0;
    w->check = flags & (PCT_UTF8 | PCT_UTF8_REPLACE);
    pct_utf8_reset(&w->utf8);
    w->sequence_in = w->sequence_out = w->error = 0;
}

static inline void pct_output_put(pct_output *w, uint8_t b)
{
    if (w->dst)
        w->dst[w->length] = b;
    w->length++;
}

static inline void pct_output_replacement(pct_output *w)
{
    pct_output_put(w, 0xEF);
    pct_output_put(w, 0xBF);
    pct_output_put(w, 0xBD);
}

/* Writes byte b, produced by the token at input offset at. Returns 0, or -1
 * on ill-formed UTF-8 under PCT_UTF8 (w->error is then set). */
static inline int pct_output_byte(pct_output *w, uint8_t b, size_t at)
{
    if (!w->check) {
        pct_output_put(w, b);
        return 0;
    }
    for (;;) {
        const int starts = w->utf8.needed == 0;
        switch (pct_utf8_step(&w->utf8, b)) {
        case PCT_UTF8_MORE:
            if (starts) {
                w->sequence_in = at;
                w->sequence_out = w->length;
            }
            pct_output_put(w, b);
            return 0;
        case PCT_UTF8_DONE:
            pct_output_put(w, b);
            return 0;
        case PCT_UTF8_BAD_BYTE:
            if (w->check == PCT_UTF8) {
                w->error = at;
                return -1;
            }
            pct_output_replacement(w);
            return 0;
        default: /* PCT_UTF8_BROKEN: the pending bytes are one ill-formed subpart */
            if (w->check == PCT_UTF8) {
                w->error = w->sequence_in;
                return -1;
            }
            w->length = w->sequence_out;
            pct_output_replacement(w);
            break; /* and feed b again, now between sequences */
        }
    }
}

/* 1 if a UTF-8 sequence has started but not ended. */
static inline int pct_output_pending(const pct_output *w)
{
    return w->check && w->utf8.needed != 0;
}

/* The pending sequence can no longer be completed: fail (PCT_UTF8, returns -1)
 * or replace it. */
static inline int pct_output_break_pending(pct_output *w)
{
    if (!pct_output_pending(w))
        return 0;
    if (w->check == PCT_UTF8) {
        w->error = w->sequence_in;
        return -1;
    }
    pct_utf8_reset(&w->utf8);
    w->length = w->sequence_out;
    pct_output_replacement(w);
    return 0;
}

#endif /* PCT_SCALAR_OUTPUT_H */
