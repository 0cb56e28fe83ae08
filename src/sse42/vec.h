/* sse42/vec.h - the vector interface of the generic kernel bodies
 * (generic/<op>_body.h, generic/vec_ops.h) for SSE4.2: a vector is one xmm
 * register (16 bytes, one lane), a 64-byte block four of them.
 */
#ifndef PCT_SSE42_VEC_H
#define PCT_SSE42_VEC_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "simd_shared/tables.h"

typedef __m128i pct_vec;

#define PCT_VEC_W 16
#define PCT_VEC_INLINE static inline __attribute__((always_inline))

/* A constant of 16 bytes per lane, in every lane: an initializer of
 * uint8_t[PCT_VEC_W] (loaded whole with vec_load, so that the compiler can
 * keep it in memory as an operand). */
#define PCT_VEC_LANES_TABLE(...)                                                                   \
    {                                                                                              \
        __VA_ARGS__                                                                                \
    }

PCT_VEC_INLINE pct_vec vec_load(const uint8_t *p)
{
    return _mm_loadu_si128((const __m128i *)p);
}

PCT_VEC_INLINE void vec_store(uint8_t *p, pct_vec v)
{
    _mm_storeu_si128((__m128i *)p, v);
}

/* Stores 48 bytes per lane, made in three vectors: lane 0 of a, b, c, then
 * lane 1 of a, b, c (if any). */
PCT_VEC_INLINE void vec_store_lanes3(uint8_t *p, pct_vec a, pct_vec b, pct_vec c)
{
    vec_store(p, a);
    vec_store(p + 16, b);
    vec_store(p + 32, c);
}

/* The 16 bytes at table in every lane. */
PCT_VEC_INLINE pct_vec vec_table(const uint8_t table[16])
{
    return _mm_loadu_si128((const __m128i *)table);
}

/* The 16 bytes lo (bytes 0-7), hi (8-15) in every lane. */
PCT_VEC_INLINE pct_vec vec_from_u64x2(uint64_t lo, uint64_t hi)
{
    return _mm_set_epi64x((long long)hi, (long long)lo);
}

/* The 16-byte pieces at p, p + stride, ...: one per lane. */
PCT_VEC_INLINE pct_vec vec_load_lanes(const uint8_t *p, size_t stride)
{
    (void)stride;
    return vec_load(p);
}

/* The 16 bytes at lane0 in lane 0, those at lane1 in lane 1 (if any). */
PCT_VEC_INLINE pct_vec vec_from_lanes(const void *lane0, const void *lane1)
{
    (void)lane1;
    return _mm_loadu_si128((const __m128i *)lane0);
}

/* Stores the 16-byte lane k of v at p. */
PCT_VEC_INLINE void vec_store_lane(uint8_t *p, pct_vec v, int k)
{
    (void)k;
    vec_store(p, v);
}

PCT_VEC_INLINE pct_vec vec_set1(uint8_t c)
{
    return _mm_set1_epi8((char)c);
}

PCT_VEC_INLINE pct_vec vec_zero(void)
{
    return _mm_setzero_si128();
}

/* x in every 4-byte group. */
PCT_VEC_INLINE pct_vec vec_set1_32(uint32_t x)
{
    return _mm_set1_epi32((int)x);
}

/* The bytes of the stream prev, cur moved up by n (a constant, 1 to 15):
 * byte j is cur[j - n], or prev[PCT_VEC_W + j - n] for j < n. */
#define vec_prev(cur, prev, n) _mm_alignr_epi8((cur), (prev), 16 - (n))

#define vec_and _mm_and_si128
#define vec_or _mm_or_si128
#define vec_xor _mm_xor_si128
#define vec_andnot _mm_andnot_si128 /* ~a & b */
#define vec_add8 _mm_add_epi8
#define vec_sub8 _mm_sub_epi8
#define vec_subs_u8 _mm_subs_epu8
#define vec_min_u8 _mm_min_epu8
#define vec_eq8 _mm_cmpeq_epi8
#define vec_alignr8 _mm_alignr_epi8 /* within each lane */
/* vec_shuffle(t, i): pshufb, byte j is 0 if bit 7 of i[j] is set, else
 * t[i[j] & 15] (of its lane); vec_lookup(t, i) the same where every i[j] is
 * below 16 or 0x80 (a nibble or "zero"), cheaper on some ISAs. */
#define vec_shuffle _mm_shuffle_epi8
#define vec_lookup _mm_shuffle_epi8
/* vec_blendv(a, b, m): b where m is 0xFF, a where it is 0 (no other bytes). */
#define vec_blendv _mm_blendv_epi8
#define vec_srli16 _mm_srli_epi16
#define vec_slli16 _mm_slli_epi16
#define vec_unpacklo8 _mm_unpacklo_epi8
#define vec_unpackhi8 _mm_unpackhi_epi8
#define vec_unpacklo16 _mm_unpacklo_epi16
#define vec_unpackhi16 _mm_unpackhi_epi16

/* Bit j: bit 7 of byte j (movemask). */
PCT_VEC_INLINE uint32_t vec_mask(pct_vec v)
{
    return (uint32_t)_mm_movemask_epi8(v);
}

/* The same of the first 16-byte lane only (bits 0-15, no others set). */
PCT_VEC_INLINE uint32_t vec_mask16(pct_vec v)
{
    return (uint32_t)_mm_movemask_epi8(v);
}

PCT_VEC_INLINE int vec_is_zero(pct_vec v)
{
    return _mm_testz_si128(v, v);
}

/* Stores the bytes of v whose bit is set in keep, in order, and returns the
 * end of what they take: two 8-byte groups, each packed by one entry of
 * pct_compact_8 (one pshufb for both), the second stored right after the
 * kept bytes of the first. Writes at most 16 bytes from out. */
PCT_VEC_INLINE uint8_t *vec_compact_store(uint8_t *out, pct_vec v, uint32_t keep)
{
    const unsigned k0 = keep & 0xFF, k1 = (keep >> 8) & 0xFF;
    const __m128i shuffle =
        _mm_add_epi8(_mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)pct_compact_8[k0]),
                                        _mm_loadl_epi64((const __m128i *)pct_compact_8[k1])),
                     _mm_set_epi64x(0x0808080808080808ll, 0));
    const __m128i packed = _mm_shuffle_epi8(v, shuffle);
    _mm_storel_epi64((__m128i *)out, packed);
    out += __builtin_popcount(k0);
    _mm_storel_epi64((__m128i *)out, _mm_unpackhi_epi64(packed, packed));
    return out + __builtin_popcount(k1);
}

#endif /* PCT_SSE42_VEC_H */
