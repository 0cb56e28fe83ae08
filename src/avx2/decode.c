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
#define DENSE 16 /* at least this many: try sse42/dense.h */

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

/* A run of 48-byte chunks of escapes only (sse42/dense.h) from src + *i,
 * a token boundary. Returns 0 if the first chunk is not one. */
static inline int decode_dense(const uint8_t *src, size_t len, size_t *i, uint8_t **out,
                               const pct_sse_set *kept_bytes)
{
    size_t j = *i;
    uint8_t *o = *out;
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
            if (__builtin_popcountll(percents) >= DENSE) {
                size_t j = i + (size_t)__builtin_popcount(carry);
                if (decode_dense(src, len, &j, &out, keep ? &kept_bytes16 : NULL)) {
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
        if (__builtin_popcountll(percents) >= DENSE) {
            const size_t j = i + (size_t)__builtin_popcount(carry);
            size_t n = 0;
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

pct_result pct_avx2_decode(const uint8_t *src, size_t len, uint8_t *dst, const pct_set *keep,
                           unsigned flags, size_t *consumed)
{
    if ((flags & PCT_INTERNAL_NORMALIZE) || len < W + AHEAD)
        return pct_scalar_decode(src, len, dst, keep, flags, consumed);
    if (flags & (PCT_UTF8 | PCT_UTF8_REPLACE))
        return decode_checked(src, len, dst, keep, flags, consumed);
    if (keep == NULL && flags == 0)
        return decode(src, len, dst, NULL, 0, consumed);
    if (keep == NULL && flags == PCT_PLUS)
        return decode(src, len, dst, NULL, PCT_PLUS, consumed);
    return decode(src, len, dst, keep, flags, consumed);
}
