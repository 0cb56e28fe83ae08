/* avx2/decode.c - AVX2 percent-decoder (pct_decode, pct_decode_except). The
 * algorithm, the in-place argument, the scalar windows and the UTF-8 check
 * are those of sse42/decode.c (read it first), with 32-byte blocks: the
 * compaction works on four 8-byte groups, two per 128-bit lane. */
#include <string.h>

#include "impl.h"
#include "scalar/hex.h"
#include "avx2/classify.h"
#include "avx2/compact.h"
#include "sse42/dense.h"
#include "avx2/kernels.h"
#include "avx2/utf8.h"

#define W 32
#define AHEAD 2
#define MAX_WINDOW (16 * W)
#define SPARSE 8 /* at most this many '%' in 64 bytes: decode_sparse */
/* The '%' of 16 escapes in a row from bit 0 (0, 3, ..., 45): the 64-byte mask
 * shows whether a dense chunk (sse42/dense.h) can start after the carried
 * digits, without trying one. */
#define DENSE_PERCENTS 0x249249249249ull

static inline __m256i load(const uint8_t *p)
{
    return _mm256_loadu_si256((const __m256i *)p);
}

static inline __m256i plus_to_space(__m256i v)
{
    return _mm256_sub_epi8(v, _mm256_and_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('+')),
                                               _mm256_set1_epi8('+' - ' ')));
}

/* Decodes the block at s into *out (sse42/decode.c: decode_block). */
static inline __attribute__((always_inline)) int
decode_block(const uint8_t *s, uint8_t **out, uint32_t *carry, const pct_avx_set *kept_bytes,
             int keep, unsigned flags, uint32_t *output_mask)
{
    __m256i v0 = load(s);
    const __m256i v1 = load(s + 1), v2 = load(s + 2);
    const uint32_t percents =
        (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v0, _mm256_set1_epi8('%')));
    if (flags & PCT_PLUS)
        v0 = plus_to_space(v0);
    __m256i escapes = pct_avx_escapes(v0, v1, v2);
    const uint32_t stray = percents & ~(uint32_t)_mm256_movemask_epi8(escapes);
    if (stray && (flags & PCT_STRICT))
        return 1;
    if (stray && (flags & PCT_PERCENT_U) &&
        (stray & (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v1, _mm256_set1_epi8('u')))))
        return 1;
    const __m256i bytes = pct_avx_hex_pair(v1, v2);
    if (keep)
        escapes = _mm256_andnot_si256(pct_avx_in_set(bytes, kept_bytes), escapes);
    const __m256i d = _mm256_blendv_epi8(v0, bytes, escapes);
    if ((flags & (PCT_UTF8 | PCT_UTF8_REPLACE)) && _mm256_movemask_epi8(d))
        return 1;
    const uint64_t digits = pct_escape_digits((uint32_t)_mm256_movemask_epi8(escapes));
    const uint32_t kept = ~((uint32_t)digits | *carry);
    *out = pct_avx_compact_store(*out, d, kept);
    *carry = (uint32_t)(digits >> W);
    if (output_mask)
        *output_mask = kept;
    return 0;
}

/* Two blocks (the 64 bytes at s, with `percents` their '%') in which every
 * '%' starts an escape, as in URL-encoded text: then the escapes are the
 * '%' themselves, and only one byte of each pair of positions needs the hex
 * test: the digits of the escape at t are bytes t + 1 and t + 2, which are
 * bits t and t + 1 of the mask of hex digits among bytes 1..65 (`hex`). This
 * saves decode_block one of its two hex classifications and the movemask of
 * the escapes. Returns 1, with nothing written, if some '%' starts no escape
 * (decode_block decides those). Reads s[0..66). */
static inline __attribute__((always_inline)) int decode_pair(const uint8_t *s, uint8_t **out,
                                                             uint32_t *carry, uint64_t percents,
                                                             const pct_avx_set *kept_bytes,
                                                             int keep, unsigned flags)
{
    const __m256i a1 = load(s + 1), b1 = load(s + W + 1);
    const uint64_t hex = ~(pct_avx_not_hex_mask(a1) | (uint64_t)pct_avx_not_hex_mask(b1) << W);
    const uint64_t hex2 = (hex >> 1) | (uint64_t)((pct_hex_nibble[s[2 * W + 1]] >> 7) ^ 1) << 63;
    if ((percents & hex & hex2) != percents)
        return 1;
    uint8_t *o = *out;
    uint32_t c = *carry;
    for (int k = 0; k < 2; k++) {
        __m256i v0 = load(s + k * W);
        const __m256i v1 = k ? b1 : a1, v2 = load(s + k * W + 2);
        __m256i escapes = _mm256_cmpeq_epi8(v0, _mm256_set1_epi8('%'));
        if (flags & PCT_PLUS)
            v0 = plus_to_space(v0);
        const __m256i bytes = pct_avx_hex_pair(v1, v2);
        uint32_t escape_mask = (uint32_t)(percents >> (k * W));
        if (keep) {
            escapes = _mm256_andnot_si256(pct_avx_in_set(bytes, kept_bytes), escapes);
            escape_mask = (uint32_t)_mm256_movemask_epi8(escapes);
        }
        const __m256i d = _mm256_blendv_epi8(v0, bytes, escapes);
        const uint64_t digits = pct_escape_digits(escape_mask);
        o = pct_avx_compact_store(o, d, ~((uint32_t)digits | c));
        c = (uint32_t)(digits >> W);
    }
    *out = o;
    *carry = c;
    return 0;
}

/* A window of the scalar decoder (sse42/decode.c: scalar_window). */
static int scalar_window(const uint8_t *src, size_t len, size_t *i, uint8_t **out,
                         const pct_set *keep, unsigned flags, size_t *window, pct_result *r)
{
    uint8_t buffer[3 * MAX_WINDOW];
    const size_t n = *window < len - *i ? *window : len - *i;
    size_t used;
    *r = pct_scalar_decode(src + *i, n, buffer, keep, flags, &used);
    if (r->status != PCT_OK) {
        r->count += *i;
        return 1;
    }
    memcpy(*out, buffer, r->count);
    *i += used;
    *out += r->count;
    if (*window < MAX_WINDOW)
        *window *= 2;
    return 0;
}

static pct_result finish(const uint8_t *src, size_t len, size_t i, uint8_t *dst, uint8_t *out,
                         const pct_set *keep, unsigned flags, size_t *consumed)
{
    const size_t o = (size_t)(out - dst);
    pct_result r = pct_scalar_decode(src + i, len - i, out, keep, flags, consumed);
    r.count += r.status == PCT_OK ? o : i;
    if (consumed && r.status == PCT_OK)
        *consumed += i;
    return r;
}

/* 64 bytes (two blocks) with no '%', nothing carried in (and, checked, only
 * ASCII): stored as they are. Returns 0 if that does not apply, with the
 * positions of the '%' in *percents. */
static inline __attribute__((always_inline)) int copy_clean(const uint8_t *s, uint8_t **out,
                                                            uint32_t carry, unsigned flags,
                                                            int ascii_only, uint64_t *percents)
{
    __m256i a = load(s), b = load(s + W);
    const __m256i percent = _mm256_set1_epi8('%');
    *percents = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, percent)) |
                (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(b, percent)) << W;
    if (carry != 0 || *percents != 0 ||
        (ascii_only && _mm256_movemask_epi8(_mm256_or_si256(a, b)) != 0))
        return 0;
    if (flags & PCT_PLUS) {
        a = plus_to_space(a);
        b = plus_to_space(b);
    }
    _mm256_storeu_si256((__m256i *)*out, a);
    _mm256_storeu_si256((__m256i *)(*out + W), b);
    *out += 2 * W;
    return 1;
}

/* A block with few '%' (sse42/decode.c: decode_sparse), 32-byte runs: they
 * write up to 31 bytes past the block's output and read up to 63 bytes from
 * its start (hence the 3 * W the caller asks for). */
static inline __attribute__((always_inline)) int decode_sparse(const uint8_t *s, uint8_t **out,
                                                               uint32_t *carry, uint32_t percents,
                                                               const pct_set *keep, unsigned flags)
{
    uint8_t *o = *out;
    size_t from = (size_t)__builtin_popcount(*carry);
    for (; percents; percents &= percents - 1) {
        const size_t at = (size_t)__builtin_ctz(percents);
        const unsigned hi = pct_hex_nibble[s[at + 1]], lo = pct_hex_nibble[s[at + 2]];
        if ((hi | lo) & 0x80) {
            if ((flags & PCT_STRICT) || ((flags & PCT_PERCENT_U) && s[at + 1] == 'u'))
                return 1;
            continue;
        }
        const uint8_t byte = (uint8_t)(hi << 4 | lo);
        if (keep && pct_in_set(keep, byte))
            continue;
        const __m256i run = load(s + from);
        _mm256_storeu_si256((__m256i *)o, (flags & PCT_PLUS) ? plus_to_space(run) : run);
        o += at - from;
        *o++ = byte;
        from = at + 3;
    }
    if (from < W) {
        const __m256i run = load(s + from);
        _mm256_storeu_si256((__m256i *)o, (flags & PCT_PLUS) ? plus_to_space(run) : run);
        o += W - from;
    }
    *carry = from <= W ? 0 : from == W + 1 ? 1 : 3;
    *out = o;
    return 0;
}

/* Two chunks of sse42/dense.h at once: 96 bytes that are 32 escapes, as 32
 * bytes stored at out. Each 128-bit lane holds one 48-byte chunk (lane 0 the
 * first, lane 1 the second), so the in-lane shuffles of sse42/dense.h apply
 * unchanged. Returns 0 (nothing written) unless all 32 escapes are there and
 * (with a keep set) none of them is kept. All loads come before the store:
 * in place works. */
static inline int decode_dense2(const uint8_t *s, uint8_t *out, const pct_avx_set *kept_bytes)
{
#define Z -128
#define LANES(...) _mm256_setr_epi8(__VA_ARGS__, __VA_ARGS__)
    const __m256i a =
        _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)s)),
                                _mm_loadu_si128((const __m128i *)(s + 48)), 1);
    const __m256i b =
        _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(s + 16))),
                                _mm_loadu_si128((const __m128i *)(s + 64)), 1);
    const __m256i c =
        _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(s + 32))),
                                _mm_loadu_si128((const __m128i *)(s + 80)), 1);
    const __m256i percent = _mm256_set1_epi8('%');
    /* the '%' positions of sse42/dense.h, in both lanes */
    const uint32_t pa = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, percent));
    const uint32_t pb = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(b, percent));
    const uint32_t pc = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(c, percent));
    if ((pa & 0x92499249u) != 0x92499249u || (pb & 0x49244924u) != 0x49244924u ||
        (pc & 0x24922492u) != 0x24922492u)
        return 0;
    const __m256i high = _mm256_or_si256(
        _mm256_or_si256(
            _mm256_shuffle_epi8(a, LANES(1, 4, 7, 10, 13, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z)),
            _mm256_shuffle_epi8(b, LANES(Z, Z, Z, Z, Z, 0, 3, 6, 9, 12, 15, Z, Z, Z, Z, Z))),
        _mm256_shuffle_epi8(c, LANES(Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, 2, 5, 8, 11, 14)));
    const __m256i low = _mm256_or_si256(
        _mm256_or_si256(
            _mm256_shuffle_epi8(a, LANES(2, 5, 8, 11, 14, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z)),
            _mm256_shuffle_epi8(b, LANES(Z, Z, Z, Z, Z, 1, 4, 7, 10, 13, Z, Z, Z, Z, Z, Z))),
        _mm256_shuffle_epi8(c, LANES(Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, 0, 3, 6, 9, 12, 15)));
#undef LANES
#undef Z
    const __m256i zero = _mm256_setzero_si256();
    if (_mm256_movemask_epi8(_mm256_or_si256(_mm256_cmpeq_epi8(pct_avx_hex_class(high), zero),
                                             _mm256_cmpeq_epi8(pct_avx_hex_class(low), zero))))
        return 0;
    const __m256i bytes = pct_avx_hex_pair(high, low);
    if (kept_bytes && _mm256_movemask_epi8(pct_avx_in_set(bytes, kept_bytes)) != 0)
        return 0;
    _mm256_storeu_si256((__m256i *)out, bytes);
    return 1;
}

/* A run of 48-byte chunks of escapes only (sse42/dense.h; two at a time by
 * decode_dense2) from src + *i, a token boundary. Returns 0 if the first
 * chunk is not one. */
static inline int decode_dense(const uint8_t *src, size_t len, size_t *i, uint8_t **out,
                               const pct_sse_set *kept_bytes, const pct_avx_set *kept_bytes32)
{
    size_t j = *i;
    uint8_t *o = *out;
    while (len - j >= 96 && decode_dense2(src + j, o, kept_bytes32)) {
        j += 96;
        o += 32;
    }
    while (len - j >= 48 && pct_sse_decode_dense(src + j, o, kept_bytes)) {
        j += 48;
        o += 16;
    }
    if (j == *i)
        return 0;
    *i = j;
    *out = o;
    return 1;
}

static inline __attribute__((always_inline)) pct_result decode(const uint8_t *src, size_t len,
                                                               uint8_t *dst, const pct_set *keep,
                                                               unsigned flags, size_t *consumed)
{
    pct_avx_set kept_bytes = {_mm256_setzero_si256(), _mm256_setzero_si256()};
    if (keep)
        kept_bytes = pct_avx_set_load(keep);
    const pct_sse_set kept_bytes16 = {_mm256_castsi256_si128(kept_bytes.low),
                                      _mm256_castsi256_si128(kept_bytes.high)};
    /* decode_sparse's runs write ahead of the output: not in place. */
    const int sparse = pct_disjoint(src, dst, len);
    size_t i = 0, window = W;
    uint8_t *out = dst;
    uint32_t carry = 0;
    pct_result r;
    while (len - i >= W + AHEAD) {
        if (len - i >= 2 * W + AHEAD) {
            uint64_t percents;
            if (copy_clean(src + i, &out, carry, flags, 0, &percents)) {
                i += 2 * W;
                continue;
            }
            if (((percents >> __builtin_popcount(carry)) & DENSE_PERCENTS) == DENSE_PERCENTS) {
                size_t j = i + (size_t)__builtin_popcount(carry);
                if (decode_dense(src, len, &j, &out, keep ? &kept_bytes16 : NULL,
                                 keep ? &kept_bytes : NULL)) {
                    i = j;
                    carry = 0;
                    window = W;
                    continue;
                }
            }
            if (sparse && (size_t)__builtin_popcountll(percents) <= SPARSE && len - i >= 3 * W) {
                if (decode_sparse(src + i, &out, &carry, (uint32_t)percents, keep, flags) == 0) {
                    i += W;
                    if (decode_sparse(src + i, &out, &carry, (uint32_t)(percents >> W), keep,
                                      flags) == 0) {
                        i += W;
                        window = W;
                        continue;
                    }
                }
            } else if (decode_pair(src + i, &out, &carry, percents, &kept_bytes, keep != NULL,
                                   flags) == 0) {
                i += 2 * W;
                window = W;
                continue;
            } else if (decode_block(src + i, &out, &carry, &kept_bytes, keep != NULL, flags,
                                    NULL) == 0) {
                i += W;
                if (decode_block(src + i, &out, &carry, &kept_bytes, keep != NULL, flags, NULL) ==
                    0) {
                    i += W;
                    window = W;
                    continue;
                }
            }
        } else if (decode_block(src + i, &out, &carry, &kept_bytes, keep != NULL, flags, NULL) ==
                   0) {
            i += W;
            continue;
        }
        i += (size_t)__builtin_popcount(carry);
        carry = 0;
        if (scalar_window(src, len, &i, &out, keep, flags, &window, &r))
            return r;
    }
    i += (size_t)__builtin_popcount(carry);
    return finish(src, len, i, dst, out, keep, flags, consumed);
}

/* Stores the first `count` bytes of unit at *out: all 64 when `whole` (the
 * caller knows that writing them overwrites no input still to be read). */
static inline void commit(uint8_t **out, const uint8_t *unit, size_t count, int whole)
{
    if (whole) {
        _mm256_storeu_si256((__m256i *)*out, load(unit));
        _mm256_storeu_si256((__m256i *)(*out + W), load(unit + W));
    } else {
        memcpy(*out, unit, count);
    }
    *out += count;
}

/* PCT_UTF8 / PCT_UTF8_REPLACE (sse42/decode.c: decode_checked): units of two
 * blocks (or of up to four dense chunks) decoded into `unit`, validated, and
 * committed up to the last whole UTF-8 sequence. */
static pct_result decode_checked(const uint8_t *src, size_t len, uint8_t *dst, const pct_set *keep,
                                 unsigned flags, size_t *consumed)
{
    const unsigned block_flags = flags & ~(unsigned)(PCT_UTF8 | PCT_UTF8_REPLACE);
    pct_avx_set kept_bytes = {_mm256_setzero_si256(), _mm256_setzero_si256()};
    if (keep)
        kept_bytes = pct_avx_set_load(keep);
    const pct_sse_set kept_bytes16 = {_mm256_castsi256_si128(kept_bytes.low),
                                      _mm256_castsi256_si128(kept_bytes.high)};
    const int disjoint = pct_disjoint(src, dst, len);
    uint8_t unit[4 * W]; /* up to 2 * W decoded bytes, then 2 * W zeros */
    size_t i = 0, window = W, held;
    uint8_t *out = dst;
    uint32_t carry = 0;
    pct_result r;
    while (len - i >= 2 * W + AHEAD) {
        uint64_t percents;
        if (copy_clean(src + i, &out, carry, flags, 1, &percents)) {
            i += 2 * W;
            continue;
        }
        if (((percents >> __builtin_popcount(carry)) & DENSE_PERCENTS) == DENSE_PERCENTS) {
            const size_t j = i + (size_t)__builtin_popcount(carry);
            size_t n = 0;
            while (n < 2 * W && len - j >= 3 * n + 96 &&
                   decode_dense2(src + j + 3 * n, unit + n, keep ? &kept_bytes : NULL))
                n += 32;
            while (n < 2 * W && len - j >= 3 * n + 48 &&
                   pct_sse_decode_dense(src + j + 3 * n, unit + n, keep ? &kept_bytes16 : NULL))
                n += 16;
            if (n) {
                i = j;
                carry = 0;
                if (pct_avx_utf8_unit_valid(unit, n, &held)) {
                    commit(&out, unit, n - held, disjoint);
                    i += 3 * (n - held); /* output byte k came from the escape at 3k */
                    window = W;
                    continue;
                }
                goto window;
            }
        }
        uint8_t *u = unit;
        uint32_t c = carry, output_a, output_b;
        if (decode_block(src + i, &u, &c, &kept_bytes, keep != NULL, block_flags, &output_a) == 0 &&
            decode_block(src + i + W, &u, &c, &kept_bytes, keep != NULL, block_flags, &output_b) ==
                0) {
            const size_t n = (size_t)(u - unit);
            if (pct_avx_utf8_unit_valid(unit, n, &held)) {
                /* All 64 bytes unless in place with bytes held back: those
                 * could overwrite the input the next unit starts with. */
                commit(&out, unit, n - held, held == 0 || disjoint);
                if (held) {
                    i += pct_kth_highest_bit(output_a | (uint64_t)output_b << W, held);
                    carry = 0;
                } else {
                    i += 2 * W;
                    carry = c;
                }
                window = W;
                continue;
            }
        }
        i += (size_t)__builtin_popcount(carry);
        carry = 0;
    window:
        if (scalar_window(src, len, &i, &out, keep, flags, &window, &r))
            return r;
    }
    i += (size_t)__builtin_popcount(carry);
    return finish(src, len, i, dst, out, keep, flags, consumed);
}

static __attribute__((noinline)) pct_result decode_long(const uint8_t *src, size_t len,
                                                        uint8_t *dst, const pct_set *keep,
                                                        unsigned flags, size_t *consumed)
{
    if (flags & (PCT_UTF8 | PCT_UTF8_REPLACE))
        return decode_checked(src, len, dst, keep, flags, consumed);
    if (keep == NULL && flags == 0)
        return decode(src, len, dst, NULL, 0, consumed);
    if (keep == NULL && flags == PCT_PLUS)
        return decode(src, len, dst, NULL, PCT_PLUS, consumed);
    return decode(src, len, dst, keep, flags, consumed);
}

/* The short-input check is on its own ahead of the kernel, so that a short
 * call reaches the scalar routine without the kernel's prologue (register
 * saves and the realignment of the stack for its vectors). */
pct_result pct_avx2_decode(const uint8_t *src, size_t len, uint8_t *dst, const pct_set *keep,
                           unsigned flags, size_t *consumed)
{
    if ((flags & PCT_INTERNAL_NORMALIZE) || len < W + AHEAD)
        return pct_scalar_decode(src, len, dst, keep, flags, consumed);
    return decode_long(src, len, dst, keep, flags, consumed);
}
