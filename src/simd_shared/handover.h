/* simd_shared/handover.h - where a SIMD kernel hands bytes to the scalar routine.
 *
 * The kernels (avx512/<op>_body.h, generic/<op>_body.h, compiled once per ISA) decode 64-byte
 * blocks and leave to the scalar reference what they do not do themselves: a malformed escape under
 * PCT_STRICT, %uXXXX escapes, an ill-formed UTF-8 sequence (its error offset or its U+FFFD), the
 * stray-'%' rule of pct_normalize, and the last bytes in partial (streaming) mode. This file is
 * compiled without ISA flags, once, for every ISA.
 */
#ifndef PCT_SIMD_SHARED_HANDOVER_H
#define PCT_SIMD_SHARED_HANDOVER_H

#include <stddef.h>
#include <stdint.h>

#include "impl.h"
#include "scalar/hex.h"
#include "scalar/utf8.h"

/* The window the scalar routine decodes before the kernel resumes: it starts
 * at PCT_WINDOW_MIN bytes and doubles while the kernel keeps handing over, so
 * text full of exceptions costs one scalar pass, not one hand-over per block. */
#define PCT_WINDOW_MIN 64
#define PCT_WINDOW_MAX 2048

/* A block that the kernel decoded: its input offset, which of its 64 input
 * bytes produced an output byte, and how many did. */
typedef struct pct_decode_block {
    size_t at;
    uint64_t keep;
    size_t count;
} pct_decode_block;

/* Where the kernel stands when it hands over. */
typedef struct pct_decode_point {
    size_t at;    /* input offset of the next token */
    uint8_t *out; /* where the held bytes were written (or the next byte goes) */
    /* The bytes written of a UTF-8 sequence that is not finished (only with
     * PCT_UTF8 or PCT_UTF8_REPLACE; avx512/decode_body.h: decode_stop), and
     * the last two blocks that produced output, to find the input offset
     * where it starts (a last, partial block may have produced fewer bytes
     * than are held). */
    uint8_t held[3];
    size_t held_len;
    pct_decode_block blocks[2]; /* the last one first */
} pct_decode_point;

/* Remembers a block that wrote output (the last two are kept). */
static inline void pct_decode_point_block(pct_decode_point *p, size_t at, uint64_t keep,
                                          size_t count)
{
    p->blocks[1] = p->blocks[0];
    p->blocks[0].at = at;
    p->blocks[0].keep = keep;
    p->blocks[0].count = count;
}

/* The input offset where the held bytes' sequence starts. */
size_t pct_decode_held_start(const pct_decode_point *p);

/* Decodes from p->at by the scalar routine: `window` bytes (all the rest when
 * fewer remain), preceded by the held bytes. Returns 0 with p->at and p->out
 * advanced past what was decoded (a token boundary with no UTF-8 sequence
 * pending), or 1 when the call is over: *r is then its result (an error with
 * its input offset, or PCT_OK with the whole output count from dst, and
 * *consumed set in partial mode). */
int pct_decode_handover(const uint8_t *src, size_t len, uint8_t *dst, pct_decode_point *p,
                        const pct_set *keep, unsigned flags, size_t *consumed, size_t window,
                        pct_result *r);

/* The end of an encoder kernel (avx512/encode_body.h, generic/encode_body.h):
 * the blocks encoded src[0..i) to dst[0..out) (i may run past len), `carry`
 * holds the digits of a kept escape (PCT_KEEP_ESCAPES) that the last block
 * carried into the next. The scalar routine takes the rest from a token
 * boundary with no UTF-8 sequence pending: before that escape (its '%' and
 * first digit were written as they are), or before an unfinished sequence
 * at i (each of its bytes written alone: 3 bytes if in the set, else 1);
 * it then decides the tail exactly as in one pass, including what partial
 * mode (consumed != NULL) holds back. Returns the call's result. */
static inline pct_result pct_encode_handover(const uint8_t *src, size_t len, uint8_t *dst, size_t i,
                                             uint8_t *out, uint64_t carry, const pct_set *set,
                                             unsigned flags, size_t *consumed)
{
    if (i >= len) {
        i = len;
        carry = 0;
    }
    if (carry) {
        const size_t written = 3 - (size_t)__builtin_popcountll(carry);
        i -= written;
        out -= written;
    } else if (flags & PCT_UTF8) {
        for (size_t back = pct_utf8_unfinished(src, i); back > 0; back--) {
            i--;
            out -= pct_in_set(set, src[i]) ? 3 : 1;
        }
    }
    if (i == len && consumed == NULL)
        return (pct_result){PCT_OK, (size_t)(out - dst)};
    pct_result r = pct_scalar_encode(src + i, len - i, out, set, flags, consumed);
    if (r.status != PCT_OK)
        r.count += i;
    else
        r.count += (size_t)(out - dst);
    if (consumed != NULL && r.status == PCT_OK)
        *consumed += i;
    return r;
}

/* The end of a validator kernel: the blocks validated src[0..at) (at: the
 * next token) and counted `count` output bytes; p->held_len of them (with a
 * UTF-8 check) end in an unfinished sequence, which the scalar routine
 * validates again from its start. Returns the call's result. */
static inline pct_result pct_validate_handover(const uint8_t *src, size_t len, size_t at,
                                               size_t count, const pct_decode_point *p,
                                               const pct_set *set, unsigned flags)
{
    if (p->held_len) {
        at = pct_decode_held_start(p);
        count -= p->held_len;
    }
    if (at == len)
        return (pct_result){PCT_OK, count};
    pct_result r = pct_scalar_validate(src + at, len - at, set, flags);
    r.count += r.status == PCT_OK ? count : at;
    return r;
}

#endif /* PCT_SIMD_SHARED_HANDOVER_H */
