/* avx512/encode_body.h - the percent-encoder of the SIMD implementations,
 * over the ISA's block.h. It reads like pct_scalar_encode: per 64-byte block,
 *
 *   escaped   bytes of the set (not a space with PCT_PLUS: that is '+'; with
 *             PCT_KEEP_ESCAPES not the bytes of a well-formed escape, which
 *             are copied as they are)
 *   literal   the bytes as written: '%' for the escaped ones
 *   then the ISA's block_encode_store writes each literal byte, followed by
 *   two hex digits where it is escaped.
 *
 * A block with nothing to escape is stored as it is: on the inputs where
 * that branch is not predictable (a few escapes in many blocks) both sides
 * cost about the same. With PCT_UTF8 the input is checked as UTF-8 on the
 * way; the first ill-formed block, the end of a partial (streaming) input,
 * and input ending inside a sequence go to the scalar routine for the rest.
 */
#include "impl.h"
#include "simd_shared/handover.h"
#include "avx512/scan.h"
#include "scalar/hex.h"

PCT_BLOCK_INLINE pct_result encode_body(const uint8_t *src, size_t len, uint8_t *dst,
                                        const pct_set *set, unsigned flags, size_t *consumed)
{
    const int final = consumed == NULL;
    const int check = (flags & PCT_UTF8) != 0;
    const int keep_escapes = (flags & PCT_KEEP_ESCAPES) != 0;
    const int plus = (flags & PCT_PLUS) && pct_in_set(set, ' ');
    const pct_block_tables tables = block_tables_load();
    const pct_block_set in_set = block_set_load(set);
    pct_block tail = block_zero(); /* the last 64 input bytes (UTF-8 check) */
    uint64_t carry = 0;            /* digits of a kept escape at the end of a block */
    uint8_t *out = dst;
    size_t i = 0;
    while (i < len) {
        const size_t left = len - i;
        if (left < 64 + PCT_SCAN_AHEAD && !final)
            break;
        pct_scan b;
        if (keep_escapes)
            scan_block(&b, src + i, left, &tables);
        else
            scan_text(&b, src + i, left);
        const size_t count = left < 64 ? left : 64;
        uint64_t escaped = block_in_set(b.text, in_set, &tables) & b.valid;
        pct_block literal = b.text;
        if (plus) {
            const uint64_t spaces = block_eq(b.text, ' ') & b.valid;
            escaped &= ~spaces;
            literal = block_set_where(literal, spaces, '+');
        }
        if (check) {
            if (block_utf8_errors(b.text, count, tail, &tables))
                break;
            tail = block_utf8_tail(tail, b.text, count);
        }
        if (keep_escapes) {
            escaped &= ~(b.escapes | digits_of(b.escapes) | carry);
            carry = digits_carried(b.escapes);
        }
        /* The output still to come is at least as long as the input: with
         * 128 bytes left, every store of this block has 64 bytes of room. */
        const int roomy = left >= 128;
        if (escaped == 0) {
            block_store_any(out, literal, count, roomy);
            out += count;
        } else {
            out = block_encode_store(out, block_set_where(literal, escaped, '%'), b.text, escaped,
                                     count, roomy, &tables);
        }
        i += 64;
    }
    return pct_encode_handover(src, len, dst, i, out, carry, set, flags, consumed);
}
