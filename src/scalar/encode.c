/* scalar/encode.c - the reference encoder (pct_encode, pct_encode_length,
 * and the streaming encoder's core). */
#include <stdint.h>

#include "impl.h"
#include "scalar/hex.h"
#include "scalar/utf8.h"

size_t pct_scalar_encode_length(const uint8_t *src, size_t len, const pct_set *set, unsigned flags)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        const uint8_t c = src[i];
        size_t add = 1;
        if ((flags & PCT_KEEP_ESCAPES) && pct_escape_value(src, len, i) >= 0) {
            add = 3;
            i += 2;
        } else if (pct_in_set(set, c) && !(c == ' ' && (flags & PCT_PLUS))) {
            add = 3;
        }
        if (n > SIZE_MAX - add)
            return SIZE_MAX;
        n += add;
    }
    return n;
}

pct_result pct_scalar_encode(const uint8_t *src, size_t len, uint8_t *dst, const pct_set *set,
                             unsigned flags, size_t *consumed)
{
    const int final = consumed == NULL;
    pct_utf8_state utf8;
    pct_utf8_reset(&utf8);
    size_t sequence_in = 0, sequence_out = 0; /* where a pending UTF-8 sequence starts */
    size_t i = 0, o = 0;
    while (i < len) {
        const uint8_t c = src[i];
        if (flags & PCT_UTF8) {
            const int starts = utf8.needed == 0;
            switch (pct_utf8_step(&utf8, c)) {
            case PCT_UTF8_MORE:
                if (starts) {
                    sequence_in = i;
                    sequence_out = o;
                }
                break;
            case PCT_UTF8_DONE:
                break;
            case PCT_UTF8_BAD_BYTE: {
                pct_result r = {PCT_INVALID_UTF8, i};
                return r;
            }
            default: { /* PCT_UTF8_BROKEN */
                pct_result r = {PCT_INVALID_UTF8, sequence_in};
                return r;
            }
            }
        }
        if (c == '%' && (flags & PCT_KEEP_ESCAPES)) {
            if (pct_escape_value(src, len, i) >= 0) {
                dst[o++] = src[i++];
                dst[o++] = src[i++];
                dst[o++] = src[i++];
                continue;
            }
            /* "%" or "%H" at the end may still become an escape. */
            if (!final && (len - i == 1 || (len - i == 2 && pct_is_hex(src[i + 1]))))
                break;
        }
        if (!pct_in_set(set, c)) {
            dst[o++] = c;
        } else if (c == ' ' && (flags & PCT_PLUS)) {
            dst[o++] = '+';
        } else {
            dst[o++] = '%';
            dst[o++] = pct_hex_digit(c >> 4);
            dst[o++] = pct_hex_digit(c & 15);
        }
        i++;
    }
    if (utf8.needed != 0) {
        if (final) {
            pct_result r = {PCT_INVALID_UTF8, sequence_in};
            return r;
        }
        i = sequence_in; /* hold back the unfinished sequence */
        o = sequence_out;
    }
    if (!final)
        *consumed = i;
    pct_result r = {PCT_OK, o};
    return r;
}
