/* avx2/block.h - the 64-byte block primitives of the shared kernel bodies
 * (kernel/<op>_body.h) for AVX2: a block is two ymm registers, a byte mask
 * one 64-bit word (a vpmovmskb per register, combined).
 *
 * What AVX2 lacks is done with tables (kernel/tables.h): compaction by one
 * vpshufb per 16 bytes (pct_compact_8, pct_compact_8_shifted), the set and hex-digit
 * classifications by nibble lookups, encoding by one shuffle per group of
 * four tokens (pct_encode_group_shuffle). Partial blocks are copied through
 * a stack buffer, so no load or store touches a byte outside the input or
 * the output.
 */
#ifndef PCT_AVX2_BLOCK_H
#define PCT_AVX2_BLOCK_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "pct.h"
#include "kernel/tables.h"

typedef struct pct_block {
    __m256i v[2];
} pct_block;

/* A pct_set as two 16 x 16 bit matrices, one column per low nibble (see
 * block_set_load), in both lanes. */
typedef struct pct_block_set {
    __m256i low;  /* bytes 0x00-0x7F */
    __m256i high; /* bytes 0x80-0xFF */
} pct_block_set;

#define PCT_BLOCK_INLINE static inline __attribute__((always_inline))

/* The 16-byte tables of kernel/tables.h, in both lanes, loaded once per call. */
typedef struct pct_block_tables {
    __m256i hex_class_low, hex_class_high, hex_letter_add;
    __m256i bit_of; /* 1 << (h & 7) for a nibble h */
    __m256i hex_digits;
    __m256i utf8_prev_high, utf8_prev_low, utf8_cur_high;
} pct_block_tables;

/* The low n bits (n <= 64). */
PCT_BLOCK_INLINE uint64_t block_low_bits(size_t n)
{
    return _bzhi_u64(~0ull, (unsigned)n);
}

PCT_BLOCK_INLINE __m256i vec_broadcast16(const uint8_t *table)
{
    return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)table));
}

PCT_BLOCK_INLINE __m256i vec_high_nibbles(__m256i v)
{
    return _mm256_and_si256(_mm256_srli_epi16(v, 4), _mm256_set1_epi8(0x0F));
}

PCT_BLOCK_INLINE __m256i vec_low_nibbles(__m256i v)
{
    return _mm256_and_si256(v, _mm256_set1_epi8(0x0F));
}

PCT_BLOCK_INLINE uint64_t block_mask(__m256i m0, __m256i m1)
{
    return (uint32_t)_mm256_movemask_epi8(m0) | (uint64_t)(uint32_t)_mm256_movemask_epi8(m1) << 32;
}

/* 0xFF in the bytes of the 32 under m, 0 in the others. */
PCT_BLOCK_INLINE __m256i vec_from_mask(uint32_t m)
{
    const __m256i spread = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, /* */
                                            2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3);
    const __m256i bit = _mm256_set1_epi64x((long long)0x8040201008040201ull);
    const __m256i x = _mm256_shuffle_epi8(_mm256_set1_epi32((int)m), spread);
    return _mm256_cmpeq_epi8(_mm256_and_si256(x, bit), bit);
}

PCT_BLOCK_INLINE pct_block block_zero(void)
{
    const pct_block z = {{_mm256_setzero_si256(), _mm256_setzero_si256()}};
    return z;
}

PCT_BLOCK_INLINE pct_block block_load(const uint8_t *p)
{
    const pct_block b = {
        {_mm256_loadu_si256((const __m256i *)p), _mm256_loadu_si256((const __m256i *)(p + 32))}};
    return b;
}

PCT_BLOCK_INLINE void block_store(uint8_t *p, pct_block v)
{
    _mm256_storeu_si256((__m256i *)p, v.v[0]);
    _mm256_storeu_si256((__m256i *)(p + 32), v.v[1]);
}

PCT_BLOCK_INLINE pct_block_tables block_tables_load(void)
{
    const pct_block_tables t = {
        vec_broadcast16(pct_hex_class_low),   vec_broadcast16(pct_hex_class_high),
        vec_broadcast16(pct_hex_letter_add),  vec_broadcast16(pct_bit_of_table),
        vec_broadcast16(pct_hex_digit_table), vec_broadcast16(pct_utf8_prev_high),
        vec_broadcast16(pct_utf8_prev_low),   vec_broadcast16(pct_utf8_cur_high),
    };
    return t;
}

/* The n <= 64 bytes at p, zeros after them; reads nothing past p + n. */
PCT_BLOCK_INLINE pct_block block_load_n(const uint8_t *p, size_t n)
{
    uint8_t buf[64] = {0};
    memcpy(buf, p, n);
    return block_load(buf);
}

/* Stores the first n <= 64 bytes of v; writes nothing past p + n. */
PCT_BLOCK_INLINE void block_store_n(uint8_t *p, pct_block v, size_t n)
{
    uint8_t buf[64];
    block_store(buf, v);
    memcpy(p, buf, n);
}

/* Stores the first n bytes of v, or all 64 when the caller knows there is room. */
PCT_BLOCK_INLINE void block_store_any(uint8_t *p, pct_block v, size_t n, int roomy)
{
    if (roomy)
        block_store(p, v);
    else
        block_store_n(p, v, n);
}

PCT_BLOCK_INLINE uint64_t block_eq(pct_block v, uint8_t c)
{
    const __m256i x = _mm256_set1_epi8((char)c);
    return block_mask(_mm256_cmpeq_epi8(v.v[0], x), _mm256_cmpeq_epi8(v.v[1], x));
}

/* Each byte's value as a hex digit (in bits 0-3; above them what a digit
 * plus 9 leaves), or 0xFF where it is not one: bit 7 tells. */
PCT_BLOCK_INLINE __m256i vec_hex_value(__m256i v, const pct_block_tables *t)
{
    const __m256i h = vec_high_nibbles(v);
    const __m256i cls = _mm256_and_si256(_mm256_shuffle_epi8(t->hex_class_low, v),
                                         _mm256_shuffle_epi8(t->hex_class_high, h));
    return _mm256_or_si256(_mm256_cmpeq_epi8(cls, _mm256_setzero_si256()),
                           _mm256_add_epi8(v, _mm256_shuffle_epi8(t->hex_letter_add, h)));
}

PCT_BLOCK_INLINE pct_block block_hex_values(pct_block v, const pct_block_tables *t)
{
    const pct_block e = {{vec_hex_value(v.v[0], t), vec_hex_value(v.v[1], t)}};
    return e;
}

/* The bytes at which v1 or v2 is not a hex digit (e1, e2: their
 * block_hex_values, whose bit 7 says so). */
PCT_BLOCK_INLINE uint64_t block_not_hex2(pct_block v1, pct_block e1, pct_block v2, pct_block e2)
{
    (void)v1;
    (void)v2;
    return block_mask(_mm256_or_si256(e1.v[0], e2.v[0]), _mm256_or_si256(e1.v[1], e2.v[1]));
}

PCT_BLOCK_INLINE __m256i vec_escaped_byte(__m256i hi, __m256i lo)
{
    return _mm256_or_si256(_mm256_and_si256(_mm256_slli_epi16(hi, 4), _mm256_set1_epi8((char)0xF0)),
                           vec_low_nibbles(lo));
}

/* The byte of each escape from its two digits' entries: (hi << 4) | lo. */
PCT_BLOCK_INLINE pct_block block_escaped_bytes(pct_block hi, pct_block lo)
{
    const pct_block b = {{vec_escaped_byte(hi.v[0], lo.v[0]), vec_escaped_byte(hi.v[1], lo.v[1])}};
    return b;
}

/* m ? if_set : if_clear, per byte. */
PCT_BLOCK_INLINE pct_block block_select(uint64_t m, pct_block if_set, pct_block if_clear)
{
    const pct_block b = {
        {_mm256_blendv_epi8(if_clear.v[0], if_set.v[0], vec_from_mask((uint32_t)m)),
         _mm256_blendv_epi8(if_clear.v[1], if_set.v[1], vec_from_mask((uint32_t)(m >> 32)))}};
    return b;
}

/* m ? c : v, per byte. */
PCT_BLOCK_INLINE pct_block block_set_where(pct_block v, uint64_t m, uint8_t c)
{
    const __m256i x = _mm256_set1_epi8((char)c);
    const pct_block b = {{_mm256_blendv_epi8(v.v[0], x, vec_from_mask((uint32_t)m)),
                          _mm256_blendv_epi8(v.v[1], x, vec_from_mask((uint32_t)(m >> 32)))}};
    return b;
}

PCT_BLOCK_INLINE pct_block block_replace(pct_block v, uint8_t from, uint8_t to)
{
    const __m256i f = _mm256_set1_epi8((char)from), x = _mm256_set1_epi8((char)to);
    const pct_block b = {{_mm256_blendv_epi8(v.v[0], x, _mm256_cmpeq_epi8(v.v[0], f)),
                          _mm256_blendv_epi8(v.v[1], x, _mm256_cmpeq_epi8(v.v[1], f))}};
    return b;
}

PCT_BLOCK_INLINE __m256i vec_upper_hex(__m256i v, uint32_t m)
{
    const __m256i d = _mm256_sub_epi8(v, _mm256_set1_epi8('a'));
    const __m256i lower = _mm256_cmpeq_epi8(_mm256_min_epu8(d, _mm256_set1_epi8(5)), d);
    const __m256i both = _mm256_and_si256(lower, vec_from_mask(m));
    return _mm256_sub_epi8(v, _mm256_and_si256(both, _mm256_set1_epi8(0x20)));
}

/* The bytes of v under m that are lower-case hex letters, upper-cased. */
PCT_BLOCK_INLINE pct_block block_upper_hex(pct_block v, uint64_t m)
{
    const pct_block b = {
        {vec_upper_hex(v.v[0], (uint32_t)m), vec_upper_hex(v.v[1], (uint32_t)(m >> 32))}};
    return b;
}

/* A byte b = 0xHL is in the set when bit (H & 7) of column L of the half
 * H >> 3 is set: the 256-bit set as a 16 x 16 bit matrix (row H, column L),
 * cut into H = 0-7 (low) and H = 8-F (high), each stored one byte per
 * column. set->bits[k] holds bytes 8k..8k+7, so row H is bits[2H] (L = 0-7)
 * and bits[2H + 1] (L = 8-F). After the even/odd de-interleave (lane 0:
 * bits[0..15], lane 1: bits[16..31]) vpmovmskb collects bit 7 of every byte,
 * one column (L = 7 and F) of each half; adding x to itself brings the next
 * column to bit 7, and so on. */
PCT_BLOCK_INLINE pct_block_set block_set_load(const pct_set *set)
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
    pct_block_set s;
    s.low = _mm256_set_epi64x((long long)low_8_f, (long long)low_0_7, (long long)low_8_f,
                              (long long)low_0_7);
    s.high = _mm256_set_epi64x((long long)high_8_f, (long long)high_0_7, (long long)high_8_f,
                               (long long)high_0_7);
    return s;
}

/* The set with no byte in it. */
PCT_BLOCK_INLINE pct_block_set block_set_empty(void)
{
    const pct_block_set s = {_mm256_setzero_si256(), _mm256_setzero_si256()};
    return s;
}

/* 0xFF in each byte of v in the set: vpshufb gives 0 for an index with bit 7
 * set, so each byte finds its column in the right half with no masking. */
PCT_BLOCK_INLINE __m256i vec_in_set(__m256i v, const pct_block_set *s, const pct_block_tables *t)
{
    const __m256i row = _mm256_or_si256(
        _mm256_shuffle_epi8(s->low, v),
        _mm256_shuffle_epi8(s->high, _mm256_xor_si256(v, _mm256_set1_epi8((char)0x80))));
    const __m256i bit = _mm256_shuffle_epi8(t->bit_of, vec_high_nibbles(v));
    return _mm256_cmpeq_epi8(_mm256_and_si256(row, bit), bit);
}

PCT_BLOCK_INLINE uint64_t block_in_set(pct_block v, pct_block_set set, const pct_block_tables *t)
{
    return block_mask(vec_in_set(v.v[0], &set, t), vec_in_set(v.v[1], &set, t));
}

/* The shuffle that moves the bytes of 16 under keep (16 bits) to the front:
 * the low 8 by their pct_compact_8 entry, the high 8 by theirs, placed
 * after the bytes kept of the low 8 (pct_compact_8_shifted). */
PCT_BLOCK_INLINE __m128i vec_compact16_shuffle(unsigned keep)
{
    const unsigned k0 = keep & 0xFF, k1 = keep >> 8;
    const __m128i low = _mm_or_si128(
        _mm_loadl_epi64((const __m128i *)pct_compact_8[k0]),
        _mm_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, -128, -128, -128, -128, -128, -128, -128, -128));
    const __m128i high = _mm_loadu_si128(
        (const __m128i *)(pct_compact_8_shifted + 16 * k1 + 8 - __builtin_popcount(k0)));
    return _mm_min_epu8(low, high);
}

/* Compacts each 16 bytes of v by its 16 bits of keep and stores them one
 * after the other at out (16 bytes from each start, so up to 16 - (the last
 * chunk's count) past the end). */
PCT_BLOCK_INLINE uint8_t *vec_compact_store(uint8_t *out, __m256i v, uint32_t keep)
{
    const __m256i shuffle =
        _mm256_inserti128_si256(_mm256_castsi128_si256(vec_compact16_shuffle(keep & 0xFFFF)),
                                vec_compact16_shuffle(keep >> 16), 1);
    const __m256i g = _mm256_shuffle_epi8(v, shuffle);
    _mm_storeu_si128((__m128i *)out, _mm256_castsi256_si128(g));
    out += __builtin_popcount(keep & 0xFFFF);
    _mm_storeu_si128((__m128i *)out, _mm256_extracti128_si256(g, 1));
    return out + __builtin_popcount(keep >> 16);
}

/* The bytes of v under keep, moved to the front in order (what follows them
 * is unspecified), joined through a stack buffer. */
PCT_BLOCK_INLINE pct_block block_compact(pct_block v, uint64_t keep)
{
    uint8_t buf[64 + 16];
    uint8_t *p = vec_compact_store(buf, v.v[0], (uint32_t)keep);
    vec_compact_store(p, v.v[1], (uint32_t)(keep >> 32));
    return block_load(buf);
}

/* Stores the bytes of v under keep (n of them) at p, in order: with room
 * for 64 bytes, straight to p (loading what was just stored in pieces would
 * wait for the stores), else through block_compact. */
PCT_BLOCK_INLINE void block_compact_store(uint8_t *p, pct_block v, uint64_t keep, size_t n,
                                          int roomy)
{
    if (roomy) {
        p = vec_compact_store(p, v.v[0], (uint32_t)keep);
        vec_compact_store(p, v.v[1], (uint32_t)(keep >> 32));
    } else {
        block_store_n(p, block_compact(v, keep), n);
    }
}

/* Encodes the first `count` bytes of a block, and stores the result at out
 * (see avx512/block.h). Each byte becomes a token [literal, H, L, literal]
 * (two rounds of unpacking), and each group of four tokens is compacted by
 * its pct_encode_group_shuffle entry and stored with 16 bytes (the next group
 * overwrites what lies past its end). Without room, through a stack buffer. */
PCT_BLOCK_INLINE uint8_t *encode_store_count(uint8_t *out, pct_block literal, pct_block text,
                                             uint64_t escaped, size_t count, int roomy,
                                             const pct_block_tables *t)
{
    uint8_t buf[3 * 64 + 16];
    uint8_t *o = roomy ? out : buf;
    _Pragma("GCC unroll 2") for (int j = 0; j < 2; j++)
    {
        const __m256i lit = literal.v[j];
        const __m256i high = _mm256_shuffle_epi8(t->hex_digits, vec_high_nibbles(text.v[j]));
        const __m256i low = _mm256_shuffle_epi8(t->hex_digits, vec_low_nibbles(text.v[j]));
        const __m256i a_lo = _mm256_unpacklo_epi8(lit, high), b_lo = _mm256_unpacklo_epi8(low, lit);
        const __m256i a_hi = _mm256_unpackhi_epi8(lit, high), b_hi = _mm256_unpackhi_epi8(low, lit);
        const __m256i tokens[4] = {
            _mm256_unpacklo_epi16(a_lo, b_lo), _mm256_unpackhi_epi16(a_lo, b_lo),
            _mm256_unpacklo_epi16(a_hi, b_hi), _mm256_unpackhi_epi16(a_hi, b_hi)};
        _Pragma("GCC unroll 8") for (int g = 0; g < 8; g++)
        {
            /* Group g of the 32 bytes: bytes 4g..4g+3, in lane g >> 2. */
            const size_t first = 32 * (size_t)j + 4 * (size_t)g;
            if (first >= count)
                break;
            const __m128i tok = (g & 4) ? _mm256_extracti128_si256(tokens[g & 3], 1)
                                        : _mm256_castsi256_si128(tokens[g & 3]);
            const unsigned e = (unsigned)(escaped >> first) & 15;
            const __m128i s = _mm_loadu_si128((const __m128i *)pct_encode_group_shuffle[e]);
            _mm_storeu_si128((__m128i *)o, _mm_shuffle_epi8(tok, s));
            o += (count - first < 4 ? count - first : 4) + 2 * (size_t)__builtin_popcount(e);
        }
    }
    if (roomy)
        return o;
    memcpy(out, buf, (size_t)(o - buf));
    return out + (o - buf);
}

/* A full block (the common case) has its own copy, with count known. */
PCT_BLOCK_INLINE uint8_t *block_encode_store(uint8_t *out, pct_block literal, pct_block text,
                                             uint64_t escaped, size_t count, int roomy,
                                             const pct_block_tables *t)
{
    if (count == 64 && roomy)
        return encode_store_count(out, literal, text, escaped, 64, 1, t);
    return encode_store_count(out, literal, text, escaped, count, roomy, t);
}

/* ---- UTF-8 (tables and reasoning in kernel/tables.h) --------------------- */

/* The bytes k = 1..3 before each byte of cur, prev being the 32 before it. */
#define PCT_AVX2_BEFORE(cur, prev, k)                                                              \
    _mm256_alignr_epi8((cur), _mm256_permute2x128_si256((prev), (cur), 0x21), 16 - (k))

PCT_BLOCK_INLINE __m256i vec_utf8_errors(__m256i cur, __m256i prev, const pct_block_tables *t)
{
    const __m256i prev1 = PCT_AVX2_BEFORE(cur, prev, 1), prev2 = PCT_AVX2_BEFORE(cur, prev, 2),
                  prev3 = PCT_AVX2_BEFORE(cur, prev, 3);
    const __m256i pairs = _mm256_and_si256(
        _mm256_and_si256(_mm256_shuffle_epi8(t->utf8_prev_high, vec_high_nibbles(prev1)),
                         _mm256_shuffle_epi8(t->utf8_prev_low, vec_low_nibbles(prev1))),
        _mm256_shuffle_epi8(t->utf8_cur_high, vec_high_nibbles(cur)));
    const __m256i continuation_expected =
        _mm256_and_si256(_mm256_or_si256(_mm256_subs_epu8(prev2, _mm256_set1_epi8(0x60)),
                                         _mm256_subs_epu8(prev3, _mm256_set1_epi8(0x70))),
                         _mm256_set1_epi8((char)0x80));
    return _mm256_cmpeq_epi8(pairs, continuation_expected);
}

/* The bytes of cur that make ill-formed UTF-8 with what precedes them (the
 * end of tail, then cur itself). */
PCT_BLOCK_INLINE uint64_t block_utf8_errors(pct_block cur, pct_block tail,
                                            const pct_block_tables *t)
{
    return ~block_mask(vec_utf8_errors(cur.v[0], tail.v[1], t),
                       vec_utf8_errors(cur.v[1], cur.v[0], t));
}

/* The new tail after n bytes of cur were written: its last 64 bytes. */
PCT_BLOCK_INLINE pct_block block_utf8_tail(pct_block tail, pct_block cur, size_t n)
{
    uint8_t buf[128];
    block_store(buf, tail);
    block_store(buf + 64, cur);
    return block_load(buf + n);
}

#endif /* PCT_AVX2_BLOCK_H */
