/* scalar/decode.c - the reference decoder (pct_decode, pct_decode_except,
 * pct_normalize, and the streaming decoder's core).
 *
 * One token at a time, left to right (scalar/escape.h), each token's bytes
 * written through the UTF-8 check (scalar/output.h). Output never runs ahead
 * of input (except with U+FFFD replacement), so dst == src works.
 */
#include <stdint.h>

#include "impl.h"
#include "scalar/escape.h"
#include "scalar/hex.h"
#include "scalar/output.h"

static pct_result fail(pct_status status, size_t offset)
{
    pct_result r = {status, offset};
    return r;
}

static pct_result utf8_failure(const pct_output *w)
{
    return fail(PCT_INVALID_UTF8, w->error);
}

/* Writes the escape src[0..2] as is; normalize mode upper-cases its hex.
 * Returns non-zero on a UTF-8 failure. */
static int put_escape_as_written(pct_output *w, const uint8_t *src, int upper, size_t at)
{
    uint8_t hi = src[1], lo = src[2];
    if (upper) {
        hi = pct_hex_digit((unsigned)pct_hex_value(hi));
        lo = pct_hex_digit((unsigned)pct_hex_value(lo));
    }
    return pct_output_byte(w, '%', at) || pct_output_byte(w, hi, at) || pct_output_byte(w, lo, at);
}

pct_result pct_scalar_decode(const uint8_t *src, size_t len, uint8_t *dst, const pct_set *keep,
                             unsigned flags, size_t *consumed)
{
    const int final = consumed == NULL;
    const int normalize = (flags & PCT_INTERNAL_NORMALIZE) != 0;
    pct_output w;
    pct_output_init(&w, dst, flags);
    /* normalize: output offset of the last '%' copied because it started no
     * escape, or SIZE_MAX (see pct_normalize in pct.h for why it matters). */
    size_t stray = SIZE_MAX;
    size_t i = 0;
    while (i < len) {
        const uint8_t c = src[i];
        if (c != '%') {
            const uint8_t out = (c == '+' && (flags & PCT_PLUS)) ? ' ' : c;
            if (pct_output_byte(&w, out, i))
                return utf8_failure(&w);
            i++;
            continue;
        }
        const pct_escape e = pct_parse_escape(src + i, len - i, flags, final);
        switch (e.kind) {
        case PCT_ESCAPE_BYTE: {
            const uint8_t b = (uint8_t)e.value;
            int kept = keep != NULL && pct_in_set(keep, b);
            /* Decoding a hex digit right after a stray '%' would create an
             * escape that a second pass decodes: keep it, for idempotence. */
            if (normalize && !kept && stray != SIZE_MAX && w.length - stray <= 2 && pct_is_hex(b))
                kept = 1;
            if (kept ? put_escape_as_written(&w, src + i, normalize, i) : pct_output_byte(&w, b, i))
                return utf8_failure(&w);
            break;
        }
        case PCT_ESCAPE_CODE_POINT: {
            /* %u002F must not slip past a keep set that holds %2F back. */
            const int kept = keep != NULL && e.value < 0x80 && pct_in_set(keep, (uint8_t)e.value);
            uint8_t bytes[6];
            const unsigned n = kept ? e.length : pct_utf8_encode(e.value, bytes);
            for (unsigned k = 0; k < n; k++)
                if (pct_output_byte(&w, kept ? src[i + k] : bytes[k], i))
                    return utf8_failure(&w);
            break;
        }
        case PCT_ESCAPE_MALFORMED:
        case PCT_ESCAPE_LONE_SURROGATE:
            if (flags & PCT_STRICT) {
                /* Report the lowest offset: a pending UTF-8 sequence is broken
                 * by this '%' whatever follows. */
                if (w.check == PCT_UTF8 && pct_output_pending(&w))
                    return fail(PCT_INVALID_UTF8, w.sequence_in);
                return fail(PCT_INVALID_ESCAPE, i);
            }
            if (normalize)
                stray = w.length;
            if (pct_output_byte(&w, '%', i))
                return utf8_failure(&w);
            break;
        default: /* PCT_ESCAPE_INCOMPLETE, only when !final */
            /* %u... decodes to ASCII, a lead byte or '%': never a continuation
             * byte, so a pending sequence is broken already; settle it now to
             * bound what the caller must carry. */
            if (len - i >= 2 && src[i + 1] == 'u' && pct_output_break_pending(&w))
                return utf8_failure(&w);
            goto stop;
        }
        i += e.length;
    }
    if (final) {
        if (pct_output_break_pending(&w))
            return utf8_failure(&w);
    }
stop:
    if (!final) {
        /* Hold back an unfinished UTF-8 sequence: its bytes are decided by
         * what follows. */
        if (pct_output_pending(&w)) {
            i = w.sequence_in;
            w.length = w.sequence_out;
        }
        *consumed = i;
    }
    pct_result r = {PCT_OK, w.length};
    return r;
}
