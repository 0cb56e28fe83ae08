/* avx512/block.h - the 64-byte block primitives of the shared kernel bodies
 * (avx512/<op>_body.h) for AVX-512 F, BW, VL, VBMI, VBMI2 and VPOPCNTDQ: a
 * block is one zmm register, a byte mask one 64-bit word.
 *
 * Partial blocks are masked loads and stores, which fault on no byte outside
 * the mask, so the first and last bytes of any input never need the scalar
 * routine. Mask logic is done in general registers (on Zen 4/5 the k-register
 * logic ops are slower), and vpermb does the 64- and 128-entry lookups.
 */
#ifndef PCT_AVX512_BLOCK_H
#define PCT_AVX512_BLOCK_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "pct.h"
#include "simd_shared/tables.h"

typedef __m512i pct_block;
typedef __m512i pct_block_set; /* the 32 bytes of a pct_set, in both halves */

#define PCT_BLOCK_INLINE static inline __attribute__((always_inline))

/* The tables of simd_shared/tables.h in registers, loaded once per call. */
typedef struct pct_block_tables {
    __m512i hex_entries; /* pct_hex_entry_table */
    __m512i bit_of;      /* pct_bit_of_table */
    /* The UTF-8 lookups (tables.h) as 64-entry tables (block_utf8_errors),
     * the permute indexes of block_before, and the constants of the check
     * (block_opaque_set1). */
    __m512i utf8_prev_high, utf8_prev_low, utf8_cur_high, utf8_before[3];
    __m512i utf8_third, utf8_fourth, utf8_bit7, utf8_bit6; /* 0x60, 0x70, 0x80, 0x40 */
    __m512i hex_digits;        /* pct_hex_digit_table, in each 16-byte lane */
    __m512i triplet_index[3];  /* pct_encode_triplet_index */
    __m512i triplet_digits[3]; /* pct_encode_triplet_digits */
} pct_block_tables;

/* The low n bits (n <= 64). */
PCT_BLOCK_INLINE uint64_t block_low_bits(size_t n)
{
    return _bzhi_u64(~0ull, (unsigned)n);
}

PCT_BLOCK_INLINE pct_block block_zero(void)
{
    return _mm512_setzero_si512();
}

PCT_BLOCK_INLINE pct_block block_load(const uint8_t *p)
{
    return _mm512_loadu_si512((const void *)p);
}

PCT_BLOCK_INLINE __m512i block_broadcast16(const uint8_t *table)
{
    return _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)table));
}

/* c in every byte, as a value the compiler cannot see through: kept in a
 * register (or reloaded) in a loop, rather than broadcast again from a
 * general register each time it is used, a shuffle each on Zen 4. */
PCT_BLOCK_INLINE __m512i block_opaque_set1(uint8_t c)
{
    __m512i v = _mm512_set1_epi8((char)c);
    __asm__("" : "+v"(v));
    return v;
}

PCT_BLOCK_INLINE pct_block_tables block_tables_load(void)
{
    const pct_block_tables t = {
        _mm512_loadu_si512((const void *)pct_hex_entry_table),
        _mm512_loadu_si512((const void *)pct_bit_of_table),
        block_load(pct_utf8_prev_high_64),
        block_load(pct_utf8_prev_low_64),
        block_load(pct_utf8_cur_high_64),
        {block_load(pct_index_table + 63), block_load(pct_index_table + 62),
         block_load(pct_index_table + 61)},
        block_opaque_set1(0x60),
        block_opaque_set1(0x70),
        block_opaque_set1(0x80),
        block_opaque_set1(0x40),
        block_broadcast16(pct_hex_digit_table),
        {block_load(pct_encode_triplet_index[0]), block_load(pct_encode_triplet_index[1]),
         block_load(pct_encode_triplet_index[2])},
        {block_load(pct_encode_triplet_digits[0]), block_load(pct_encode_triplet_digits[1]),
         block_load(pct_encode_triplet_digits[2])},
    };
    return t;
}

/* The n <= 64 bytes at p, zeros after them; reads nothing past p + n. */
PCT_BLOCK_INLINE pct_block block_load_n(const uint8_t *p, size_t n)
{
    return _mm512_maskz_loadu_epi8(block_low_bits(n), p);
}

PCT_BLOCK_INLINE void block_store(uint8_t *p, pct_block v)
{
    _mm512_storeu_si512((void *)p, v);
}

/* Stores the first n <= 64 bytes of v; writes nothing past p + n. */
PCT_BLOCK_INLINE void block_store_n(uint8_t *p, pct_block v, size_t n)
{
    _mm512_mask_storeu_epi8(p, block_low_bits(n), v);
}

/* Stores the first n bytes of v, or all 64 when the caller knows there is
 * room: on Zen 4/5 a masked store costs several times a plain one. */
PCT_BLOCK_INLINE void block_store_any(uint8_t *p, pct_block v, size_t n, int roomy)
{
    if (roomy)
        block_store(p, v);
    else
        block_store_n(p, v, n);
}

PCT_BLOCK_INLINE uint64_t block_eq(pct_block v, uint8_t c)
{
    return _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8((char)c));
}

/* Bytes >= 0x80. */
PCT_BLOCK_INLINE uint64_t block_high(pct_block v)
{
    return _mm512_movepi8_mask(v);
}

/* Each byte's entry of pct_hex_entry_table: its value as a hex digit in
 * bits 0-3, and what block_not_hex2 needs to tell whether it is one. */
PCT_BLOCK_INLINE pct_block block_hex_values(pct_block v, const pct_block_tables *t)
{
    return _mm512_permutexvar_epi8(v, t->hex_entries);
}

/* The bytes at which v1 or v2 is not a hex digit (e1, e2: their
 * block_hex_values). One test of the OR of both: mask logic is faster in
 * vectors and general registers than in k registers on Zen 4/5. */
PCT_BLOCK_INLINE uint64_t block_not_hex2(pct_block v1, pct_block e1, pct_block v2, pct_block e2)
{
    const pct_block top = _mm512_set1_epi8((char)0xE0);
    const pct_block x1 = _mm512_ternarylogic_epi32(e1, v1, top, 0x78); /* a ^ (b & c) */
    const pct_block x2 = _mm512_ternarylogic_epi32(e2, v2, top, 0x78);
    return _mm512_test_epi8_mask(_mm512_or_si512(x1, x2), _mm512_set1_epi8((char)0xF0));
}

/* The byte of each escape from its two digits' entries: (hi << 4) | lo. */
PCT_BLOCK_INLINE pct_block block_escaped_bytes(pct_block hi, pct_block lo)
{
    return _mm512_ternarylogic_epi32(_mm512_slli_epi16(hi, 4), lo, _mm512_set1_epi8((char)0xF0),
                                     0xE4); /* c ? a : b */
}

/* m ? if_set : if_clear, per byte. */
PCT_BLOCK_INLINE pct_block block_select(uint64_t m, pct_block if_set, pct_block if_clear)
{
    return _mm512_mask_blend_epi8(m, if_clear, if_set);
}

PCT_BLOCK_INLINE pct_block block_replace(pct_block v, uint8_t from, uint8_t to)
{
    return _mm512_mask_mov_epi8(v, block_eq(v, from), _mm512_set1_epi8((char)to));
}

/* The bytes of v under m that are lower-case hex letters, upper-cased. */
PCT_BLOCK_INLINE pct_block block_upper_hex(pct_block v, uint64_t m)
{
    const uint64_t lower =
        _mm512_cmplt_epu8_mask(_mm512_sub_epi8(v, _mm512_set1_epi8('a')), _mm512_set1_epi8(6));
    return _mm512_mask_sub_epi8(v, m & lower, v, _mm512_set1_epi8(0x20));
}

PCT_BLOCK_INLINE pct_block_set block_set_load(const pct_set *set)
{
    return _mm512_broadcast_i64x4(_mm256_loadu_si256((const __m256i *)set->bits));
}

/* The bytes of v in the set: bit (b & 7) of set byte b >> 3. vpermb reads
 * the low 6 bits of each index: after the 16-bit shift, bit 5 of the even
 * bytes comes from their odd neighbour, which is harmless because the 32 set
 * bytes fill both halves of the table. */
PCT_BLOCK_INLINE uint64_t block_in_set(pct_block v, pct_block_set set, const pct_block_tables *t)
{
    const pct_block row = _mm512_permutexvar_epi8(_mm512_srli_epi16(v, 3), set);
    const pct_block bit = _mm512_permutexvar_epi8(v, t->bit_of);
    return _mm512_test_epi8_mask(row, bit);
}

/* The bytes of v under keep, moved to the front in order, zeros after. On
 * Zen 4/5 vpcompressb depends on its destination register even when it
 * zeroes it; zeroing that register just before breaks the dependency (2.3
 * instead of 5.4 cycles per block, measured). Compilers fold a "merge into
 * zero" intrinsic back into the {z} form, hence the asm. */
PCT_BLOCK_INLINE pct_block block_compact(pct_block v, uint64_t keep)
{
    pct_block packed;
    __asm__("vpxord %0, %0, %0\n\t"
            "vpcompressb %1, %0%{%2%}"
            : "=&v"(packed)
            : "v"(v), "Yk"((__mmask64)keep));
    return packed;
}

/* m ? c : v, per byte. */
PCT_BLOCK_INLINE pct_block block_set_where(pct_block v, uint64_t m, uint8_t c)
{
    return _mm512_mask_mov_epi8(v, m, _mm512_set1_epi8((char)c));
}

/* Encodes the first `count` bytes of a block, and stores the result at out:
 * `literal` holds each byte as it is written where it is not escaped, the
 * bytes under `escaped` are a '%' followed by the two hex digits of the byte in
 * `text`. Returns the end of what was written.
 *
 * Each input byte j owns the output slots 3j, 3j + 1, 3j + 2: the block's
 * 192 slots are three registers, each filled by a two-table permute (the
 * literal bytes, the high digits) and a masked one (the low digits). The
 * digits of bytes not escaped are 0x80 (a digit never is), so the slots kept
 * are the byte slots and the slots without bit 7; each register is packed
 * and stored. All 64 bytes escaped (UTF-8 text with the usual sets) need no
 * packing: three fixed permutes. roomy: at least 64 bytes of output come
 * after this block's, so that every store may write 64 bytes. */
PCT_BLOCK_INLINE uint8_t *block_encode_store(uint8_t *out, pct_block literal, pct_block text,
                                             uint64_t escaped, size_t count, int roomy,
                                             const pct_block_tables *t)
{
    /* hex_digits repeats every 16 bytes: a 64-byte permute reads only the
     * nibble of its index (the bits a 16-bit shift brings in do not matter) */
    const pct_block high_digits =
        _mm512_permutexvar_epi8(_mm512_srli_epi16(text, 4), t->hex_digits);
    const pct_block low_digits = _mm512_permutexvar_epi8(text, t->hex_digits);
    if (escaped == ~0ull) {
        /* the triplet index with the digit registers as its tables: slot
         * 3j + 1 takes high_digits[j] (index 64 + j), 3j + 2 low_digits[j]
         * (index j), and 3j the '%' set over it */
        static const uint64_t percents[3] = {PCT_THIRDS_0, PCT_THIRDS_1, PCT_THIRDS_2};
        for (size_t r = 0; r < 3; r++) {
            const pct_block v =
                _mm512_permutex2var_epi8(low_digits, t->triplet_index[r], high_digits);
            block_store(out + 64 * r, block_set_where(v, percents[r], '%'));
        }
        return out + 192;
    }
    /* register r: its low-digit slots (3j + 2) */
    static const uint64_t low_slots[3] = {PCT_THIRDS_1, PCT_THIRDS_2, PCT_THIRDS_0};
    const pct_block drop = _mm512_set1_epi8((char)0x80);
    literal = block_set_where(literal, escaped, '%');
    const pct_block high = _mm512_mask_mov_epi8(drop, escaped, high_digits);
    const pct_block low = _mm512_mask_mov_epi8(drop, escaped, low_digits);
#pragma GCC unroll 3
    for (size_t r = 0; r < 3; r++) {
        if (3 * count <= 64 * r)
            break; /* a partial block's last registers hold no byte */
        pct_block slots = _mm512_permutex2var_epi8(literal, t->triplet_index[r], high);
        slots = _mm512_mask_permutexvar_epi8(slots, low_slots[r], t->triplet_index[r], low);
        uint64_t keep = _mm512_testn_epi8_mask(slots, t->triplet_digits[r]);
        if (count < 64 && 3 * count < 64 * (r + 1))
            keep &= block_low_bits(3 * count - 64 * r);
        const size_t n = (size_t)__builtin_popcountll(keep);
        block_store_any(out, block_compact(slots, keep), n, roomy);
        out += n;
    }
    return out;
}
/* Dense runs of escapes (avx512/decode_body.h): the 192 bytes at s as 64
 * escapes. Gathers the high and low digits with one two-register and one
 * masked permute each (the digits from offset 128 on come from the third
 * register), and returns 1 with the 64 bytes in *bytes when every third byte
 * from s is '%' followed by two hex digits, else 0. */
#define PCT_BLOCK_DENSE 1
PCT_BLOCK_INLINE int block_decode_dense(const uint8_t *s, pct_block *bytes,
                                        const pct_block_tables *t)
{
    const pct_block a = block_load(s), b = block_load(s + 64), c = block_load(s + 128);
    const uint64_t misplaced = (block_eq(a, '%') ^ PCT_THIRDS_0) |
                               (block_eq(b, '%') ^ PCT_THIRDS_1) |
                               (block_eq(c, '%') ^ PCT_THIRDS_2);
    const pct_block high_index = block_load(pct_dense_high_index);
    const pct_block low_index = block_load(pct_dense_low_index);
    pct_block high = _mm512_permutex2var_epi8(a, high_index, b);
    high = _mm512_mask_permutexvar_epi8(high, ~0ull << 43, high_index, c); /* 3j + 1 >= 128 */
    pct_block low = _mm512_permutex2var_epi8(a, low_index, b);
    low = _mm512_mask_permutexvar_epi8(low, ~0ull << 42, low_index, c); /* 3j + 2 >= 128 */
    const pct_block high_values = block_hex_values(high, t), low_values = block_hex_values(low, t);
    *bytes = block_escaped_bytes(high_values, low_values);
    return (misplaced | block_not_hex2(high, high_values, low, low_values)) == 0;
}
/* ---- UTF-8 (tables and reasoning in simd_shared/tables.h) --------------------- */

/* The bytes k = 1..3 before each byte of cur: the last k of tail, then cur's
 * first 64 - k. One two-register permute each. */
PCT_BLOCK_INLINE pct_block block_before(pct_block tail, pct_block cur, int k,
                                        const pct_block_tables *t)
{
    return _mm512_permutex2var_epi8(tail, t->utf8_before[k - 1], cur);
}

/* Whether any of the first n bytes of cur is ill-formed UTF-8 with what
 * precedes it (the end of tail, then cur itself): a mask of them. A
 * sequence cut off at the end is no error here: its continuation is
 * checked with the next block.
 *
 * All in vectors up to one mask: on Zen 4 a move between a mask register
 * and a general one costs 2 cycles, more than a permute. The lookups of
 * tables.h are 64-entry permutes (vpermb reads the low 6 bits of an index:
 * the high nibble's tables are indexed by the byte shifted right by 2, and
 * no index is masked); the first n bytes are those whose index k + 64 - n
 * is below 64. */
PCT_BLOCK_INLINE uint64_t block_utf8_errors(pct_block cur, size_t n, pct_block tail,
                                            const pct_block_tables *t)
{
    const pct_block prev1 = block_before(tail, cur, 1, t), prev2 = block_before(tail, cur, 2, t),
                    prev3 = block_before(tail, cur, 3, t);
    const pct_block pairs = _mm512_ternarylogic_epi32(
        _mm512_permutexvar_epi8(_mm512_srli_epi16(prev1, 2), t->utf8_prev_high),
        _mm512_permutexvar_epi8(prev1, t->utf8_prev_low),
        _mm512_permutexvar_epi8(_mm512_srli_epi16(cur, 2), t->utf8_cur_high), 0x80); /* a & b & c */
    const pct_block continuation_expected = _mm512_ternarylogic_epi32(
        _mm512_subs_epu8(prev2, t->utf8_third), _mm512_subs_epu8(prev3, t->utf8_fourth),
        t->utf8_bit7, 0xA8); /* (a | b) & c */
    const uint64_t counted =
        _mm512_testn_epi8_mask(block_load(pct_index_table + 64 - n), t->utf8_bit6);
    return _mm512_mask_cmpneq_epi8_mask(counted, pairs, continuation_expected);
}

/* Not 0 when the output that tail ends (its last 64 bytes) may end inside
 * a sequence: its last byte a lead byte, the one before that of a 3- or
 * 4-byte sequence, or the one before that of a 4-byte one. */
PCT_BLOCK_INLINE uint64_t block_utf8_unfinished(pct_block tail)
{
    const pct_block highest_finished = _mm512_set_epi64((long long)0xBFDFEFFFFFFFFFFFull, -1, -1,
                                                        -1, -1, -1, -1, -1); /* bytes 63, 62, 61 */
    return _mm512_cmpgt_epu8_mask(tail, highest_finished);
}

/* The new tail after n bytes of cur were written: its last 64 bytes. */
PCT_BLOCK_INLINE pct_block block_utf8_tail(pct_block tail, pct_block cur, size_t n)
{
    return _mm512_permutex2var_epi8(tail, block_load(pct_index_table + n), cur);
}

#endif /* PCT_AVX512_BLOCK_H */
