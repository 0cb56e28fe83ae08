/* sse42/utf8.h - UTF-8 validation 16 bytes at a time, after the lookup
 * algorithm of Keiser and Lemire ("Validating UTF-8 in less than one
 * instruction per byte", 2021). avx2/utf8.h applies it to 32 bytes.
 *
 * Every ill-formed UTF-8 sequence shows in some pair of adjacent bytes
 * (prev1, cur), except a missing or extra continuation byte two or three
 * bytes after a lead, which the "must be a continuation" check below finds.
 * Each error class is a product of three nibble conditions, so three 16-byte
 * lookups ANDed together flag them, one bit per class:
 *
 *   bit  class         prev1 high   prev1 low     cur high
 *   0    too short     C-F          any           0-7, C-F   lead, no continuation
 *   1    too long      0-7          any           8-B        continuation after ASCII
 *   2    overlong 2    C            0-1           8-B        C0, C1
 *   3    overlong 3    E            0             8-9        E0 80-9F
 *   4    surrogate     E            D             A-B        ED A0-BF
 *   5    overlong 4,   F            0, 5-F        8          F0 80-8F, F5-FF 80-8F
 *        too large
 *   6    too large     F            4-F           9-B        F4 90-BF, F5-FF 90-BF
 *   7    two conts     8-B          any           8-B        continuation after continuation
 *
 *   PREV1_HIGH[h]:  02 x8 (0-7)  80 x4 (8-B)  05 (C)  01 (D)  19 (E)  61 (F)
 *   PREV1_LOW[l]:   AF 87 83 83 C3 E3 E3 E3 E3 E3 E3 E3 E3 F3 E3 E3
 *   CUR_HIGH[h]:    01 x8 (0-7)  AE (8)  CE (9)  D6 (A)  D6 (B)  01 x4 (C-F)
 *
 * Bit 7 is right exactly when cur is the second or third continuation of a
 * sequence, i.e. prev2 >= E0 or prev3 >= F0: XOR with that expectation
 * leaves a non-zero byte at every error. (prev2 - 0x60 and prev3 - 0x70,
 * saturated, have bit 7 set exactly then.) The tables were checked against a
 * strict decoder on every string of up to two bytes and all strings of three
 * to five bytes over the boundary values of each class.
 *
 * The check alone does not see a sequence cut off at the end of the data;
 * pct_utf8_unfinished (scalar/utf8.h) finds that one.
 */
#ifndef PCT_SSE42_UTF8_H
#define PCT_SSE42_UTF8_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "scalar/utf8.h"
#include "sse42/classify.h"

/* Non-zero bytes where cur (preceded by prev, the 16 bytes before it) is not
 * well-formed UTF-8. */
static inline __m128i pct_sse_utf8_errors(__m128i cur, __m128i prev)
{
    const __m128i prev1_high =
        _mm_setr_epi8(0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02, (char)0x80, (char)0x80,
                      (char)0x80, (char)0x80, 0x05, 0x01, 0x19, 0x61);
    const __m128i prev1_low =
        _mm_setr_epi8((char)0xAF, (char)0x87, (char)0x83, (char)0x83, (char)0xC3, (char)0xE3,
                      (char)0xE3, (char)0xE3, (char)0xE3, (char)0xE3, (char)0xE3, (char)0xE3,
                      (char)0xE3, (char)0xF3, (char)0xE3, (char)0xE3);
    const __m128i cur_high =
        _mm_setr_epi8(0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, (char)0xAE, (char)0xCE,
                      (char)0xD6, (char)0xD6, 0x01, 0x01, 0x01, 0x01);
    const __m128i prev1 = _mm_alignr_epi8(cur, prev, 15);
    const __m128i prev2 = _mm_alignr_epi8(cur, prev, 14);
    const __m128i prev3 = _mm_alignr_epi8(cur, prev, 13);
    const __m128i pairs = _mm_and_si128(
        _mm_and_si128(_mm_shuffle_epi8(prev1_high, pct_sse_high_nibble(prev1)),
                      _mm_shuffle_epi8(prev1_low, _mm_and_si128(prev1, _mm_set1_epi8(0x0F)))),
        _mm_shuffle_epi8(cur_high, pct_sse_high_nibble(cur)));
    const __m128i continuation_expected =
        _mm_and_si128(_mm_or_si128(_mm_subs_epu8(prev2, _mm_set1_epi8(0x60)),
                                   _mm_subs_epu8(prev3, _mm_set1_epi8(0x70))),
                      _mm_set1_epi8((char)0x80));
    return _mm_xor_si128(pairs, continuation_expected);
}

/* Validates the n <= 64 bytes in unit (which has room for 64 more) up to the
 * end of the last whole sequence: zeros written after it stand for a
 * sequence boundary. *held gets the length of an unfinished sequence at the
 * end (pct_utf8_unfinished). Returns 0 on ill-formed UTF-8. This is how the
 * decoders and the validator check a unit of decoded bytes. */
static inline int pct_sse_utf8_unit_valid(uint8_t *unit, size_t n, size_t *held)
{
    *held = pct_utf8_unfinished(unit, n);
    for (int z = 0; z < 4; z++)
        _mm_storeu_si128((__m128i *)(unit + n - *held + 16 * z), _mm_setzero_si128());
    __m128i prev = _mm_setzero_si128(), errors = _mm_setzero_si128();
    for (int z = 0; z < 4; z++) {
        const __m128i v = _mm_loadu_si128((const __m128i *)(unit + 16 * z));
        errors = _mm_or_si128(errors, pct_sse_utf8_errors(v, prev));
        prev = v;
    }
    return _mm_testz_si128(errors, errors);
}

/* The position of the k-th highest set bit of mask (k >= 1, and mask has at
 * least k bits set). The decoders use it to find the token that produced an
 * unfinished sequence's lead: with one bit per input byte that produced an
 * output byte, output byte n - k comes from the k-th highest. */
static inline size_t pct_kth_highest_bit(uint64_t mask, size_t k)
{
    size_t position = 0;
    for (; k > 0; k--) {
        position = 63 - (size_t)__builtin_clzll(mask);
        mask &= ~((uint64_t)1 << position);
    }
    return position;
}

#endif /* PCT_SSE42_UTF8_H */
