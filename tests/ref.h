/* ref.h - obviously-correct reference models of libpct's operations, written
 * from the header and the standards (never from src/): byte-at-a-time, two
 * passes (decode escapes, then check UTF-8), no cleverness. The unit tests
 * compare the library against these on random and adversarial inputs.
 */
#ifndef PCT_TEST_REF_H
#define PCT_TEST_REF_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pct.h"

static inline int ref_hex(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

/* The header documents the layout: bit (b & 7) of bits[b >> 3]. */
static inline int ref_in(const pct_set *set, unsigned char b)
{
    return (set->bits[b >> 3] >> (b & 7)) & 1;
}

static inline void ref_set_add(pct_set *set, unsigned char b)
{
    set->bits[b >> 3] = (uint8_t)(set->bits[b >> 3] | (1u << (b & 7)));
}

/* RFC 3986 unreserved: ALPHA DIGIT - . _ ~ */
static inline int ref_unreserved(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '.' || c == '_' || c == '~';
}

/* ------------------------------------------------------------------------ */
/* UTF-8: Unicode 15 §3.9, Table 3-7 (well-formed byte sequences), verbatim  */
/* ------------------------------------------------------------------------ */

static const struct {
    uint8_t lo[4], hi[4];
    int len;
} ref_table_3_7[] = {
    {{0x00}, {0x7F}, 1},
    {{0xC2, 0x80}, {0xDF, 0xBF}, 2},
    {{0xE0, 0xA0, 0x80}, {0xE0, 0xBF, 0xBF}, 3},
    {{0xE1, 0x80, 0x80}, {0xEC, 0xBF, 0xBF}, 3},
    {{0xED, 0x80, 0x80}, {0xED, 0x9F, 0xBF}, 3},
    {{0xEE, 0x80, 0x80}, {0xEF, 0xBF, 0xBF}, 3},
    {{0xF0, 0x90, 0x80, 0x80}, {0xF0, 0xBF, 0xBF, 0xBF}, 4},
    {{0xF1, 0x80, 0x80, 0x80}, {0xF3, 0xBF, 0xBF, 0xBF}, 4},
    {{0xF4, 0x80, 0x80, 0x80}, {0xF4, 0x8F, 0xBF, 0xBF}, 4},
};

/* At s[0..n), n >= 1: returns the length of the well-formed sequence there,
 * or 0 if ill-formed; then *sub is the length of the maximal subpart (>= 1: the
 * longest prefix of some well-formed sequence, or 1 byte), and *at_end is 1
 * if the subpart stops only because the data ends (a truncated sequence). */
static inline size_t ref_utf8_at(const uint8_t *s, size_t n, size_t *sub, int *at_end)
{
    size_t r, k;
    *at_end = 0;
    for (r = 0; r < sizeof ref_table_3_7 / sizeof ref_table_3_7[0]; r++) {
        if (s[0] < ref_table_3_7[r].lo[0] || s[0] > ref_table_3_7[r].hi[0])
            continue;
        for (k = 1; k < (size_t)ref_table_3_7[r].len; k++) {
            if (k >= n) {
                *sub = k;
                *at_end = 1;
                return 0;
            }
            if (s[k] < ref_table_3_7[r].lo[k] || s[k] > ref_table_3_7[r].hi[k]) {
                *sub = k;
                return 0;
            }
        }
        return k;
    }
    *sub = 1; /* C0, C1, F5..FF, or a continuation byte: never a prefix */
    return 0;
}

/* Offset of the first ill-formed sequence in s[0..n), or n if well-formed.
 * *at_end (optional) tells whether it is a sequence truncated by the end. */
static inline size_t ref_utf8_check(const uint8_t *s, size_t n, int *at_end)
{
    size_t i = 0, sub, k;
    int end = 0;
    while (i < n) {
        k = ref_utf8_at(s + i, n - i, &sub, &end);
        if (k == 0) {
            if (at_end)
                *at_end = end;
            return i;
        }
        i += k;
    }
    if (at_end)
        *at_end = 0;
    return n;
}

/* Each maximal subpart becomes EF BF BD; out needs 3*n bytes. Returns length. */
static inline size_t ref_utf8_replace(const uint8_t *s, size_t n, uint8_t *out)
{
    size_t i = 0, o = 0, sub, k;
    int end;
    while (i < n) {
        k = ref_utf8_at(s + i, n - i, &sub, &end);
        if (k) {
            mem_cpy(out + o, s + i, k);
            o += k;
            i += k;
        } else {
            out[o++] = 0xEF;
            out[o++] = 0xBF;
            out[o++] = 0xBD;
            i += sub;
        }
    }
    return o;
}

/* UTF-8 encoding of a scalar value (or of a surrogate, for ill-formed tests). */
static inline size_t ref_utf8_put(uint32_t cp, uint8_t *out)
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

/* ------------------------------------------------------------------------ */
/* Decode / validate model                                                   */
/* ------------------------------------------------------------------------ */

/* A model result: r, or (when alt_ok) also alt. The alternative exists for
 * one case the header leaves open: with PCT_UTF8, an escape error (or an
 * unescaped byte, for validate) right after an *unfinished* UTF-8 sequence,
 * e.g. "%E2%zz" under PCT_STRICT|PCT_UTF8: the escape error at 3 or the
 * truncated sequence at 0 are both defensible. When the sequence before the
 * error is ill-formed on its own ("%C0%zz", "%80%zz"), its offset is smaller,
 * so INVALID_UTF8 is the first offending byte and the only answer. */
typedef struct ref_result {
    pct_result r;
    int alt_ok;
    pct_result alt;
} ref_result;

static inline pct_result ref_res(pct_status st, size_t count)
{
    pct_result r;
    r.status = st;
    r.count = count;
    return r;
}

static inline int ref_hex4(const uint8_t *s)
{
    int v = 0, k, h;
    for (k = 0; k < 4; k++) {
        h = ref_hex(s[k]);
        if (h < 0)
            return -1;
        v = v * 16 + h;
    }
    return v;
}

/* The decode (validate_set == NULL) or validate (validate_set != NULL) model.
 * out needs 3*len bytes (len with no PCT_UTF8_REPLACE); it receives the
 * decoded bytes on PCT_OK. */
static inline ref_result ref_decode_model(const uint8_t *src, size_t len, const pct_set *keep,
                                          const pct_set *validate_set, unsigned flags, uint8_t *out)
{
    ref_result res;
    uint8_t *dec = (uint8_t *)malloc(len + 1);
    size_t *org = (size_t *)malloc((len + 1) * sizeof(size_t)); /* input offset of each byte */
    size_t i = 0, o = 0, k, n, bad;
    int at_end, u, v, h1, h2, have_err = 0;
    uint8_t tmp[4];
    pct_result err = ref_res(PCT_OK, 0);

    if (!dec || !org)
        exit(99);
    memset(&res, 0, sizeof res);
    while (i < len && !have_err) {
        uint8_t c = src[i];
        if ((flags & PCT_PLUS) && c == '+') {
            dec[o] = ' ';
            org[o++] = i++;
            continue;
        }
        if (c == '%') {
            if ((flags & PCT_PERCENT_U) && len - i >= 6 && src[i + 1] == 'u' &&
                (u = ref_hex4(src + i + 2)) >= 0) {
                if (u >= 0xD800 && u <= 0xDBFF && len - i >= 12 && src[i + 6] == '%' &&
                    src[i + 7] == 'u' && (v = ref_hex4(src + i + 8)) >= 0xDC00 && v <= 0xDFFF) {
                    n = ref_utf8_put(
                        0x10000 + (((uint32_t)u - 0xD800) << 10) + ((uint32_t)v - 0xDC00), tmp);
                    for (k = 0; k < n; k++) {
                        dec[o] = tmp[k];
                        org[o++] = i;
                    }
                    i += 12;
                    continue;
                }
                if (keep && u < 0x80 && ref_in(keep, (unsigned char)u)) {
                    /* %uXXXX of a kept ASCII byte stays as written */
                    for (k = 0; k < 6; k++) {
                        dec[o] = src[i + k];
                        org[o++] = i + k;
                    }
                    i += 6;
                    continue;
                }
                if (!(u >= 0xD800 && u <= 0xDFFF)) {
                    n = ref_utf8_put((uint32_t)u, tmp);
                    for (k = 0; k < n; k++) {
                        dec[o] = tmp[k];
                        org[o++] = i;
                    }
                    i += 6;
                    continue;
                }
                /* a lone surrogate: not an escape; falls through to the
                 * stray '%' case below (copied as written, or an error) */
            } else if (len - i >= 3 && (h1 = ref_hex(src[i + 1])) >= 0 &&
                       (h2 = ref_hex(src[i + 2])) >= 0) {
                uint8_t b = (uint8_t)(h1 * 16 + h2);
                if (keep && ref_in(keep, b)) {
                    for (k = 0; k < 3; k++) {
                        dec[o] = src[i + k];
                        org[o++] = i + k;
                    }
                } else {
                    dec[o] = b;
                    org[o++] = i;
                }
                i += 3;
                continue;
            }
            if ((flags & PCT_STRICT) || (validate_set && ref_in(validate_set, '%'))) {
                err = ref_res(PCT_INVALID_ESCAPE, i);
                have_err = 1;
                break;
            }
            dec[o] = '%';
            org[o++] = i++;
            continue;
        }
        if (validate_set && ref_in(validate_set, c)) {
            err = ref_res(PCT_UNESCAPED_BYTE, i);
            have_err = 1;
            break;
        }
        dec[o] = c;
        org[o++] = i++;
    }

    if (flags & PCT_UTF8) {
        bad = ref_utf8_check(dec, o, &at_end);
        if (bad < o) {
            pct_result u8 = ref_res(PCT_INVALID_UTF8, org[bad]);
            if (!have_err || !at_end) {
                res.r = u8; /* before any escape error: it is the first */
            } else {
                res.r = err; /* truncated by the escape error: either */
                res.alt_ok = 1;
                res.alt = u8;
            }
            free(dec);
            free(org);
            return res;
        }
    }
    if (have_err) {
        res.r = err;
        /* A byte of the set that also begins an ill-formed UTF-8 sequence
         * (e.g. a literal 0x80) offends twice at one offset; the header
         * does not rank the two, so either status is accepted there. */
        if ((flags & PCT_UTF8) && err.status == PCT_UNESCAPED_BYTE) {
            uint8_t *scratch = (uint8_t *)malloc(len + 1);
            ref_result full;
            if (!scratch)
                exit(99);
            full = ref_decode_model(src, len, NULL, NULL, flags, scratch);
            free(scratch);
            if (full.r.status == PCT_INVALID_UTF8 && full.r.count == err.count) {
                res.alt_ok = 1;
                res.alt = full.r;
            } else if (full.alt_ok && full.alt.status == PCT_INVALID_UTF8 &&
                       full.alt.count == err.count) {
                res.alt_ok = 1;
                res.alt = full.alt;
            }
        }
    } else if (flags & PCT_UTF8_REPLACE) {
        res.r = ref_res(PCT_OK, ref_utf8_replace(dec, o, out));
    } else {
        if (o)
            mem_cpy(out, dec, o);
        res.r = ref_res(PCT_OK, o);
    }
    free(dec);
    free(org);
    return res;
}

static inline ref_result ref_decode(const void *src, size_t len, const pct_set *keep,
                                    unsigned flags, void *out)
{
    return ref_decode_model((const uint8_t *)src, len, keep, NULL, flags, (uint8_t *)out);
}

/* Validate: count is the decoded length (out: scratch of len bytes or NULL). */
static inline ref_result ref_validate(const void *src, size_t len, const pct_set *set,
                                      unsigned flags)
{
    uint8_t *scratch = (uint8_t *)malloc(len + 1);
    ref_result r;
    if (!scratch)
        exit(99);
    r = ref_decode_model((const uint8_t *)src, len, NULL, set, flags, scratch);
    free(scratch);
    return r;
}

/* ------------------------------------------------------------------------ */
/* Encode model                                                              */
/* ------------------------------------------------------------------------ */

/* out needs 3*len bytes. KEEP_ESCAPES copies a whole "%HH" (only tested with
 * sets that contain no hex digit, where every reading of the header agrees). */
static inline pct_result ref_encode(const void *srcv, size_t len, const pct_set *set,
                                    unsigned flags, void *outv)
{
    static const char hexd[] = "0123456789ABCDEF";
    const uint8_t *src = (const uint8_t *)srcv;
    uint8_t *out = (uint8_t *)outv;
    size_t i, o = 0, bad;
    if (flags & PCT_UTF8) {
        bad = ref_utf8_check(src, len, NULL);
        if (bad < len)
            return ref_res(PCT_INVALID_UTF8, bad);
    }
    for (i = 0; i < len; i++) {
        uint8_t c = src[i];
        if ((flags & PCT_KEEP_ESCAPES) && c == '%' && len - i >= 3 && ref_hex(src[i + 1]) >= 0 &&
            ref_hex(src[i + 2]) >= 0) {
            out[o++] = src[i];
            out[o++] = src[i + 1];
            out[o++] = src[i + 2];
            i += 2;
        } else if (ref_in(set, c)) {
            if ((flags & PCT_PLUS) && c == ' ') {
                out[o++] = '+';
            } else {
                out[o++] = '%';
                out[o++] = (uint8_t)hexd[c >> 4];
                out[o++] = (uint8_t)hexd[c & 15];
            }
        } else {
            out[o++] = c;
        }
    }
    return ref_res(PCT_OK, o);
}

/* ------------------------------------------------------------------------ */
/* Normalize model (RFC 3986 6.2.2.1-2 + the header's stray-'%' rule)        */
/* ------------------------------------------------------------------------ */

static inline int ref_is_escape(const uint8_t *s, size_t len, size_t i)
{
    return s[i] == '%' && len - i >= 3 && ref_hex(s[i + 1]) >= 0 && ref_hex(s[i + 2]) >= 0;
}

static inline int ref_is_stray(const uint8_t *s, size_t len, size_t i)
{
    return s[i] == '%' && !ref_is_escape(s, len, i);
}

/* out needs len bytes. The header keeps an escape of a hex digit "within two
 * bytes after" a stray '%' encoded; whether those two bytes are counted in the
 * input or in the output is not said, and both keep normalize idempotent:
 * "%%4a%44" is "%JD" counting input bytes (the escape starts 4 bytes after the
 * '%') and "%J%44" counting output bytes (the 'D' would land 2 bytes after).
 * by_output selects the reading; the tests accept either. */
static inline pct_result ref_normalize_as(const void *srcv, size_t len, unsigned flags, void *outv,
                                          int by_output)
{
    static const char hexd[] = "0123456789ABCDEF";
    const uint8_t *s = (const uint8_t *)srcv;
    uint8_t *out = (uint8_t *)outv;
    uint8_t *stray_out = (uint8_t *)calloc(len + 1, 1); /* out[i] is a copied stray '%' */
    size_t i = 0, o = 0;
    if (!stray_out)
        exit(99);
    while (i < len) {
        if (ref_is_escape(s, len, i)) {
            uint8_t b = (uint8_t)(ref_hex(s[i + 1]) * 16 + ref_hex(s[i + 2]));
            int after_stray;
            if (by_output)
                after_stray = (o >= 1 && stray_out[o - 1]) || (o >= 2 && stray_out[o - 2]);
            else
                after_stray = (i >= 1 && ref_is_stray(s, len, i - 1)) ||
                              (i >= 2 && ref_is_stray(s, len, i - 2));
            if (ref_unreserved(b) && !(ref_hex(b) >= 0 && after_stray)) {
                out[o++] = b;
            } else {
                out[o++] = '%';
                out[o++] = (uint8_t)hexd[b >> 4];
                out[o++] = (uint8_t)hexd[b & 15];
            }
            i += 3;
        } else {
            if (s[i] == '%') {
                if (flags & PCT_STRICT) {
                    free(stray_out);
                    return ref_res(PCT_INVALID_ESCAPE, i);
                }
                stray_out[o] = 1;
            }
            out[o++] = s[i++];
        }
    }
    free(stray_out);
    return ref_res(PCT_OK, o);
}

static inline pct_result ref_normalize(const void *srcv, size_t len, unsigned flags, void *outv)
{
    return ref_normalize_as(srcv, len, flags, outv, 0);
}

/* ------------------------------------------------------------------------ */
/* Input generators                                                          */
/* ------------------------------------------------------------------------ */

static inline size_t gen_put_escape(uint8_t *out, uint8_t b)
{
    static const char up[] = "0123456789ABCDEF", lo[] = "0123456789abcdef";
    const char *h1 = rng_chance(50) ? up : lo, *h2 = rng_chance(80) ? h1 : (h1 == up ? lo : up);
    out[0] = '%';
    out[1] = (uint8_t)h1[b >> 4];
    out[2] = (uint8_t)h2[b & 15];
    return 3;
}

static inline size_t gen_put_u(uint8_t *out, unsigned unit)
{
    static const char up[] = "0123456789ABCDEF", lo[] = "0123456789abcdef";
    const char *h = rng_chance(50) ? up : lo;
    out[0] = '%';
    out[1] = 'u';
    out[2] = (uint8_t)h[(unit >> 12) & 15];
    out[3] = (uint8_t)h[(unit >> 8) & 15];
    out[4] = (uint8_t)h[(unit >> 4) & 15];
    out[5] = (uint8_t)h[unit & 15];
    return 6;
}

/* A random scalar value, biased to the boundaries of Table 3-7. */
static inline uint32_t gen_code_point(void)
{
    static const uint32_t edges[] = {0x0,     0x7F,     0x80,     0x7FF,  0x800,   0xFFF,   0x1000,
                                     0xD7FF,  0xE000,   0xFFFD,   0xFFFF, 0x10000, 0x3FFFF, 0x40000,
                                     0xFFFFF, 0x100000, 0x10FFFF, 0xFEFF, 0x20AC,  0x1F600};
    uint32_t cp;
    switch (rng_below(4)) {
    case 0:
        return edges[rng_below(sizeof edges / sizeof edges[0])];
    case 1:
        return (uint32_t)rng_below(0x80);
    case 2:
        return 0x80 + (uint32_t)rng_below(0x800 - 0x80);
    default:
        do
            cp = (uint32_t)rng_below(0x110000);
        while (cp >= 0xD800 && cp <= 0xDFFF);
        return cp;
    }
}

/* Appends one random piece for decode-side tests (escapes of 0x80-0xFF,
 * UTF-8 of code points escaped or literal, malformed escapes, %u, '+').
 * out needs 24 bytes. percent_u: include %uXXXX pieces. */
static inline size_t gen_decode_piece(uint8_t *out, int percent_u)
{
    static const char *const bad[] = {"%",  "%4",  "%G1", "%zz", "%%",  "%%4",
                                      "%u", "%u1", "%2",  "%0g", "%-1", "%\xE2",
                                      "+",  "%2B", "%2b", "%20", "%25", "%41"};
    uint8_t tmp[4];
    size_t n, k, o = 0;
    unsigned unit;
    switch (rng_below(percent_u ? 11 : 9)) {
    case 0: /* an escape of a high byte */
    case 1:
        return gen_put_escape(out, (uint8_t)(0x80 + rng_below(0x80)));
    case 2: /* an escape of any byte */
        return gen_put_escape(out, (uint8_t)rng_below(256));
    case 3: /* a code point, escaped (sometimes only partly) */
    case 4:
        n = ref_utf8_put(gen_code_point(), tmp);
        for (k = 0; k < n; k++) {
            if (rng_chance(90))
                o += gen_put_escape(out + o, tmp[k]);
            else
                out[o++] = tmp[k];
        }
        if (n > 1 && rng_chance(15))
            o -= rng_chance(50) ? 3 : 1; /* cut the last escape short */
        return o;
    case 5: /* a literal code point */
        return ref_utf8_put(gen_code_point(), out);
    case 6: /* a literal byte */
        out[0] = rng_chance(70) ? (uint8_t)(0x20 + rng_below(0x5F)) : (uint8_t)rng_below(256);
        return 1;
    case 7: /* a malformed or special escape */
    case 8:
        n = rng_below(sizeof bad / sizeof bad[0]);
        mem_cpy(out, bad[n], strlen(bad[n]));
        return strlen(bad[n]);
    default: /* %uXXXX: any unit, surrogate pairs, lone surrogates */
        switch (rng_below(4)) {
        case 0: {
            uint32_t cp = 0x10000 + (uint32_t)rng_below(0x100000);
            o = gen_put_u(out, 0xD800 + ((cp - 0x10000) >> 10));
            return o + gen_put_u(out + o, 0xDC00 + ((cp - 0x10000) & 0x3FF));
        }
        case 1:
            return gen_put_u(out, 0xD800 + (unsigned)rng_below(0x800));
        default:
            unit = (unsigned)rng_below(0x10000);
            return gen_put_u(out, unit);
        }
    }
}

/* A random decode-side input of at most max bytes (buf needs max + 24). */
static inline size_t gen_decode_input(uint8_t *buf, size_t max, int percent_u)
{
    size_t target = rng_below(max + 1), n = 0;
    while (n < target)
        n += gen_decode_piece(buf + n, percent_u);
    return n > max ? max : n;
}

/* Random bytes for encode-side tests: ASCII, UTF-8, '%' escapes, any byte
 * (at most max returned; buf needs max + 4). */
static inline size_t gen_encode_input(uint8_t *buf, size_t max)
{
    size_t target = rng_below(max + 1), n = 0;
    while (n < target) {
        switch (rng_below(6)) {
        case 0:
            n += ref_utf8_put(gen_code_point(), buf + n);
            break;
        case 1:
            buf[n++] = (uint8_t)rng_below(256);
            break;
        case 2:
            n += gen_put_escape(buf + n, (uint8_t)rng_below(256));
            break;
        case 3:
            buf[n++] = rng_chance(50) ? '%' : ' ';
            break;
        default:
            buf[n++] = (uint8_t)(0x20 + rng_below(0x5F));
            break;
        }
    }
    return n > max ? max : n;
}

/* A random set: each byte with probability p percent. */
static inline void gen_set(pct_set *s, unsigned p)
{
    unsigned b;
    memset(s, 0, sizeof *s);
    for (b = 0; b < 256; b++)
        if (rng_chance(p))
            ref_set_add(s, (unsigned char)b);
}

/* ------------------------------------------------------------------------ */
/* Shared test tables (macros: an unused static table would warn)           */
/* ------------------------------------------------------------------------ */

/* Every predefined set with its name, as the initializer of an array of
 * ref_named_set. */
typedef struct ref_named_set {
    const char *name;
    const pct_set *set;
} ref_named_set;
#define REF_PREDEFINED_SETS                                                                        \
    {                                                                                              \
        {"c0_control", &pct_set_c0_control}, {"fragment", &pct_set_fragment},                      \
            {"query", &pct_set_query}, {"special_query", &pct_set_special_query},                  \
            {"path", &pct_set_path}, {"userinfo", &pct_set_userinfo},                              \
            {"component", &pct_set_component}, {"form", &pct_set_form},                            \
            {"rfc3986", &pct_set_rfc3986}, {"uri", &pct_set_uri},                                  \
            {"uri_component", &pct_set_uri_component},                                             \
    }

/* Every flag combination pct_decode accepts (PCT_UTF8 and PCT_UTF8_REPLACE
 * exclude each other), as an array initializer. */
#define REF_DECODE_FLAG_COMBOS                                                                     \
    {                                                                                              \
        0, PCT_PLUS, PCT_STRICT, PCT_UTF8, PCT_UTF8_REPLACE, PCT_PERCENT_U, PCT_PLUS | PCT_STRICT, \
            PCT_PLUS | PCT_UTF8, PCT_PLUS | PCT_UTF8_REPLACE, PCT_PLUS | PCT_PERCENT_U,            \
            PCT_STRICT | PCT_UTF8, PCT_STRICT | PCT_UTF8_REPLACE, PCT_STRICT | PCT_PERCENT_U,      \
            PCT_UTF8 | PCT_PERCENT_U, PCT_UTF8_REPLACE | PCT_PERCENT_U,                            \
            PCT_PLUS | PCT_STRICT | PCT_UTF8, PCT_PLUS | PCT_STRICT | PCT_UTF8_REPLACE,            \
            PCT_PLUS | PCT_STRICT | PCT_PERCENT_U, PCT_PLUS | PCT_UTF8 | PCT_PERCENT_U,            \
            PCT_PLUS | PCT_UTF8_REPLACE | PCT_PERCENT_U, PCT_STRICT | PCT_UTF8 | PCT_PERCENT_U,    \
            PCT_STRICT | PCT_UTF8_REPLACE | PCT_PERCENT_U,                                         \
            PCT_PLUS | PCT_STRICT | PCT_UTF8 | PCT_PERCENT_U,                                      \
            PCT_PLUS | PCT_STRICT | PCT_UTF8_REPLACE | PCT_PERCENT_U,                              \
    }

#endif /* PCT_TEST_REF_H */
