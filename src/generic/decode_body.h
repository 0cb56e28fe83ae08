/* generic/decode_body.h - the percent-decoder of the generic family
 * (SSE4.2, AVX2, NEON), written once over the ISA's vec.h (included first)
 * and compiled per width. It is the algorithm of avx512/decode_body.h, a
 * 64-byte block at a time with every block running the same instructions,
 * but not its code: that body's primitives take and return whole 64-byte
 * values (a compacted block, masked loads and stores, 64-entry permutes),
 * which AVX-512 has and which SSE4.2 and AVX2 can only emulate through
 * memory (tried: slower). Here the compaction is by tables
 * (pct_compact_8) and stores straight to the output, 8 bytes at a time.
 *
 *   for each 64-byte block at i (2 more bytes are read: the digits of an
 *   escape at its end), PCT_VECS vectors of PCT_VEC_W bytes:
 *     escapes    '%' followed by two hex digits (those of a byte in the keep
 *                set stay as written)
 *     stray      the other '%': decoded as themselves, unless a flag needs
 *                the scalar routine for them (PCT_STRICT, %u)
 *     output     every byte but the digits of the escapes (and those that
 *                the previous block's last escape carried into this one)
 *     the escapes' bytes replace their '%', the output bytes are packed and
 *     stored, and with PCT_UTF8/PCT_UTF8_REPLACE checked as UTF-8 first, in
 *     registers, before the packing (generic_utf8_check).
 *
 * No branch depends on the text but the hand-over to the scalar routine
 * (simd_shared/handover.c), rare on real text, and one for runs of escapes only
 * ("%E3%81%82..."), taken block after block or not at all: those are decoded
 * by fixed shuffles (generic/vec_ops.h: vec_decode_dense), twice as fast, and
 * with a UTF-8 check checked as they are decoded. A block
 * with nothing to decode goes through the compaction like any other: on
 * text with an escape every few dozen bytes, whether a block has one is a
 * coin toss, and a mispredicted branch costs more than the compaction.
 *
 * The last block (fewer than 66 bytes left) is decoded from a zero-padded
 * copy into a buffer, so no input is too short for the kernel; when no flag
 * needs the block (no UTF-8 check, no PCT_STRICT or %u), its whole vectors
 * are decoded straight from the input instead and its last bytes, fewer
 * than PCT_GENERIC_SCALAR_TAIL, go to the scalar routine. In place
 * (dst == src): a block's output starts no later than its input and is no
 * longer, and all its input is loaded before anything is stored.
 *
 * pct_normalize is left to the scalar routine.
 *
 * A batch of strings decoded as one buffer (generic/batch_decode.h) keeps each
 * block's '%' mask, which the test for runs of escapes computes anyway, as
 * the map its strings' output sizes are counted from.
 */
#include <string.h>

#include "impl.h"
#include "simd_shared/handover.h"
#include "scalar/hex.h"
#include "scalar/utf8.h"
#include "generic/vec_ops.h"
#include "generic/decode_vec.h"

/* The bytes a block reads beyond its 64: the digits of an escape at its end. */
#define PCT_GENERIC_AHEAD 2
/* With a UTF-8 check, whether a block whose bytes are all ASCII checks only
 * its first vector: a branch that text mixing ASCII and UTF-8 mispredicts,
 * worth it only where the check costs the most (four vectors a block). */
#define PCT_GENERIC_ASCII_BLOCKS (PCT_VEC_W == 16)
/* The last bytes of an input that go to the scalar routine rather than to a
 * zero-padded block, when no flag needs the block: on SSE4.2, fewer than a
 * vector and its digits; on AVX2, none (measured: a padded 32-byte vector
 * beats the scalar routine on up to 33 bytes of escapes). */
#define PCT_GENERIC_SCALAR_TAIL (PCT_VEC_W == 16 ? 16 + PCT_GENERIC_AHEAD : 1)

/* The '%' of the block at s that the scalar routine must see (PCT_STRICT:
 * every one that starts no escape; PCT_PERCENT_U: those followed by 'u'). */
PCT_VEC_INLINE uint64_t generic_decode_strays(const uint8_t *s, unsigned flags,
                                              const pct_vec_tables *t)
{
    uint64_t m = 0;
    for (int k = 0; k < PCT_VECS; k++) {
        const uint8_t *p = s + k * PCT_VEC_W;
        const pct_vec v1 = vec_load(p + 1);
        pct_vec stray =
            vec_and(vec_not_hex2(v1, vec_load(p + 2), t), vec_eq8(vec_load(p), vec_set1('%')));
        if (!(flags & PCT_STRICT))
            stray = vec_and(stray, vec_eq8(v1, vec_set1('u')));
        m |= vec_block_bits(vec_mask(stray), k);
    }
    return m;
}

/* Where the scalar routine takes over after the block at i: the next token,
 * after the digits the last block carried into this one. With a UTF-8 check,
 * the bytes written since `base` (where the kernel last started, at no
 * pending sequence) of an unfinished sequence are handed over as "held"
 * bytes, decoded again in front of the input that follows them. */
PCT_VEC_INLINE void generic_decode_stop(pct_decode_point *p, size_t i, uint64_t carry, uint8_t *out,
                                        const uint8_t *base, int check)
{
    p->at = i + (size_t)__builtin_popcountll(carry);
    p->out = out;
    p->held_len = 0;
    if (check) {
        const size_t m = (size_t)(out - base) < 3 ? (size_t)(out - base) : 3;
        p->held_len = pct_utf8_unfinished(out - m, m);
        p->out -= p->held_len;
        for (size_t k = 0; k < p->held_len; k++)
            p->held[k] = p->out[k];
    }
}

/* The '%' of src[from..len) (the last bytes, fewer than a block and its
 * digits) into words[from / 64...], from a multiple of 64. */
PCT_VEC_INLINE void generic_tail_percents(const uint8_t *src, size_t from, size_t len,
                                          uint64_t *words)
{
    for (size_t w = from / 64; w <= (len - 1) / 64; w++)
        words[w] = 0;
    for (size_t k = from; k < len; k++)
        words[k / 64] |= (uint64_t)(src[k] == '%') << (k % 64);
}

/* percent_words: NULL, or where each block's '%' mask goes (a word per 64
 * bytes of src); only with flags 0 or PCT_PLUS, no keep and no consumed,
 * and then no runs of escapes, so that every block starts at a multiple of
 * 64. */
PCT_VEC_INLINE pct_result generic_decode_body(const uint8_t *src, size_t len, uint8_t *dst,
                                              const pct_set *keep, unsigned flags, size_t *consumed,
                                              uint64_t *percent_words)
{
    const int final = consumed == NULL;
    const int check = (flags & (PCT_UTF8 | PCT_UTF8_REPLACE)) != 0;
    const pct_vec_tables tables = vec_tables_load();
    pct_vec_set kept_set;
    if (keep)
        kept_set = vec_set_load(keep);
    const pct_vec_set *kept = keep ? &kept_set : NULL;
    pct_decode_point p = {0, dst, {0, 0, 0}, 0, {{0, 0, 0}, {0, 0, 0}}};
    uint8_t *out = dst;
    const uint8_t *base = dst; /* where the kernel last (re)started */
    uint64_t carry = 0;        /* digits of the last block's last escape */
    size_t i = 0, window = PCT_WINDOW_MIN;
    /* The last, partial block, zero-padded; and its output. */
    uint8_t pad[64 + 2 * PCT_VEC_W], pad_out[64 + PCT_VEC_W];
    /* With a UTF-8 check: the output so far. */
    generic_utf8_state utf8 = {vec_zero(), vec_zero(), vec_zero(), vec_zero()};
    pct_result r;
    while (i < len) {
        size_t left = len - i;
        const int full = left >= 64 + PCT_GENERIC_AHEAD;
        if (!full && !final)
            break; /* the scalar routine decides what the next bytes may change */
        const uint8_t *s = src + i;
        if (!full && percent_words)
            generic_tail_percents(src, i, len, percent_words);
        if (!full) {
            if (!check && !(flags & (PCT_STRICT | PCT_PERCENT_U))) {
                /* Whole vectors straight from the input while they fit:
                 * loads of a padded copy would wait for its stores. */
                uint32_t c = (uint32_t)carry;
                while (len - i >= PCT_VEC_W + PCT_GENERIC_AHEAD) {
                    const generic_decoded d =
                        generic_decode_vec(src + i, &c, ~0u, kept, flags, &tables);
                    out = vec_compact_store(out, d.v, d.output);
                    i += PCT_VEC_W;
                }
                const size_t at = i + (size_t)__builtin_popcount(c); /* after the digits */
                if (len - at < PCT_GENERIC_SCALAR_TAIL) {
                    /* So few bytes: the scalar routine is cheaper than a
                     * zero-padded vector (its copies' loads wait for the
                     * stores). */
                    const pct_result tail =
                        pct_scalar_decode(src + at, len - at, out, keep, flags, NULL);
                    return (pct_result){tail.status, tail.status == PCT_OK
                                                         ? (size_t)(out - dst) + tail.count
                                                         : at + tail.count};
                }
                carry = c;
                left = len - i;
                s = src + i;
            }
            generic_pad_copy(pad, sizeof pad, s, left);
            s = pad;
        }
        if (full && percent_words) {
            percent_words[i / 64] = generic_percents(s);
        } else if (full) {
            const size_t from = (size_t)__builtin_popcountll(carry);
            if (((generic_percents(s) >> from) & PCT_GENERIC_DENSE_PERCENTS) ==
                PCT_GENERIC_DENSE_PERCENTS) {
                size_t j = i + from;
                uint8_t *o = out;
                generic_utf8_state dense_utf8 = utf8;
                if (check)
                    dense_utf8 = generic_utf8_state_at(out, base);
                pct_vec bytes;
                while (len - j >= 3 * PCT_VEC_W &&
                       vec_decode_dense(src + j, &bytes, kept, &tables)) {
                    if (check) {
                        generic_utf8_state next = dense_utf8;
                        if (generic_utf8_check(bytes, vec_zero(), (uint32_t)vec_low_bits(PCT_VEC_W),
                                               &next, &tables))
                            break; /* the block decoder finds it and hands over */
                        dense_utf8 = next;
                    }
                    vec_store(o, bytes);
                    j += 3 * PCT_VEC_W;
                    o += PCT_VEC_W;
                }
                if (j != i + from) {
                    if (check) {
                        utf8 = dense_utf8;
                        /* The last 16 escapes, for pct_decode_held_start. */
                        pct_decode_point_block(&p, j - 48, PCT_GENERIC_DENSE_PERCENTS, 16);
                    }
                    i = j;
                    out = o;
                    carry = 0;
                    window = PCT_WINDOW_MIN;
                    continue;
                }
            }
        }
        if ((flags & (PCT_STRICT | PCT_PERCENT_U)) && generic_decode_strays(s, flags, &tables))
            goto hand_over;
        const uint64_t valid = full ? ~0ull : vec_low_bits(left);
        uint32_t c = (uint32_t)carry;
        if (check) {
            /* Decoded and checked in registers; stored only when well-formed
             * (in place, the scalar routine may need the block's input). */
            generic_decoded d[PCT_VECS];
            uint32_t errors = 0;
            uint64_t output = 0;
            pct_vec any = vec_zero();
            for (int k = 0; k < PCT_VECS; k++) {
                d[k] =
                    generic_decode_vec(s + k * PCT_VEC_W, &c, (uint32_t)(valid >> (k * PCT_VEC_W)),
                                       kept, flags, &tables);
                any = vec_or(any, d[k].v);
                output |= vec_block_bits(d[k].output, k);
            }
            if (PCT_GENERIC_ASCII_BLOCKS && vec_mask(any) == 0) {
                /* ASCII only (the digits too): an error only where the first
                 * bytes end a sequence of the block before. After it, the
                 * bytes two back from the last vector's are ASCII too (a
                 * vector has more output than that): zeros stand for them. */
                errors = generic_utf8_check(d[0].v, d[0].e, d[0].output, &utf8, &tables);
                utf8.v = d[PCT_VECS - 1].v;
                utf8.p1 = utf8.p2 = vec_zero();
                utf8.e = d[PCT_VECS - 1].e;
            } else {
                for (int k = 0; k < PCT_VECS; k++)
                    errors |= generic_utf8_check(d[k].v, d[k].e, d[k].output, &utf8, &tables);
            }
            if (errors)
                goto hand_over;
            pct_decode_point_block(&p, i, output, (size_t)__builtin_popcountll(output));
            uint8_t *o = full ? out : pad_out;
            for (int k = 0; k < PCT_VECS; k++)
                o = vec_compact_store(o, d[k].v, d[k].output);
            if (full) {
                out = o;
            } else {
                generic_copy_short(out, pad_out, (size_t)(o - pad_out));
                out += o - pad_out;
            }
        } else if (full) {
            /* At most 64 bytes from out, which is at most i: within dst. */
            for (int k = 0; k < PCT_VECS; k++) {
                const generic_decoded d =
                    generic_decode_vec(s + k * PCT_VEC_W, &c, ~0u, kept, flags, &tables);
                out = vec_compact_store(out, d.v, d.output);
            }
        } else {
            uint8_t *o = pad_out;
            for (int k = 0; k < PCT_VECS && k * PCT_VEC_W < (int)left; k++) { /* then zeros */
                const generic_decoded d =
                    generic_decode_vec(s + k * PCT_VEC_W, &c, (uint32_t)(valid >> (k * PCT_VEC_W)),
                                       kept, flags, &tables);
                o = vec_compact_store(o, d.v, d.output);
            }
            generic_copy_short(out, pad_out, (size_t)(o - pad_out));
            out += o - pad_out;
        }
        carry = c;
        i += 64;
        window = PCT_WINDOW_MIN;
        continue;
    hand_over:
        generic_decode_stop(&p, i, carry, out, base, check);
        if (pct_decode_handover(src, len, dst, &p, keep, flags, consumed, window, &r))
            return r;
        out = p.out;
        base = out;
        i = p.at;
        carry = 0;
        utf8 = (generic_utf8_state){vec_zero(), vec_zero(), vec_zero(), vec_zero()};
        if (window < PCT_WINDOW_MAX)
            window *= 2;
    }
    if (final) {
        /* Every block is decoded; a sequence may still be unfinished. */
        if (!check)
            return (pct_result){PCT_OK, (size_t)(out - dst)};
        generic_decode_stop(&p, len, 0, out, base, check);
        if (p.held_len == 0)
            return (pct_result){PCT_OK, (size_t)(p.out - dst)};
    } else {
        generic_decode_stop(&p, i, carry, out, base, check);
    }
    while (!pct_decode_handover(src, len, dst, &p, keep, flags, consumed, SIZE_MAX, &r))
        continue;
    return r;
}

/* Defines pct_<isa>_decode: the common cases get their own copy of the body,
 * with the flags known, so their blocks carry no test of a flag they do not
 * have. */
#define PCT_GENERIC_DEFINE_DECODE(isa)                                                             \
    pct_result pct_##isa##_decode(const uint8_t *src, size_t len, uint8_t *dst,                    \
                                  const pct_set *keep, unsigned flags, size_t *consumed)           \
    {                                                                                              \
        if (flags & PCT_INTERNAL_NORMALIZE)                                                        \
            return pct_scalar_decode(src, len, dst, keep, flags, consumed);                        \
        if (keep == NULL && flags == 0)                                                            \
            return generic_decode_body(src, len, dst, NULL, 0, consumed, NULL);                    \
        if (keep == NULL && flags == PCT_PLUS)                                                     \
            return generic_decode_body(src, len, dst, NULL, PCT_PLUS, consumed, NULL);             \
        if (keep == NULL && flags == (PCT_STRICT | PCT_UTF8))                                      \
            return generic_decode_body(src, len, dst, NULL, PCT_STRICT | PCT_UTF8, consumed,       \
                                       NULL);                                                      \
        return generic_decode_body(src, len, dst, keep, flags, consumed, NULL);                    \
    }
