/* x86/decode_body.h - the percent-decoder of the x86 implementations without
 * AVX-512 (SSE4.2, AVX2), written once over the ISA's vec.h (included first)
 * and compiled per width. It is the algorithm of kernel/decode_body.h, a
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
 *     stored, and with PCT_UTF8/PCT_UTF8_REPLACE checked as UTF-8 first.
 *
 * No branch depends on the text but the hand-over to the scalar routine
 * (kernel/handover.c), rare on real text, and one for runs of escapes only
 * ("%E3%81%82..."), taken block after block or not at all: those are decoded
 * by fixed shuffles (x86/common.h: vec_decode_dense), twice as fast. A block
 * with nothing to decode goes through the compaction like any other: on
 * text with an escape every few dozen bytes, whether a block has one is a
 * coin toss, and a mispredicted branch costs more than the compaction.
 *
 * The last block (fewer than 66 bytes left) is decoded from a zero-padded
 * copy into a buffer, so no input is too short for the kernel. In place
 * (dst == src): a block's output starts no later than its input and is no
 * longer, and all its input is loaded before anything is stored.
 *
 * pct_normalize is left to the scalar routine.
 */
#include <string.h>

#include "impl.h"
#include "kernel/handover.h"
#include "scalar/hex.h"
#include "scalar/utf8.h"
#include "x86/common.h"

/* The bytes a block reads beyond its 64: the digits of an escape at its end. */
#define PCT_X86_AHEAD 2
/* The '%' of 16 escapes in a row from bit 0 (0, 3, ..., 45). */
#define PCT_X86_DENSE_PERCENTS 0x249249249249ull

/* The '%' of the block at s that the scalar routine must see (PCT_STRICT:
 * every one that starts no escape; PCT_PERCENT_U: those followed by 'u'). */
PCT_VEC_INLINE uint64_t x86_decode_strays(const uint8_t *s, unsigned flags, const pct_vec_tables *t)
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

/* Decodes the vector at p, `valid` its bytes that are input, and stores its
 * output at *out: the escapes' bytes at their '%', every byte but their
 * digits (and the *carry digits of the vector before). Returns the bytes
 * that gave output. */
PCT_VEC_INLINE uint32_t x86_decode_vec(const uint8_t *p, uint8_t **out, uint32_t *carry,
                                       uint32_t valid, const pct_vec_set *keep, unsigned flags,
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
    const uint32_t output =
        ~((uint32_t)digits | *carry) & valid & (uint32_t)vec_low_bits(PCT_VEC_W);
    *out = vec_compact_store(*out, vec_blendv(text, bytes, e), output);
    *carry = (uint32_t)(digits >> PCT_VEC_W);
    return output;
}

/* The '%' in the block at s (full blocks only). */
PCT_VEC_INLINE uint64_t x86_percents(const uint8_t *s)
{
    uint64_t m = 0;
    for (int k = 0; k < PCT_VECS; k++)
        m |= vec_block_bits(vec_mask(vec_eq8(vec_load(s + k * PCT_VEC_W), vec_set1('%'))), k);
    return m;
}

/* Where the scalar routine takes over after the block at i: the next token,
 * after the digits the last block carried into this one. With a UTF-8 check,
 * the bytes written since `base` (where the kernel last started, at no
 * pending sequence) of an unfinished sequence are handed over as "held"
 * bytes, decoded again in front of the input that follows them. */
PCT_VEC_INLINE void x86_decode_stop(pct_decode_point *p, size_t i, uint64_t carry, uint8_t *out,
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

PCT_VEC_INLINE pct_result x86_decode_body(const uint8_t *src, size_t len, uint8_t *dst,
                                          const pct_set *keep, unsigned flags, size_t *consumed)
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
    uint8_t pad[64 + PCT_X86_AHEAD + PCT_VEC_W], pad_out[64 + PCT_VEC_W];
    /* With a UTF-8 check: the last PCT_VEC_W bytes written (zeros at a
     * start), then a block's output, checked before it is stored. */
    uint8_t unit[PCT_VEC_W + 64 + PCT_VEC_W];
    pct_result r;
    if (check)
        vec_store(unit, vec_zero());
    while (i < len) {
        const size_t left = len - i;
        const int full = left >= 64 + PCT_X86_AHEAD;
        if (!full && !final)
            break; /* the scalar routine decides what the next bytes may change */
        const uint8_t *s = src + i;
        if (!full) {
            memset(pad, 0, sizeof pad);
            memcpy(pad, s, left);
            s = pad;
        }
        if (full && !check) {
            const size_t from = (size_t)__builtin_popcountll(carry);
            if (((x86_percents(s) >> from) & PCT_X86_DENSE_PERCENTS) == PCT_X86_DENSE_PERCENTS) {
                size_t j = i + from;
                uint8_t *o = out;
                while (len - j >= 3 * PCT_VEC_W && vec_decode_dense(src + j, o, kept, &tables)) {
                    j += 3 * PCT_VEC_W;
                    o += PCT_VEC_W;
                }
                if (j != i + from) {
                    i = j;
                    out = o;
                    carry = 0;
                    window = PCT_WINDOW_MIN;
                    continue;
                }
            }
        }
        if ((flags & (PCT_STRICT | PCT_PERCENT_U)) && x86_decode_strays(s, flags, &tables))
            goto hand_over;
        const uint64_t valid = full ? ~0ull : vec_low_bits(left);
        uint32_t c = (uint32_t)carry;
        if (check) {
            uint8_t *u = unit + PCT_VEC_W;
            uint64_t output = 0;
            for (int k = 0; k < PCT_VECS; k++)
                output |= vec_block_bits(x86_decode_vec(s + k * PCT_VEC_W, &u, &c,
                                                        (uint32_t)(valid >> (k * PCT_VEC_W)), kept,
                                                        flags, &tables),
                                         k);
            const size_t n = (size_t)(u - (unit + PCT_VEC_W));
            uint64_t errors = 0;
            for (int k = 0; k < PCT_VECS; k++)
                errors |= vec_block_bits(
                    ~vec_mask(
                        vec_eq8(vec_utf8_errors(unit + PCT_VEC_W * (k + 1), &tables), vec_zero())) &
                        (uint32_t)vec_low_bits(PCT_VEC_W),
                    k);
            if (errors & vec_low_bits(n))
                goto hand_over;
            pct_decode_point_block(&p, i, output, n);
            if (full) {
                for (int k = 0; k < PCT_VECS; k++)
                    vec_store(out + k * PCT_VEC_W, vec_load(unit + PCT_VEC_W * (k + 1)));
            } else {
                memcpy(out, unit + PCT_VEC_W, n);
            }
            vec_store(unit, vec_load(unit + n));
            out += n;
        } else if (full) {
            /* At most 64 bytes from out, which is at most i: within dst. */
            for (int k = 0; k < PCT_VECS; k++)
                x86_decode_vec(s + k * PCT_VEC_W, &out, &c, ~0u, kept, flags, &tables);
        } else {
            uint8_t *o = pad_out;
            for (int k = 0; k < PCT_VECS; k++)
                x86_decode_vec(s + k * PCT_VEC_W, &o, &c, (uint32_t)(valid >> (k * PCT_VEC_W)),
                               kept, flags, &tables);
            memcpy(out, pad_out, (size_t)(o - pad_out));
            out += o - pad_out;
        }
        carry = c;
        i += 64;
        window = PCT_WINDOW_MIN;
        continue;
    hand_over:
        x86_decode_stop(&p, i, carry, out, base, check);
        if (pct_decode_handover(src, len, dst, &p, keep, flags, consumed, window, &r))
            return r;
        out = p.out;
        base = out;
        i = p.at;
        carry = 0;
        if (check)
            vec_store(unit, vec_zero());
        if (window < PCT_WINDOW_MAX)
            window *= 2;
    }
    if (final) {
        /* Every block is decoded; a sequence may still be unfinished. */
        if (!check)
            return (pct_result){PCT_OK, (size_t)(out - dst)};
        x86_decode_stop(&p, len, 0, out, base, check);
        if (p.held_len == 0)
            return (pct_result){PCT_OK, (size_t)(p.out - dst)};
    } else {
        x86_decode_stop(&p, i, carry, out, base, check);
    }
    while (!pct_decode_handover(src, len, dst, &p, keep, flags, consumed, SIZE_MAX, &r))
        continue;
    return r;
}

/* Defines pct_<isa>_decode: the common cases get their own copy of the body,
 * with the flags known, so their blocks carry no test of a flag they do not
 * have. */
#define PCT_X86_DEFINE_DECODE(isa)                                                                 \
    pct_result pct_##isa##_decode(const uint8_t *src, size_t len, uint8_t *dst,                    \
                                  const pct_set *keep, unsigned flags, size_t *consumed)           \
    {                                                                                              \
        if (flags & PCT_INTERNAL_NORMALIZE)                                                        \
            return pct_scalar_decode(src, len, dst, keep, flags, consumed);                        \
        if (keep == NULL && flags == 0)                                                            \
            return x86_decode_body(src, len, dst, NULL, 0, consumed);                              \
        if (keep == NULL && flags == PCT_PLUS)                                                     \
            return x86_decode_body(src, len, dst, NULL, PCT_PLUS, consumed);                       \
        if (keep == NULL && flags == (PCT_STRICT | PCT_UTF8))                                      \
            return x86_decode_body(src, len, dst, NULL, PCT_STRICT | PCT_UTF8, consumed);          \
        return x86_decode_body(src, len, dst, keep, flags, consumed);                              \
    }
