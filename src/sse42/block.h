/* sse42/block.h - the 64-byte block primitives of the shared kernel bodies
 * (kernel/<op>_body.h) for SSE4.2: a block is four xmm registers, a byte
 * mask one 64-bit word (a pmovmskb per register, combined).
 *
 * The same algorithms as avx2/block.h (read it first), 16 bytes per
 * register: compaction by one pshufb per 16 bytes (pct_compact_8 and
 * pct_compact_8_shifted), the
 * set and hex-digit classifications by nibble lookups, encoding by one
 * shuffle per group of four tokens (pct_encode_group_shuffle). Partial blocks
 * are copied through a stack buffer.
 */
#ifndef PCT_SSE42_BLOCK_H
#define PCT_SSE42_BLOCK_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "pct.h"
#include "kernel/tables.h"

typedef struct pct_block {
    __m128i v[4];
} pct_block;

/* A pct_set as two 16 x 16 bit matrices, one column per low nibble (see
 * avx2/block.h: block_set_load). */
typedef struct pct_block_set {
    __m128i low;  /* bytes 0x00-0x7F */
    __m128i high; /* bytes 0x80-0xFF */
} pct_block_set;

#define PCT_BLOCK_INLINE static inline __attribute__((always_inline))

/* The 16-byte tables of kernel/tables.h, loaded once per call. */
typedef struct pct_block_tables {
    __m128i hex_class_low, hex_class_high, hex_letter_add;
    __m128i bit_of; /* 1 << (h & 7) for a nibble h */
    __m128i hex_digits;
    __m128i utf8_prev_high, utf8_prev_low, utf8_cur_high;
} pct_block_tables;

/* The low n bits (n <= 64). */
PCT_BLOCK_INLINE uint64_t block_low_bits(size_t n)
{
    return n >= 64 ? ~0ull : (1ull << n) - 1;
}

PCT_BLOCK_INLINE __m128i vec_load16(const uint8_t *table)
{
    return _mm_loadu_si128((const __m128i *)table);
}

PCT_BLOCK_INLINE __m128i vec_high_nibbles(__m128i v)
{
    return _mm_and_si128(_mm_srli_epi16(v, 4), _mm_set1_epi8(0x0F));
}

PCT_BLOCK_INLINE __m128i vec_low_nibbles(__m128i v)
{
    return _mm_and_si128(v, _mm_set1_epi8(0x0F));
}

PCT_BLOCK_INLINE uint64_t block_mask(__m128i m0, __m128i m1, __m128i m2, __m128i m3)
{
    return (uint64_t)(uint32_t)_mm_movemask_epi8(m0) |
           (uint64_t)(uint32_t)_mm_movemask_epi8(m1) << 16 |
           (uint64_t)(uint32_t)_mm_movemask_epi8(m2) << 32 |
           (uint64_t)(uint32_t)_mm_movemask_epi8(m3) << 48;
}

/* 0xFF in the bytes of the 16 under bits 16j..16j+15 of m, 0 in the others. */
PCT_BLOCK_INLINE __m128i vec_from_mask(uint64_t m, int j)
{
    const __m128i spread = _mm_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1);
    const __m128i bit = _mm_set1_epi64x((long long)0x8040201008040201ull);
    const __m128i x = _mm_shuffle_epi8(_mm_set1_epi16((short)(uint16_t)(m >> (16 * j))), spread);
    return _mm_cmpeq_epi8(_mm_and_si128(x, bit), bit);
}

PCT_BLOCK_INLINE pct_block block_zero(void)
{
    const pct_block z = {
        {_mm_setzero_si128(), _mm_setzero_si128(), _mm_setzero_si128(), _mm_setzero_si128()}};
    return z;
}

PCT_BLOCK_INLINE pct_block block_load(const uint8_t *p)
{
    const pct_block b = {
        {vec_load16(p), vec_load16(p + 16), vec_load16(p + 32), vec_load16(p + 48)}};
    return b;
}

PCT_BLOCK_INLINE void block_store(uint8_t *p, pct_block v)
{
    for (int j = 0; j < 4; j++)
        _mm_storeu_si128((__m128i *)(p + 16 * j), v.v[j]);
}

PCT_BLOCK_INLINE pct_block_tables block_tables_load(void)
{
    const pct_block_tables t = {
        vec_load16(pct_hex_class_low),   vec_load16(pct_hex_class_high),
        vec_load16(pct_hex_letter_add),  vec_load16(pct_bit_of_table),
        vec_load16(pct_hex_digit_table), vec_load16(pct_utf8_prev_high),
        vec_load16(pct_utf8_prev_low),   vec_load16(pct_utf8_cur_high),
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
    const __m128i x = _mm_set1_epi8((char)c);
    return block_mask(_mm_cmpeq_epi8(v.v[0], x), _mm_cmpeq_epi8(v.v[1], x),
                      _mm_cmpeq_epi8(v.v[2], x), _mm_cmpeq_epi8(v.v[3], x));
}

/* Each byte's value as a hex digit (in bits 0-3), or 0xFF where it is not
 * one: bit 7 tells (avx2/block.h). */
PCT_BLOCK_INLINE __m128i vec_hex_value(__m128i v, const pct_block_tables *t)
{
    const __m128i h = vec_high_nibbles(v);
    const __m128i cls = _mm_and_si128(_mm_shuffle_epi8(t->hex_class_low, v),
                                      _mm_shuffle_epi8(t->hex_class_high, h));
    return _mm_or_si128(_mm_cmpeq_epi8(cls, _mm_setzero_si128()),
                        _mm_add_epi8(v, _mm_shuffle_epi8(t->hex_letter_add, h)));
}

PCT_BLOCK_INLINE pct_block block_hex_values(pct_block v, const pct_block_tables *t)
{
    pct_block e;
    for (int j = 0; j < 4; j++)
        e.v[j] = vec_hex_value(v.v[j], t);
    return e;
}

/* The bytes at which v1 or v2 is not a hex digit (e1, e2: their
 * block_hex_values, whose bit 7 says so). */
PCT_BLOCK_INLINE uint64_t block_not_hex2(pct_block v1, pct_block e1, pct_block v2, pct_block e2)
{
    (void)v1;
    (void)v2;
    return block_mask(_mm_or_si128(e1.v[0], e2.v[0]), _mm_or_si128(e1.v[1], e2.v[1]),
                      _mm_or_si128(e1.v[2], e2.v[2]), _mm_or_si128(e1.v[3], e2.v[3]));
}

/* The byte of each escape from its two digits' entries: (hi << 4) | lo. */
PCT_BLOCK_INLINE pct_block block_escaped_bytes(pct_block hi, pct_block lo)
{
    pct_block b;
    for (int j = 0; j < 4; j++)
        b.v[j] = _mm_or_si128(_mm_and_si128(_mm_slli_epi16(hi.v[j], 4), _mm_set1_epi8((char)0xF0)),
                              vec_low_nibbles(lo.v[j]));
    return b;
}

/* m ? if_set : if_clear, per byte. */
PCT_BLOCK_INLINE pct_block block_select(uint64_t m, pct_block if_set, pct_block if_clear)
{
    pct_block b;
    for (int j = 0; j < 4; j++)
        b.v[j] = _mm_blendv_epi8(if_clear.v[j], if_set.v[j], vec_from_mask(m, j));
    return b;
}

/* m ? c : v, per byte. */
PCT_BLOCK_INLINE pct_block block_set_where(pct_block v, uint64_t m, uint8_t c)
{
    const __m128i x = _mm_set1_epi8((char)c);
    pct_block b;
    for (int j = 0; j < 4; j++)
        b.v[j] = _mm_blendv_epi8(v.v[j], x, vec_from_mask(m, j));
    return b;
}

PCT_BLOCK_INLINE pct_block block_replace(pct_block v, uint8_t from, uint8_t to)
{
    const __m128i f = _mm_set1_epi8((char)from), x = _mm_set1_epi8((char)to);
    pct_block b;
    for (int j = 0; j < 4; j++)
        b.v[j] = _mm_blendv_epi8(v.v[j], x, _mm_cmpeq_epi8(v.v[j], f));
    return b;
}

/* The bytes of v under m that are lower-case hex letters, upper-cased. */
PCT_BLOCK_INLINE pct_block block_upper_hex(pct_block v, uint64_t m)
{
    pct_block b;
    for (int j = 0; j < 4; j++) {
        const __m128i d = _mm_sub_epi8(v.v[j], _mm_set1_epi8('a'));
        const __m128i lower = _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(5)), d);
        const __m128i both = _mm_and_si128(lower, vec_from_mask(m, j));
        b.v[j] = _mm_sub_epi8(v.v[j], _mm_and_si128(both, _mm_set1_epi8(0x20)));
    }
    return b;
}

/* One half of the set matrix (see avx2/block.h: block_set_load). */
PCT_BLOCK_INLINE __m128i vec_set_half(const uint8_t bits[16])
{
    const __m128i even_odd = _mm_setr_epi8(0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15);
    __m128i x = _mm_shuffle_epi8(vec_load16(bits), even_odd);
    uint64_t columns_0_7 = 0, columns_8_f = 0;
    for (int l = 7; l >= 0; l--) {
        const uint32_t m = (uint32_t)_mm_movemask_epi8(x);
        columns_0_7 |= (uint64_t)(m & 0xFF) << (8 * l);
        columns_8_f |= (uint64_t)(m >> 8) << (8 * l);
        x = _mm_add_epi8(x, x);
    }
    return _mm_set_epi64x((long long)columns_8_f, (long long)columns_0_7);
}

PCT_BLOCK_INLINE pct_block_set block_set_load(const pct_set *set)
{
    const pct_block_set s = {vec_set_half(set->bits), vec_set_half(set->bits + 16)};
    return s;
}

/* The set with no byte in it. */
PCT_BLOCK_INLINE pct_block_set block_set_empty(void)
{
    const pct_block_set s = {_mm_setzero_si128(), _mm_setzero_si128()};
    return s;
}

PCT_BLOCK_INLINE __m128i vec_in_set(__m128i v, const pct_block_set *s, const pct_block_tables *t)
{
    const __m128i row =
        _mm_or_si128(_mm_shuffle_epi8(s->low, v),
                     _mm_shuffle_epi8(s->high, _mm_xor_si128(v, _mm_set1_epi8((char)0x80))));
    const __m128i bit = _mm_shuffle_epi8(t->bit_of, vec_high_nibbles(v));
    return _mm_cmpeq_epi8(_mm_and_si128(row, bit), bit);
}

PCT_BLOCK_INLINE uint64_t block_in_set(pct_block v, pct_block_set set, const pct_block_tables *t)
{
    return block_mask(vec_in_set(v.v[0], &set, t), vec_in_set(v.v[1], &set, t),
                      vec_in_set(v.v[2], &set, t), vec_in_set(v.v[3], &set, t));
}

/* The shuffle that moves the bytes of 16 under keep to the front (see
 * avx2/block.h). */
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

/* Compacts the 16 bytes of v by keep and stores them (16 bytes) at out. */
PCT_BLOCK_INLINE uint8_t *vec_compact_store(uint8_t *out, __m128i v, unsigned keep)
{
    _mm_storeu_si128((__m128i *)out, _mm_shuffle_epi8(v, vec_compact16_shuffle(keep)));
    return out + __builtin_popcount(keep);
}

/* The bytes of v under keep, moved to the front in order (what follows them
 * is unspecified), joined through a stack buffer. */
PCT_BLOCK_INLINE pct_block block_compact(pct_block v, uint64_t keep)
{
    uint8_t buf[64 + 16];
    uint8_t *p = buf;
    for (int j = 0; j < 4; j++)
        p = vec_compact_store(p, v.v[j], (unsigned)(keep >> (16 * j)) & 0xFFFF);
    return block_load(buf);
}

/* Stores the bytes of v under keep (n of them) at p, in order: with room
 * for 64 bytes, straight to p, else through block_compact (avx2/block.h). */
PCT_BLOCK_INLINE void block_compact_store(uint8_t *p, pct_block v, uint64_t keep, size_t n,
                                          int roomy)
{
    if (roomy) {
        for (int j = 0; j < 4; j++)
            p = vec_compact_store(p, v.v[j], (unsigned)(keep >> (16 * j)) & 0xFFFF);
    } else {
        block_store_n(p, block_compact(v, keep), n);
    }
}

/* Encodes the first `count` bytes of a block, and stores the result at out
 * (see avx2/block.h). */
PCT_BLOCK_INLINE uint8_t *encode_store_count(uint8_t *out, pct_block literal, pct_block text,
                                             uint64_t escaped, size_t count, int roomy,
                                             const pct_block_tables *t)
{
    uint8_t buf[3 * 64 + 16];
    uint8_t *o = roomy ? out : buf;
    for (int j = 0; j < 4 && 16 * (size_t)j < count; j++) {
        const __m128i lit = literal.v[j];
        const __m128i high = _mm_shuffle_epi8(t->hex_digits, vec_high_nibbles(text.v[j]));
        const __m128i low = _mm_shuffle_epi8(t->hex_digits, vec_low_nibbles(text.v[j]));
        const __m128i a_lo = _mm_unpacklo_epi8(lit, high), b_lo = _mm_unpacklo_epi8(low, lit);
        const __m128i a_hi = _mm_unpackhi_epi8(lit, high), b_hi = _mm_unpackhi_epi8(low, lit);
        const __m128i tokens[4] = {_mm_unpacklo_epi16(a_lo, b_lo), _mm_unpackhi_epi16(a_lo, b_lo),
                                   _mm_unpacklo_epi16(a_hi, b_hi), _mm_unpackhi_epi16(a_hi, b_hi)};
        for (int g = 0; g < 4; g++) {
            const size_t first = 16 * (size_t)j + 4 * (size_t)g;
            if (first >= count)
                break;
            const unsigned e = (unsigned)(escaped >> first) & 15;
            const __m128i s = vec_load16((const uint8_t *)pct_encode_group_shuffle[e]);
            _mm_storeu_si128((__m128i *)o, _mm_shuffle_epi8(tokens[g], s));
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

PCT_BLOCK_INLINE __m128i vec_utf8_errors(__m128i cur, __m128i prev, const pct_block_tables *t)
{
    const __m128i prev1 = _mm_alignr_epi8(cur, prev, 15), prev2 = _mm_alignr_epi8(cur, prev, 14),
                  prev3 = _mm_alignr_epi8(cur, prev, 13);
    const __m128i pairs =
        _mm_and_si128(_mm_and_si128(_mm_shuffle_epi8(t->utf8_prev_high, vec_high_nibbles(prev1)),
                                    _mm_shuffle_epi8(t->utf8_prev_low, vec_low_nibbles(prev1))),
                      _mm_shuffle_epi8(t->utf8_cur_high, vec_high_nibbles(cur)));
    const __m128i continuation_expected =
        _mm_and_si128(_mm_or_si128(_mm_subs_epu8(prev2, _mm_set1_epi8(0x60)),
                                   _mm_subs_epu8(prev3, _mm_set1_epi8(0x70))),
                      _mm_set1_epi8((char)0x80));
    return _mm_cmpeq_epi8(pairs, continuation_expected);
}

/* The bytes of cur that make ill-formed UTF-8 with what precedes them (the
 * end of tail, then cur itself). */
PCT_BLOCK_INLINE uint64_t block_utf8_errors(pct_block cur, pct_block tail,
                                            const pct_block_tables *t)
{
    return ~block_mask(
        vec_utf8_errors(cur.v[0], tail.v[3], t), vec_utf8_errors(cur.v[1], cur.v[0], t),
        vec_utf8_errors(cur.v[2], cur.v[1], t), vec_utf8_errors(cur.v[3], cur.v[2], t));
}

/* The new tail after n bytes of cur were written: its last 64 bytes. */
PCT_BLOCK_INLINE pct_block block_utf8_tail(pct_block tail, pct_block cur, size_t n)
{
    uint8_t buf[128];
    block_store(buf, tail);
    block_store(buf + 64, cur);
    return block_load(buf + n);
}

#endif /* PCT_SSE42_BLOCK_H */
