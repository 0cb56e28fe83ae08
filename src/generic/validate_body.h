/* generic/validate_body.h - the validators of the generic family
 * (SSE4.2, AVX2, NEON), over the ISA's vec.h (included first): avx512/validate_body.h's
 * algorithm. The blocks of generic/decode_body.h are counted instead of stored,
 * and checked for bytes of the set that are not escaped; with PCT_UTF8 their
 * output is checked as UTF-8 in registers (generic/decode_vec.h). At the first
 * block with anything to report (or a %u escape), the scalar routine
 * validates the rest, so the error and its offset are the scalar ones. The
 * last bytes (fewer than 66) are read from a zero-padded copy.
 */
#include "impl.h"
#include "simd_shared/handover.h"
#include "scalar/hex.h"
#include "scalar/utf8.h"
#include "generic/vec_ops.h"
#include "generic/decode_vec.h"

/* The output byte of the token at src[q] (an escape's byte at its '%'). */
static inline uint8_t generic_token_byte(const uint8_t *src, size_t len, size_t q)
{
    const int v = pct_escape_value(src, len, q);
    return v >= 0 ? (uint8_t)v : src[q];
}

/* How many of the last output bytes of the blocks in p (at most 3) form an
 * unfinished UTF-8 sequence. */
static inline size_t generic_output_unfinished(const uint8_t *src, size_t len,
                                               const pct_decode_point *p)
{
    uint8_t last[3];
    size_t n = 0;
    for (int b = 0; b < 2 && n < 3; b++) {
        for (uint64_t keep = p->blocks[b].keep; keep && n < 3; n++) {
            const int top = 63 - __builtin_clzll(keep);
            keep &= ~(1ull << top);
            last[2 - n] = generic_token_byte(src, len, p->blocks[b].at + (size_t)top);
        }
    }
    return pct_utf8_unfinished(last + 3 - n, n);
}

PCT_VEC_INLINE pct_result generic_validate_body(const uint8_t *src, size_t len, const pct_set *set,
                                                unsigned flags)
{
    const int check = (flags & PCT_UTF8) != 0;
    const pct_vec_tables tables = vec_tables_load();
    const pct_vec_set in_set = vec_set_load(set);
    /* A '%' that starts no escape is an error when '%' itself must be escaped. */
    const int stray_is_error = (flags & PCT_STRICT) || pct_in_set(set, '%');
    pct_decode_point p = {0, NULL, {0, 0, 0}, 0, {{0, 0, 0}, {0, 0, 0}}};
    generic_utf8_state utf8 = {vec_zero(), vec_zero(), vec_zero(), vec_zero()};
    uint8_t pad[64 + 2 * PCT_VEC_W];
    uint64_t carry = 0;
    size_t i = 0, count = 0;
    while (i < len) {
        const size_t left = len - i;
        const uint8_t *s = src + i;
        if (left < 64 + 2) {
            generic_pad_copy(pad, sizeof pad, s, left);
            s = pad;
        }
        if (left >= 64 + 2 && carry == 0 &&
            (generic_percents(s) & PCT_GENERIC_DENSE_PERCENTS) == PCT_GENERIC_DENSE_PERCENTS) {
            /* A run of escapes (generic/vec_ops.h: vec_decode_dense): nothing to
             * check but its bytes' UTF-8. It follows the last block's last
             * output byte, so the UTF-8 state goes on. */
            size_t j = i;
            pct_vec bytes;
            while (len - j >= 3 * PCT_VEC_W && vec_decode_dense(src + j, &bytes, NULL, &tables)) {
                if (check) {
                    generic_utf8_state next = utf8;
                    if (generic_utf8_check(bytes, vec_zero(), (uint32_t)vec_low_bits(PCT_VEC_W),
                                           &next, &tables))
                        break; /* the block loop finds it and hands over */
                    utf8 = next;
                }
                j += 3 * PCT_VEC_W;
                count += PCT_VEC_W;
            }
            if (j != i) {
                if (check) /* the last 16 escapes, for pct_decode_held_start */
                    pct_decode_point_block(&p, j - 48, PCT_GENERIC_DENSE_PERCENTS, 16);
                i = j;
                continue;
            }
        }
        const uint64_t valid = vec_low_bits(left);
        uint64_t percents = 0, escapes = 0, unescaped = 0, u = 0;
        for (int k = 0; k < PCT_VECS; k++) {
            const uint8_t *q = s + k * PCT_VEC_W;
            const pct_vec v0 = vec_load(q), v1 = vec_load(q + 1);
            const pct_vec percent = vec_eq8(v0, vec_set1('%'));
            pct_vec in = vec_in_set(v0, &in_set, &tables);
            if (flags & PCT_PLUS)
                in = vec_andnot(vec_eq8(v0, vec_set1('+')), in);
            percents |= vec_block_bits(vec_mask(percent), k);
            escapes |= vec_block_bits(
                vec_mask(vec_andnot(vec_not_hex2(v1, vec_load(q + 2), &tables), percent)), k);
            unescaped |= vec_block_bits(vec_mask(in), k);
            if (flags & PCT_PERCENT_U)
                u |= vec_block_bits(vec_mask(vec_eq8(v1, vec_set1('u'))), k);
        }
        const uint64_t stray = percents & ~escapes & valid;
        if (stray && (stray_is_error || (stray & u)))
            break;
        const uint64_t digits = generic_digits_of(escapes) | carry;
        if (unescaped & ~(percents | digits) & valid)
            break;
        const uint64_t output = ~digits & valid;
        const size_t n = (size_t)__builtin_popcountll(output);
        if (check) {
            uint32_t c = (uint32_t)carry, errors = 0;
            for (int k = 0; k < PCT_VECS; k++) {
                const generic_decoded d = generic_decode_vec(
                    s + k * PCT_VEC_W, &c, (uint32_t)(valid >> (k * PCT_VEC_W)), NULL, 0, &tables);
                errors |= generic_utf8_check(d.v, d.e, d.output, &utf8, &tables);
            }
            if (errors)
                break;
            if (n)
                pct_decode_point_block(&p, i, output, n);
        }
        count += n;
        carry = generic_digits_carried(escapes);
        i += 64;
    }
    const size_t at = i < len ? i + (size_t)__builtin_popcountll(carry) : len;
    if (check) /* the output may end in an unfinished sequence */
        p.held_len = generic_output_unfinished(src, len, &p);
    return pct_validate_handover(src, len, at, count, &p, set, flags);
}

/* pct_validate_utf8: the UTF-8 check of the encoder, on the input itself. At
 * the first block with an error, or input that ends inside a sequence, the
 * scalar routine checks the rest from where the sequence starts, for the
 * scalar offset. */
PCT_VEC_INLINE pct_result generic_validate_utf8_body(const uint8_t *src, size_t len)
{
    const pct_vec_tables tables = vec_tables_load();
    uint8_t pad[64];
    pct_vec before = vec_zero();
    size_t i = 0;
    while (i < len) {
        const size_t left = len - i;
        const uint8_t *s = src + i;
        if (left < 64) {
            generic_pad_copy(pad, sizeof pad, s, left);
            s = pad;
        }
        uint64_t errors = 0;
        for (int k = 0; k < PCT_VECS; k++) {
            const pct_vec v = vec_load(s + k * PCT_VEC_W);
            const pct_vec e = vec_utf8_errors(v, vec_prev(v, before, 1), vec_prev(v, before, 2),
                                              vec_prev(v, before, 3), &tables);
            errors |= vec_block_bits(~vec_mask(vec_eq8(e, vec_zero())), k);
            before = v;
        }
        if (errors & vec_low_bits(left))
            break;
        i += left < 64 ? left : 64;
    }
    const size_t at = i - pct_utf8_unfinished(src, i);
    if (at == len)
        return (pct_result){PCT_OK, len};
    pct_result r = pct_scalar_validate_utf8(src + at, len - at);
    r.count += at;
    return r;
}

/* Below these lengths the scalar routines are faster than the kernels'
 * zero-padded last block (measured on 24- to 96-byte paths; the scalar UTF-8
 * check takes ASCII a word at a time). */
#define PCT_GENERIC_VALIDATE_SHORT 32
#define PCT_GENERIC_VALIDATE_UTF8_SHORT 64

/* Defines pct_<isa>_validate and pct_<isa>_validate_utf8. */
#define PCT_GENERIC_DEFINE_VALIDATE(isa)                                                           \
    pct_result pct_##isa##_validate(const uint8_t *src, size_t len, const pct_set *set,            \
                                    unsigned flags)                                                \
    {                                                                                              \
        if (len < PCT_GENERIC_VALIDATE_SHORT)                                                      \
            return pct_scalar_validate(src, len, set, flags);                                      \
        return generic_validate_body(src, len, set, flags);                                        \
    }                                                                                              \
    pct_result pct_##isa##_validate_utf8(const uint8_t *src, size_t len)                           \
    {                                                                                              \
        if (len < PCT_GENERIC_VALIDATE_UTF8_SHORT)                                                 \
            return pct_scalar_validate_utf8(src, len);                                             \
        return generic_validate_utf8_body(src, len);                                               \
    }
