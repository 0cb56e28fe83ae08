/* sse42/encode.c - SSE4.2 percent-encoder (pct_encode, pct_encode_length).
 *
 * Both classify 16 bytes at a time against the set (sse42/classify.h): the
 * length is len plus 2 per escaped byte, a popcount per block. The encoder
 * looks at 64 bytes (four blocks) at a time and writes them in one of four
 * ways:
 *   - nothing to escape (most ASCII text): the bytes as they are;
 *   - everything to escape (UTF-8 text such as Japanese): 48 bytes
 *     "%HH" x 16 per block, built with three shuffles (expand_all);
 *   - a few bytes to escape (text with spaces and punctuation): run by run,
 *     each escape from a table (encode_sparse);
 *   - more: each group of four bytes through one shuffle that drops what is
 *     not needed from four 4-byte tokens (expand_mixed).
 * PCT_PLUS, PCT_KEEP_ESCAPES and the PCT_UTF8 check are handled in the block
 * loop; the last bytes go to pct_scalar_encode (see the end of encode()).
 */
#include <string.h>

#include "impl.h"
#include "scalar/hex.h"
#include "sse42/classify.h"
#include "sse42/encode_table.h"
#include "sse42/kernels.h"
#include "sse42/utf8.h"

/* The set actually escaped: with PCT_PLUS a ' ' in the set becomes '+', one
 * byte, exactly as if it were not in the set (the encoder then translates it). */
static pct_sse_set escaped_set(const pct_set *set, unsigned flags)
{
    pct_set s = *set;
    if (flags & PCT_PLUS)
        s.bits[' ' >> 3] &= (uint8_t) ~(1u << (' ' & 7));
    return pct_sse_set_load(&s);
}

static inline __m128i load(const uint8_t *p)
{
    return _mm_loadu_si128((const __m128i *)p);
}

static size_t add_saturated(size_t a, size_t b)
{
    return a > SIZE_MAX - b ? SIZE_MAX : a + b;
}

/* The length is len + 2 for every escaped byte: a popcount per block. */
size_t pct_sse42_encode_length(const uint8_t *src, size_t len, const pct_set *set, unsigned flags)
{
    if (len < 16 + 2)
        return pct_scalar_encode_length(src, len, set, flags);
    const pct_sse_set t = escaped_set(set, flags);
    size_t escaped = 0, i = 0;
    if (!(flags & PCT_KEEP_ESCAPES)) {
        for (; len - i >= 16; i += 16)
            escaped += (size_t)__builtin_popcount(
                (unsigned)_mm_movemask_epi8(pct_sse_in_set(load(src + i), &t)));
        if (i < len) /* the last 16 bytes, minus those counted already (as in find.c) */
            escaped += (size_t)__builtin_popcount(
                (unsigned)_mm_movemask_epi8(pct_sse_in_set(load(src + len - 16), &t)) >>
                (16 - (len - i)));
        /* escaped <= len: len + 2 * escaped overflows only when len > SIZE_MAX / 3. */
        return add_saturated(len, add_saturated(escaped, escaped));
    }
    /* PCT_KEEP_ESCAPES: the three bytes of a well-formed %HH count as they are.
     * Each block also reads the two bytes after it (v1, v2: len - i >= 18), and
     * `digits` carries into the next block the digits of an escape at its end. */
    uint64_t digits = 0;
    for (; len - i >= 16 + 2; i += 16) {
        const __m128i v0 = load(src + i), v1 = load(src + i + 1), v2 = load(src + i + 2);
        const uint64_t escapes = (uint64_t)_mm_movemask_epi8(pct_sse_escapes(v0, v1, v2));
        const uint64_t kept = escapes | pct_escape_digits(escapes) | digits;
        const uint64_t in_set = (uint64_t)_mm_movemask_epi8(pct_sse_in_set(v0, &t));
        escaped += (size_t)__builtin_popcountll(in_set & ~kept);
        digits = kept >> 16;
    }
    /* Skip the digits carried into the rest (each is one output byte), so that
     * the scalar count starts on a token boundary. */
    const size_t skip = (size_t)__builtin_popcountll(digits);
    i += skip;
    const size_t rest = pct_scalar_encode_length(src + i, len - i, set, flags);
    return add_saturated(add_saturated(i, add_saturated(escaped, escaped)), rest);
}

/* ------------------------------------------------------------------------ */
/* Encoding                                                                  */
/* ------------------------------------------------------------------------ */

/* A block may store up to 15 bytes past its own output (a group's 16-byte
 * store in expand_mixed: 12; a run's in encode_sparse: 15). At least one
 * output byte follows for each input byte not yet encoded, so leaving SLACK
 * >= 15 input bytes after the block keeps every store inside the
 * pct_encode_length() bytes of dst. SLACK also covers the reads past the
 * block: two bytes for PCT_KEEP_ESCAPES, 15 for encode_sparse's runs. */
#define SLACK 16
/* At most this many bytes to escape in 64: encode_sparse (measured: faster
 * than expand_mixed up to about 8). */
#define SPARSE 8

/* Upper-case hex digit of each nibble (0-15) of v. */
static inline __m128i hex_digits(__m128i nibbles)
{
    const __m128i digits = _mm_setr_epi8('0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'A', 'B',
                                         'C', 'D', 'E', 'F');
    return _mm_shuffle_epi8(digits, nibbles);
}

/* All 16 bytes escaped: 48 bytes. P_lo and P_hi hold the digit pairs H0 L0
 * H1 L1 ... H15 L15 (32 bytes); each 16-byte output is a shuffle of 16 bytes
 * of them with '%' OR-ed in where the shuffle index is Z (0x80: zero):
 *
 *   output byte:  0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15
 *   out0        : %  H0 L0 %  H1 L1 %  H2 L2 %  H3 L3 %  H4 L4 %    from P_lo
 *   out1 (16-31): H5 L5 %  H6 L6 %  H7 L7 %  H8 L8 %  H9 L9 %  H10  from P_lo:P_hi bytes 10-25
 *   out2 (32-47): L10 % H11 L11 % H12 L12 % H13 L13 % H14 L14 % H15 L15  from P_hi */
#define Z -128
static inline void expand_all(uint8_t *out, __m128i hi, __m128i lo)
{
    const __m128i pairs_lo = _mm_unpacklo_epi8(hi, lo), pairs_hi = _mm_unpackhi_epi8(hi, lo);
    const __m128i pairs_mid = _mm_alignr_epi8(pairs_hi, pairs_lo, 10);
    const __m128i s0 = _mm_setr_epi8(Z, 0, 1, Z, 2, 3, Z, 4, 5, Z, 6, 7, Z, 8, 9, Z);
    const __m128i s1 = _mm_setr_epi8(0, 1, Z, 2, 3, Z, 4, 5, Z, 6, 7, Z, 8, 9, Z, 10);
    const __m128i s2 = _mm_setr_epi8(5, Z, 6, 7, Z, 8, 9, Z, 10, 11, Z, 12, 13, Z, 14, 15);
    const __m128i p0 = _mm_setr_epi8('%', 0, 0, '%', 0, 0, '%', 0, 0, '%', 0, 0, '%', 0, 0, '%');
    const __m128i p1 = _mm_setr_epi8(0, 0, '%', 0, 0, '%', 0, 0, '%', 0, 0, '%', 0, 0, '%', 0);
    const __m128i p2 = _mm_setr_epi8(0, '%', 0, 0, '%', 0, 0, '%', 0, 0, '%', 0, 0, '%', 0, 0);
    _mm_storeu_si128((__m128i *)out, _mm_or_si128(_mm_shuffle_epi8(pairs_lo, s0), p0));
    _mm_storeu_si128((__m128i *)(out + 16), _mm_or_si128(_mm_shuffle_epi8(pairs_mid, s1), p1));
    _mm_storeu_si128((__m128i *)(out + 32), _mm_or_si128(_mm_shuffle_epi8(pairs_hi, s2), p2));
}

#undef Z

/* A mixed block: see sse42/encode_table.h. */

static inline uint8_t *expand_group(uint8_t *out, __m128i tokens, unsigned mask4)
{
    const __m128i shuffle = _mm_loadu_si128((const __m128i *)group_shuffle[mask4]);
    _mm_storeu_si128((__m128i *)out, _mm_shuffle_epi8(tokens, shuffle));
    return out + 4 + 2 * __builtin_popcount(mask4);
}

static inline uint8_t *expand_mixed(uint8_t *out, __m128i v, __m128i hi, __m128i lo, unsigned mask)
{
    const __m128i percent = _mm_set1_epi8('%');
    const __m128i a_lo = _mm_unpacklo_epi8(v, hi), a_hi = _mm_unpackhi_epi8(v, hi);
    const __m128i b_lo = _mm_unpacklo_epi8(lo, percent), b_hi = _mm_unpackhi_epi8(lo, percent);
    out = expand_group(out, _mm_unpacklo_epi16(a_lo, b_lo), mask & 15);
    out = expand_group(out, _mm_unpackhi_epi16(a_lo, b_lo), (mask >> 4) & 15);
    out = expand_group(out, _mm_unpacklo_epi16(a_hi, b_hi), (mask >> 8) & 15);
    return expand_group(out, _mm_unpackhi_epi16(a_hi, b_hi), mask >> 12);
}

/* ' ' + 0x0B = '+' */
static inline __m128i space_to_plus(__m128i v)
{
    return _mm_add_epi8(
        v, _mm_and_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')), _mm_set1_epi8('+' - ' ')));
}

/* A block with few bytes to escape (sse42/encode_table.h): runs copied from
 * the input by overlapping 16-byte stores (at most 15 bytes past the block's
 * output, reading at most 31 bytes from its start), escapes from the table. */
static inline uint8_t *encode_sparse(uint8_t *out, const uint8_t *s, unsigned mask, int plus)
{
    size_t from = 0;
    for (; mask; mask &= mask - 1) {
        const size_t at = (size_t)__builtin_ctz(mask);
        __m128i run = load(s + from);
        if (plus)
            run = space_to_plus(run);
        _mm_storeu_si128((__m128i *)out, run);
        out += at - from;
        memcpy(out, &percent_hex[s[at]], 4);
        out += 3;
        from = at + 1;
    }
    __m128i run = load(s + from);
    if (plus)
        run = space_to_plus(run);
    _mm_storeu_si128((__m128i *)out, run);
    return out + 16 - from;
}

/* Classifies the block at s: returns the mask of the bytes to escape and the
 * block itself ('+' for ' ' under PCT_PLUS). `digits` as in
 * pct_sse42_encode_length: escapes kept whole under PCT_KEEP_ESCAPES. */
static inline __attribute__((always_inline)) unsigned classify(const uint8_t *s,
                                                               const pct_sse_set *t, int plus,
                                                               int keep_escapes, uint64_t *digits,
                                                               __m128i *block)
{
    __m128i v = load(s);
    unsigned mask = (unsigned)_mm_movemask_epi8(pct_sse_in_set(v, t));
    if (keep_escapes) {
        const uint64_t escapes =
            (uint64_t)_mm_movemask_epi8(pct_sse_escapes(v, load(s + 1), load(s + 2)));
        const uint64_t kept = escapes | pct_escape_digits(escapes) | *digits;
        mask &= ~(unsigned)kept;
        *digits = kept >> 16;
    }
    if (plus)
        v = space_to_plus(v);
    *block = v;
    return mask;
}

static inline __m128i high_digits(__m128i v)
{
    return hex_digits(pct_sse_high_nibble(v));
}

static inline __m128i low_digits(__m128i v)
{
    return hex_digits(_mm_and_si128(v, _mm_set1_epi8(0x0F)));
}

/* One block, by the path its mask calls for. */
static inline uint8_t *encode_block(uint8_t *out, __m128i v, unsigned mask)
{
    if (mask == 0) {
        _mm_storeu_si128((__m128i *)out, v);
        return out + 16;
    }
    if (mask == 0xFFFF) {
        expand_all(out, high_digits(v), low_digits(v));
        return out + 48;
    }
    return expand_mixed(out, v, high_digits(v), low_digits(v), mask);
}

/* PCT_UTF8: the index (0-3) of the first of the four blocks v[] that holds
 * ill-formed UTF-8 (sse42/utf8.h; *prev: the 16 bytes before v[0]), or 4. A
 * sequence cut off at the end of v[3] is not an error here: the next blocks
 * or the scalar tail decide it. */
static inline int first_invalid(const __m128i v[4], __m128i *prev)
{
    const __m128i before = *prev;
    *prev = v[3];
    if (_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(before, v[0]),
                                       _mm_or_si128(_mm_or_si128(v[1], v[2]), v[3]))) == 0)
        return 4; /* ASCII, after ASCII */
    for (int k = 0; k < 4; k++) {
        const __m128i errors = pct_sse_utf8_errors(v[k], k ? v[k - 1] : before);
        if (!_mm_testz_si128(errors, errors))
            return k;
    }
    return 4;
}

/* The block loop, inlined for each combination of `plus` and `keep_escapes`
 * without PCT_UTF8 (and once for PCT_UTF8) so that none of them tests flags
 * per block. 64 bytes at a time where possible, with one three-way branch for
 * all four blocks: clean text, fully escaped text and text with a few escapes
 * each stay on one predictable path.
 *
 * PCT_UTF8: the input is validated as it goes (sse42/utf8.h); the loop stops
 * before the first block with an error, and the scalar encoder takes over
 * from the start of the sequence in progress there: it reports the error, at
 * the offset one scalar pass would, since everything before is well-formed. */
static inline __attribute__((always_inline)) pct_result encode(const uint8_t *src, size_t len,
                                                               uint8_t *dst, const pct_set *set,
                                                               unsigned flags, size_t *consumed,
                                                               int plus, int keep_escapes, int utf8)
{
    const pct_sse_set t = escaped_set(set, flags);
    size_t i = 0;
    uint8_t *out = dst;
    uint64_t digits = 0;
    __m128i prev = _mm_setzero_si128(); /* the 16 bytes before the block (UTF-8 check) */
    for (; len - i >= 4 * 16 + SLACK; i += 4 * 16) {
        __m128i v[4];
        unsigned m[4];
        const uint64_t digits_on_entry = digits;
        uint64_t digits_after[4];
        for (int k = 0; k < 4; k++) {
            m[k] = classify(src + i + 16 * k, &t, plus, keep_escapes, &digits, &v[k]);
            digits_after[k] = digits;
        }
        if (utf8) {
            const int bad = first_invalid(v, &prev);
            if (bad < 4) {
                for (int k = 0; k < bad; k++)
                    out = encode_block(out, v[k], m[k]);
                i += 16 * (size_t)bad;
                digits = bad ? digits_after[bad - 1] : digits_on_entry;
                goto hand_over;
            }
        }
        if ((m[0] | m[1] | m[2] | m[3]) == 0) {
            for (int k = 0; k < 4; k++)
                _mm_storeu_si128((__m128i *)(out + 16 * k), v[k]);
            out += 64;
        } else if ((m[0] & m[1] & m[2] & m[3]) == 0xFFFF) {
            for (int k = 0; k < 4; k++)
                expand_all(out + 48 * k, high_digits(v[k]), low_digits(v[k]));
            out += 192;
        } else if (__builtin_popcount(m[0] | m[1] << 16) + __builtin_popcount(m[2] | m[3] << 16) <=
                   SPARSE) {
            for (int k = 0; k < 4; k++)
                out = encode_sparse(out, src + i + 16 * k, m[k], plus);
        } else {
            for (int k = 0; k < 4; k++)
                out = expand_mixed(out, v[k], high_digits(v[k]), low_digits(v[k]), m[k]);
        }
    }
    for (; len - i >= 16 + SLACK; i += 16) {
        __m128i v;
        const uint64_t digits_on_entry = digits;
        const unsigned mask = classify(src + i, &t, plus, keep_escapes, &digits, &v);
        if (utf8) {
            const __m128i errors = pct_sse_utf8_errors(v, prev);
            prev = v;
            if (!_mm_testz_si128(errors, errors)) {
                digits = digits_on_entry;
                break;
            }
        }
        out = encode_block(out, v, mask);
    }
hand_over:
    /* Hand the rest to the scalar encoder on a token boundary: an escape kept
     * whole (PCT_KEEP_ESCAPES) whose digits run into the rest was copied byte
     * for byte, so step back to its '%' (digits 0b01: two bytes back, 0b11:
     * one). PCT_UTF8: step back to the start of a sequence cut by the block
     * boundary (its bytes were escaped or copied, each by itself). The scalar
     * routine then decides the tail exactly as in one pass, including what
     * partial mode holds back. */
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

pct_result pct_sse42_encode(const uint8_t *src, size_t len, uint8_t *dst, const pct_set *set,
                            unsigned flags, size_t *consumed)
{
    if (len < 16 + SLACK)
        return pct_scalar_encode(src, len, dst, set, flags, consumed);
    /* With PCT_PLUS but ' ' outside the set, ' ' is copied: nothing to do. */
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
