/* avx2/compact.h - pct_sse_compact_store (sse42/compact.h) for 32 bytes:
 * four 8-byte groups, two per 128-bit lane. */
#ifndef PCT_AVX2_COMPACT_H
#define PCT_AVX2_COMPACT_H

#include <immintrin.h>
#include <stdint.h>

#include "sse42/compact.h"

static inline __m128i pct_avx_compact_entry(unsigned keep8)
{
    return _mm_loadl_epi64((const __m128i *)compact_8[keep8]);
}

/* Stores the bytes of d whose bit is set in keep (32 bits), in order. Writes
 * at most 32 bytes from out. */
static inline uint8_t *pct_avx_compact_store(uint8_t *out, __m256i d, uint32_t keep)
{
    const unsigned k0 = keep & 0xFF, k1 = (keep >> 8) & 0xFF, k2 = (keep >> 16) & 0xFF,
                   k3 = keep >> 24;
    const __m128i lane0 = _mm_unpacklo_epi64(pct_avx_compact_entry(k0), pct_avx_compact_entry(k1));
    const __m128i lane1 = _mm_unpacklo_epi64(pct_avx_compact_entry(k2), pct_avx_compact_entry(k3));
    const __m256i shuffle =
        _mm256_add_epi8(_mm256_inserti128_si256(_mm256_castsi128_si256(lane0), lane1, 1),
                        _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 8, 8, 8, 8, 8, 8, 8, 8, /* */
                                         0, 0, 0, 0, 0, 0, 0, 0, 8, 8, 8, 8, 8, 8, 8, 8));
    const __m256i packed = _mm256_shuffle_epi8(d, shuffle);
    const __m128i p0 = _mm256_castsi256_si128(packed), p1 = _mm256_extracti128_si256(packed, 1);
    _mm_storel_epi64((__m128i *)out, p0);
    out += __builtin_popcount(k0);
    _mm_storel_epi64((__m128i *)out, _mm_unpackhi_epi64(p0, p0));
    out += __builtin_popcount(k1);
    _mm_storel_epi64((__m128i *)out, p1);
    out += __builtin_popcount(k2);
    _mm_storel_epi64((__m128i *)out, _mm_unpackhi_epi64(p1, p1));
    return out + __builtin_popcount(k3);
}

#endif /* PCT_AVX2_COMPACT_H */
