/* neon/vec.h - the vector interface of the generic kernel bodies
 * (generic/<op>_body.h, generic/vec_ops.h; each primitive described in
 * sse42/vec.h) for AArch64 NEON: a vector is one 16-byte q register (one
 * lane), a 64-byte block four of them.
 *
 * NEON has no movemask: vec_mask takes each byte's top bit, shifts it to its
 * bit position within its half and adds each half across (two addv). pshufb
 * is tbl with the index masked to 0x8F, so that an index with bit 7 clear
 * picks t[i & 15] as pshufb does; vec_lookup, whose indices are nibbles or
 * 0x80, needs no mask (tbl gives 0 for an index past 15).
 *
 * The same source is built natively on AArch64 (implementation "neon") and,
 * on every other little-endian host, against SIMDe's emulation of the
 * intrinsics ("neon-simde", -DPCT_NEON_SIMDE=1), so the NEON build of the
 * bodies is differential-tested on any machine.
 */
#ifndef PCT_NEON_VEC_H
#define PCT_NEON_VEC_H

/* AArch64 only: 32-bit Arm NEON has no vqtbl1q_u8, so it takes the SIMDe
 * path, where SIMDe supplies it. */
#if defined(__ARM_NEON) && (defined(__aarch64__) || defined(_M_ARM64))
#include <arm_neon.h>
#else
#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/arm/neon.h>
#endif

#include <stddef.h>
#include <stdint.h>

#include "simd_shared/tables.h"

typedef uint8x16_t pct_vec;

#define PCT_VEC_W 16
#define PCT_VEC_INLINE static inline __attribute__((always_inline))

#define PCT_VEC_LANES_TABLE(...)                                                                   \
    {                                                                                              \
        __VA_ARGS__                                                                                \
    }

PCT_VEC_INLINE pct_vec vec_load(const uint8_t *p)
{
    return vld1q_u8(p);
}

PCT_VEC_INLINE void vec_store(uint8_t *p, pct_vec v)
{
    vst1q_u8(p, v);
}

PCT_VEC_INLINE void vec_store_lanes3(uint8_t *p, pct_vec a, pct_vec b, pct_vec c)
{
    vec_store(p, a);
    vec_store(p + 16, b);
    vec_store(p + 32, c);
}

PCT_VEC_INLINE pct_vec vec_table(const uint8_t table[16])
{
    return vld1q_u8(table);
}

PCT_VEC_INLINE pct_vec vec_from_u64x2(uint64_t lo, uint64_t hi)
{
    return vreinterpretq_u8_u64(vcombine_u64(vcreate_u64(lo), vcreate_u64(hi)));
}

PCT_VEC_INLINE pct_vec vec_load_lanes(const uint8_t *p, size_t stride)
{
    (void)stride;
    return vec_load(p);
}

PCT_VEC_INLINE pct_vec vec_from_lanes(const void *lane0, const void *lane1)
{
    (void)lane1;
    return vld1q_u8((const uint8_t *)lane0);
}

PCT_VEC_INLINE void vec_store_lane(uint8_t *p, pct_vec v, int k)
{
    (void)k;
    vec_store(p, v);
}

PCT_VEC_INLINE pct_vec vec_set1(uint8_t c)
{
    return vdupq_n_u8(c);
}

PCT_VEC_INLINE pct_vec vec_zero(void)
{
    return vdupq_n_u8(0);
}

PCT_VEC_INLINE pct_vec vec_set1_32(uint32_t x)
{
    return vreinterpretq_u8_u32(vdupq_n_u32(x));
}

/* vextq_u8(lo, hi, n): bytes n.. of lo then hi, i.e. _mm_alignr_epi8(hi, lo, n). */
#define vec_prev(cur, prev, n) vextq_u8((prev), (cur), 16 - (n))
#define vec_alignr8(hi, lo, n) vextq_u8((lo), (hi), (n))

#define vec_and vandq_u8
#define vec_or vorrq_u8
#define vec_xor veorq_u8
#define vec_andnot(a, b) vbicq_u8((b), (a)) /* ~a & b */
#define vec_add8 vaddq_u8
#define vec_sub8 vsubq_u8
#define vec_subs_u8 vqsubq_u8
#define vec_min_u8 vminq_u8
#define vec_eq8 vceqq_u8
#define vec_srli16(v, n) vreinterpretq_u8_u16(vshrq_n_u16(vreinterpretq_u16_u8(v), (n)))
#define vec_slli16(v, n) vreinterpretq_u8_u16(vshlq_n_u16(vreinterpretq_u16_u8(v), (n)))
#define vec_unpacklo8 vzip1q_u8
#define vec_unpackhi8 vzip2q_u8
#define vec_unpacklo16(a, b)                                                                       \
    vreinterpretq_u8_u16(vzip1q_u16(vreinterpretq_u16_u8(a), vreinterpretq_u16_u8(b)))
#define vec_unpackhi16(a, b)                                                                       \
    vreinterpretq_u8_u16(vzip2q_u16(vreinterpretq_u16_u8(a), vreinterpretq_u16_u8(b)))

PCT_VEC_INLINE pct_vec vec_shuffle(pct_vec t, pct_vec i)
{
    return vqtbl1q_u8(t, vandq_u8(i, vdupq_n_u8(0x8F)));
}

#define vec_lookup vqtbl1q_u8

/* m's bytes are 0 or 0xFF. */
PCT_VEC_INLINE pct_vec vec_blendv(pct_vec a, pct_vec b, pct_vec m)
{
    return vbslq_u8(m, b, a);
}

PCT_VEC_INLINE uint32_t vec_mask(pct_vec v)
{
    static const int8_t position[16] = {0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7};
    const uint8x16_t bits = vshlq_u8(vshrq_n_u8(v, 7), vld1q_s8(position));
    return (uint32_t)vaddv_u8(vget_low_u8(bits)) | (uint32_t)vaddv_u8(vget_high_u8(bits)) << 8;
}

#define vec_mask16 vec_mask

PCT_VEC_INLINE int vec_is_zero(pct_vec v)
{
    return vmaxvq_u8(v) == 0;
}

/* Stores the bytes of v whose bit is set in keep, in order, and returns the
 * end of what they take: two 8-byte groups, each packed by one entry of
 * pct_compact_8 (one tbl for both), the second stored right after the kept
 * bytes of the first. Writes at most 16 bytes from out. */
PCT_VEC_INLINE uint8_t *vec_compact_store(uint8_t *out, pct_vec v, uint32_t keep)
{
    const unsigned k0 = keep & 0xFF, k1 = (keep >> 8) & 0xFF;
    const uint8x16_t shuffle =
        vaddq_u8(vcombine_u8(vld1_u8(pct_compact_8[k0]), vld1_u8(pct_compact_8[k1])),
                 vcombine_u8(vdup_n_u8(0), vdup_n_u8(8)));
    const uint8x16_t packed = vqtbl1q_u8(v, shuffle);
    vst1_u8(out, vget_low_u8(packed));
    out += __builtin_popcount(k0);
    vst1_u8(out, vget_high_u8(packed));
    return out + __builtin_popcount(k1);
}

#endif /* PCT_NEON_VEC_H */
