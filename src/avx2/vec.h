/* avx2/vec.h - the vector interface of the generic kernel bodies
 * (generic/<op>_body.h, generic/vec_ops.h; each primitive described in
 * sse42/vec.h) for AVX2: a vector is one ymm register (32 bytes, two 16-byte
 * lanes), a 64-byte block two of them.
 */
#ifndef PCT_AVX2_VEC_H
#define PCT_AVX2_VEC_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "simd_shared/tables.h"

typedef __m256i pct_vec;

#define PCT_VEC_W 32
#define PCT_VEC_INLINE static inline __attribute__((always_inline))

#define PCT_VEC_LANES_TABLE(...)                                                                   \
    {                                                                                              \
        __VA_ARGS__, __VA_ARGS__                                                                   \
    }

PCT_VEC_INLINE pct_vec vec_load(const uint8_t *p)
{
    return _mm256_loadu_si256((const __m256i *)p);
}

PCT_VEC_INLINE void vec_store(uint8_t *p, pct_vec v)
{
    _mm256_storeu_si256((__m256i *)p, v);
}

/* Stores 48 bytes per lane, made in three vectors: lane 0 of a, b, c, then
 * lane 1 of a, b, c (if any). */
PCT_VEC_INLINE void vec_store_lanes3(uint8_t *p, pct_vec a, pct_vec b, pct_vec c)
{
    _mm256_storeu_si256((__m256i *)p, _mm256_permute2x128_si256(a, b, 0x20));
    _mm256_storeu_si256((__m256i *)(p + 32), _mm256_permute2x128_si256(c, a, 0x30));
    _mm256_storeu_si256((__m256i *)(p + 64), _mm256_permute2x128_si256(b, c, 0x31));
}

/* The 16 bytes at table in every lane. */
PCT_VEC_INLINE pct_vec vec_table(const uint8_t table[16])
{
    return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)table));
}

/* The 16 bytes lo (bytes 0-7), hi (8-15) in every lane. */
PCT_VEC_INLINE pct_vec vec_from_u64x2(uint64_t lo, uint64_t hi)
{
    return _mm256_broadcastsi128_si256(_mm_set_epi64x((long long)hi, (long long)lo));
}

/* The 16-byte pieces at p, p + stride, ...: one per lane. */
PCT_VEC_INLINE pct_vec vec_load_lanes(const uint8_t *p, size_t stride)
{
    return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)p)),
                                   _mm_loadu_si128((const __m128i *)(p + stride)), 1);
}

/* The 16 bytes at lane0 in lane 0, those at lane1 in lane 1 (if any). */
PCT_VEC_INLINE pct_vec vec_from_lanes(const void *lane0, const void *lane1)
{
    return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)lane0)),
                                   _mm_loadu_si128((const __m128i *)lane1), 1);
}

/* Stores the 16-byte lane k of v at p. */
PCT_VEC_INLINE void vec_store_lane(uint8_t *p, pct_vec v, int k)
{
    _mm_storeu_si128((__m128i *)p, k ? _mm256_extracti128_si256(v, 1) : _mm256_castsi256_si128(v));
}

PCT_VEC_INLINE pct_vec vec_set1(uint8_t c)
{
    return _mm256_set1_epi8((char)c);
}

PCT_VEC_INLINE pct_vec vec_zero(void)
{
    return _mm256_setzero_si256();
}

/* x in every 4-byte group. */
PCT_VEC_INLINE pct_vec vec_set1_32(uint32_t x)
{
    return _mm256_set1_epi32((int)x);
}

/* The bytes of the stream prev, cur moved up by n (a constant, 1 to 15):
 * byte j is cur[j - n], or prev[PCT_VEC_W + j - n] for j < n. */
#define vec_prev(cur, prev, n)                                                                     \
    _mm256_alignr_epi8((cur), _mm256_permute2x128_si256((prev), (cur), 0x21), 16 - (n))

#define vec_and _mm256_and_si256
#define vec_or _mm256_or_si256
#define vec_xor _mm256_xor_si256
#define vec_andnot _mm256_andnot_si256 /* ~a & b */
#define vec_add8 _mm256_add_epi8
#define vec_sub8 _mm256_sub_epi8
#define vec_subs_u8 _mm256_subs_epu8
#define vec_min_u8 _mm256_min_epu8
#define vec_eq8 _mm256_cmpeq_epi8
#define vec_alignr8 _mm256_alignr_epi8  /* within each lane */
#define vec_shuffle _mm256_shuffle_epi8 /* pshufb, within each lane */
#define vec_lookup _mm256_shuffle_epi8
#define vec_blendv _mm256_blendv_epi8
#define vec_srli16 _mm256_srli_epi16
#define vec_slli16 _mm256_slli_epi16
#define vec_unpacklo8 _mm256_unpacklo_epi8
#define vec_unpackhi8 _mm256_unpackhi_epi8
#define vec_unpacklo16 _mm256_unpacklo_epi16
#define vec_unpackhi16 _mm256_unpackhi_epi16

PCT_VEC_INLINE uint32_t vec_mask(pct_vec v)
{
    return (uint32_t)_mm256_movemask_epi8(v);
}

PCT_VEC_INLINE uint32_t vec_mask16(pct_vec v)
{
    return (uint32_t)_mm_movemask_epi8(_mm256_castsi256_si128(v));
}

PCT_VEC_INLINE int vec_is_zero(pct_vec v)
{
    return _mm256_testz_si256(v, v);
}

/* Stores the bytes of v whose bit is set in keep, in order, and returns the
 * end of what they take: four 8-byte groups, each packed by one entry of
 * pct_compact_8 (one vpshufb for all four), stored one after the other.
 * Writes at most 32 bytes from out. */
PCT_VEC_INLINE uint8_t *vec_compact_store(uint8_t *out, pct_vec v, uint32_t keep)
{
    const unsigned k0 = keep & 0xFF, k1 = (keep >> 8) & 0xFF, k2 = (keep >> 16) & 0xFF,
                   k3 = keep >> 24;
    const __m128i lane0 = _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)pct_compact_8[k0]),
                                             _mm_loadl_epi64((const __m128i *)pct_compact_8[k1]));
    const __m128i lane1 = _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)pct_compact_8[k2]),
                                             _mm_loadl_epi64((const __m128i *)pct_compact_8[k3]));
    const __m256i shuffle =
        _mm256_add_epi8(_mm256_inserti128_si256(_mm256_castsi128_si256(lane0), lane1, 1),
                        _mm256_setr_epi64x(0, 0x0808080808080808ll, 0, 0x0808080808080808ll));
    const __m256i packed = _mm256_shuffle_epi8(v, shuffle);
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

#endif /* PCT_AVX2_VEC_H */
