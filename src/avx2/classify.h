/* avx2/classify.h - the classifications of sse42/classify.h (read it first:
 * the tables and the reasoning are explained there), 32 bytes at a time.
 * vpshufb looks up within each 128-bit lane, so every 16-byte table is
 * broadcast to both lanes.
 */
#ifndef PCT_AVX2_CLASSIFY_H
#define PCT_AVX2_CLASSIFY_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "pct.h"
#include "sse42/classify.h"

typedef struct pct_avx_set {
    __m256i low;  /* rows[0] in both lanes */
    __m256i high; /* rows[1] in both lanes */
} pct_avx_set;

/* pct_sse_transpose_half for both halves of the set at once: lane 0 holds
 * bits[0..15], lane 1 bits[16..31], and each pmovmskb yields one column of
 * rows[0] (result bits 0-15) and of rows[1] (bits 16-31). */
static inline pct_avx_set pct_avx_set_load(const pct_set *set)
{
    const __m256i even_odd =
        _mm256_setr_epi8(0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15, /* lane 0 */
                         0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15);
    __m256i x = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)set->bits), even_odd);
    uint64_t low_0_7 = 0, low_8_f = 0, high_0_7 = 0, high_8_f = 0;
    for (int l = 7; l >= 0; l--) {
        const uint32_t m = (uint32_t)_mm256_movemask_epi8(x);
        low_0_7 |= (uint64_t)(m & 0xFF) << (8 * l);
        low_8_f |= (uint64_t)((m >> 8) & 0xFF) << (8 * l);
        high_0_7 |= (uint64_t)((m >> 16) & 0xFF) << (8 * l);
        high_8_f |= (uint64_t)(m >> 24) << (8 * l);
        x = _mm256_add_epi8(x, x);
    }
    pct_avx_set t;
    t.low = _mm256_set_epi64x((long long)low_8_f, (long long)low_0_7, (long long)low_8_f,
                              (long long)low_0_7);
    t.high = _mm256_set_epi64x((long long)high_8_f, (long long)high_0_7, (long long)high_8_f,
                               (long long)high_0_7);
    return t;
}

static inline __m256i pct_avx_high_nibble(__m256i v)
{
    return _mm256_and_si256(_mm256_srli_epi16(v, 4), _mm256_set1_epi8(0x0F));
}

/* 0xFF in each byte of v that is in the set (see pct_sse_in_set). */
static inline __m256i pct_avx_in_set(__m256i v, const pct_avx_set *t)
{
    const __m256i bit_of_h =
        _mm256_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16,
                         32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128);
    const __m256i row =
        _mm256_or_si256(_mm256_shuffle_epi8(t->low, v),
                        _mm256_shuffle_epi8(t->high, _mm256_xor_si256(v, _mm256_set1_epi8(-128))));
    const __m256i bit = _mm256_shuffle_epi8(bit_of_h, pct_avx_high_nibble(v));
    return _mm256_cmpeq_epi8(_mm256_and_si256(row, bit), bit);
}

/* 0 at each byte that is not a hex digit, nonzero at each hex digit (see
 * pct_sse_is_hex for the tables); pct_avx_is_hex without its final step, for
 * the callers that only need the bytes that are not digits. */
static inline __m256i pct_avx_hex_class(__m256i v)
{
    const __m256i hex_l = _mm256_setr_epi8(1, 3, 3, 3, 3, 3, 3, 1, 1, 1, 0, 0, 0, 0, 0, 0, /* */
                                           1, 3, 3, 3, 3, 3, 3, 1, 1, 1, 0, 0, 0, 0, 0, 0);
    const __m256i hex_h = _mm256_setr_epi8(0, 0, 0, 1, 2, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* */
                                           0, 0, 0, 1, 2, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    return _mm256_and_si256(_mm256_shuffle_epi8(hex_l, v),
                            _mm256_shuffle_epi8(hex_h, pct_avx_high_nibble(v)));
}

/* The mask of the bytes of v that are not hex digits. */
static inline uint32_t pct_avx_not_hex_mask(__m256i v)
{
    return (uint32_t)_mm256_movemask_epi8(
        _mm256_cmpeq_epi8(pct_avx_hex_class(v), _mm256_setzero_si256()));
}

/* 0xFF at each hex digit (see pct_sse_is_hex for the tables). */
static inline __m256i pct_avx_is_hex(__m256i v)
{
    const __m256i hex_l = _mm256_setr_epi8(1, 3, 3, 3, 3, 3, 3, 1, 1, 1, 0, 0, 0, 0, 0, 0, /* */
                                           1, 3, 3, 3, 3, 3, 3, 1, 1, 1, 0, 0, 0, 0, 0, 0);
    const __m256i hex_h = _mm256_setr_epi8(0, 0, 0, 1, 2, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* */
                                           0, 0, 0, 1, 2, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    const __m256i both = _mm256_and_si256(_mm256_shuffle_epi8(hex_l, v),
                                          _mm256_shuffle_epi8(hex_h, pct_avx_high_nibble(v)));
    return _mm256_xor_si256(_mm256_cmpeq_epi8(both, _mm256_setzero_si256()), _mm256_set1_epi8(-1));
}

/* 0xFF at each '%' of v0 that starts an escape (see pct_sse_escapes). */
static inline __m256i pct_avx_escapes(__m256i v0, __m256i v1, __m256i v2)
{
    const __m256i percent = _mm256_cmpeq_epi8(v0, _mm256_set1_epi8('%'));
    return _mm256_and_si256(percent, _mm256_and_si256(pct_avx_is_hex(v1), pct_avx_is_hex(v2)));
}

/* The byte each escape stands for (see pct_sse_hex_pair). */
static inline __m256i pct_avx_hex_pair(__m256i v1, __m256i v2)
{
    const __m256i bit6 = _mm256_set1_epi8(0x40), nine = _mm256_set1_epi8(9);
    const __m256i h = _mm256_add_epi8(v1, _mm256_min_epu8(_mm256_and_si256(v1, bit6), nine));
    const __m256i l = _mm256_add_epi8(v2, _mm256_min_epu8(_mm256_and_si256(v2, bit6), nine));
    return _mm256_or_si256(_mm256_and_si256(_mm256_slli_epi16(h, 4), _mm256_set1_epi8((char)0xF0)),
                           _mm256_and_si256(l, _mm256_set1_epi8(0x0F)));
}

#endif /* PCT_AVX2_CLASSIFY_H */
