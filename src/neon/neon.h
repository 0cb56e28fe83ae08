/* neon/neon.h - what the NEON kernels share: the intrinsics, classifying
 * bytes against a pct_set, recognising escapes, and lane masks.
 *
 * The same source is built natively on AArch64 (implementation "neon") and,
 * on every other host, against SIMDe's portable emulation of the intrinsics
 * ("neon-simde", -DPCT_NEON_SIMDE=1), so the NEON logic is differential-tested
 * on any machine. SIMDe 0.7.4 lacks vsliq_n_u8, vshrn_high_n_u16 and
 * vst1q_u8_x4: the kernels use none of them.
 */
#ifndef PCT_NEON_NEON_H
#define PCT_NEON_NEON_H

/* AArch64 only: 32-bit Arm NEON has no vqtbl*q table lookups, so it takes
 * the SIMDe path too, where SIMDe supplies them. */
#if defined(__ARM_NEON) && (defined(__aarch64__) || defined(_M_ARM64))
#include <arm_neon.h>
#else
#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/arm/neon.h>
#endif

#include <stddef.h>
#include <stdint.h>

#include "impl.h"

PCT_DECLARE_KERNELS(neon);

/* ------------------------------------------------------------------------ */
/* Set membership                                                            */
/* ------------------------------------------------------------------------ */

/* pct_set.bits is already the table NEON wants: byte b is in the set when bit
 * (b & 7) of bits[b >> 3] is set, and b >> 3 (0-31) indexes a 32-byte table
 * held in two registers:
 *
 *     row = vqtbl2q_u8(bits, b >> 3)      the set's byte for b
 *     bit = 1 << (b & 7)                  vshlq_u8 by a per-lane count
 *     in  = vtstq_u8(row, bit)            0xFF where b is in the set
 *
 * Any set works, user-built ones included; loading it costs two loads. */
static inline uint8x16x2_t pct_neon_load_set(const pct_set *set)
{
    uint8x16x2_t table;
    table.val[0] = vld1q_u8(set->bits);
    table.val[1] = vld1q_u8(set->bits + 16);
    return table;
}

/* 0xFF in each lane of b whose byte is in the set, 0 elsewhere. */
static inline uint8x16_t pct_neon_in_set(uint8x16x2_t set, uint8x16_t b)
{
    const uint8x16_t row = vqtbl2q_u8(set, vshrq_n_u8(b, 3));
    const int8x16_t shift = vreinterpretq_s8_u8(vandq_u8(b, vdupq_n_u8(7)));
    const uint8x16_t bit = vshlq_u8(vdupq_n_u8(1), shift);
    return vtstq_u8(row, bit);
}

/* ------------------------------------------------------------------------ */
/* Escapes                                                                   */
/* ------------------------------------------------------------------------ */

/* 0xFF in the lanes holding an ASCII hex digit (either case). */
static inline uint8x16_t pct_neon_is_hex(uint8x16_t c)
{
    /* Unsigned wrap-around turns each range test into one compare. */
    const uint8x16_t digit = vcltq_u8(vsubq_u8(c, vdupq_n_u8('0')), vdupq_n_u8(10));
    const uint8x16_t lower = vorrq_u8(c, vdupq_n_u8(0x20)); /* 'A'-'F' -> 'a'-'f' */
    const uint8x16_t letter = vcltq_u8(vsubq_u8(lower, vdupq_n_u8('a')), vdupq_n_u8(6));
    return vorrq_u8(digit, letter);
}

/* The value of each hex digit lane; other lanes get garbage. '0'-'9' are
 * 0x30-0x39 and 'A'-'F' / 'a'-'f' are 0x41-0x46 / 0x61-0x66: the low nibble,
 * plus 9 for letters (the only digits with bit 6 set). */
static inline uint8x16_t pct_neon_hex_value(uint8x16_t c)
{
    const uint8x16_t nibble = vandq_u8(c, vdupq_n_u8(15));
    const uint8x16_t letter = vtstq_u8(c, vdupq_n_u8(0x40));
    return vaddq_u8(nibble, vandq_u8(letter, vdupq_n_u8(9)));
}

/* The byte each escape stands for, in the lane of its '%' (c1, c2: the 16
 * bytes one and two after the block). */
static inline uint8x16_t pct_neon_escape_value(uint8x16_t c1, uint8x16_t c2)
{
    return vorrq_u8(vshlq_n_u8(pct_neon_hex_value(c1), 4), pct_neon_hex_value(c2));
}

/* 0xFF in the lanes where a well-formed escape %HH starts; c0, c1, c2 are the
 * 16 bytes at src, src + 1 and src + 2. Escapes found this way never overlap
 * (a hex digit is never '%'), so every lane found starts one: the same
 * escapes the scalar left-to-right scan finds. */
static inline uint8x16_t pct_neon_escape_starts(uint8x16_t c0, uint8x16_t c1, uint8x16_t c2)
{
    const uint8x16_t percent = vceqq_u8(c0, vdupq_n_u8('%'));
    return vandq_u8(percent, vandq_u8(pct_neon_is_hex(c1), pct_neon_is_hex(c2)));
}

/* The two lanes after each escape start, where its hex digits are; lanes
 * before the block (an escape in the previous block) come from prev. */
static inline uint8x16_t pct_neon_escape_digits(uint8x16_t prev, uint8x16_t starts)
{
    return vorrq_u8(vextq_u8(prev, starts, 15), vextq_u8(prev, starts, 14));
}

/* ------------------------------------------------------------------------ */
/* Lane masks (vectors of 0x00 / 0xFF lanes) as integers                     */
/* ------------------------------------------------------------------------ */

/* Four bits per lane, lane k in bits 4k to 4k+3: narrowing each 16-bit pair
 * by 4 keeps one nibble of each byte. NEON has no movemask; this is the
 * cheapest stand-in when only "any lane?" or "which lane first?" matters. */
static inline uint64_t pct_neon_nibbles(uint8x16_t mask)
{
    return vget_lane_u64(vreinterpret_u64_u8(vshrn_n_u16(vreinterpretq_u16_u8(mask), 4)), 0);
}

/* The first lane set in a non-zero nibble mask. */
static inline unsigned pct_neon_first_lane(uint64_t nibbles)
{
    return (unsigned)__builtin_ctzll(nibbles) >> 2;
}

/* One bit per lane, lane k in bit k: for masks that index tables. Weight
 * each lane by its bit, then three pairwise additions sum each 8 lanes. */
static inline unsigned pct_neon_bits(uint8x16_t mask)
{
    static const uint8_t weight[16] = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
    uint8x16_t sum = vandq_u8(mask, vld1q_u8(weight));
    sum = vpaddq_u8(sum, sum);
    sum = vpaddq_u8(sum, sum);
    sum = vpaddq_u8(sum, sum);
    return vgetq_lane_u8(sum, 0) | (unsigned)vgetq_lane_u8(sum, 1) << 8;
}

/* How many of the bytes after a block belong to an escape that starts in
 * its last two lanes: 2 (lane 15), 1 (lane 14) or 0. */
static inline size_t pct_neon_digits_after(uint8x16_t starts)
{
    const uint64_t last = pct_neon_nibbles(starts) >> 56; /* lanes 14 and 15 */
    return last >> 4 ? 2 : last ? 1 : 0;
}

#endif /* PCT_NEON_NEON_H */
