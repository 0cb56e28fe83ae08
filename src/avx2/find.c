/* avx2/find.c - AVX2 classifier: first byte of src in set. The same loop as
 * sse42/find.c, 32 bytes per vector; inputs of 16-31 bytes take one or two
 * 16-byte lookups with the same tables. */
#include "impl.h"
#include "avx2/classify.h"
#include "avx2/kernels.h"

static inline uint32_t set_mask(const uint8_t *p, const pct_avx_set *t)
{
    return (uint32_t)_mm256_movemask_epi8(
        pct_avx_in_set(_mm256_loadu_si256((const __m256i *)p), t));
}

/* 16 <= len < 32: the first 16 bytes and the last 16 (overlapping). */
static size_t find_short(const uint8_t *src, size_t len, const pct_avx_set *t)
{
    const pct_sse_set t16 = {_mm256_castsi256_si128(t->low), _mm256_castsi256_si128(t->high)};
    const uint32_t head =
        (uint32_t)_mm_movemask_epi8(pct_sse_in_set(_mm_loadu_si128((const __m128i *)src), &t16));
    const uint32_t tail = (uint32_t)_mm_movemask_epi8(
        pct_sse_in_set(_mm_loadu_si128((const __m128i *)(src + len - 16)), &t16));
    const uint32_t m = head | tail << (len - 16);
    return m ? (size_t)__builtin_ctz(m) : len;
}

size_t pct_avx2_find(const uint8_t *src, size_t len, const pct_set *set)
{
    if (len < 16)
        return pct_scalar_find(src, len, set);
    const pct_avx_set t = pct_avx_set_load(set);
    if (len < 32)
        return find_short(src, len, &t);
    size_t i = 0;
    for (; len - i >= 64; i += 64) {
        const uint32_t m0 = set_mask(src + i, &t), m1 = set_mask(src + i + 32, &t);
        if (m0 | m1)
            return i + (size_t)__builtin_ctzll(m0 | (uint64_t)m1 << 32);
    }
    if (len - i >= 32) {
        const uint32_t m = set_mask(src + i, &t);
        if (m)
            return i + (size_t)__builtin_ctz(m);
        i += 32;
    }
    if (i < len) {
        /* len >= 32: the last 32 bytes, minus those checked already. */
        const uint32_t m = set_mask(src + len - 32, &t) >> (32 - (len - i));
        if (m)
            return i + (size_t)__builtin_ctz(m);
    }
    return len;
}
