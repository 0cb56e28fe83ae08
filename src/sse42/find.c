/* sse42/find.c - SSE4.2 classifier: first byte of src in set.
 *
 * 64 bytes per iteration through the nibble-table lookup of sse42/classify.h;
 * the last partial block is re-read as the 16 bytes ending at src + len, with
 * the bytes already checked masked off, so nothing outside src is read.
 */
#include "impl.h"
#include "sse42/classify.h"
#include "sse42/kernels.h"

static inline uint32_t set_mask(const uint8_t *p, const pct_sse_set *t)
{
    return (uint32_t)_mm_movemask_epi8(pct_sse_in_set(_mm_loadu_si128((const __m128i *)p), t));
}

size_t pct_sse42_find(const uint8_t *src, size_t len, const pct_set *set)
{
    /* Below one block, building the tables would cost more than the scan. */
    if (len < 16)
        return pct_scalar_find(src, len, set);
    const pct_sse_set t = pct_sse_set_load(set);
    size_t i = 0;
    for (; len - i >= 64; i += 64) {
        const uint32_t m0 = set_mask(src + i, &t), m1 = set_mask(src + i + 16, &t);
        const uint32_t m2 = set_mask(src + i + 32, &t), m3 = set_mask(src + i + 48, &t);
        if (m0 | m1 | m2 | m3) {
            const uint64_t m = m0 | m1 << 16 | (uint64_t)(m2 | m3 << 16) << 32;
            return i + (size_t)__builtin_ctzll(m);
        }
    }
    for (; len - i >= 16; i += 16) {
        const uint32_t m = set_mask(src + i, &t);
        if (m)
            return i + (size_t)__builtin_ctz(m);
    }
    if (i < len) {
        /* len >= 16: the block ending at src + len starts at or after src. Its
         * first 16 - (len - i) bytes were checked already. */
        const uint32_t m = set_mask(src + len - 16, &t) >> (16 - (len - i));
        if (m)
            return i + (size_t)__builtin_ctz(m);
    }
    return len;
}
