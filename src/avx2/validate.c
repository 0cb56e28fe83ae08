/* avx2/validate.c - AVX2 validator (pct_validate): sse42/validate.c with
 * 32-byte blocks (read it first). */
#include "impl.h"
#include "scalar/hex.h"
#include "avx2/classify.h"
#include "avx2/vec.h"
#include "avx2/kernels.h"
#include "sse42/dense.h"
#include "avx2/utf8.h"

#define W 32
#define AHEAD 2
#define DENSE 16 /* at least this many '%' in 64 bytes: try sse42/dense.h */

static inline __m256i load(const uint8_t *p)
{
    return _mm256_loadu_si256((const __m256i *)p);
}

static inline __attribute__((always_inline)) int
validate_block(const uint8_t *s, size_t *count, uint32_t *carry, const pct_avx_set *t,
               unsigned flags, int percent_in_set, uint8_t **out, uint32_t *output_mask)
{
    const __m256i v0 = load(s), v1 = load(s + 1), v2 = load(s + 2);
    const uint32_t percents =
        (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v0, _mm256_set1_epi8('%')));
    const __m256i escapes = pct_avx_escapes(v0, v1, v2);
    const uint32_t e = (uint32_t)_mm256_movemask_epi8(escapes);
    const uint64_t digits = pct_escape_digits(e);
    const uint32_t not_bytes = (uint32_t)digits | *carry;
    uint32_t unescaped =
        (uint32_t)_mm256_movemask_epi8(pct_avx_in_set(v0, t)) & ~percents & ~not_bytes;
    if (flags & PCT_PLUS)
        unescaped &= ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v0, _mm256_set1_epi8('+')));
    if (unescaped)
        return 1;
    const uint32_t stray = percents & ~e;
    if (stray && ((flags & PCT_STRICT) || percent_in_set))
        return 1;
    if (stray && (flags & PCT_PERCENT_U) &&
        (stray & (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v1, _mm256_set1_epi8('u')))))
        return 1;
    if (flags & PCT_UTF8) {
        const __m256i d = _mm256_blendv_epi8(v0, pct_avx_hex_pair(v1, v2), escapes);
        *out = vec_compact_store(*out, d, ~not_bytes);
        *output_mask = ~not_bytes;
    }
    *count += W - (size_t)__builtin_popcount(not_bytes);
    *carry = (uint32_t)(digits >> W);
    return 0;
}

static __attribute__((noinline)) pct_result validate_long(const uint8_t *src, size_t len,
                                                          const pct_set *set, unsigned flags)
{
    const pct_avx_set t = pct_avx_set_load(set);
    const int percent_in_set = pct_in_set(set, '%');
    pct_set s = *set;
    s.bits['%' >> 3] |= (uint8_t)(1u << ('%' & 7));
    if (flags & PCT_PLUS)
        s.bits['+' >> 3] &= (uint8_t) ~(1u << ('+' & 7));
    const pct_avx_set special = pct_avx_set_load(&s);
    size_t i = 0, count = 0;
    uint32_t carry = 0;
    uint8_t unit[4 * W];
    while (len - i >= W + AHEAD) {
        int blocks = 1;
        if (len - i >= 2 * W + AHEAD) {
            const __m256i a = load(src + i), b = load(src + i + W);
            __m256i any = _mm256_or_si256(pct_avx_in_set(a, &special), pct_avx_in_set(b, &special));
            if (flags & PCT_UTF8)
                any = _mm256_or_si256(any, _mm256_or_si256(a, b));
            if (carry == 0 && _mm256_movemask_epi8(any) == 0) {
                i += 2 * W;
                count += 2 * W;
                continue;
            }
            const __m256i percent = _mm256_set1_epi8('%');
            const uint64_t percents =
                (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, percent)) |
                (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(b, percent)) << W;
            if (__builtin_popcountll(percents) >= DENSE) {
                /* Escapes only (sse42/dense.h): nothing to check but their
                 * bytes' UTF-8 (sse42/validate.c). */
                const size_t j = i + (size_t)__builtin_popcount(carry);
                size_t n = 0, held = 0;
                while (n < 2 * W && len - j >= 3 * n + 48 &&
                       pct_sse_decode_dense(src + j + 3 * n, unit + n, NULL))
                    n += 16;
                if (n) {
                    i = j;
                    carry = 0;
                    if ((flags & PCT_UTF8) && !pct_avx_utf8_unit_valid(unit, n, &held))
                        break;
                    count += n - held;
                    i += 3 * (n - held);
                    continue;
                }
            }
            blocks = 2;
        } else if (flags & PCT_UTF8) {
            break;
        }
        if (flags & PCT_UTF8) {
            uint8_t *u = unit;
            uint32_t c = carry, output_a, output_b;
            size_t unused = 0;
            if (validate_block(src + i, &unused, &c, &t, flags, percent_in_set, &u, &output_a) ||
                validate_block(src + i + W, &unused, &c, &t, flags, percent_in_set, &u, &output_b))
                break;
            const size_t n = (size_t)(u - unit);
            size_t held;
            if (!pct_avx_utf8_unit_valid(unit, n, &held))
                break;
            count += n - held;
            if (held) {
                i += pct_kth_highest_bit(output_a | (uint64_t)output_b << W, held);
                carry = 0;
            } else {
                i += 2 * W;
                carry = c;
            }
            continue;
        }
        int k = 0;
        for (; k < blocks; k++) {
            if (validate_block(src + i, &count, &carry, &t, flags, percent_in_set, NULL, NULL))
                break;
            i += W;
        }
        if (k < blocks)
            break;
    }
    i += (size_t)__builtin_popcount(carry);
    pct_result r = pct_scalar_validate(src + i, len - i, set, flags);
    r.count += r.status == PCT_OK ? count : i;
    return r;
}

/* The short-input check is on its own ahead of the kernel, so that a short
 * call reaches the scalar routine without the kernel's prologue (register
 * saves and the realignment of the stack for its vectors). */
pct_result pct_avx2_validate(const uint8_t *src, size_t len, const pct_set *set, unsigned flags)
{
    if (len < W + AHEAD)
        return pct_scalar_validate(src, len, set, flags);
    return validate_long(src, len, set, flags);
}
