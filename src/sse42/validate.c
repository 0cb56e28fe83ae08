/* sse42/validate.c - SSE4.2 validator (pct_validate).
 *
 * The tokens are found as in the decoder (sse42/decode.c: three loads per
 * 16-byte block, escapes by pct_sse_escapes, digits of an escape at a block's
 * end carried into the next block), and each block is checked at once:
 *   - no byte of the set appears unescaped: a '%' is judged below, the two
 *     digits of an escape are not bytes of their own, and under PCT_PLUS a
 *     '+' stands for ' ';
 *   - a '%' that starts no %HH is allowed only without PCT_STRICT and when
 *     '%' is outside the set;
 *   - the count grows by the block's bytes minus the digits it holds.
 * A run of escapes only is checked 48 bytes at a time (sse42/dense.h).
 *
 * PCT_UTF8: units of four blocks also write their decoded bytes to a buffer,
 * which is validated as in sse42/decode.c (decode_checked), up to the last
 * whole sequence; the next unit starts at the token of an unfinished one.
 *
 * A block that fails a check, or that the loop does not decide itself (a "%u"
 * under PCT_PERCENT_U, ill-formed UTF-8), is where the scalar validator takes
 * over, to the end of the input, from the token boundary at the block's (or
 * unit's) start, after any carried digits: it reports exactly what one scalar
 * pass would, as nothing before that point is wrong. Clean runs go 64 bytes
 * at a time.
 */
#include "impl.h"
#include "scalar/hex.h"
#include "sse42/classify.h"
#include "sse42/vec.h"
#include "sse42/dense.h"
#include "sse42/kernels.h"
#include "sse42/utf8.h"

#define W 16
#define AHEAD 2
#define DENSE 16 /* at least this many '%' in 64 bytes: try sse42/dense.h */

static inline __m128i load(const uint8_t *p)
{
    return _mm_loadu_si128((const __m128i *)p);
}

/* Checks the block at s; adds its decoded length to *count and sets *carry
 * (as in sse42/decode.c). Returns 1, changing nothing, if the scalar
 * validator must decide from here. */
static inline __attribute__((always_inline)) int
validate_block(const uint8_t *s, size_t *count, uint32_t *carry, const pct_sse_set *t,
               unsigned flags, int percent_in_set, uint8_t **out, uint32_t *output_mask)
{
    const __m128i v0 = load(s), v1 = load(s + 1), v2 = load(s + 2);
    const uint32_t percents = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v0, _mm_set1_epi8('%')));
    const __m128i escapes = pct_sse_escapes(v0, v1, v2);
    const uint32_t e = (uint32_t)_mm_movemask_epi8(escapes);
    const uint64_t digits = pct_escape_digits(e);
    const uint32_t not_bytes = ((uint32_t)digits | *carry) & 0xFFFF; /* an escape's digits */
    uint32_t unescaped =
        (uint32_t)_mm_movemask_epi8(pct_sse_in_set(v0, t)) & ~percents & ~not_bytes;
    if (flags & PCT_PLUS)
        unescaped &= ~(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v0, _mm_set1_epi8('+')));
    if (unescaped)
        return 1;
    const uint32_t stray = percents & ~e;
    if (stray && ((flags & PCT_STRICT) || percent_in_set))
        return 1;
    if (stray && (flags & PCT_PERCENT_U) &&
        (stray & (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v1, _mm_set1_epi8('u')))))
        return 1;
    if (flags & PCT_UTF8) {
        /* The decoded bytes, for the unit's UTF-8 check (see the top). */
        const __m128i d = _mm_blendv_epi8(v0, pct_sse_hex_pair(v1, v2), escapes);
        *out = vec_compact_store(*out, d, ~not_bytes & 0xFFFF);
        *output_mask = ~not_bytes & 0xFFFF;
    }
    *count += W - (size_t)__builtin_popcount(not_bytes);
    *carry = (uint32_t)(digits >> W);
    return 0;
}

pct_result pct_sse42_validate(const uint8_t *src, size_t len, const pct_set *set, unsigned flags)
{
    if (len < W + AHEAD)
        return pct_scalar_validate(src, len, set, flags);
    const pct_sse_set t = pct_sse_set_load(set);
    const int percent_in_set = pct_in_set(set, '%');
    /* Bytes that need a closer look in a clean-run check: the set's bytes
     * ('+' is in it only as the encoded space under PCT_PLUS), and '%'. */
    pct_set s = *set;
    s.bits['%' >> 3] |= (uint8_t)(1u << ('%' & 7));
    if (flags & PCT_PLUS)
        s.bits['+' >> 3] &= (uint8_t) ~(1u << ('+' & 7));
    const pct_sse_set special = pct_sse_set_load(&s);
    size_t i = 0, count = 0;
    uint32_t carry = 0;
    uint8_t unit[8 * W]; /* PCT_UTF8: up to 4 * W decoded bytes, then 4 * W zeros */
    while (len - i >= W + AHEAD) {
        int blocks = 1;
        if (len - i >= 4 * W + AHEAD) {
            __m128i any = _mm_setzero_si128();
            uint64_t percents = 0;
            for (int k = 0; k < 4; k++) {
                const __m128i v = load(src + i + k * W);
                any = _mm_or_si128(any, pct_sse_in_set(v, &special));
                if (flags & PCT_UTF8)
                    any = _mm_or_si128(any, v);
                percents |= (uint64_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('%')))
                            << (k * W);
            }
            if (carry == 0 && _mm_movemask_epi8(any) == 0) {
                i += 4 * W;
                count += 4 * W;
                continue;
            }
            if (__builtin_popcountll(percents) >= DENSE) {
                /* Escapes only (sse42/dense.h): no byte of the set, no stray
                 * '%', nothing to check but the UTF-8 of their bytes. */
                const size_t j = i + (size_t)__builtin_popcount(carry);
                size_t n = 0, held = 0;
                while (n < 4 * W && len - j >= 3 * n + 48 &&
                       pct_sse_decode_dense(src + j + 3 * n, unit + n, NULL))
                    n += 16;
                if (n) {
                    i = j;
                    carry = 0;
                    if ((flags & PCT_UTF8) && !pct_sse_utf8_unit_valid(unit, n, &held))
                        break;
                    count += n - held;
                    i += 3 * (n - held);
                    continue;
                }
            }
            blocks = 4;
        } else if (flags & PCT_UTF8) {
            break; /* UTF-8 is checked by units of four blocks */
        }
        if (flags & PCT_UTF8) {
            /* As in sse42/decode.c (decode_checked): validate the unit's
             * decoded bytes up to the last whole sequence, and start the next
             * unit at the token of an unfinished one. */
            uint8_t *u = unit;
            uint32_t c = carry, output[4];
            size_t unused = 0;
            int k = 0;
            while (k < 4 && validate_block(src + i + k * W, &unused, &c, &t, flags, percent_in_set,
                                           &u, &output[k]) == 0)
                k++;
            if (k < 4)
                break;
            const size_t n = (size_t)(u - unit);
            size_t held;
            if (!pct_sse_utf8_unit_valid(unit, n, &held))
                break;
            count += n - held;
            if (held) {
                i += pct_kth_highest_bit(output[0] | (uint64_t)output[1] << W |
                                             (uint64_t)output[2] << (2 * W) |
                                             (uint64_t)output[3] << (3 * W),
                                         held);
                carry = 0;
            } else {
                i += 4 * W;
                carry = c;
            }
            continue;
        }
        int k = 0;
        for (; k < blocks; k++) {
            if (validate_block(src + i, &count, &carry, &t, flags, percent_in_set, NULL, NULL))
                break;
            i += W;
        }
        if (k < blocks)
            break;
    }
    i += (size_t)__builtin_popcount(carry);
    pct_result r = pct_scalar_validate(src + i, len - i, set, flags);
    r.count += r.status == PCT_OK ? count : i;
    return r;
}
