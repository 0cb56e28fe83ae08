/* scalar/validate.c - the reference validator: is src correctly encoded for
 * set? It walks the tokens exactly as the decoder does (so that on success it
 * can report the decoded length) and writes nothing. */
#include "impl.h"
#include "scalar/escape.h"
#include "scalar/hex.h"
#include "scalar/output.h"

static pct_result fail(pct_status status, size_t offset)
{
    pct_result r = {status, offset};
    return r;
}

pct_result pct_scalar_validate(const uint8_t *src, size_t len, const pct_set *set, unsigned flags)
{
    pct_output w; /* counts, and checks UTF-8 with PCT_UTF8 */
    pct_output_init(&w, NULL, flags);
    size_t i = 0;
    while (i < len) {
        const uint8_t c = src[i];
        if (c == '%') {
            const pct_escape e = pct_parse_escape(src + i, len - i, flags, 1);
            if (e.kind == PCT_ESCAPE_BYTE || e.kind == PCT_ESCAPE_CODE_POINT) {
                uint8_t bytes[4] = {(uint8_t)e.value};
                const unsigned n = e.kind == PCT_ESCAPE_BYTE ? 1 : pct_utf8_encode(e.value, bytes);
                for (unsigned k = 0; k < n; k++)
                    if (pct_output_byte(&w, bytes[k], i))
                        return fail(PCT_INVALID_UTF8, w.error);
                i += e.length;
                continue;
            }
            /* A '%' that starts no escape: decoded as itself, unless it is
             * itself a byte that should have been escaped, or PCT_STRICT. */
            if ((flags & PCT_STRICT) || pct_in_set(set, c)) {
                if (w.check && pct_output_pending(&w))
                    return fail(PCT_INVALID_UTF8, w.sequence_in);
                return fail(PCT_INVALID_ESCAPE, i);
            }
        }
        const int plus = c == '+' && (flags & PCT_PLUS);
        /* Feed the decoded byte first: an earlier ill-formed UTF-8 sequence
         * that this byte breaks has the lower offset. */
        if (pct_output_byte(&w, plus ? ' ' : c, i))
            return fail(PCT_INVALID_UTF8, w.error);
        if (!plus && c != '%' && pct_in_set(set, c))
            return fail(PCT_UNESCAPED_BYTE, i);
        i++;
    }
    if (pct_output_break_pending(&w))
        return fail(PCT_INVALID_UTF8, w.error);
    pct_result r = {PCT_OK, w.length};
    return r;
}
