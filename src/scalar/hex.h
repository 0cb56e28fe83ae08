/* scalar/hex.h - hex digits and set membership, shared by every routine. */
#ifndef PCT_SCALAR_HEX_H
#define PCT_SCALAR_HEX_H

#include <stddef.h>
#include <stdint.h>

#include "pct.h"

/* Value of an ASCII hex digit (either case), or -1. */
static inline int pct_hex_value(uint8_t c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c |= 0x20; /* ASCII letters: upper to lower case; digits were handled above */
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

static inline int pct_is_hex(uint8_t c)
{
    return pct_hex_value(c) >= 0;
}

/* Upper-case hex digit of a nibble: escapes are always written upper case
 * (RFC 3986 2.1: "should use uppercase hexadecimal digits"). */
static inline uint8_t pct_hex_digit(unsigned nibble)
{
    return (uint8_t) "0123456789ABCDEF"[nibble & 15];
}

/* The byte of the escape "%HH" at src[i] (i < len), or -1 where no
 * well-formed escape starts: the one rule of what an escape is, for every
 * routine that looks at escapes one at a time. */
static inline int pct_escape_value(const uint8_t *src, size_t len, size_t i)
{
    if (len - i < 3 || src[i] != '%' || !pct_is_hex(src[i + 1]) || !pct_is_hex(src[i + 2]))
        return -1;
    return pct_hex_value(src[i + 1]) * 16 + pct_hex_value(src[i + 2]);
}

static inline int pct_in_set(const pct_set *set, uint8_t b)
{
    return (set->bits[b >> 3] >> (b & 7)) & 1;
}

#endif /* PCT_SCALAR_HEX_H */
