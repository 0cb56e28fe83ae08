/* scalar/escape.h - recognising the escape that starts at a '%'.
 *
 * Decoding, normalizing and validating all tokenize the same way, left to
 * right: a byte that is not '%' stands for itself; a '%' starts %HH, %uXXXX
 * (PCT_PERCENT_U), a surrogate pair %uD8xx%uDCxx, or is malformed (then only
 * the '%' is consumed and the bytes after it are read as ordinary bytes).
 */
#ifndef PCT_SCALAR_ESCAPE_H
#define PCT_SCALAR_ESCAPE_H

#include <stddef.h>
#include <stdint.h>

#include "pct.h"
#include "scalar/hex.h"

enum {
    PCT_ESCAPE_BYTE,           /* %HH: value is the byte, length 3 */
    PCT_ESCAPE_CODE_POINT,     /* %uXXXX (length 6) or a surrogate pair (12): value */
    PCT_ESCAPE_MALFORMED,      /* '%' starts no escape: length 1 */
    PCT_ESCAPE_LONE_SURROGATE, /* %uD800-%uDFFF not in a pair: length 1, like MALFORMED
                                  (the '%' is copied, the rest are ordinary bytes) */
    PCT_ESCAPE_INCOMPLETE      /* could still become an escape with more input */
};

typedef struct pct_escape {
    int kind;
    unsigned length;
    uint32_t value;
} pct_escape;

/* s[0] == '%', n >= 1 bytes available; final: no input follows s[n-1]. */
static inline pct_escape pct_parse_percent_u(const uint8_t *s, size_t n, int final)
{
    const pct_escape malformed = {PCT_ESCAPE_MALFORMED, 1, '%'};
    const pct_escape lone = {PCT_ESCAPE_LONE_SURROGATE, 1, '%'};
    const pct_escape incomplete = {PCT_ESCAPE_INCOMPLETE, 0, 0};
    uint32_t unit = 0;
    size_t k;
    for (k = 2; k < 6 && k < n; k++) {
        int v = pct_hex_value(s[k]);
        if (v < 0)
            return malformed;
        unit = unit * 16 + (uint32_t)v;
    }
    if (k < 6)
        return final ? malformed : incomplete;
    if (unit >= 0xDC00 && unit <= 0xDFFF)
        return lone;
    if (unit < 0xD800 || unit > 0xDBFF) {
        pct_escape e = {PCT_ESCAPE_CODE_POINT, 6, unit};
        return e;
    }
    /* A high surrogate: a pair only if "%u" and a low surrogate DC00-DFFF follow. */
    uint32_t low = 0;
    for (k = 6; k < 12 && k < n; k++) {
        int v = pct_hex_value(s[k]);
        if ((k == 6 && s[k] != '%') || (k == 7 && s[k] != 'u') || (k >= 8 && v < 0) ||
            (k == 8 && v != 0xD) || (k == 9 && v < 0xC))
            return lone;
        if (k >= 8)
            low = low * 16 + (uint32_t)v;
    }
    if (k < 12)
        return final ? lone : incomplete;
    pct_escape e = {PCT_ESCAPE_CODE_POINT, 12, 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)};
    return e;
}

static inline pct_escape pct_parse_escape(const uint8_t *s, size_t n, unsigned flags, int final)
{
    const pct_escape malformed = {PCT_ESCAPE_MALFORMED, 1, '%'};
    const pct_escape incomplete = {PCT_ESCAPE_INCOMPLETE, 0, 0};
    if (n >= 3 && pct_is_hex(s[1]) && pct_is_hex(s[2])) {
        pct_escape e = {PCT_ESCAPE_BYTE, 3,
                        (uint32_t)(pct_hex_value(s[1]) * 16 + pct_hex_value(s[2]))};
        return e;
    }
    if ((flags & PCT_PERCENT_U) && n >= 2 && s[1] == 'u')
        return pct_parse_percent_u(s, n, final);
    if (!final && (n == 1 || (n == 2 && pct_is_hex(s[1]))))
        return incomplete;
    return malformed;
}

#endif /* PCT_SCALAR_ESCAPE_H */
