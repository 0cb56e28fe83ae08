/* generic/vec_ops.h - what the generic kernel bodies (generic/<op>_body.h)
 * build over an ISA's vec.h (sse42/vec.h, avx2/vec.h, neon/vec.h, included
 * first; each primitive is described in sse42/vec.h, the same names and
 * meanings): a pct_vec of PCT_VEC_W bytes in 16-byte lanes, 64 / PCT_VEC_W
 * of them per 64-byte block. Everything here is the same at every width and
 * on every ISA: the lookups are 16-entry shuffles, which work within a lane,
 * so each table is repeated in every lane. The tables themselves are
 * simd_shared/tables.c's.
 */
#ifndef PCT_GENERIC_VEC_OPS_H
#define PCT_GENERIC_VEC_OPS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "pct.h"
#include "simd_shared/tables.h"
#include "scalar/hex.h"

#define PCT_VECS (64 / PCT_VEC_W)

/* The low n bits (n <= 64). */
PCT_VEC_INLINE uint64_t vec_low_bits(size_t n)
{
    return n >= 64 ? ~0ull : (1ull << n) - 1;
}

/* The tables in registers, loaded once per call. */
typedef struct pct_vec_tables {
    pct_vec hex_low, hex_high; /* pct_hex_class_low, pct_hex_class_high */
    pct_vec bit_of;            /* 1 << (h & 7) for a nibble h */
    pct_vec hex_digits;        /* "0123456789ABCDEF" */
    pct_vec utf8_prev_high, utf8_prev_low, utf8_cur_high;
} pct_vec_tables;

PCT_VEC_INLINE pct_vec_tables vec_tables_load(void)
{
    const pct_vec_tables t = {
        vec_table(pct_hex_class_low),   vec_table(pct_hex_class_high), vec_table(pct_bit_of_table),
        vec_table(pct_hex_digit_table), vec_table(pct_utf8_prev_high), vec_table(pct_utf8_prev_low),
        vec_table(pct_utf8_cur_high),
    };
    return t;
}

PCT_VEC_INLINE pct_vec vec_high_nibbles(pct_vec v)
{
    return vec_and(vec_srli16(v, 4), vec_set1(0x0F));
}

PCT_VEC_INLINE pct_vec vec_low_nibbles(pct_vec v)
{
    return vec_and(v, vec_set1(0x0F));
}

/* A mask of the bytes of a 64-byte block, from one vector mask per vector. */
PCT_VEC_INLINE uint64_t vec_block_bits(uint32_t m, int k)
{
    return (uint64_t)m << (k * PCT_VEC_W);
}

/* ---- sets ----------------------------------------------------------------
 * A pct_set as two 16 x 8 bit matrices: bit h of low[l] tells whether byte
 * 16h + l is in the set (h = 0..7), bit h of high[l] the same of byte
 * 0x80 + 16h + l. A byte v then looks up its row by its low nibble (pshufb
 * gives 0 from low for v >= 0x80, and from high, indexed by v ^ 0x80, for
 * v < 0x80) and tests the bit of its high nibble. */
typedef struct pct_vec_set {
    pct_vec low, high;
} pct_vec_set;

/* One half of the matrices, from the 16 set bytes of 128 byte values,
 * transposed by 8 movemasks of the first lane (vec_mask16: its second
 * byte taken by a shift; masking it off instead, movzbl %ah, costs a short
 * encode on Zen 4 a fifth of its time). */
PCT_VEC_INLINE pct_vec generic_transpose_half(const uint8_t bits[16])
{
    static const uint8_t even_odd[16] = {0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15};
    pct_vec x = vec_lookup(vec_table(bits), vec_table(even_odd));
    uint64_t columns_0_7 = 0, columns_8_f = 0;
    for (int l = 7; l >= 0; l--) {
        const uint32_t m = vec_mask16(x);
        columns_0_7 |= (uint64_t)(m & 0xFF) << (8 * l);
        columns_8_f |= (uint64_t)(m >> 8) << (8 * l);
        x = vec_add8(x, x);
    }
    return vec_from_u64x2(columns_0_7, columns_8_f);
}

PCT_VEC_INLINE pct_vec_set vec_set_load(const pct_set *set)
{
    const pct_vec_set t = {generic_transpose_half(set->bits),
                           generic_transpose_half(set->bits + 16)};
    return t;
}

/* 0xFF in each byte of v that is in the set, 0 in the others. */
PCT_VEC_INLINE pct_vec vec_in_set(pct_vec v, const pct_vec_set *s, const pct_vec_tables *t)
{
    const pct_vec row =
        vec_or(vec_shuffle(s->low, v), vec_shuffle(s->high, vec_xor(v, vec_set1(0x80))));
    const pct_vec bit = vec_lookup(t->bit_of, vec_high_nibbles(v));
    return vec_eq8(vec_and(row, bit), bit);
}

/* ---- hex digits ---------------------------------------------------------- */

/* Non-zero at each hex digit of v, 0 elsewhere. */
PCT_VEC_INLINE pct_vec vec_hex_class(pct_vec v, const pct_vec_tables *t)
{
    return vec_and(vec_shuffle(t->hex_low, v), vec_lookup(t->hex_high, vec_high_nibbles(v)));
}

/* 0xFF where v1 or v2 is not a hex digit. */
PCT_VEC_INLINE pct_vec vec_not_hex2(pct_vec v1, pct_vec v2, const pct_vec_tables *t)
{
    return vec_eq8(vec_min_u8(vec_hex_class(v1, t), vec_hex_class(v2, t)), vec_zero());
}

/* The byte of each pair of hex digits (v1 high, v2 low): a letter's low
 * nibble plus 9 is its value (bit 6 tells a letter from a digit). */
PCT_VEC_INLINE pct_vec vec_hex_pair(pct_vec v1, pct_vec v2)
{
    const pct_vec bit6 = vec_set1(0x40), nine = vec_set1(9);
    const pct_vec h = vec_add8(v1, vec_min_u8(vec_and(v1, bit6), nine));
    const pct_vec l = vec_add8(v2, vec_min_u8(vec_and(v2, bit6), nine));
    return vec_or(vec_and(vec_slli16(h, 4), vec_set1(0xF0)), vec_low_nibbles(l));
}

/* '+' becomes ' '. */
PCT_VEC_INLINE pct_vec vec_plus_to_space(pct_vec v)
{
    return vec_sub8(v, vec_and(vec_eq8(v, vec_set1('+')), vec_set1('+' - ' ')));
}

/* ---- UTF-8 (tables and reasoning in simd_shared/tables.h) ---------------------- */

/* Non-zero at each byte of cur that makes ill-formed UTF-8 with the three
 * bytes before it in the stream (prev1 the nearest). A sequence cut off at
 * the end is no error here. */
PCT_VEC_INLINE pct_vec vec_utf8_errors(pct_vec cur, pct_vec prev1, pct_vec prev2, pct_vec prev3,
                                       const pct_vec_tables *t)
{
    const pct_vec pairs = vec_and(vec_and(vec_lookup(t->utf8_prev_high, vec_high_nibbles(prev1)),
                                          vec_lookup(t->utf8_prev_low, vec_low_nibbles(prev1))),
                                  vec_lookup(t->utf8_cur_high, vec_high_nibbles(cur)));
    const pct_vec continuation_expected =
        vec_and(vec_or(vec_subs_u8(prev2, vec_set1(0x60)), vec_subs_u8(prev3, vec_set1(0x70))),
                vec_set1(0x80));
    return vec_xor(pairs, continuation_expected);
}

/* Copies n bytes between separate buffers by overlapping loads and stores:
 * for the few hundred bytes at most of an input's end, cheaper than a call
 * to memcpy. */
PCT_VEC_INLINE void generic_copy_short(uint8_t *d, const uint8_t *s, size_t n)
{
    if (n >= 16) {
        for (size_t k = 0; k + 16 < n; k += 16)
            memcpy(d + k, s + k, 16); /* one 16-byte load and store */
        memcpy(d + n - 16, s + n - 16, 16);
    } else if (n >= 8) {
        uint64_t a, b;
        memcpy(&a, s, 8);
        memcpy(&b, s + n - 8, 8);
        memcpy(d, &a, 8);
        memcpy(d + n - 8, &b, 8);
    } else if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, s, 4);
        memcpy(&b, s + n - 4, 4);
        memcpy(d, &a, 4);
        memcpy(d + n - 4, &b, 4);
    } else if (n) {
        d[0] = s[0];
        d[n / 2] = s[n / 2];
        d[n - 1] = s[n - 1];
    }
}

/* Copies the n bytes at s to pad and zeros after them, to `size` bytes (a
 * multiple of PCT_VEC_W): the last, partial block of an input,
 * which the kernels then read whole (zeros are neither '%' nor hex digits,
 * and the bytes past n are masked off). */
PCT_VEC_INLINE void generic_pad_copy(uint8_t *pad, size_t size, const uint8_t *s, size_t n)
{
    for (size_t k = 0; k < size; k += PCT_VEC_W) /* not a rep stos */
        vec_store(pad + k, vec_zero());
    generic_copy_short(pad, s, n);
}

/* The digits of the escapes of a 64-byte block (mask e) within the block,
 * and those that fall in the next one. */
PCT_VEC_INLINE uint64_t generic_digits_of(uint64_t e)
{
    return (e << 1) | (e << 2);
}

PCT_VEC_INLINE uint64_t generic_digits_carried(uint64_t e)
{
    return (e >> 62) | (e >> 63);
}

/* 0xFF at each '%' of the vector at p that starts an escape (the two bytes
 * after it are hex digits). */
PCT_VEC_INLINE pct_vec vec_escapes_at(const uint8_t *p, const pct_vec_tables *t)
{
    return vec_andnot(vec_not_hex2(vec_load(p + 1), vec_load(p + 2), t),
                      vec_eq8(vec_load(p), vec_set1('%')));
}

/* ---- runs of escapes ------------------------------------------------------
 * 48 bytes that are 16 escapes in a row ("%E3%81%82...": percent-encoded
 * UTF-8 text) put their '%' and digits at fixed positions, so fixed shuffles
 * gather the digits from the three 16-byte loads A, B, C:
 *
 *   escape k   0   1   2   3   4   5   6   7   8   9   10  11  12  13  14  15
 *   '%'  3k    A0  A3  A6  A9  A12 A15 B2  B5  B8  B11 B14 C1  C4  C7  C10 C13
 *   high 3k+1  A1  A4  A7  A10 A13 B0  B3  B6  B9  B12 B15 C2  C5  C8  C11 C14
 *   low  3k+2  A2  A5  A8  A11 A14 B1  B4  B7  B10 B13 C0  C3  C6  C9  C12 C15
 *
 * A vector takes one such chunk per lane: PCT_VEC_W escapes from 3 *
 * PCT_VEC_W bytes, about half the work of the compaction. */

/* The '%' of A, B, C (bits 0 3 6 9 12 15; 2 5 8 11 14; 1 4 7 10 13), in
 * every lane of a vector mask. */
#define PCT_LANES_MASK(m16) ((uint32_t)(m16) * (uint32_t)(((1ull << PCT_VEC_W) - 1) / 0xFFFF))

/* The '%' of 16 escapes in a row from bit 0 (0, 3, ..., 45). */
#define PCT_GENERIC_DENSE_PERCENTS 0x249249249249ull

/* The '%' in the block at s (64 bytes). */
PCT_VEC_INLINE uint64_t generic_percents(const uint8_t *s)
{
    uint64_t m = 0;
    for (int k = 0; k < PCT_VECS; k++)
        m |= vec_block_bits(vec_mask(vec_eq8(vec_load(s + k * PCT_VEC_W), vec_set1('%'))), k);
    return m;
}

/* Decodes the 3 * PCT_VEC_W bytes at s if they are PCT_VEC_W escapes (none
 * of a byte in keep, if keep) into *out. Returns 0 if not. */
PCT_VEC_INLINE int vec_decode_dense(const uint8_t *s, pct_vec *out, const pct_vec_set *keep,
                                    const pct_vec_tables *t)
{
#define Z 0x80
    static const uint8_t high_a[PCT_VEC_W] =
        PCT_VEC_LANES_TABLE(1, 4, 7, 10, 13, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z),
                         high_b[PCT_VEC_W] =
                             PCT_VEC_LANES_TABLE(Z, Z, Z, Z, Z, 0, 3, 6, 9, 12, 15, Z, Z, Z, Z, Z),
                         high_c[PCT_VEC_W] =
                             PCT_VEC_LANES_TABLE(Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, 2, 5, 8, 11, 14),
                         low_a[PCT_VEC_W] =
                             PCT_VEC_LANES_TABLE(2, 5, 8, 11, 14, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z),
                         low_b[PCT_VEC_W] =
                             PCT_VEC_LANES_TABLE(Z, Z, Z, Z, Z, 1, 4, 7, 10, 13, Z, Z, Z, Z, Z, Z),
                         low_c[PCT_VEC_W] =
                             PCT_VEC_LANES_TABLE(Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, 0, 3, 6, 9, 12, 15);
#undef Z
    const pct_vec a = vec_load_lanes(s, 48), b = vec_load_lanes(s + 16, 48),
                  c = vec_load_lanes(s + 32, 48);
    const pct_vec percent = vec_set1('%');
    if ((vec_mask(vec_eq8(a, percent)) & PCT_LANES_MASK(0x9249)) != PCT_LANES_MASK(0x9249) ||
        (vec_mask(vec_eq8(b, percent)) & PCT_LANES_MASK(0x4924)) != PCT_LANES_MASK(0x4924) ||
        (vec_mask(vec_eq8(c, percent)) & PCT_LANES_MASK(0x2492)) != PCT_LANES_MASK(0x2492))
        return 0;
    const pct_vec high =
        vec_or(vec_or(vec_lookup(a, vec_load(high_a)), vec_lookup(b, vec_load(high_b))),
               vec_lookup(c, vec_load(high_c)));
    const pct_vec low =
        vec_or(vec_or(vec_lookup(a, vec_load(low_a)), vec_lookup(b, vec_load(low_b))),
               vec_lookup(c, vec_load(low_c)));
    if (vec_mask(vec_not_hex2(high, low, t)))
        return 0;
    const pct_vec bytes = vec_hex_pair(high, low);
    if (keep && vec_mask(vec_in_set(bytes, keep, t)))
        return 0;
    *out = bytes;
    return 1;
}

#endif /* PCT_GENERIC_VEC_OPS_H */
