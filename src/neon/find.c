/* neon/find.c - NEON classifier: the first byte of src in set.
 *
 * Each 16-byte block is classified with the 32-byte bitmap lookup of
 * neon/neon.h; a block with a hit gives its first lane through the nibble
 * mask. Four blocks are tested together so that a clean 64 bytes costs one
 * branch. Inputs shorter than one block go to the scalar routine.
 */
#include "neon/neon.h"

size_t pct_neon_find(const uint8_t *src, size_t len, const pct_set *set)
{
    if (len < 16)
        return pct_scalar_find(src, len, set);
    const uint8x16x2_t bits = pct_neon_load_set(set);
    size_t i = 0;
    /* len - i >= 64: the four loads stay inside src. */
    for (; len - i >= 64; i += 64) {
        const uint8x16_t a = pct_neon_in_set(bits, vld1q_u8(src + i));
        const uint8x16_t b = pct_neon_in_set(bits, vld1q_u8(src + i + 16));
        const uint8x16_t c = pct_neon_in_set(bits, vld1q_u8(src + i + 32));
        const uint8x16_t d = pct_neon_in_set(bits, vld1q_u8(src + i + 48));
        if (pct_neon_nibbles(vorrq_u8(vorrq_u8(a, b), vorrq_u8(c, d))) == 0)
            continue;
        const uint8x16_t blocks[4] = {a, b, c, d};
        for (size_t k = 0;; k++) {
            const uint64_t hits = pct_neon_nibbles(blocks[k]);
            if (hits)
                return i + 16 * k + pct_neon_first_lane(hits);
        }
    }
    for (; len - i >= 16; i += 16) {
        const uint64_t hits = pct_neon_nibbles(pct_neon_in_set(bits, vld1q_u8(src + i)));
        if (hits)
            return i + pct_neon_first_lane(hits);
    }
    if (i < len) {
        /* The last 16 bytes, overlapping bytes already found clean: a hit
         * here is at or after i. */
        const uint64_t hits = pct_neon_nibbles(pct_neon_in_set(bits, vld1q_u8(src + len - 16)));
        if (hits)
            return len - 16 + pct_neon_first_lane(hits);
    }
    return len;
}
