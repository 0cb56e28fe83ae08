/* neon/validate.c - NEON validator: is src correctly encoded for set?
 *
 * The blocks of neon/decode.c without the output. With starts the escapes
 * and digits the two lanes after each, a lane is wrong when
 *
 *   not digits and (   '%' not in starts, under PCT_STRICT or with '%' in set
 *                   or in set, not '%', not '+' under PCT_PLUS )
 *
 * and a clean block adds 16 - 2 * (its escapes) to the decoded length (the
 * digits of an escape in lanes 14-15 are skipped as in decode.c). A block
 * with a wrong lane, or one the blocks cannot decide (PCT_PERCENT_U: a '%'
 * followed by 'u'; PCT_UTF8: a decoded byte >= 0x80), is handed with all
 * that follows to the scalar validator, which finds the error and its offset:
 * the validator has no partial mode to return from. Inputs shorter than 18
 * bytes, and the tail after the last block, go to it as well.
 */
#include "neon/neon.h"
#include "scalar/hex.h"

pct_result pct_neon_validate(const uint8_t *src, size_t len, const pct_set *set, unsigned flags)
{
    if (len < 18)
        return pct_scalar_validate(src, len, set, flags);
    const uint8x16x2_t bits = pct_neon_load_set(set);
    const int stray_is_error = (flags & PCT_STRICT) || pct_in_set(set, '%');
    /* Bytes of the set that may appear unescaped: '%' (judged as an escape)
     * and, with PCT_PLUS, '+' (an encoded space); without it the second
     * compare is against '%' again, which adds nothing. */
    const uint8x16_t plus = vdupq_n_u8((flags & PCT_PLUS) ? '+' : '%');
    const int percent_u = (flags & PCT_PERCENT_U) != 0, utf8 = (flags & PCT_UTF8) != 0;
    size_t i = 0, decoded = 0;
    /* len - i >= 18: the loads at src + i + 2 stay inside src. */
    while (len - i >= 18) {
        const uint8x16_t c0 = vld1q_u8(src + i);
        const uint8x16_t c1 = vld1q_u8(src + i + 1), c2 = vld1q_u8(src + i + 2);
        const uint8x16_t percent = vceqq_u8(c0, vdupq_n_u8('%'));
        const uint8x16_t starts = pct_neon_escape_starts(c0, c1, c2);
        const uint8x16_t stray = vbicq_u8(percent, starts);
        const uint8x16_t accepted = vorrq_u8(percent, vceqq_u8(c0, plus));
        /* Lanes for the scalar validator: errors, and '%u' under PCT_PERCENT_U. */
        uint8x16_t wrong = vbicq_u8(pct_neon_in_set(bits, c0), accepted);
        if (stray_is_error)
            wrong = vorrq_u8(wrong, stray);
        if (percent_u)
            wrong = vorrq_u8(wrong, vandq_u8(stray, vceqq_u8(c1, vdupq_n_u8('u'))));
        wrong = vbicq_u8(wrong, pct_neon_escape_digits(vdupq_n_u8(0), starts));
        if (pct_neon_nibbles(wrong) != 0)
            break;
        if (utf8) {
            const uint8x16_t value = pct_neon_escape_value(c1, c2);
            if (vmaxvq_u8(vorrq_u8(c0, vandq_u8(starts, value))) >= 0x80)
                break;
        }
        const size_t escapes = (size_t)__builtin_popcountll(pct_neon_nibbles(starts)) / 4;
        const size_t after = pct_neon_digits_after(starts);
        decoded += 16 + after - 2 * escapes;
        i += 16 + after;
    }
    pct_result r = pct_scalar_validate(src + i, len - i, set, flags);
    r.count += r.status == PCT_OK ? decoded : i;
    return r;
}
