/* sse42/dense.h - decoding a run of escapes only ("%E3%81%82%E3..."): the
 * whole of percent-encoded UTF-8 text such as Japanese. Shared by the SSE4.2
 * and AVX2 decoders.
 *
 * 48 bytes that are 16 escapes in a row put their '%' and digits at fixed
 * positions, so fixed shuffles gather them: the high digits (input bytes
 * 3k + 1) and low digits (3k + 2) of the 16 escapes from the three 16-byte
 * loads A, B, C:
 *
 *   escape k   0   1   2   3   4   5   6   7   8   9   10  11  12  13  14  15
 *   '%'  3k    A0  A3  A6  A9  A12 A15 B2  B5  B8  B11 B14 C1  C4  C7  C10 C13
 *   high 3k+1  A1  A4  A7  A10 A13 B0  B3  B6  B9  B12 B15 C2  C5  C8  C11 C14
 *   low  3k+2  A2  A5  A8  A11 A14 B1  B4  B7  B10 B13 C0  C3  C6  C9  C12 C15
 *
 * Each gathered vector is the OR of three pshufb, one per source, with Z (0x80: zero) where another
 * source supplies the byte. The run is taken only if all 16 '%' are there and all 32 digits are
 * hex, and (with a keep set) no decoded byte is kept; else the caller decodes block by block. About
 * 45 instructions for 48 input bytes, against about 110 through the compaction.
 */
#ifndef PCT_SSE42_DENSE_H
#define PCT_SSE42_DENSE_H

#include <immintrin.h>
#include <stdint.h>

#include "sse42/classify.h"

/* Decodes the 48 bytes at s if they are 16 escapes, storing 16 bytes at out
 * (after the 48 bytes were read: in place works). Returns 0 if they are not
 * (nothing written). kept_bytes: the keep set's tables, or NULL. */
static inline int pct_sse_decode_dense(const uint8_t *s, uint8_t *out,
                                       const pct_sse_set *kept_bytes)
{
#define Z -128
    const __m128i a = _mm_loadu_si128((const __m128i *)s);
    const __m128i b = _mm_loadu_si128((const __m128i *)(s + 16));
    const __m128i c = _mm_loadu_si128((const __m128i *)(s + 32));
    const __m128i percent = _mm_set1_epi8('%');
    /* the '%' at 0, 3, ..., 45: A bits 0 3 6 9 12 15, B bits 2 5 8 11 14, C bits 1 4 7 10 13 */
    const unsigned pa = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(a, percent));
    const unsigned pb = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(b, percent));
    const unsigned pc = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(c, percent));
    if ((pa & 0x9249) != 0x9249 || (pb & 0x4924) != 0x4924 || (pc & 0x2492) != 0x2492)
        return 0;
    const __m128i high = _mm_or_si128(
        _mm_or_si128(
            _mm_shuffle_epi8(a, _mm_setr_epi8(1, 4, 7, 10, 13, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z)),
            _mm_shuffle_epi8(b, _mm_setr_epi8(Z, Z, Z, Z, Z, 0, 3, 6, 9, 12, 15, Z, Z, Z, Z, Z))),
        _mm_shuffle_epi8(c, _mm_setr_epi8(Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, 2, 5, 8, 11, 14)));
    const __m128i low = _mm_or_si128(
        _mm_or_si128(
            _mm_shuffle_epi8(a, _mm_setr_epi8(2, 5, 8, 11, 14, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z)),
            _mm_shuffle_epi8(b, _mm_setr_epi8(Z, Z, Z, Z, Z, 1, 4, 7, 10, 13, Z, Z, Z, Z, Z, Z))),
        _mm_shuffle_epi8(c, _mm_setr_epi8(Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, 0, 3, 6, 9, 12, 15)));
#undef Z
    if (_mm_movemask_epi8(_mm_and_si128(pct_sse_is_hex(high), pct_sse_is_hex(low))) != 0xFFFF)
        return 0;
    const __m128i bytes = pct_sse_hex_pair(high, low);
    if (kept_bytes && _mm_movemask_epi8(pct_sse_in_set(bytes, kept_bytes)) != 0)
        return 0;
    _mm_storeu_si128((__m128i *)out, bytes);
    return 1;
}

#endif /* PCT_SSE42_DENSE_H */
