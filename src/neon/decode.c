/* neon/decode.c - NEON percent-decoder (pct_decode, pct_decode_except, and
 * the streaming decoder's core).
 *
 * Sixteen input bytes at a time, with the two after them, so that an escape
 * starting in lane 14 or 15 is seen whole:
 *
 *   c0, c1, c2 = the 16 bytes at src + i, src + i + 1, src + i + 2
 *   starts     = c0 == '%' && hex(c1) && hex(c2)   the escapes (neon/neon.h),
 *                minus those whose byte is in keep  (copied as written)
 *   value      = hex(c1) << 4 | hex(c2)             the byte, in its '%' lane
 *   out        = starts ? value : c0                ('+' -> ' ' with PCT_PLUS)
 *   digits     = the two lanes after each start     dropped
 *
 * A block without '%' is stored whole. Otherwise the lanes that stay are
 * packed eight at a time: pack_lanes[m] lists the lanes set in the 8-bit mask
 * m, vqtbl1_u8 gathers them and one 8-byte store writes them (the bytes past
 * them are overwritten by the next store). An escape starting in lane 14 or
 * 15 ends among the next bytes: the next block starts after it.
 *
 * Output never runs ahead of input, and every store ends at or before the end
 * of the block just loaded (o <= i, so o + 16 <= i + 16 <= len): dst == src
 * works, and dst needs no more than its documented len bytes. (With
 * PCT_UTF8_REPLACE, o <= 3 * i, and dst has 3 * len bytes and is not src.)
 *
 * Not for blocks: a '%' that starts no escape under PCT_STRICT (an error) or
 * PCT_PERCENT_U (maybe %uXXXX), and under PCT_UTF8 / PCT_UTF8_REPLACE any
 * output byte >= 0x80 (UTF-8 to check; ASCII needs none). Such a block goes to
 * the scalar decoder for a stretch, in partial mode: it stops between tokens
 * with no UTF-8 sequence pending, where blocks can resume, exactly as a
 * streaming call would. Normalize mode and inputs shorter than 18 bytes go to
 * the scalar decoder whole, and the tail after the last block does too.
 */
#include <string.h>

#include "neon/neon.h"

/* Bytes the scalar decoder takes from a block it must handle. More than
 * PCT_MAX_UNCONSUMED, so each stretch makes progress; long enough to
 * amortise the call over escaped multi-byte text. */
#define STRETCH 64

/* pack_lanes[m]: byte r is the lane of the r-th bit set in m (lanes 0-7),
 * 0 past the last. Generated:
 *   [sum(k << 8 * r for r, k in enumerate(k for k in range(8) if m >> k & 1))
 *    for m in range(256)] */
static const uint64_t pack_lanes[256] = {
    0x0000000000000000, 0x0000000000000000, 0x0000000000000001, 0x0000000000000100,
    0x0000000000000002, 0x0000000000000200, 0x0000000000000201, 0x0000000000020100,
    0x0000000000000003, 0x0000000000000300, 0x0000000000000301, 0x0000000000030100,
    0x0000000000000302, 0x0000000000030200, 0x0000000000030201, 0x0000000003020100,
    0x0000000000000004, 0x0000000000000400, 0x0000000000000401, 0x0000000000040100,
    0x0000000000000402, 0x0000000000040200, 0x0000000000040201, 0x0000000004020100,
    0x0000000000000403, 0x0000000000040300, 0x0000000000040301, 0x0000000004030100,
    0x0000000000040302, 0x0000000004030200, 0x0000000004030201, 0x0000000403020100,
    0x0000000000000005, 0x0000000000000500, 0x0000000000000501, 0x0000000000050100,
    0x0000000000000502, 0x0000000000050200, 0x0000000000050201, 0x0000000005020100,
    0x0000000000000503, 0x0000000000050300, 0x0000000000050301, 0x0000000005030100,
    0x0000000000050302, 0x0000000005030200, 0x0000000005030201, 0x0000000503020100,
    0x0000000000000504, 0x0000000000050400, 0x0000000000050401, 0x0000000005040100,
    0x0000000000050402, 0x0000000005040200, 0x0000000005040201, 0x0000000504020100,
    0x0000000000050403, 0x0000000005040300, 0x0000000005040301, 0x0000000504030100,
    0x0000000005040302, 0x0000000504030200, 0x0000000504030201, 0x0000050403020100,
    0x0000000000000006, 0x0000000000000600, 0x0000000000000601, 0x0000000000060100,
    0x0000000000000602, 0x0000000000060200, 0x0000000000060201, 0x0000000006020100,
    0x0000000000000603, 0x0000000000060300, 0x0000000000060301, 0x0000000006030100,
    0x0000000000060302, 0x0000000006030200, 0x0000000006030201, 0x0000000603020100,
    0x0000000000000604, 0x0000000000060400, 0x0000000000060401, 0x0000000006040100,
    0x0000000000060402, 0x0000000006040200, 0x0000000006040201, 0x0000000604020100,
    0x0000000000060403, 0x0000000006040300, 0x0000000006040301, 0x0000000604030100,
    0x0000000006040302, 0x0000000604030200, 0x0000000604030201, 0x0000060403020100,
    0x0000000000000605, 0x0000000000060500, 0x0000000000060501, 0x0000000006050100,
    0x0000000000060502, 0x0000000006050200, 0x0000000006050201, 0x0000000605020100,
    0x0000000000060503, 0x0000000006050300, 0x0000000006050301, 0x0000000605030100,
    0x0000000006050302, 0x0000000605030200, 0x0000000605030201, 0x0000060503020100,
    0x0000000000060504, 0x0000000006050400, 0x0000000006050401, 0x0000000605040100,
    0x0000000006050402, 0x0000000605040200, 0x0000000605040201, 0x0000060504020100,
    0x0000000006050403, 0x0000000605040300, 0x0000000605040301, 0x0000060504030100,
    0x0000000605040302, 0x0000060504030200, 0x0000060504030201, 0x0006050403020100,
    0x0000000000000007, 0x0000000000000700, 0x0000000000000701, 0x0000000000070100,
    0x0000000000000702, 0x0000000000070200, 0x0000000000070201, 0x0000000007020100,
    0x0000000000000703, 0x0000000000070300, 0x0000000000070301, 0x0000000007030100,
    0x0000000000070302, 0x0000000007030200, 0x0000000007030201, 0x0000000703020100,
    0x0000000000000704, 0x0000000000070400, 0x0000000000070401, 0x0000000007040100,
    0x0000000000070402, 0x0000000007040200, 0x0000000007040201, 0x0000000704020100,
    0x0000000000070403, 0x0000000007040300, 0x0000000007040301, 0x0000000704030100,
    0x0000000007040302, 0x0000000704030200, 0x0000000704030201, 0x0000070403020100,
    0x0000000000000705, 0x0000000000070500, 0x0000000000070501, 0x0000000007050100,
    0x0000000000070502, 0x0000000007050200, 0x0000000007050201, 0x0000000705020100,
    0x0000000000070503, 0x0000000007050300, 0x0000000007050301, 0x0000000705030100,
    0x0000000007050302, 0x0000000705030200, 0x0000000705030201, 0x0000070503020100,
    0x0000000000070504, 0x0000000007050400, 0x0000000007050401, 0x0000000705040100,
    0x0000000007050402, 0x0000000705040200, 0x0000000705040201, 0x0000070504020100,
    0x0000000007050403, 0x0000000705040300, 0x0000000705040301, 0x0000070504030100,
    0x0000000705040302, 0x0000070504030200, 0x0000070504030201, 0x0007050403020100,
    0x0000000000000706, 0x0000000000070600, 0x0000000000070601, 0x0000000007060100,
    0x0000000000070602, 0x0000000007060200, 0x0000000007060201, 0x0000000706020100,
    0x0000000000070603, 0x0000000007060300, 0x0000000007060301, 0x0000000706030100,
    0x0000000007060302, 0x0000000706030200, 0x0000000706030201, 0x0000070603020100,
    0x0000000000070604, 0x0000000007060400, 0x0000000007060401, 0x0000000706040100,
    0x0000000007060402, 0x0000000706040200, 0x0000000706040201, 0x0000070604020100,
    0x0000000007060403, 0x0000000706040300, 0x0000000706040301, 0x0000070604030100,
    0x0000000706040302, 0x0000070604030200, 0x0000070604030201, 0x0007060403020100,
    0x0000000000070605, 0x0000000007060500, 0x0000000007060501, 0x0000000706050100,
    0x0000000007060502, 0x0000000706050200, 0x0000000706050201, 0x0000070605020100,
    0x0000000007060503, 0x0000000706050300, 0x0000000706050301, 0x0000070605030100,
    0x0000000706050302, 0x0000070605030200, 0x0000070605030201, 0x0007060503020100,
    0x0000000007060504, 0x0000000706050400, 0x0000000706050401, 0x0000070605040100,
    0x0000000706050402, 0x0000070605040200, 0x0000070605040201, 0x0007060504020100,
    0x0000000706050403, 0x0000070605040300, 0x0000070605040301, 0x0007060504030100,
    0x0000070605040302, 0x0007060504030200, 0x0007060504030201, 0x0706050403020100,
};

/* Writes the lanes of out not in drop (one bit per lane), in order; returns
 * how many. The stores reach 16 bytes from dst whatever the count. */
static inline size_t pack(uint8_t *dst, uint8x16_t out, unsigned drop)
{
    const unsigned low = ~drop & 0xFF, high = (~drop >> 8) & 0xFF;
    vst1_u8(dst, vqtbl1_u8(out, vcreate_u8(pack_lanes[low])));
    const size_t n = (size_t)__builtin_popcount(low);
    vst1_u8(dst + n, vqtbl1_u8(out, vadd_u8(vcreate_u8(pack_lanes[high]), vdup_n_u8(8))));
    return n + (size_t)__builtin_popcount(high);
}

pct_result pct_neon_decode(const uint8_t *src, size_t len, uint8_t *dst, const pct_set *keep,
                           unsigned flags, size_t *consumed)
{
    if ((flags & PCT_INTERNAL_NORMALIZE) || len < 18)
        return pct_scalar_decode(src, len, dst, keep, flags, consumed);
    const int plus = (flags & PCT_PLUS) != 0;
    const int check_utf8 = (flags & (PCT_UTF8 | PCT_UTF8_REPLACE)) != 0;
    uint8x16x2_t keep_set;
    keep_set.val[0] = keep_set.val[1] = vdupq_n_u8(0);
    if (keep)
        keep_set = pct_neon_load_set(keep);
    size_t i = 0, o = 0;
    /* len - i >= 18: the loads at src + i + 2 stay inside src. */
    while (len - i >= 18) {
        const uint8x16_t c0 = vld1q_u8(src + i);
        const uint8x16_t percent = vceqq_u8(c0, vdupq_n_u8('%'));
        const uint8x16_t literal =
            plus ? vbslq_u8(vceqq_u8(c0, vdupq_n_u8('+')), vdupq_n_u8(' '), c0) : c0;
        if (pct_neon_nibbles(percent) == 0) {
            if (!check_utf8 || vmaxvq_u8(c0) < 0x80) {
                vst1q_u8(dst + o, literal);
                i += 16;
                o += 16;
                continue;
            }
        } else {
            const uint8x16_t c1 = vld1q_u8(src + i + 1), c2 = vld1q_u8(src + i + 2);
            const uint8x16_t well_formed = pct_neon_escape_starts(c0, c1, c2);
            const uint8x16_t value = pct_neon_escape_value(c1, c2);
            uint8x16_t starts = well_formed;
            if (keep)
                starts = vbicq_u8(starts, pct_neon_in_set(keep_set, value));
            /* A '%' that starts no escape is copied, unless PCT_STRICT makes
             * it an error or PCT_PERCENT_U may read it as %uXXXX. */
            uint8x16_t stray = vbicq_u8(percent, well_formed);
            if (!(flags & PCT_STRICT))
                stray = (flags & PCT_PERCENT_U) ? vandq_u8(stray, vceqq_u8(c1, vdupq_n_u8('u')))
                                                : vdupq_n_u8(0);
            const int ascii =
                !check_utf8 || vmaxvq_u8(vorrq_u8(c0, vandq_u8(starts, value))) < 0x80;
            if (ascii && pct_neon_nibbles(stray) == 0) {
                const uint8x16_t out = vbslq_u8(starts, value, literal);
                o += pack(dst + o, out,
                          pct_neon_bits(pct_neon_escape_digits(vdupq_n_u8(0), starts)));
                i += 16 + pct_neon_digits_after(starts);
                continue;
            }
        }
        if (len - i <= STRETCH)
            break; /* the tail below takes the rest */
        /* Through a buffer: in partial mode the scalar decoder also writes
         * the output of a UTF-8 sequence it then holds back, which in place
         * would overwrite input the next block has yet to read. */
        uint8_t staged[3 * STRETCH]; /* PCT_UTF8_REPLACE writes up to 3 bytes a byte */
        size_t used;
        pct_result r = pct_scalar_decode(src + i, STRETCH, staged, keep, flags, &used);
        if (r.status != PCT_OK) {
            r.count += i;
            return r;
        }
        memcpy(dst + o, staged, r.count);
        i += used;
        o += r.count;
    }
    size_t used = 0;
    pct_result r =
        pct_scalar_decode(src + i, len - i, dst + o, keep, flags, consumed ? &used : NULL);
    if (r.status != PCT_OK) {
        r.count += i;
        return r;
    }
    if (consumed)
        *consumed = i + used;
    r.count += o;
    return r;
}
