/* avx512/find_body.h - pct_find, pct_find_all and pct_encode_length of the SIMD
 * implementations, over the ISA's block.h: one classification per 64-byte
 * block, the last one partial. */
#include "impl.h"
#include "avx512/scan.h"
#include "scalar/hex.h"

/* The bytes of the set in the last, partial block (left < 64 bytes). */
PCT_BLOCK_INLINE uint64_t last_in_set(const uint8_t *s, size_t left, pct_block_set in_set,
                                      const pct_block_tables *t)
{
    return block_in_set(block_load_n(s, left), in_set, t) & block_low_bits(left);
}

/* Whole blocks are classified without a mask of valid bytes: the compiler
 * turns an all-ones mask into a mask register that each block's
 * classification then waits for (Zen 4/5 do not treat kxnorq of a register
 * with itself as independent of it), which made this loop slower than the
 * AVX2 one (26 against 46 GB/s, measured). */
PCT_BLOCK_INLINE size_t find_body(const uint8_t *src, size_t len, const pct_set *set)
{
    const pct_block_tables tables = block_tables_load();
    const pct_block_set in_set = block_set_load(set);
    size_t i = 0;
    for (; len - i >= 64; i += 64) {
        const uint64_t found = block_in_set(block_load(src + i), in_set, &tables);
        if (found)
            return i + (size_t)__builtin_ctzll(found);
    }
    if (i < len) {
        const uint64_t found = last_in_set(src + i, len - i, in_set, &tables);
        if (found)
            return i + (size_t)__builtin_ctzll(found);
    }
    return len;
}

/* Where the bytes of the set are: a word of bits per 64-byte block, the
 * last one partial (its bits past len are 0); whole blocks without a mask,
 * as in find_body. */
PCT_BLOCK_INLINE void find_all_body(const uint8_t *src, size_t len, const pct_set *set,
                                    uint64_t *bits)
{
    const pct_block_tables tables = block_tables_load();
    const pct_block_set in_set = block_set_load(set);
    size_t i = 0;
    for (; len - i >= 64; i += 64)
        bits[i / 64] = block_in_set(block_load(src + i), in_set, &tables);
    if (i < len)
        bits[i / 64] = last_in_set(src + i, len - i, in_set, &tables);
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
    if (!(flags & PCT_KEEP_ESCAPES)) { /* whole blocks without a mask, as in find_body */
        size_t i = 0;
        for (; len - i >= 64; i += 64) {
            const pct_block text = block_load(src + i);
            uint64_t m = block_in_set(text, in_set, &tables);
            if (plus)
                m &= ~block_eq(text, ' ');
            escaped += (size_t)__builtin_popcountll(m);
        }
        if (i < len) {
            uint64_t m = last_in_set(src + i, len - i, in_set, &tables);
            if (plus)
                m &= ~block_eq(block_load_n(src + i, len - i), ' ');
            escaped += (size_t)__builtin_popcountll(m);
        }
        return len + 2 * escaped;
    }
    for (size_t i = 0; i < len; i += 64) {
        pct_scan b;
        scan_block(&b, src + i, len - i, &tables);
        uint64_t m = block_in_set(b.text, in_set, &tables) & b.valid;
        if (plus)
            m &= ~block_eq(b.text, ' ');
        m &= ~(b.escapes | digits_of(b.escapes) | carry);
        carry = digits_carried(b.escapes);
        escaped += (size_t)__builtin_popcountll(m);
    }
    return len + 2 * escaped;
}
