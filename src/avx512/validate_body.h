/* avx512/validate_body.h - the validator of the SIMD implementations, over
 * the ISA's block.h: the blocks of avx512/decode_body.h, counted instead of
 * stored, and checked for bytes of the set that are not escaped. At the
 * first block with anything to report (or a %u escape), the scalar routine
 * validates the rest, so the error and its offset are the scalar ones.
 */
#include "impl.h"
#include "simd_shared/handover.h"
#include "avx512/scan.h"
#include "scalar/hex.h"

PCT_BLOCK_INLINE pct_result validate_body(const uint8_t *src, size_t len, const pct_set *set,
                                          unsigned flags)
{
    const int check = (flags & PCT_UTF8) != 0;
    const pct_block_tables tables = block_tables_load();
    const pct_block_set in_set = block_set_load(set);
    /* A '%' that starts no escape is an error when '%' itself must be escaped. */
    const int stray_is_error = (flags & PCT_STRICT) || pct_in_set(set, '%');
    pct_decode_point p = {0, NULL, {0, 0, 0}, 0, {{0, 0, 0}, {0, 0, 0}}};
    pct_block tail = block_zero();
    uint64_t carry = 0;
    size_t i = 0, count = 0;
    while (i < len) {
        pct_scan b;
        scan_block(&b, src + i, len - i, &tables);
        const uint64_t stray = b.percents & ~b.escapes;
        if (stray &&
            (stray_is_error || ((flags & PCT_PERCENT_U) && (stray & block_eq(b.next, 'u')))))
            break;
        const uint64_t digits = digits_of(b.escapes) | carry;
        uint64_t unescaped = block_in_set(b.text, in_set, &tables) & ~(b.percents | digits);
        if (flags & PCT_PLUS)
            unescaped &= ~block_eq(b.text, '+');
        if (unescaped & b.valid)
            break;
        const uint64_t output = ~digits & b.valid;
        const size_t n = (size_t)__builtin_popcountll(output);
        if (check) {
            const pct_block packed =
                block_compact(block_select(b.escapes, b.bytes, b.text), output);
            if (block_utf8_errors(packed, n, tail, &tables))
                break;
            tail = block_utf8_tail(tail, packed, n);
            pct_decode_point_block(&p, i, output, n);
        }
        count += n;
        carry = digits_carried(b.escapes);
        i += 64;
    }
    const size_t at = i < len ? i + (size_t)__builtin_popcountll(carry) : len;
    if (check) { /* the output may end in an unfinished sequence */
        uint8_t last[64];
        p.held_len = tail_unfinished(tail, last);
    }
    return pct_validate_handover(src, len, at, count, &p, set, flags);
}

/* pct_validate_utf8: the UTF-8 check of the decoder, on the input itself. At
 * the first block with an error, or input that ends inside a sequence, the
 * scalar routine checks the rest from where the sequence starts, for the
 * scalar offset. */
PCT_BLOCK_INLINE pct_result validate_utf8_body(const uint8_t *src, size_t len)
{
    const pct_block_tables tables = block_tables_load();
    pct_block tail = block_zero();
    size_t i = 0;
    while (i < len) {
        const size_t left = len - i;
        const size_t count = left < 64 ? left : 64;
        const pct_block text = left >= 64 ? block_load(src + i) : block_load_n(src + i, left);
        if (block_utf8_errors(text, count, tail, &tables))
            break;
        tail = block_utf8_tail(tail, text, count);
        i += count;
    }
    uint8_t last[64];
    const size_t at = i - tail_unfinished(tail, last);
    if (at == len)
        return (pct_result){PCT_OK, len};
    pct_result r = pct_scalar_validate_utf8(src + at, len - at);
    r.count += at;
    return r;
}
