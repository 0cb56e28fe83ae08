/* avx2/utf8.h - the UTF-8 validation of sse42/utf8.h (tables and reasoning
 * there) for 32 bytes. */
#ifndef PCT_AVX2_UTF8_H
#define PCT_AVX2_UTF8_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "avx2/classify.h"
#include "sse42/utf8.h"

/* Non-zero bytes where cur (preceded by prev) is not well-formed UTF-8. The
 * bytes before each lane come from the other lane or from prev: vpalignr
 * works within lanes, so it takes them from [prev.high | cur.low]. */
static inline __m256i pct_avx_utf8_errors(__m256i cur, __m256i prev)
{
    const __m256i prev1_high = _mm256_setr_epi8(
        0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02, (char)0x80, (char)0x80, (char)0x80,
        (char)0x80, 0x05, 0x01, 0x19, 0x61, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02,
        (char)0x80, (char)0x80, (char)0x80, (char)0x80, 0x05, 0x01, 0x19, 0x61);
    const __m256i prev1_low = _mm256_setr_epi8(
        (char)0xAF, (char)0x87, (char)0x83, (char)0x83, (char)0xC3, (char)0xE3, (char)0xE3,
        (char)0xE3, (char)0xE3, (char)0xE3, (char)0xE3, (char)0xE3, (char)0xE3, (char)0xF3,
        (char)0xE3, (char)0xE3, (char)0xAF, (char)0x87, (char)0x83, (char)0x83, (char)0xC3,
        (char)0xE3, (char)0xE3, (char)0xE3, (char)0xE3, (char)0xE3, (char)0xE3, (char)0xE3,
        (char)0xE3, (char)0xF3, (char)0xE3, (char)0xE3);
    const __m256i cur_high = _mm256_setr_epi8(
        0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, (char)0xAE, (char)0xCE, (char)0xD6,
        (char)0xD6, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01,
        (char)0xAE, (char)0xCE, (char)0xD6, (char)0xD6, 0x01, 0x01, 0x01, 0x01);
    const __m256i before = _mm256_permute2x128_si256(prev, cur, 0x21);
    const __m256i prev1 = _mm256_alignr_epi8(cur, before, 15);
    const __m256i prev2 = _mm256_alignr_epi8(cur, before, 14);
    const __m256i prev3 = _mm256_alignr_epi8(cur, before, 13);
    const __m256i pairs = _mm256_and_si256(
        _mm256_and_si256(
            _mm256_shuffle_epi8(prev1_high, pct_avx_high_nibble(prev1)),
            _mm256_shuffle_epi8(prev1_low, _mm256_and_si256(prev1, _mm256_set1_epi8(0x0F)))),
        _mm256_shuffle_epi8(cur_high, pct_avx_high_nibble(cur)));
    const __m256i continuation_expected =
        _mm256_and_si256(_mm256_or_si256(_mm256_subs_epu8(prev2, _mm256_set1_epi8(0x60)),
                                         _mm256_subs_epu8(prev3, _mm256_set1_epi8(0x70))),
                         _mm256_set1_epi8((char)0x80));
    return _mm256_xor_si256(pairs, continuation_expected);
}

/* pct_sse_utf8_unit_valid (sse42/utf8.h) with two 32-byte vectors. */
static inline int pct_avx_utf8_unit_valid(uint8_t *unit, size_t n, size_t *held)
{
    *held = pct_utf8_unfinished(unit, n);
    const __m256i zero = _mm256_setzero_si256();
    _mm256_storeu_si256((__m256i *)(unit + n - *held), zero);
    _mm256_storeu_si256((__m256i *)(unit + n - *held + 32), zero);
    const __m256i u0 = _mm256_loadu_si256((const __m256i *)unit);
    const __m256i u1 = _mm256_loadu_si256((const __m256i *)(unit + 32));
    const __m256i errors =
        _mm256_or_si256(pct_avx_utf8_errors(u0, zero), pct_avx_utf8_errors(u1, u0));
    return _mm256_testz_si256(errors, errors);
}

#endif /* PCT_AVX2_UTF8_H */
