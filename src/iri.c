/* iri.c - RFC 3987 3.1 and 3.2: IRI to URI (pct_iri_to_uri) and URI to IRI
 * (pct_uri_to_iri). See pct.h for the contract.
 *
 * IRI to URI is pct_encode with the set of every non-ASCII byte and PCT_UTF8,
 * so it runs on the implementation in use (SIMD kernels included). URI to
 * IRI is a scalar pass: escapes of non-ASCII bytes are rare in URIs.
 */
#include <stdint.h>

#include "impl.h"
#include "scalar/hex.h"
#include "scalar/utf8.h"

/* Bytes 0x80-0xFF. */
static const pct_set non_ascii = {{0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
                                   0,    0,    0,    0,    0,    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                   0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}};

static pct_result result(pct_status status, size_t count)
{
    pct_result r = {status, count};
    return r;
}

pct_result pct_iri_to_uri(const char *src, size_t len, char *dst)
{
    if ((src == NULL && len != 0) || (dst == NULL && len != 0) || len > SIZE_MAX / 3)
        return result(PCT_INVALID_ARGUMENT, 0);
    if (len == 0)
        return result(PCT_OK, 0);
    const uintptr_t s = (uintptr_t)src, d = (uintptr_t)dst;
    if (s < d + 3 * len && d < s + len)
        return result(PCT_INVALID_ARGUMENT, 0);
    return pct_active_impl()->encode((const uint8_t *)src, len, (uint8_t *)dst, &non_ascii,
                                     PCT_UTF8, NULL);
}

/* RFC 3987 2.2: ucschar. */
static int is_ucschar(uint32_t cp)
{
    if (cp < 0xA0 || (cp >= 0xD800 && cp <= 0xF8FF) || (cp >= 0xFDD0 && cp <= 0xFDEF) ||
        (cp >= 0xFFF0 && cp <= 0xFFFF))
        return 0;
    if (cp >= 0x10000) {
        if ((cp & 0xFFFF) >= 0xFFFE) /* xFFFE-xFFFF of every plane */
            return 0;
        if (cp >= 0xE0000 && cp <= 0xE0FFF) /* tags, variation selectors */
            return 0;
        if (cp >= 0xF0000) /* planes 15 and 16: iprivate, not ucschar */
            return 0;
    }
    return 1;
}

/* RFC 3987 2.2: iprivate. */
static int is_iprivate(uint32_t cp)
{
    return (cp >= 0xE000 && cp <= 0xF8FF) || (cp >= 0xF0000 && cp <= 0xFFFFD) ||
           (cp >= 0x100000 && cp <= 0x10FFFD);
}

/* RFC 3987 4.1: bidi formatting characters, never decoded. */
static int is_bidi_format(uint32_t cp)
{
    return cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E);
}

/* If the escapes at src[i] are the UTF-8 of one code point, returns its
 * number of bytes (2-4) and stores it in *cp; else 0. */
static unsigned utf8_escape_run(const uint8_t *src, size_t len, size_t i, uint8_t bytes[4],
                                uint32_t *cp)
{
    pct_utf8_state u;
    pct_utf8_reset(&u);
    for (unsigned n = 0; n < 4; n++) {
        if (i + 3 * n >= len || src[i + 3 * n] != '%')
            return 0;
        const int v = pct_escape_value(src, len, i + 3 * n);
        if (v < 0)
            return 0;
        bytes[n] = (uint8_t)v;
        switch (pct_utf8_step(&u, (uint8_t)v)) {
        case PCT_UTF8_MORE:
            continue;
        case PCT_UTF8_DONE:
            if (n == 0)
                return 0; /* ASCII */
            if (n == 1)
                *cp = ((uint32_t)(bytes[0] & 0x1F) << 6) | (bytes[1] & 0x3F);
            else if (n == 2)
                *cp = ((uint32_t)(bytes[0] & 0x0F) << 12) | ((uint32_t)(bytes[1] & 0x3F) << 6) |
                      (bytes[2] & 0x3F);
            else
                *cp = ((uint32_t)(bytes[0] & 0x07) << 18) | ((uint32_t)(bytes[1] & 0x3F) << 12) |
                      ((uint32_t)(bytes[2] & 0x3F) << 6) | (bytes[3] & 0x3F);
            return n + 1;
        default:
            return 0;
        }
    }
    return 0;
}

pct_result pct_uri_to_iri(const char *src_, size_t len, char *dst_)
{
    if ((src_ == NULL && len != 0) || (dst_ == NULL && len != 0))
        return result(PCT_INVALID_ARGUMENT, 0);
    const uint8_t *src = (const uint8_t *)src_;
    uint8_t *dst = (uint8_t *)dst_;
    enum {
        PATH,
        QUERY,
        FRAGMENT
    } component = PATH;
    size_t i = 0, out = 0;
    while (i < len) {
        const uint8_t c = src[i];
        if (c == '?' && component == PATH)
            component = QUERY;
        else if (c == '#')
            component = FRAGMENT;
        if (c == '%') {
            uint8_t bytes[4];
            uint32_t cp = 0;
            const unsigned n = utf8_escape_run(src, len, i, bytes, &cp);
            if (n > 0 && !is_bidi_format(cp) &&
                (is_ucschar(cp) || (component == QUERY && is_iprivate(cp)))) {
                for (unsigned k = 0; k < n; k++)
                    dst[out++] = bytes[k];
                i += 3 * n;
                continue;
            }
        }
        dst[out++] = c; /* out <= i: in place is fine */
        i++;
    }
    return result(PCT_OK, out);
}
