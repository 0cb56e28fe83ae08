/* scalar/utf8.h - a byte-at-a-time UTF-8 well-formedness checker.
 *
 * It follows the WHATWG Encoding Standard's "UTF-8 decoder", which is Unicode
 * Table 3-7 (no overlongs, no surrogates, nothing above U+10FFFF) and which
 * reports one error per *maximal subpart* of an ill-formed sequence (Unicode
 * 3.9, "U+FFFD Substitution of Maximal Subparts"). The caller tracks where the
 * current sequence started, to report offsets and to replace it.
 */
#ifndef PCT_SCALAR_UTF8_H
#define PCT_SCALAR_UTF8_H

#include <stddef.h>
#include <stdint.h>

typedef struct pct_utf8_state {
    uint8_t needed; /* continuation bytes still expected (0: between sequences) */
    uint8_t lower;  /* allowed range of the next continuation byte */
    uint8_t upper;
} pct_utf8_state;

enum {
    PCT_UTF8_MORE,     /* byte accepted; the sequence is not finished */
    PCT_UTF8_DONE,     /* byte accepted; it ends a well-formed sequence (or is ASCII) */
    PCT_UTF8_BAD_BYTE, /* this byte cannot start a sequence: it is one ill-formed subpart */
    PCT_UTF8_BROKEN    /* the pending sequence ends ill-formed before this byte; the state is
                          reset and the caller must feed this byte again */
};

static inline void pct_utf8_reset(pct_utf8_state *s)
{
    s->needed = 0;
    s->lower = 0x80;
    s->upper = 0xBF;
}

static inline int pct_utf8_step(pct_utf8_state *s, uint8_t b)
{
    if (s->needed == 0) {
        if (b <= 0x7F)
            return PCT_UTF8_DONE;
        if (b >= 0xC2 && b <= 0xDF) {
            s->needed = 1;
        } else if (b >= 0xE0 && b <= 0xEF) {
            if (b == 0xE0)
                s->lower = 0xA0; /* below: overlong */
            if (b == 0xED)
                s->upper = 0x9F; /* above: surrogates D800-DFFF */
            s->needed = 2;
        } else if (b >= 0xF0 && b <= 0xF4) {
            if (b == 0xF0)
                s->lower = 0x90; /* below: overlong */
            if (b == 0xF4)
                s->upper = 0x8F; /* above: beyond U+10FFFF */
            s->needed = 3;
        } else {
            return PCT_UTF8_BAD_BYTE; /* 80-C1, F5-FF */
        }
        return PCT_UTF8_MORE;
    }
    if (b < s->lower || b > s->upper) {
        pct_utf8_reset(s);
        return PCT_UTF8_BROKEN;
    }
    s->lower = 0x80;
    s->upper = 0xBF;
    return --s->needed ? PCT_UTF8_MORE : PCT_UTF8_DONE;
}

/* UTF-8 encoding of a code point (not a surrogate) into out; returns its length. */
static inline unsigned pct_utf8_encode(uint32_t cp, uint8_t out[4])
{
    if (cp < 0x80) {
        out[0] = (uint8_t)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (uint8_t)(0xC0 | (cp >> 6));
        out[1] = (uint8_t)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (uint8_t)(0xE0 | (cp >> 12));
        out[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (uint8_t)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (uint8_t)(0xF0 | (cp >> 18));
    out[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (uint8_t)(0x80 | (cp & 0x3F));
    return 4;
}

/* Number of bytes (0-3) at the end of p[0..n) that form an unfinished
 * sequence: a lead byte whose sequence needs more bytes than follow it. Ill-
 * formed bytes are left for the validation (a lead F8-FF counts as needing
 * four: it is held back, then fails). */
static inline size_t pct_utf8_unfinished(const uint8_t *p, size_t n)
{
    for (size_t k = 1; k <= 3 && k <= n; k++) {
        const uint8_t b = p[n - k];
        if (b < 0x80)
            return 0;
        if (b >= 0xC0) {
            const size_t length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2;
            return length > k ? k : 0;
        }
    }
    return 0;
}

#endif /* PCT_SCALAR_UTF8_H */
