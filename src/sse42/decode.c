/* sse42/decode.c - SSE4.2 percent-decoder (pct_decode, pct_decode_except).
 *
 * Blocks of 16 bytes, each read three times, at offsets 0, 1 and 2 (v0, v1,
 * v2), so that every '%' lines up with the two bytes after it:
 *   - 64 bytes without '%' are stored as they are ('+' -> ' ' under PCT_PLUS);
 *   - with a few '%' (at most SPARSE in 64 bytes), the escapes are decoded
 *     one by one and the runs between them copied (decode_sparse; separate
 *     buffers only);
 *   - with many, a run of escapes only is decoded 48 bytes at a time by fixed
 *     shuffles (sse42/dense.h);
 *   - otherwise each '%' that starts an escape (sse42/classify.h) is replaced
 *     by the byte it stands for and a compaction shuffle drops the two digits
 *     after it (sse42/compact.h). An escape in the last two bytes of the
 *     block takes its digits from the next block, which drops them.
 * Blocks are a fixed 16 bytes apart: the next block's loads do not wait for
 * this block's escapes to be found.
 *
 * In place (dst == src): the output never runs ahead of the input (o <= i),
 * every store of a block ends within its own 16 input bytes (before the next
 * block), and all of a block's loads, the two bytes after it included, come
 * before its stores. So nothing is read after it was overwritten. (Only
 * decode_sparse and a copy in decode_checked store further ahead; they run
 * when the buffers are separate.)
 *
 * The loop decides a block itself only in the common cases. At a block with
 * a '%' that starts no %HH under PCT_STRICT or a "%u" under PCT_PERCENT_U,
 * pct_scalar_decode takes over in partial mode for a window of input: it
 * stops on a token and UTF-8 sequence boundary at most PCT_MAX_UNCONSUMED
 * bytes before the window's end, exactly where a streaming decoder would, so
 * its decisions are those of one scalar pass; the vector loop then resumes
 * there. The window doubles (up to 16 blocks) while the blocks keep needing
 * it, so that input the vector loop cannot take costs little more than the
 * scalar decoder alone.
 *
 * PCT_UTF8 and PCT_UTF8_REPLACE (decode_checked): the output must be checked,
 * and the error reported at the input offset where the ill-formed sequence
 * starts. Units of four blocks (or of up to four dense chunks) are decoded
 * into a buffer, validated there (sse42/utf8.h) and committed up to the end
 * of the last whole sequence; an unfinished sequence at the end is not
 * committed, and the next unit starts at the token that produced its first
 * byte (found from the blocks' masks of bytes that produce output; in dense
 * chunks, output byte k comes from the escape at 3k). Every unit thus starts
 * on a sequence boundary, and a unit that does not validate goes through the
 * scalar window, which finds the error at the right offset (or replaces the
 * sequence with U+FFFD).
 *
 * Normalize mode keeps state across escapes (the stray '%' rule) and is left
 * to the scalar decoder entirely, as are inputs shorter than a block plus two
 * bytes.
 */
#include <string.h>

#include "impl.h"
#include "scalar/hex.h"
#include "sse42/classify.h"
#include "sse42/compact.h"
#include "sse42/dense.h"
#include "sse42/kernels.h"
#include "sse42/utf8.h"

#define W 16
#define AHEAD 2 /* bytes read past a block: the digits of an escape at its end */
#define MAX_WINDOW (16 * W)
#define SPARSE 8 /* at most this many '%' in 64 bytes: decode_sparse */
#define DENSE 16 /* at least this many: try sse42/dense.h */

static inline __m128i load(const uint8_t *p)
{
    return _mm_loadu_si128((const __m128i *)p);
}

/* '+' - 0x0B = ' ' ('%' and hex digits are never '+'). */
static inline __m128i plus_to_space(__m128i v)
{
    return _mm_sub_epi8(
        v, _mm_and_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('+')), _mm_set1_epi8('+' - ' ')));
}

/* Decodes the 16-byte block at s into *out. `carry` marks the digits of an
 * escape at the end of the previous block that fall at the start of this one
 * (0, 0b01 or 0b11): they are dropped here, and *carry is set for the next
 * block. *output_mask (if not NULL) gets the positions that produced an
 * output byte. Returns 1, with nothing written, when the block is not one
 * the loop decides itself (see the top of the file). */
static inline __attribute__((always_inline)) int
decode_block(const uint8_t *s, uint8_t **out, uint32_t *carry, const pct_sse_set *kept_bytes,
             int keep, unsigned flags, uint32_t *output_mask)
{
    __m128i v0 = load(s);
    const __m128i v1 = load(s + 1), v2 = load(s + 2);
    const uint32_t percents = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v0, _mm_set1_epi8('%')));
    if (flags & PCT_PLUS)
        v0 = plus_to_space(v0);
    __m128i escapes = pct_sse_escapes(v0, v1, v2);
    /* A '%' that starts no %HH: copied as is, unless it is an error
     * (PCT_STRICT) or may start a %uXXXX (PCT_PERCENT_U). */
    const uint32_t stray = percents & ~(uint32_t)_mm_movemask_epi8(escapes);
    if (stray && (flags & PCT_STRICT))
        return 1;
    if (stray && (flags & PCT_PERCENT_U) &&
        (stray & (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v1, _mm_set1_epi8('u')))))
        return 1;
    const __m128i bytes = pct_sse_hex_pair(v1, v2);
    if (keep) /* an escape of a byte in keep is copied as written: not an escape here */
        escapes = _mm_andnot_si128(pct_sse_in_set(bytes, kept_bytes), escapes);
    const __m128i d = _mm_blendv_epi8(v0, bytes, escapes);
    const uint64_t digits = pct_escape_digits((uint32_t)_mm_movemask_epi8(escapes));
    const uint32_t kept = ~((uint32_t)digits | *carry) & 0xFFFF;
    *out = pct_sse_compact_store(*out, d, kept);
    *carry = (uint32_t)(digits >> W);
    if (output_mask)
        *output_mask = kept;
    return 0;
}

/* A window of the scalar decoder from src + *i (a token boundary; a UTF-8
 * sequence boundary under a UTF-8 check) in partial mode. It writes to a
 * buffer of its own: in partial mode it may write the bytes of a sequence it
 * then holds back, which in place would overwrite input still to be read.
 * Returns 1 with *r set on an error. */
static int scalar_window(const uint8_t *src, size_t len, size_t *i, uint8_t **out,
                         const pct_set *keep, unsigned flags, size_t *window, pct_result *r)
{
    uint8_t buffer[3 * MAX_WINDOW]; /* PCT_UTF8_REPLACE writes up to 3 bytes per byte */
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

/* The tail, with the caller's `consumed`, from a token (and sequence)
 * boundary: the scalar decoder goes on exactly as in one pass. */
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

/* 64 bytes with no '%', nothing carried in (and, under a UTF-8 check, only
 * ASCII): stored as they are. Returns 0 if that does not apply, with the
 * positions of the '%' in *percents. */
static inline __attribute__((always_inline)) int copy_clean(const uint8_t *s, uint8_t **out,
                                                            uint32_t carry, unsigned flags,
                                                            int ascii_only, uint64_t *percents)
{
    __m128i v[4];
    __m128i any = _mm_setzero_si128();
    uint64_t p = 0;
    for (int k = 0; k < 4; k++) {
        v[k] = load(s + k * W);
        p |= (uint64_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v[k], _mm_set1_epi8('%'))) << (k * W);
        any = _mm_or_si128(any, v[k]);
    }
    *percents = p;
    if (carry != 0 || p != 0 || (ascii_only && _mm_movemask_epi8(any) != 0))
        return 0;
    for (int k = 0; k < 4; k++)
        _mm_storeu_si128((__m128i *)(*out + k * W),
                         (flags & PCT_PLUS) ? plus_to_space(v[k]) : v[k]);
    *out += 4 * W;
    return 1;
}

/* A block with few '%' (and separate buffers): the escapes are looked at one by
 * one (pct_hex_nibble), and the runs of bytes between them copied by 16-byte
 * stores that overlap the next run or escape, which costs far less than the
 * compaction when escapes are rare (text with a few %20, %2F, ...). The
 * stores write up to 15 bytes past the block's output and read up to 31
 * bytes from its start (hence the 5 * W the caller asks for). Returns 1,
 * changing nothing, when the scalar decoder must take the block. */
static inline __attribute__((always_inline)) int decode_sparse(const uint8_t *s, uint8_t **out,
                                                               uint32_t *carry, uint32_t percents,
                                                               const pct_set *keep, unsigned flags)
{
    uint8_t *o = *out;
    size_t from = (size_t)__builtin_popcount(*carry); /* after the carried digits */
    for (; percents; percents &= percents - 1) {
        const size_t at = (size_t)__builtin_ctz(percents);
        const unsigned hi = pct_hex_nibble[s[at + 1]], lo = pct_hex_nibble[s[at + 2]];
        if ((hi | lo) & 0x80) { /* not an escape: copied with the run */
            if ((flags & PCT_STRICT) || ((flags & PCT_PERCENT_U) && s[at + 1] == 'u'))
                return 1;
            continue;
        }
        const uint8_t byte = (uint8_t)(hi << 4 | lo);
        if (keep && pct_in_set(keep, byte))
            continue;
        const __m128i run = load(s + from);
        _mm_storeu_si128((__m128i *)o, (flags & PCT_PLUS) ? plus_to_space(run) : run);
        o += at - from;
        *o++ = byte;
        from = at + 3;
    }
    if (from < W) {
        const __m128i run = load(s + from);
        _mm_storeu_si128((__m128i *)o, (flags & PCT_PLUS) ? plus_to_space(run) : run);
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

/* The block loop. Inlined three times (flags 0, PCT_PLUS, anything) so that
 * the common cases compile to loops with no flag tests. 64 bytes at a time
 * when possible: a run of clean text is copied without going through the
 * compaction, and a branch per 64 bytes (rather than per block) predicts
 * well on text with a few escapes. */
static inline __attribute__((always_inline)) pct_result decode(const uint8_t *src, size_t len,
                                                               uint8_t *dst, const pct_set *keep,
                                                               unsigned flags, size_t *consumed)
{
    pct_sse_set kept_bytes = {_mm_setzero_si128(), _mm_setzero_si128()};
    if (keep)
        kept_bytes = pct_sse_set_load(keep);
    /* decode_sparse's runs write ahead of the output: not in place. */
    const int sparse = pct_disjoint(src, dst, len);
    size_t i = 0, window = W;
    uint8_t *out = dst;
    uint32_t carry = 0;
    pct_result r;
    while (len - i >= W + AHEAD) {
        int blocks = 1; /* blocks to decode one by one */
        uint64_t percents = 0;
        if (len - i >= 4 * W + AHEAD) {
            if (copy_clean(src + i, &out, carry, flags, 0, &percents)) {
                i += 4 * W;
                continue;
            }
            if (__builtin_popcountll(percents) >= DENSE) {
                size_t j = i + (size_t)__builtin_popcount(carry); /* after carried digits */
                if (decode_dense(src, len, &j, &out, keep ? &kept_bytes : NULL)) {
                    i = j;
                    carry = 0;
                    window = W;
                    continue;
                }
            }
            blocks = 4;
        }
        int k = 0;
        if (blocks == 4 && sparse && __builtin_popcountll(percents) <= SPARSE && len - i >= 5 * W) {
            for (; k < 4; k++) {
                if (decode_sparse(src + i, &out, &carry, (uint32_t)(percents >> (k * W)) & 0xFFFF,
                                  keep, flags))
                    break;
                i += W;
            }
        } else {
            for (; k < blocks; k++) {
                if (decode_block(src + i, &out, &carry, &kept_bytes, keep != NULL, flags, NULL))
                    break;
                i += W;
            }
        }
        if (k == blocks) {
            window = W;
            continue;
        }
        i += (size_t)__builtin_popcount(carry); /* to the token boundary */
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
        for (int z = 0; z < 4; z++)
            _mm_storeu_si128((__m128i *)(*out + z * W), load(unit + z * W));
    } else {
        memcpy(*out, unit, count);
    }
    *out += count;
}

/* PCT_UTF8 / PCT_UTF8_REPLACE (see the top of the file). */
static pct_result decode_checked(const uint8_t *src, size_t len, uint8_t *dst, const pct_set *keep,
                                 unsigned flags, size_t *consumed)
{
    /* The blocks decode without the check; the unit is checked as a whole. */
    const unsigned block_flags = flags & ~(unsigned)(PCT_UTF8 | PCT_UTF8_REPLACE);
    pct_sse_set kept_bytes = {_mm_setzero_si128(), _mm_setzero_si128()};
    if (keep)
        kept_bytes = pct_sse_set_load(keep);
    const int disjoint = pct_disjoint(src, dst, len);
    uint8_t unit[8 * W]; /* up to 4 * W decoded bytes, then 4 * W zeros */
    size_t i = 0, window = W, held;
    uint8_t *out = dst;
    uint32_t carry = 0;
    pct_result r;
    while (len - i >= 4 * W + AHEAD) {
        uint64_t percents;
        if (copy_clean(src + i, &out, carry, flags, 1, &percents)) {
            i += 4 * W;
            continue;
        }
        if (__builtin_popcountll(percents) >= DENSE) {
            /* Up to four dense chunks (sse42/dense.h) make the unit. */
            const size_t j = i + (size_t)__builtin_popcount(carry);
            size_t n = 0;
            while (n < 4 * W && len - j >= 3 * n + 48 &&
                   pct_sse_decode_dense(src + j + 3 * n, unit + n, keep ? &kept_bytes : NULL))
                n += 16;
            if (n) {
                i = j;
                carry = 0;
                if (pct_sse_utf8_unit_valid(unit, n, &held)) {
                    commit(&out, unit, n - held, disjoint);
                    i += 3 * (n - held); /* output byte k came from the escape at 3k */
                    window = W;
                    continue;
                }
                goto window;
            }
        }
        uint8_t *u = unit;
        uint32_t c = carry, output[4];
        int k = 0;
        while (k < 4 && decode_block(src + i + k * W, &u, &c, &kept_bytes, keep != NULL,
                                     block_flags, &output[k]) == 0)
            k++;
        if (k == 4) {
            const size_t n = (size_t)(u - unit);
            if (pct_sse_utf8_unit_valid(unit, n, &held)) {
                /* All 64 bytes (the bytes of the unit's input at most) unless
                 * in place with bytes held back: those could overwrite the
                 * input the next unit starts with. */
                commit(&out, unit, n - held, held == 0 || disjoint);
                if (held) { /* restart at the token of the unfinished sequence's lead */
                    const uint64_t produced = output[0] | (uint64_t)output[1] << W |
                                              (uint64_t)output[2] << (2 * W) |
                                              (uint64_t)output[3] << (3 * W);
                    i += pct_kth_highest_bit(produced, held);
                    carry = 0;
                } else {
                    i += 4 * W;
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

pct_result pct_sse42_decode(const uint8_t *src, size_t len, uint8_t *dst, const pct_set *keep,
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
