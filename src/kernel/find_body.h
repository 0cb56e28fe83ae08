/* kernel/find_body.h - pct_find and pct_encode_length of the SIMD
 * implementations, over the ISA's block.h: one classification per 64-byte
 * block, the last one partial. */
#include "impl.h"
#include "kernel/scan.h"
#include "scalar/hex.h"

PCT_BLOCK_INLINE size_t find_body(const uint8_t *src, size_t len, const pct_set *set)
{
    const pct_block_tables tables = block_tables_load();
    const pct_block_set in_set = block_set_load(set);
    for (size_t i = 0; i < len; i += 64) {
        const size_t left = len - i;
        const pct_block text = left >= 64 ? block_load(src + i) : block_load_n(src + i, left);
        uint64_t found = block_in_set(text, in_set, &tables);
        if (left < 64)
            found &= block_low_bits(left);
        if (found)
            return i + (size_t)__builtin_ctzll(found);
    }
    return len;
}

/* Exact length of the encoding: every byte of the set takes 3 bytes, but a
 * space with PCT_PLUS (one '+') and, with PCT_KEEP_ESCAPES, a well-formed
 * escape (kept as it is, digits included). */
PCT_BLOCK_INLINE size_t encode_length_body(const uint8_t *src, size_t len, const pct_set *set,
                                           unsigned flags)
{
    const pct_block_tables tables = block_tables_load();
    const pct_block_set in_set = block_set_load(set);
    const int plus = (flags & PCT_PLUS) && pct_in_set(set, ' ');
    size_t escaped = 0;
    uint64_t carry = 0;
    for (size_t i = 0; i < len; i += 64) {
        const size_t left = len - i;
        pct_scan b;
        if (flags & PCT_KEEP_ESCAPES) {
            scan_block(&b, src + i, left, &tables);
        } else {
            b.valid = left >= 64 ? ~0ull : block_low_bits(left);
            b.text = left >= 64 ? block_load(src + i) : block_load_n(src + i, left);
        }
        uint64_t m = block_in_set(b.text, in_set, &tables) & b.valid;
        if (plus)
            m &= ~block_eq(b.text, ' ');
        if (flags & PCT_KEEP_ESCAPES) {
            m &= ~(b.escapes | digits_of(b.escapes) | carry);
            carry = digits_carried(b.escapes);
        }
        escaped += (size_t)__builtin_popcountll(m);
    }
    return len + 2 * escaped;
}
