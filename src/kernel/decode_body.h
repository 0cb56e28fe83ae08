/* kernel/decode_body.h - the percent-decoder of the SIMD implementations,
 * written once over the 64-byte block primitives of an ISA's block.h (which
 * the including decode.c includes first). It reads like
 * pct_scalar_decode (scalar/decode.c), a block instead of a byte at a time:
 *
 *   for each 64-byte block at i (2 more bytes are read: the digits of an
 *   escape at its end):
 *     percents   '%' bytes
 *     escapes    '%' followed by two hex digits (those of a byte in the keep
 *                set stay as written: `kept`)
 *     stray      the other '%': decoded as themselves, unless a flag needs
 *                the scalar routine for them (PCT_STRICT, %u, normalize)
 *     output     every byte but the digits of the escapes (and those that
 *                the previous block's last escape carried into this one)
 *     the escapes' bytes replace their '%', the output bytes are packed and
 *     stored, and with PCT_UTF8/PCT_UTF8_REPLACE checked as UTF-8 first.
 *
 * Every block runs the same instructions whatever its content: no branch
 * depends on the text except the rare hand-over to the scalar routine
 * (kernel/handover.c). The last block is a partial one (masked loads and
 * stores), so no input is too short for the kernel.
 *
 * In place (dst == src): a block's output starts no later than its input
 * and is no longer, and all its input is loaded before it is stored.
 */
#include "impl.h"
#include "kernel/handover.h"
#include "kernel/scan.h"
#include "scalar/hex.h"

/* Where the scalar routine takes over after the block at i: the next token,
 * after the escape whose digits the last block carried into this one. A
 * kept escape's carried digits are written here, as they are (upper-cased by
 * normalize), from the input, which is intact from i on. The bytes written
 * of an unfinished UTF-8 sequence are handed over as "held" bytes, decoded
 * again in front of the input that follows them: the input before i is never
 * read again (in place, full-block stores have overwritten it). */
PCT_BLOCK_INLINE void decode_stop(pct_decode_point *p, const uint8_t *src, size_t i, uint64_t carry,
                                  uint64_t kept_carry, pct_block tail, unsigned flags)
{
    p->at = i + (size_t)__builtin_popcountll(carry | kept_carry);
    for (size_t k = i; k < i + (size_t)__builtin_popcountll(kept_carry); k++)
        *p->out++ = (flags & PCT_INTERNAL_NORMALIZE)
                        ? pct_hex_digit((unsigned)pct_hex_value(src[k]))
                        : src[k];
    p->held_len = 0;
    if (flags & (PCT_UTF8 | PCT_UTF8_REPLACE)) {
        uint8_t last[64];
        p->held_len = tail_unfinished(tail, last);
        p->out -= p->held_len;
        for (size_t k = 0; k < p->held_len; k++)
            p->held[k] = p->out[k];
    }
}

PCT_BLOCK_INLINE pct_result decode_body(const uint8_t *src, size_t len, uint8_t *dst,
                                        const pct_set *keep, unsigned flags, size_t *consumed)
{
    const int final = consumed == NULL;
    const int check = (flags & (PCT_UTF8 | PCT_UTF8_REPLACE)) != 0;
    const int normalize = (flags & PCT_INTERNAL_NORMALIZE) != 0;
    const pct_block_set kept_set = keep ? block_set_load(keep) : block_zero();
    const pct_block_tables tables = block_tables_load();
    pct_decode_point p = {0, dst, {0, 0, 0}, 0, {{0, 0, 0}, {0, 0, 0}}};
    uint8_t *out = dst;            /* p.out, in a register between hand-overs */
    pct_block tail = block_zero(); /* UTF-8: the last output bytes */
    uint64_t carry = 0;            /* digits of the last block's last escape */
    uint64_t kept_carry = 0;       /* the same, of a kept escape */
    size_t i = 0, window = PCT_WINDOW_MIN;
    pct_result r;
    while (i < len) {
        const size_t left = len - i;
        if (left < 64 + PCT_SCAN_AHEAD && !final)
            break; /* the scalar routine decides what the next bytes may change */
        pct_scan b;
        scan_block(&b, src + i, left, &tables);
        uint64_t escapes = b.escapes;
        const pct_block bytes = b.bytes;
        uint64_t kept = 0;
        if (keep) {
            kept = escapes & block_in_set(bytes, kept_set, &tables);
            escapes &= ~kept;
        }
        const uint64_t stray = b.percents & ~(escapes | kept);
        if (stray && ((flags & PCT_STRICT) || normalize ||
                      ((flags & PCT_PERCENT_U) && (stray & block_eq(b.next, 'u')))))
            goto hand_over;
        pct_block text = (flags & PCT_PLUS) ? block_replace(b.text, '+', ' ') : b.text;
        if (normalize)
            text = block_upper_hex(text, digits_of(kept) | kept_carry);
        const uint64_t output = ~(digits_of(escapes) | carry) & b.valid;
        const pct_block packed = block_compact(block_select(escapes, bytes, text), output);
        const size_t n = (size_t)__builtin_popcountll(output);
        if (check) {
            if (block_utf8_errors(packed, tail, &tables) & block_low_bits(n))
                goto hand_over;
            tail = block_utf8_tail(tail, packed, n);
            pct_decode_point_block(&p, i, output, n);
        }
        /* A full block has 64 bytes of room: its output starts no later than
         * its input, which dst has room for. */
        block_store_any(out, packed, n, b.valid == ~0ull);
        out += n;
        carry = digits_carried(escapes);
        kept_carry = digits_carried(kept);
        i += 64;
        window = PCT_WINDOW_MIN;
        continue;
    hand_over:
        p.out = out;
        decode_stop(&p, src, i, carry, kept_carry, tail, flags);
        if (pct_decode_handover(src, len, dst, &p, keep, flags, consumed, window, &r))
            return r;
        out = p.out;
        i = p.at;
        carry = kept_carry = 0;
        tail = block_zero();
        if (window < PCT_WINDOW_MAX)
            window *= 2;
    }
    p.out = out;
    if (final) {
        /* Every block is decoded; a sequence may still be unfinished. */
        if (!check)
            return (pct_result){PCT_OK, (size_t)(out - dst)};
        decode_stop(&p, src, len, 0, 0, tail, flags);
        if (p.held_len == 0)
            return (pct_result){PCT_OK, (size_t)(p.out - dst)};
    } else {
        decode_stop(&p, src, i, carry, kept_carry, tail, flags);
    }
    while (!pct_decode_handover(src, len, dst, &p, keep, flags, consumed, SIZE_MAX, &r))
        continue;
    return r;
}
