/* sse42/classify.h - classifying 16 bytes at once: membership of an arbitrary
 * pct_set, '%' escapes and hex digits. The algorithms are explained here, once;
 * avx2/classify.h applies the same tables to 32 bytes.
 *
 * Included only by kernel files (compiled with -msse4.2 or -mavx2): the
 * functions are static inline, so each kernel library gets its own copy built
 * for its own ISA.
 */
#ifndef PCT_SSE42_CLASSIFY_H
#define PCT_SSE42_CLASSIFY_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "pct.h"

/* ------------------------------------------------------------------------ */
/* Set membership: two 16-byte tables, looked up by nibble                   */
/* ------------------------------------------------------------------------ */

/* A byte b = 0xHL is in the set when bit (H & 7) of rows[H >> 3][L] is set:
 * the 256-bit set is seen as a 16 x 16 bit matrix (H = high nibble, L = low
 * nibble), cut into the half H = 0-7 and the half H = 8-F, each
 * stored column by column, one byte per L:
 *
 *                 L = 0  1  2  3 ... F
 *   rows[0][L]:  bit H set  <=>  byte 0xHL in set, H = 0..7  (b <  0x80)
 *   rows[1][L]:  bit H-8 set <=> byte 0xHL in set, H = 8..F  (b >= 0x80)
 *
 * Lookup of 16 bytes v (three pshufb):
 *
 *   row = pshufb(rows[0], v) | pshufb(rows[1], v ^ 0x80)
 *         pshufb uses the low nibble of each index byte and yields 0 where the
 *         index has bit 7 set, so each byte gets its column from the right half
 *         with no masking;
 *   bit = pshufb(BIT, H)  with  BIT[H] = 1 << (H & 7):
 *
 *         H:    0  1  2  3  4  5  6  7  8  9  A  B  C  D  E  F
 *         BIT: 01 02 04 08 10 20 40 80 01 02 04 08 10 20 40 80
 *
 *   in set  <=>  (row & bit) == bit.
 *
 * The tables are built from set->bits at the start of each call (the set may be
 * any user-built one), see pct_sse_set_load: about 40 instructions. */
typedef struct pct_sse_set {
    __m128i low;  /* rows[0] */
    __m128i high; /* rows[1] */
} pct_sse_set;

/* set->bits[k] holds bytes 8k..8k+7, so row H of the matrix is bits[2H]
 * (L = 0-7) and bits[2H + 1] (L = 8-F). Transposing: after the even/odd
 * de-interleave, x[H] = bits[2H] and x[8 + H] = bits[2H + 1]; pmovmskb collects
 * bit 7 of every byte, i.e. bit H of its result is "0xH7 in set" and bit 8 + H
 * is "0xHF in set": the columns L = 7 and L = F. Adding x to itself shifts each
 * byte left by one, bringing the next column (L = 6, E) to bit 7, and so on. */
static inline __m128i pct_sse_transpose_half(const uint8_t bits[16])
{
    const __m128i even_odd = _mm_setr_epi8(0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15);
    __m128i x = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)bits), even_odd);
    uint64_t columns_0_7 = 0, columns_8_f = 0;
    for (int l = 7; l >= 0; l--) {
        const uint32_t m = (uint32_t)_mm_movemask_epi8(x);
        columns_0_7 |= (uint64_t)(m & 0xFF) << (8 * l);
        columns_8_f |= (uint64_t)(m >> 8) << (8 * l);
        x = _mm_add_epi8(x, x);
    }
    return _mm_set_epi64x((long long)columns_8_f, (long long)columns_0_7);
}

static inline pct_sse_set pct_sse_set_load(const pct_set *set)
{
    pct_sse_set t;
    t.low = pct_sse_transpose_half(set->bits);
    t.high = pct_sse_transpose_half(set->bits + 16);
    return t;
}

/* High nibble of every byte (psrlw shifts 16-bit lanes: mask off what the
 * neighbouring byte shifted in). */
static inline __m128i pct_sse_high_nibble(__m128i v)
{
    return _mm_and_si128(_mm_srli_epi16(v, 4), _mm_set1_epi8(0x0F));
}

/* 0xFF in each byte of v that is in the set, 0 elsewhere. */
static inline __m128i pct_sse_in_set(__m128i v, const pct_sse_set *t)
{
    const __m128i bit_of_h =
        _mm_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128);
    const __m128i row =
        _mm_or_si128(_mm_shuffle_epi8(t->low, v),
                     _mm_shuffle_epi8(t->high, _mm_xor_si128(v, _mm_set1_epi8(-128))));
    const __m128i bit = _mm_shuffle_epi8(bit_of_h, pct_sse_high_nibble(v));
    return _mm_cmpeq_epi8(_mm_and_si128(row, bit), bit);
}

/* ------------------------------------------------------------------------ */
/* Hex digits and escapes                                                    */
/* ------------------------------------------------------------------------ */

/* The same nibble lookup with constant tables: bit 0 marks the digits, bit 1
 * the letters of either case.
 *
 *   hex digits: '0'-'9' = 0x30-0x39, 'A'-'F' = 0x41-0x46, 'a'-'f' = 0x61-0x66
 *
 *            L:  0  1  2  3  4  5  6  7  8  9  A  B  C  D  E  F
 *   H = 3 digit  x  x  x  x  x  x  x  x  x  x  .  .  .  .  .  .
 *   H = 4, 6     .  x  x  x  x  x  x  .  .  .  .  .  .  .  .  .
 *   HEX_L[L]:   01 03 03 03 03 03 03 01 01 01 00 00 00 00 00 00
 *
 *            H:  0  1  2  3  4  5  6  7  8 .. F
 *   HEX_H[H]:   00 00 00 01 02 00 02 00 00 .. 00
 *
 * pshufb(HEX_L, v) is 0 for v >= 0x80 (index bit 7), as it must be. */
static inline __m128i pct_sse_is_hex(__m128i v)
{
    const __m128i hex_l = _mm_setr_epi8(1, 3, 3, 3, 3, 3, 3, 1, 1, 1, 0, 0, 0, 0, 0, 0);
    const __m128i hex_h = _mm_setr_epi8(0, 0, 0, 1, 2, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    const __m128i both =
        _mm_and_si128(_mm_shuffle_epi8(hex_l, v), _mm_shuffle_epi8(hex_h, pct_sse_high_nibble(v)));
    return _mm_xor_si128(_mm_cmpeq_epi8(both, _mm_setzero_si128()), _mm_set1_epi8(-1));
}

/* 0xFF at each '%' of v0 that starts a well-formed escape %HH, given v1 and
 * v2, the same 16 bytes loaded one and two bytes further on. Which '%' start
 * an escape is a local property: an escape's hex digits are never '%', so no
 * '%' can be swallowed by an earlier escape, and tokenizing left to right
 * (scalar/escape.h) gives the same answer. */
static inline __m128i pct_sse_escapes(__m128i v0, __m128i v1, __m128i v2)
{
    const __m128i percent = _mm_cmpeq_epi8(v0, _mm_set1_epi8('%'));
    return _mm_and_si128(percent, _mm_and_si128(pct_sse_is_hex(v1), pct_sse_is_hex(v2)));
}

/* The byte an escape stands for, at every position where v1, v2 are hex
 * digits (garbage elsewhere). A digit's value is its low nibble, plus 9 for a
 * letter (bit 6 set: 'A' = 0x41 -> 1 + 9): min(c & 0x40, 9) is that 0 or 9,
 * and the final masks drop both the carry out of the low nibble of a letter
 * and the bits psllw moves across bytes. */
static inline __m128i pct_sse_hex_pair(__m128i v1, __m128i v2)
{
    const __m128i bit6 = _mm_set1_epi8(0x40), nine = _mm_set1_epi8(9);
    const __m128i h = _mm_add_epi8(v1, _mm_min_epu8(_mm_and_si128(v1, bit6), nine));
    const __m128i l = _mm_add_epi8(v2, _mm_min_epu8(_mm_and_si128(v2, bit6), nine));
    return _mm_or_si128(_mm_and_si128(_mm_slli_epi16(h, 4), _mm_set1_epi8((char)0xF0)),
                        _mm_and_si128(l, _mm_set1_epi8(0x0F)));
}

/* The positions an escape's two hex digits occupy: bits t+1 and t+2 for every
 * escape bit t. 64-bit, so that the digits of an escape at the end of a block
 * appear past it (bits W and W+1 of a W-byte block). */
static inline uint64_t pct_escape_digits(uint64_t escapes)
{
    return (escapes << 1) | (escapes << 2);
}

/* The value of a hex digit (either case), or 0x80 for any other byte: for
 * the decoders' scalar look at a few escapes (decode_sparse). */
#define PCT_NIBBLE(c)                                                                              \
    ((c) >= '0' && (c) <= '9'   ? (c) - '0'                                                        \
     : (c) >= 'A' && (c) <= 'F' ? (c) - 'A' + 10                                                   \
     : (c) >= 'a' && (c) <= 'f' ? (c) - 'a' + 10                                                   \
                                : 0x80)
#define PCT_N4(c) PCT_NIBBLE(c), PCT_NIBBLE(c + 1), PCT_NIBBLE(c + 2), PCT_NIBBLE(c + 3)
#define PCT_N16(c) PCT_N4(c), PCT_N4(c + 4), PCT_N4(c + 8), PCT_N4(c + 12)
#define PCT_N64(c) PCT_N16(c), PCT_N16(c + 16), PCT_N16(c + 32), PCT_N16(c + 48)
static const uint8_t pct_hex_nibble[256] = {PCT_N64(0), PCT_N64(64), PCT_N64(128), PCT_N64(192)};
#undef PCT_N64
#undef PCT_N16
#undef PCT_N4
#undef PCT_NIBBLE

#endif /* PCT_SSE42_CLASSIFY_H */
