/* avx2/encode.c - AVX2 percent-encoder (pct_encode, pct_encode_length). The
 * algorithms are those of sse42/encode.c (read it first), 32 bytes per block;
 * vpshufb and the unpacks work within 128-bit lanes, so each lane builds the
 * output of its 16 bytes and the lanes' outputs are stored one after the
 * other. */
#include <string.h>

#include "impl.h"
#include "scalar/hex.h"
#include "avx2/classify.h"
#include "sse42/encode_table.h"
#include "avx2/kernels.h"
#include "avx2/utf8.h"

static pct_avx_set escaped_set(const pct_set *set, unsigned flags)
{
    pct_set s = *set;
    if (flags & PCT_PLUS) /* ' ' becomes '+': not escaped */
        s.bits[' ' >> 3] &= (uint8_t) ~(1u << (' ' & 7));
    return pct_avx_set_load(&s);
}

static inline __m256i load(const uint8_t *p)
{
    return _mm256_loadu_si256((const __m256i *)p);
}

static size_t add_saturated(size_t a, size_t b)
{
    return a > SIZE_MAX - b ? SIZE_MAX : a + b;
}

static inline uint32_t in_set_mask(const uint8_t *p, const pct_avx_set *t)
{
    return (uint32_t)_mm256_movemask_epi8(pct_avx_in_set(load(p), t));
}

static __attribute__((noinline)) size_t encode_length_long(const uint8_t *src, size_t len,
                                                           const pct_set *set, unsigned flags)
{
    const pct_avx_set t = escaped_set(set, flags);
    size_t escaped = 0, i = 0;
    if (!(flags & PCT_KEEP_ESCAPES)) {
        for (; len - i >= 64; i += 64)
            escaped += (size_t)__builtin_popcountll(in_set_mask(src + i, &t) |
                                                    (uint64_t)in_set_mask(src + i + 32, &t) << 32);
        if (len - i >= 32) {
            escaped += (size_t)__builtin_popcount(in_set_mask(src + i, &t));
            i += 32;
        }
        if (i < len)
            escaped +=
                (size_t)__builtin_popcount(in_set_mask(src + len - 32, &t) >> (32 - (len - i)));
        return add_saturated(len, add_saturated(escaped, escaped));
    }
    uint64_t digits = 0;
    for (; len - i >= 32 + 2; i += 32) {
        const __m256i v0 = load(src + i), v1 = load(src + i + 1), v2 = load(src + i + 2);
        const uint64_t escapes = (uint32_t)_mm256_movemask_epi8(pct_avx_escapes(v0, v1, v2));
        const uint64_t kept = escapes | pct_escape_digits(escapes) | digits;
        const uint64_t in_set = (uint32_t)_mm256_movemask_epi8(pct_avx_in_set(v0, &t));
        escaped += (size_t)__builtin_popcountll(in_set & ~kept);
        digits = kept >> 32;
    }
    const size_t skip = (size_t)__builtin_popcountll(digits);
    i += skip;
    const size_t rest = pct_scalar_encode_length(src + i, len - i, set, flags);
    return add_saturated(add_saturated(i, add_saturated(escaped, escaped)), rest);
}

/* As in sse42/encode.c, SLACK input bytes after a block bound its stores
 * past its output: here up to 31 (a run's 32-byte store in encode_sparse),
 * which also reads up to 63 bytes from the block's start. */
#define SLACK 32
/* At most this many bytes to escape in 64: encode_sparse (measured: faster
 * than expand_mixed up to about 8). */
#define SPARSE 8

static inline __m256i hex_digits(__m256i nibbles)
{
    const __m256i digits = _mm256_setr_epi8('0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'A',
                                            'B', 'C', 'D', 'E', 'F', '0', '1', '2', '3', '4', '5',
                                            '6', '7', '8', '9', 'A', 'B', 'C', 'D', 'E', 'F');
    return _mm256_shuffle_epi8(digits, nibbles);
}

/* All 32 bytes escaped: expand_all of sse42/encode.c in each lane gives
 * o0 = [out0 of bytes 0-15 | out0 of bytes 16-31], o1 and o2 likewise; three
 * lane permutes put the six 16-byte pieces in order (96 bytes). */
#define Z -128
static inline void expand_all(uint8_t *out, __m256i hi, __m256i lo)
{
    const __m256i pairs_lo = _mm256_unpacklo_epi8(hi, lo), pairs_hi = _mm256_unpackhi_epi8(hi, lo);
    const __m256i pairs_mid = _mm256_alignr_epi8(pairs_hi, pairs_lo, 10);
    const __m256i s0 = _mm256_setr_epi8(Z, 0, 1, Z, 2, 3, Z, 4, 5, Z, 6, 7, Z, 8, 9, Z, /* */
                                        Z, 0, 1, Z, 2, 3, Z, 4, 5, Z, 6, 7, Z, 8, 9, Z);
    const __m256i s1 = _mm256_setr_epi8(0, 1, Z, 2, 3, Z, 4, 5, Z, 6, 7, Z, 8, 9, Z, 10, /* */
                                        0, 1, Z, 2, 3, Z, 4, 5, Z, 6, 7, Z, 8, 9, Z, 10);
    const __m256i s2 = _mm256_setr_epi8(5, Z, 6, 7, Z, 8, 9, Z, 10, 11, Z, 12, 13, Z, 14, 15, /* */
                                        5, Z, 6, 7, Z, 8, 9, Z, 10, 11, Z, 12, 13, Z, 14, 15);
    const __m256i p0 = _mm256_setr_epi8('%', 0, 0, '%', 0, 0, '%', 0, 0, '%', 0, 0, '%', 0, 0, '%',
                                        '%', 0, 0, '%', 0, 0, '%', 0, 0, '%', 0, 0, '%', 0, 0, '%');
    const __m256i p1 =
        _mm256_setr_epi8(0, 0, '%', 0, 0, '%', 0, 0, '%', 0, 0, '%', 0, 0, '%', 0, /* */
                         0, 0, '%', 0, 0, '%', 0, 0, '%', 0, 0, '%', 0, 0, '%', 0);
    const __m256i p2 =
        _mm256_setr_epi8(0, '%', 0, 0, '%', 0, 0, '%', 0, 0, '%', 0, 0, '%', 0, 0, /* */
                         0, '%', 0, 0, '%', 0, 0, '%', 0, 0, '%', 0, 0, '%', 0, 0);
    const __m256i o0 = _mm256_or_si256(_mm256_shuffle_epi8(pairs_lo, s0), p0);
    const __m256i o1 = _mm256_or_si256(_mm256_shuffle_epi8(pairs_mid, s1), p1);
    const __m256i o2 = _mm256_or_si256(_mm256_shuffle_epi8(pairs_hi, s2), p2);
    _mm256_storeu_si256((__m256i *)out, _mm256_permute2x128_si256(o0, o1, 0x20));
    _mm256_storeu_si256((__m256i *)(out + 32), _mm256_permute2x128_si256(o2, o0, 0x30));
    _mm256_storeu_si256((__m256i *)(out + 64), _mm256_permute2x128_si256(o1, o2, 0x31));
}
#undef Z

/* A mixed block (sse42/encode_table.h): the tokens of group g of both lanes
 * are compacted by one vpshufb whose lanes hold the shuffles for the mask
 * bits 4g..4g+3 (lane 0) and 16+4g..16+4g+3 (lane 1). */
static inline __m256i group_shuffles(unsigned mask_lane0, unsigned mask_lane1)
{
    const __m128i s0 = _mm_loadu_si128((const __m128i *)group_shuffle[mask_lane0]);
    const __m128i s1 = _mm_loadu_si128((const __m128i *)group_shuffle[mask_lane1]);
    return _mm256_inserti128_si256(_mm256_castsi128_si256(s0), s1, 1);
}

static inline uint8_t *store_group(uint8_t *out, __m128i bytes, unsigned mask4)
{
    _mm_storeu_si128((__m128i *)out, bytes);
    return out + 4 + 2 * __builtin_popcount(mask4);
}

static inline uint8_t *expand_mixed(uint8_t *out, __m256i v, __m256i hi, __m256i lo, uint32_t mask)
{
    const __m256i percent = _mm256_set1_epi8('%');
    const __m256i a_lo = _mm256_unpacklo_epi8(v, hi), a_hi = _mm256_unpackhi_epi8(v, hi);
    const __m256i b_lo = _mm256_unpacklo_epi8(lo, percent);
    const __m256i b_hi = _mm256_unpackhi_epi8(lo, percent);
    const __m256i tokens[4] = {_mm256_unpacklo_epi16(a_lo, b_lo), _mm256_unpackhi_epi16(a_lo, b_lo),
                               _mm256_unpacklo_epi16(a_hi, b_hi),
                               _mm256_unpackhi_epi16(a_hi, b_hi)};
    __m256i r[4];
    for (int g = 0; g < 4; g++)
        r[g] = _mm256_shuffle_epi8(
            tokens[g], group_shuffles((mask >> (4 * g)) & 15, (mask >> (16 + 4 * g)) & 15));
    for (int g = 0; g < 4; g++)
        out = store_group(out, _mm256_castsi256_si128(r[g]), (mask >> (4 * g)) & 15);
    for (int g = 0; g < 4; g++)
        out = store_group(out, _mm256_extracti128_si256(r[g], 1), (mask >> (16 + 4 * g)) & 15);
    return out;
}

static inline __m256i space_to_plus(__m256i v)
{
    return _mm256_add_epi8(v, _mm256_and_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(' ')),
                                               _mm256_set1_epi8('+' - ' ')));
}

/* Classifies the block at s (see sse42/encode.c: classify). */
static inline __attribute__((always_inline)) uint32_t classify(const uint8_t *s,
                                                               const pct_avx_set *t, int plus,
                                                               int keep_escapes, uint64_t *digits,
                                                               __m256i *block)
{
    __m256i v = load(s);
    uint32_t mask = (uint32_t)_mm256_movemask_epi8(pct_avx_in_set(v, t));
    if (keep_escapes) {
        const uint64_t escapes =
            (uint32_t)_mm256_movemask_epi8(pct_avx_escapes(v, load(s + 1), load(s + 2)));
        const uint64_t kept = escapes | pct_escape_digits(escapes) | *digits;
        mask &= ~(uint32_t)kept;
        *digits = kept >> 32;
    }
    if (plus)
        v = space_to_plus(v);
    *block = v;
    return mask;
}

static inline __m256i high_digits(__m256i v)
{
    return hex_digits(pct_avx_high_nibble(v));
}

static inline __m256i low_digits(__m256i v)
{
    return hex_digits(_mm256_and_si256(v, _mm256_set1_epi8(0x0F)));
}

static inline uint8_t *encode_block(uint8_t *out, __m256i v, uint32_t mask)
{
    if (mask == 0) {
        _mm256_storeu_si256((__m256i *)out, v);
        return out + 32;
    }
    if (mask == 0xFFFFFFFF) {
        expand_all(out, high_digits(v), low_digits(v));
        return out + 96;
    }
    return expand_mixed(out, v, high_digits(v), low_digits(v), mask);
}

/* A block with few bytes to escape (see sse42/encode_table.h): runs copied
 * from the input by overlapping 32-byte stores, escapes from the table. */
static inline uint8_t *encode_sparse(uint8_t *out, const uint8_t *s, uint32_t mask, int plus)
{
    size_t from = 0;
    for (; mask; mask &= mask - 1) {
        const size_t at = (size_t)__builtin_ctz(mask);
        __m256i run = load(s + from);
        if (plus)
            run = space_to_plus(run);
        _mm256_storeu_si256((__m256i *)out, run);
        out += at - from;
        memcpy(out, &percent_hex[s[at]], 4);
        out += 3;
        from = at + 1;
    }
    __m256i run = load(s + from);
    if (plus)
        run = space_to_plus(run);
    _mm256_storeu_si256((__m256i *)out, run);
    return out + 32 - from;
}

static inline int utf8_errors(__m256i v, __m256i prev)
{
    const __m256i errors = pct_avx_utf8_errors(v, prev);
    return !_mm256_testz_si256(errors, errors);
}

/* The block loop (see sse42/encode.c: encode), 64 bytes = two blocks at a
 * time where possible. */
static inline __attribute__((always_inline)) pct_result encode(const uint8_t *src, size_t len,
                                                               uint8_t *dst, const pct_set *set,
                                                               unsigned flags, size_t *consumed,
                                                               int plus, int keep_escapes, int utf8)
{
    const pct_avx_set t = escaped_set(set, flags);
    size_t i = 0;
    uint8_t *out = dst;
    uint64_t digits = 0;
    __m256i prev = _mm256_setzero_si256();
    for (; len - i >= 2 * 32 + SLACK; i += 2 * 32) {
        __m256i a, b;
        const uint64_t digits_on_entry = digits;
        const uint32_t ma = classify(src + i, &t, plus, keep_escapes, &digits, &a);
        const uint64_t digits_after_a = digits;
        const uint32_t mb = classify(src + i + 32, &t, plus, keep_escapes, &digits, &b);
        if (utf8) {
            const __m256i before = prev;
            prev = b;
            if (_mm256_movemask_epi8(_mm256_or_si256(before, _mm256_or_si256(a, b)))) {
                if (utf8_errors(a, before)) {
                    digits = digits_on_entry;
                    goto hand_over;
                }
                if (utf8_errors(b, a)) {
                    out = encode_block(out, a, ma);
                    i += 32;
                    digits = digits_after_a;
                    goto hand_over;
                }
            }
        }
        if ((ma | mb) == 0) {
            _mm256_storeu_si256((__m256i *)out, a);
            _mm256_storeu_si256((__m256i *)(out + 32), b);
            out += 64;
        } else if ((ma & mb) == 0xFFFFFFFF) {
            expand_all(out, high_digits(a), low_digits(a));
            expand_all(out + 96, high_digits(b), low_digits(b));
            out += 192;
        } else if (__builtin_popcount(ma) + __builtin_popcount(mb) <= SPARSE) {
            out = encode_sparse(out, src + i, ma, plus);
            out = encode_sparse(out, src + i + 32, mb, plus);
        } else {
            out = expand_mixed(out, a, high_digits(a), low_digits(a), ma);
            out = expand_mixed(out, b, high_digits(b), low_digits(b), mb);
        }
    }
    for (; len - i >= 32 + SLACK; i += 32) {
        __m256i v;
        const uint64_t digits_on_entry = digits;
        const uint32_t mask = classify(src + i, &t, plus, keep_escapes, &digits, &v);
        if (utf8) {
            const __m256i before = prev;
            prev = v;
            if (utf8_errors(v, before)) {
                digits = digits_on_entry;
                break;
            }
        }
        out = encode_block(out, v, mask);
    }
hand_over:
    /* Hand over on a token and sequence boundary (see sse42/encode.c). */
    if (digits) {
        const size_t back = digits == 1 ? 2 : 1;
        i -= back;
        out -= back;
    } else if (utf8) {
        for (size_t back = pct_utf8_unfinished(src, i); back > 0; back--) {
            i--;
            out -= pct_in_set(set, src[i]) ? 3 : 1;
        }
    }
    const size_t o = (size_t)(out - dst);
    pct_result r = pct_scalar_encode(src + i, len - i, out, set, flags, consumed);
    r.count += r.status == PCT_OK ? o : i;
    if (consumed && r.status == PCT_OK)
        *consumed += i;
    return r;
}

static __attribute__((noinline)) pct_result encode_long(const uint8_t *src, size_t len,
                                                        uint8_t *dst, const pct_set *set,
                                                        unsigned flags, size_t *consumed)
{
    const int plus = (flags & PCT_PLUS) && pct_in_set(set, ' ');
    const int keep_escapes = (flags & PCT_KEEP_ESCAPES) != 0;
    if (flags & PCT_UTF8) {
        if (keep_escapes)
            return encode(src, len, dst, set, flags, consumed, plus, 1, 1);
        return plus ? encode(src, len, dst, set, flags, consumed, 1, 0, 1)
                    : encode(src, len, dst, set, flags, consumed, 0, 0, 1);
    }
    if (keep_escapes)
        return plus ? encode(src, len, dst, set, flags, consumed, 1, 1, 0)
                    : encode(src, len, dst, set, flags, consumed, 0, 1, 0);
    return plus ? encode(src, len, dst, set, flags, consumed, 1, 0, 0)
                : encode(src, len, dst, set, flags, consumed, 0, 0, 0);
}

/* The short-input check is on its own ahead of the kernel, so that a short
 * call reaches the scalar routine without the kernel's prologue (register
 * saves and the realignment of the stack for its vectors). */
pct_result pct_avx2_encode(const uint8_t *src, size_t len, uint8_t *dst, const pct_set *set,
                           unsigned flags, size_t *consumed)
{
    if (len < 32 + SLACK)
        return pct_scalar_encode(src, len, dst, set, flags, consumed);
    return encode_long(src, len, dst, set, flags, consumed);
}

/* Likewise. */
size_t pct_avx2_encode_length(const uint8_t *src, size_t len, const pct_set *set, unsigned flags)
{
    if (len < 32 + 2)
        return pct_scalar_encode_length(src, len, set, flags);
    return encode_length_long(src, len, set, flags);
}
