/* generic/decode_vec.h - one vector of the generic decoder (generic/decode_body.h),
 * and the UTF-8 check of its output in registers; the validator
 * (generic/validate_body.h) checks the same output without storing it. Over
 * the ISA's vec.h (included first) and generic/vec_ops.h.
 */
#ifndef PCT_GENERIC_DECODE_VEC_H
#define PCT_GENERIC_DECODE_VEC_H

#include "generic/vec_ops.h"

/* A vector decoded, not yet stored: its bytes (the escapes' bytes at their
 * '%'), its escapes, and which of its bytes are output (all but the digits of
 * the escapes and those the vector before carried into it). */
typedef struct generic_decoded {
    pct_vec v, e;
    uint32_t output;
} generic_decoded;

/* Decodes the vector at p, `valid` its bytes that are input; *carry: the
 * digits of the vector before that fall into this one, then of this one
 * into the next. */
PCT_VEC_INLINE generic_decoded generic_decode_vec(const uint8_t *p, uint32_t *carry, uint32_t valid,
                                                  const pct_vec_set *keep, unsigned flags,
                                                  const pct_vec_tables *t)
{
    const pct_vec v0 = vec_load(p), v1 = vec_load(p + 1), v2 = vec_load(p + 2);
    pct_vec e = vec_andnot(vec_not_hex2(v1, v2, t), vec_eq8(v0, vec_set1('%')));
    const pct_vec bytes = vec_hex_pair(v1, v2);
    if (keep)
        e = vec_andnot(vec_in_set(bytes, keep, t), e);
    const pct_vec text = (flags & PCT_PLUS) ? vec_plus_to_space(v0) : v0;
    const uint64_t escapes = vec_mask(e);
    const uint64_t digits = (escapes << 1) | (escapes << 2);
    const generic_decoded d = {vec_blendv(text, bytes, e), e,
                               ~((uint32_t)digits | *carry) & valid &
                                   (uint32_t)vec_low_bits(PCT_VEC_W)};
    *carry = (uint32_t)(digits >> PCT_VEC_W);
    return d;
}

/* ---- UTF-8 check in registers ---------------------------------------------
 * The output is checked before it is compacted: an output byte's
 * predecessor in the output is the byte before it, or, when that is the
 * last digit of an escape, the escape's '%' three bytes before (which holds
 * the escape's byte). So the three bytes before each one in the output are
 * three steps of "one back, or three back after an escape", each an
 * alignr-and-blend over the vector before. The state is the last vector's
 * bytes, their first two predecessors and its escapes; zeros at a start
 * (where no sequence is pending). */
typedef struct generic_utf8_state {
    pct_vec v, p1, p2, e;
} generic_utf8_state;

/* The output bytes of d (a vector after st) that are ill-formed UTF-8 with
 * the bytes before them; st moves on to d. */
PCT_VEC_INLINE uint32_t generic_utf8_check(pct_vec v, pct_vec e, uint32_t output,
                                           generic_utf8_state *st, const pct_vec_tables *t)
{
    const pct_vec back3 = vec_prev(e, st->e, 3); /* an escape three bytes before */
    const pct_vec p1 = vec_blendv(vec_prev(v, st->v, 1), vec_prev(v, st->v, 3), back3);
    const pct_vec p2 = vec_blendv(vec_prev(p1, st->p1, 1), vec_prev(p1, st->p1, 3), back3);
    const pct_vec p3 = vec_blendv(vec_prev(p2, st->p2, 1), vec_prev(p2, st->p2, 3), back3);
    st->v = v;
    st->p1 = p1;
    st->p2 = p2;
    st->e = e;
    return ~vec_mask(vec_eq8(vec_utf8_errors(v, p1, p2, p3, t), vec_zero())) & output;
}

/* The state after the last (at most 3) bytes written from base, the output
 * seen as a vector with no escapes: v's last byte out[-1], p1's out[-2],
 * p2's out[-3]. */
PCT_VEC_INLINE generic_utf8_state generic_utf8_state_at(const uint8_t *out, const uint8_t *base)
{
    const size_t m = (size_t)(out - base) < 3 ? (size_t)(out - base) : 3;
    uint32_t x = 0;
    for (size_t k = 1; k <= m; k++)
        x |= (uint32_t)out[-(ptrdiff_t)k] << (32 - 8 * k);
    const generic_utf8_state st = {vec_set1_32(x), vec_set1_32(x << 8), vec_set1_32(x << 16),
                                   vec_zero()};
    return st;
}

#endif /* PCT_GENERIC_DECODE_VEC_H */
