/* generic/encode_body.h - the percent-encoder of the generic family
 * (SSE4.2, AVX2, NEON), written once over the ISA's vec.h (included first)
 * and compiled per width. It is the algorithm of avx512/encode_body.h, a
 * 64-byte block at a time:
 *
 *   escaped   bytes of the set (not a space with PCT_PLUS: that is '+'; with
 *             PCT_KEEP_ESCAPES not the bytes of a well-formed escape, which
 *             are copied as they are)
 *   literal   the bytes as written ('+' for a space with PCT_PLUS)
 *
 * and a block is written in one of three ways: nothing to escape (most
 * ASCII text), stored as it is; everything escaped (UTF-8 text such as
 * Japanese), "%HL" by three fixed shuffles per 16 bytes; anything else,
 * through the expansion tables (simd_shared/tables.h: pct_encode_group), four
 * bytes per shuffle. The first two are runs on real text, so their branches
 * are predicted; the expansion itself has no branch. With PCT_UTF8 the
 * input is checked as UTF-8 on the way, in registers.
 *
 * The last bytes (fewer than 64 + PCT_GENERIC_ENCODE_SLACK) are encoded from a
 * zero-padded copy into a buffer, so no input is too short for the kernel.
 * The first ill-formed block, the end of a partial (streaming) input and
 * input that ends inside a UTF-8 sequence go to the scalar routine for the
 * rest, from a token boundary.
 */
#include "impl.h"
#include "simd_shared/handover.h"
#include "simd_shared/tables.h"
#include "scalar/hex.h"
#include "scalar/utf8.h"
#include "generic/vec_ops.h"

/* Input bytes after a block that the kernel needs: a group's 16-byte store
 * writes up to 12 bytes past the block's output, and every input byte after
 * the block gives at least one output byte; PCT_KEEP_ESCAPES reads 2 ahead. */
#define PCT_GENERIC_ENCODE_SLACK 16

/* The 64 bytes at s, classified. */
typedef struct generic_encode_block {
    pct_vec text[PCT_VECS];    /* the input */
    pct_vec literal[PCT_VECS]; /* the bytes written where not escaped */
    uint64_t escaped;
    uint64_t escapes; /* PCT_KEEP_ESCAPES: the '%' of the escapes kept */
} generic_encode_block;

PCT_VEC_INLINE generic_encode_block generic_encode_classify(const uint8_t *s,
                                                            const pct_vec_set *set, int plus,
                                                            int keep_escapes,
                                                            const pct_vec_tables *t)
{
    generic_encode_block b;
    b.escaped = b.escapes = 0;
    for (int k = 0; k < PCT_VECS; k++) {
        const uint8_t *p = s + k * PCT_VEC_W;
        const pct_vec v = vec_load(p);
        b.text[k] = v;
        b.literal[k] =
            plus ? vec_add8(v, vec_and(vec_eq8(v, vec_set1(' ')), vec_set1('+' - ' '))) : v;
        b.escaped |= vec_block_bits(vec_mask(vec_in_set(v, set, t)), k);
        if (keep_escapes)
            b.escapes |= vec_block_bits(vec_mask(vec_escapes_at(p, t)), k);
    }
    return b;
}

/* The bytes of a UTF-8 check of the block (PCT_UTF8) that are ill-formed
 * after the input before it (*before: its last vector); *before moves on. */
PCT_VEC_INLINE uint64_t generic_encode_utf8_errors(const generic_encode_block *b, pct_vec *before,
                                                   const pct_vec_tables *t)
{
    uint64_t errors = 0;
    pct_vec prev = *before;
    for (int k = 0; k < PCT_VECS; k++) {
        const pct_vec v = b->text[k];
        const pct_vec e =
            vec_utf8_errors(v, vec_prev(v, prev, 1), vec_prev(v, prev, 2), vec_prev(v, prev, 3), t);
        errors |= vec_block_bits(~vec_mask(vec_eq8(e, vec_zero())), k);
        prev = v;
    }
    *before = prev;
    return errors;
}

/* The upper-case hex digits of the high and the low nibbles of v. */
PCT_VEC_INLINE pct_vec vec_hex_high(pct_vec v, const pct_vec_tables *t)
{
    return vec_lookup(t->hex_digits, vec_high_nibbles(v));
}

PCT_VEC_INLINE pct_vec vec_hex_low(pct_vec v, const pct_vec_tables *t)
{
    return vec_lookup(t->hex_digits, vec_low_nibbles(v));
}

/* A vector with bytes to escape (mask m): tokens [c, H, L, '%'] by two
 * rounds of unpacking, four groups of four per lane, each compacted by its
 * pct_encode_group shuffle and stored one after the other (up to 12 bytes
 * past its own output, which the next store overwrites). */
PCT_VEC_INLINE uint8_t *generic_encode_mixed(uint8_t *out, pct_vec literal, pct_vec text,
                                             uint32_t m, const pct_vec_tables *t)
{
    const pct_vec high = vec_hex_high(text, t), low = vec_hex_low(text, t);
    const pct_vec a_lo = vec_unpacklo8(literal, high), a_hi = vec_unpackhi8(literal, high);
    const pct_vec b_lo = vec_unpacklo8(low, vec_set1('%')),
                  b_hi = vec_unpackhi8(low, vec_set1('%'));
    const pct_vec tokens[4] = {vec_unpacklo16(a_lo, b_lo), vec_unpackhi16(a_lo, b_lo),
                               vec_unpacklo16(a_hi, b_hi), vec_unpackhi16(a_hi, b_hi)};
    pct_vec groups[4];
    for (int g = 0; g < 4; g++)
        groups[g] =
            vec_lookup(tokens[g], vec_from_lanes(pct_encode_group[(m >> (4 * g)) & 15],
                                                 pct_encode_group[(m >> (16 + 4 * g)) & 15]));
    for (int lane = 0; lane < PCT_VEC_W / 16; lane++) {
        for (int g = 0; g < 4; g++) {
            const unsigned m4 = (m >> (16 * lane + 4 * g)) & 15;
            vec_store_lane(out, groups[g], lane);
            out += 4 + 2 * __builtin_popcount(m4);
        }
    }
    return out;
}

/* A vector whose every byte is escaped: per 16 bytes, the digit pairs
 * H0 L0 ... H15 L15 (32 bytes) and '%' in between, by three fixed shuffles
 * with '%' OR-ed in where the index is Z (0x80: zero):
 *
 *   output bytes  0-15:  %  H0 L0 %  H1 L1 ... %  H4 L4 %      pairs 0-15
 *   output bytes 16-31:  H5 L5 %  H6 L6 ... %  H10             pairs 10-25
 *   output bytes 32-47:  L10 % H11 L11 ... %  H15 L15          pairs 16-31 */
PCT_VEC_INLINE uint8_t *generic_encode_all(uint8_t *out, pct_vec text, const pct_vec_tables *t)
{
#define Z 0x80
    static const uint8_t shuffle_lo[PCT_VEC_W] =
        PCT_VEC_LANES_TABLE(Z, 0, 1, Z, 2, 3, Z, 4, 5, Z, 6, 7, Z, 8, 9, Z),
                         shuffle_mid[PCT_VEC_W] =
                             PCT_VEC_LANES_TABLE(0, 1, Z, 2, 3, Z, 4, 5, Z, 6, 7, Z, 8, 9, Z, 10),
                         shuffle_hi[16] = {5, Z, 6, 7, Z, 8, 9, Z, 10, 11, Z, 12, 13, Z, 14, 15},
                         percent_lo[16] = {'%', 0,   0, '%', 0,   0, '%', 0,
                                           0,   '%', 0, 0,   '%', 0, 0,   '%'},
                         percent_mid[16] = {0,   0, '%', 0,   0, '%', 0,   0,
                                            '%', 0, 0,   '%', 0, 0,   '%', 0},
                         percent_hi[16] = {0, '%', 0,   0, '%', 0,   0, '%',
                                           0, 0,   '%', 0, 0,   '%', 0, 0};
#undef Z
    const pct_vec high = vec_hex_high(text, t), low = vec_hex_low(text, t);
    const pct_vec pairs_lo = vec_unpacklo8(high, low), pairs_hi = vec_unpackhi8(high, low);
    const pct_vec pairs_mid = vec_alignr8(pairs_hi, pairs_lo, 10);
    const pct_vec o0 = vec_or(vec_lookup(pairs_lo, vec_table(shuffle_lo)), vec_table(percent_lo));
    const pct_vec o1 =
        vec_or(vec_lookup(pairs_mid, vec_table(shuffle_mid)), vec_table(percent_mid));
    const pct_vec o2 = vec_or(vec_lookup(pairs_hi, vec_table(shuffle_hi)), vec_table(percent_hi));
    vec_store_lanes3(out, o0, o1, o2);
    return out + 3 * PCT_VEC_W;
}

/* Writes the block: escaped (its bits within the block's input) and
 * returns the end of its output. */
PCT_VEC_INLINE uint8_t *generic_encode_store(uint8_t *out, const generic_encode_block *b,
                                             uint64_t escaped, const pct_vec_tables *t)
{
    if (escaped == 0) {
        for (int k = 0; k < PCT_VECS; k++)
            vec_store(out + k * PCT_VEC_W, b->literal[k]);
        return out + 64;
    }
    if (escaped == ~0ull) {
        for (int k = 0; k < PCT_VECS; k++)
            out = generic_encode_all(out, b->text[k], t);
        return out;
    }
    for (int k = 0; k < PCT_VECS; k++)
        out = generic_encode_mixed(out, b->literal[k], b->text[k],
                                   (uint32_t)(escaped >> (k * PCT_VEC_W)), t);
    return out;
}

/* Encodes the block at s (valid: its bytes that are input) to out and
 * returns the end of its output, or NULL where the UTF-8 check (check) finds
 * an ill-formed sequence in it (nothing written then). */
PCT_VEC_INLINE uint8_t *generic_encode_step(uint8_t *out, const uint8_t *s, uint64_t valid,
                                            const pct_vec_set *set, int plus, int keep_escapes,
                                            int check, uint64_t *carry, pct_vec *before,
                                            const pct_vec_tables *t)
{
    const generic_encode_block b = generic_encode_classify(s, set, plus, keep_escapes, t);
    uint64_t escaped = b.escaped & valid;
    if (check && (generic_encode_utf8_errors(&b, before, t) & valid))
        return NULL;
    if (keep_escapes) {
        escaped &= ~(b.escapes | generic_digits_of(b.escapes) | *carry);
        *carry = generic_digits_carried(b.escapes);
    }
    return generic_encode_store(out, &b, escaped, t);
}

PCT_VEC_INLINE pct_result generic_encode_body(const uint8_t *src, size_t len, uint8_t *dst,
                                              const pct_set *set, unsigned flags, size_t *consumed)
{
    const int final = consumed == NULL;
    const int check = (flags & PCT_UTF8) != 0;
    const int keep_escapes = (flags & PCT_KEEP_ESCAPES) != 0;
    /* With PCT_PLUS a space in the set becomes '+', one byte: as if it
     * were not in the set, and then translated. */
    const int plus = (flags & PCT_PLUS) && pct_in_set(set, ' ');
    pct_set escaped_set = *set;
    if (plus)
        escaped_set.bits[' ' >> 3] &= (uint8_t) ~(1u << (' ' & 7));
    const pct_vec_tables tables = vec_tables_load();
    const pct_vec_set in_set = vec_set_load(&escaped_set);
    pct_vec before = vec_zero(); /* the input's last vector (UTF-8 check) */
    uint64_t carry = 0;          /* digits of a kept escape at the end of a block */
    uint8_t *out = dst;
    size_t i = 0;
    int stopped = 0;
    for (; len - i >= 64 + PCT_GENERIC_ENCODE_SLACK; i += 64) {
        uint8_t *next = generic_encode_step(out, src + i, ~0ull, &in_set, plus, keep_escapes, check,
                                            &carry, &before, &tables);
        if (!next) {
            stopped = 1;
            break;
        }
        out = next;
    }
    if (!stopped && final && i < len) {
        /* The last bytes from a zero-padded copy, into a buffer. The
         * padding's zeros are never escaped: one byte each, last. */
        uint8_t pad[128 + 2 * PCT_VEC_W], pad_out[3 * 128 + 16];
        const size_t pad_at = i;
        generic_pad_copy(pad, len - i <= 64 ? 64 + PCT_VEC_W : sizeof pad, src + i, len - i);
        uint8_t *o = pad_out;
        for (; i < len; i += 64) {
            const size_t left = len - i;
            uint8_t *next =
                generic_encode_step(o, pad + (i - pad_at), vec_low_bits(left), &in_set, plus,
                                    keep_escapes, check, &carry, &before, &tables);
            if (!next)
                break;
            o = next - (left < 64 ? 64 - left : 0);
        }
        generic_copy_short(out, pad_out, (size_t)(o - pad_out));
        out += o - pad_out;
    }
    return pct_encode_handover(src, len, dst, i, out, carry, set, flags, consumed);
}

/* Below this many bytes the scalar routine is faster than the kernel's
 * padded last block (measured: 24-byte strings without escapes). */
#define PCT_GENERIC_ENCODE_SHORT 32

/* Defines pct_<isa>_encode: one-shot calls without flags get their own copy
 * of the body, with no flag tested in its blocks. */
#define PCT_GENERIC_DEFINE_ENCODE(isa)                                                             \
    __attribute__((noinline)) static pct_result isa##_encode_plain(                                \
        const uint8_t *src, size_t len, uint8_t *dst, const pct_set *set)                          \
    {                                                                                              \
        return generic_encode_body(src, len, dst, set, 0, NULL);                                   \
    }                                                                                              \
    __attribute__((noinline)) static pct_result isa##_encode_any(const uint8_t *src, size_t len,   \
                                                                 uint8_t *dst, const pct_set *set, \
                                                                 unsigned flags, size_t *consumed) \
    {                                                                                              \
        return generic_encode_body(src, len, dst, set, flags, consumed);                           \
    }                                                                                              \
    pct_result pct_##isa##_encode(const uint8_t *src, size_t len, uint8_t *dst,                    \
                                  const pct_set *set, unsigned flags, size_t *consumed)            \
    {                                                                                              \
        if (len < PCT_GENERIC_ENCODE_SHORT)                                                        \
            return pct_scalar_encode(src, len, dst, set, flags, consumed);                         \
        if (flags == 0 && consumed == NULL)                                                        \
            return isa##_encode_plain(src, len, dst, set);                                         \
        return isa##_encode_any(src, len, dst, set, flags, consumed);                              \
    }
