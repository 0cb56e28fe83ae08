/* sse42/compact.h - storing only some bytes of a vector, in order: how the
 * decoders drop the digits of escapes (sse42/decode.c explains the decoder).
 * The table is shared with avx2/compact.h.
 *
 * Decoding drops the two digit bytes after each escape's '%' (which has been
 * replaced by the decoded byte). For 8 bytes and their 8-bit keep mask k
 * (bit j set: byte j stays), compact_8[k] lists the kept positions in
 * increasing order, then Z (pshufb writes 0; the bytes there are overwritten
 * by the next store anyway):
 *
 *   k (binary)   kept bytes     compact_8[k]
 *   1111 1111    0..7           0 1 2 3 4 5 6 7
 *   1111 1001    0 3 4 5 6 7    0 3 4 5 6 7 Z Z    (escape at 0: digits 1, 2 dropped)
 *   0011 1111    0..5           0 1 2 3 4 5 Z Z
 *
 * 256 x 8 bytes, generated: entry k = positions of the set bits of k. */
#ifndef PCT_SSE42_COMPACT_H
#define PCT_SSE42_COMPACT_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

// clang-format off
#define Z -128
static const int8_t compact_8[256][8] = {
    {Z,Z,Z,Z,Z,Z,Z,Z}, {0,Z,Z,Z,Z,Z,Z,Z}, {1,Z,Z,Z,Z,Z,Z,Z}, {0,1,Z,Z,Z,Z,Z,Z}, /* 00-03 */
    {2,Z,Z,Z,Z,Z,Z,Z}, {0,2,Z,Z,Z,Z,Z,Z}, {1,2,Z,Z,Z,Z,Z,Z}, {0,1,2,Z,Z,Z,Z,Z}, /* 04-07 */
    {3,Z,Z,Z,Z,Z,Z,Z}, {0,3,Z,Z,Z,Z,Z,Z}, {1,3,Z,Z,Z,Z,Z,Z}, {0,1,3,Z,Z,Z,Z,Z}, /* 08-0B */
    {2,3,Z,Z,Z,Z,Z,Z}, {0,2,3,Z,Z,Z,Z,Z}, {1,2,3,Z,Z,Z,Z,Z}, {0,1,2,3,Z,Z,Z,Z}, /* 0C-0F */
    {4,Z,Z,Z,Z,Z,Z,Z}, {0,4,Z,Z,Z,Z,Z,Z}, {1,4,Z,Z,Z,Z,Z,Z}, {0,1,4,Z,Z,Z,Z,Z}, /* 10-13 */
    {2,4,Z,Z,Z,Z,Z,Z}, {0,2,4,Z,Z,Z,Z,Z}, {1,2,4,Z,Z,Z,Z,Z}, {0,1,2,4,Z,Z,Z,Z}, /* 14-17 */
    {3,4,Z,Z,Z,Z,Z,Z}, {0,3,4,Z,Z,Z,Z,Z}, {1,3,4,Z,Z,Z,Z,Z}, {0,1,3,4,Z,Z,Z,Z}, /* 18-1B */
    {2,3,4,Z,Z,Z,Z,Z}, {0,2,3,4,Z,Z,Z,Z}, {1,2,3,4,Z,Z,Z,Z}, {0,1,2,3,4,Z,Z,Z}, /* 1C-1F */
    {5,Z,Z,Z,Z,Z,Z,Z}, {0,5,Z,Z,Z,Z,Z,Z}, {1,5,Z,Z,Z,Z,Z,Z}, {0,1,5,Z,Z,Z,Z,Z}, /* 20-23 */
    {2,5,Z,Z,Z,Z,Z,Z}, {0,2,5,Z,Z,Z,Z,Z}, {1,2,5,Z,Z,Z,Z,Z}, {0,1,2,5,Z,Z,Z,Z}, /* 24-27 */
    {3,5,Z,Z,Z,Z,Z,Z}, {0,3,5,Z,Z,Z,Z,Z}, {1,3,5,Z,Z,Z,Z,Z}, {0,1,3,5,Z,Z,Z,Z}, /* 28-2B */
    {2,3,5,Z,Z,Z,Z,Z}, {0,2,3,5,Z,Z,Z,Z}, {1,2,3,5,Z,Z,Z,Z}, {0,1,2,3,5,Z,Z,Z}, /* 2C-2F */
    {4,5,Z,Z,Z,Z,Z,Z}, {0,4,5,Z,Z,Z,Z,Z}, {1,4,5,Z,Z,Z,Z,Z}, {0,1,4,5,Z,Z,Z,Z}, /* 30-33 */
    {2,4,5,Z,Z,Z,Z,Z}, {0,2,4,5,Z,Z,Z,Z}, {1,2,4,5,Z,Z,Z,Z}, {0,1,2,4,5,Z,Z,Z}, /* 34-37 */
    {3,4,5,Z,Z,Z,Z,Z}, {0,3,4,5,Z,Z,Z,Z}, {1,3,4,5,Z,Z,Z,Z}, {0,1,3,4,5,Z,Z,Z}, /* 38-3B */
    {2,3,4,5,Z,Z,Z,Z}, {0,2,3,4,5,Z,Z,Z}, {1,2,3,4,5,Z,Z,Z}, {0,1,2,3,4,5,Z,Z}, /* 3C-3F */
    {6,Z,Z,Z,Z,Z,Z,Z}, {0,6,Z,Z,Z,Z,Z,Z}, {1,6,Z,Z,Z,Z,Z,Z}, {0,1,6,Z,Z,Z,Z,Z}, /* 40-43 */
    {2,6,Z,Z,Z,Z,Z,Z}, {0,2,6,Z,Z,Z,Z,Z}, {1,2,6,Z,Z,Z,Z,Z}, {0,1,2,6,Z,Z,Z,Z}, /* 44-47 */
    {3,6,Z,Z,Z,Z,Z,Z}, {0,3,6,Z,Z,Z,Z,Z}, {1,3,6,Z,Z,Z,Z,Z}, {0,1,3,6,Z,Z,Z,Z}, /* 48-4B */
    {2,3,6,Z,Z,Z,Z,Z}, {0,2,3,6,Z,Z,Z,Z}, {1,2,3,6,Z,Z,Z,Z}, {0,1,2,3,6,Z,Z,Z}, /* 4C-4F */
    {4,6,Z,Z,Z,Z,Z,Z}, {0,4,6,Z,Z,Z,Z,Z}, {1,4,6,Z,Z,Z,Z,Z}, {0,1,4,6,Z,Z,Z,Z}, /* 50-53 */
    {2,4,6,Z,Z,Z,Z,Z}, {0,2,4,6,Z,Z,Z,Z}, {1,2,4,6,Z,Z,Z,Z}, {0,1,2,4,6,Z,Z,Z}, /* 54-57 */
    {3,4,6,Z,Z,Z,Z,Z}, {0,3,4,6,Z,Z,Z,Z}, {1,3,4,6,Z,Z,Z,Z}, {0,1,3,4,6,Z,Z,Z}, /* 58-5B */
    {2,3,4,6,Z,Z,Z,Z}, {0,2,3,4,6,Z,Z,Z}, {1,2,3,4,6,Z,Z,Z}, {0,1,2,3,4,6,Z,Z}, /* 5C-5F */
    {5,6,Z,Z,Z,Z,Z,Z}, {0,5,6,Z,Z,Z,Z,Z}, {1,5,6,Z,Z,Z,Z,Z}, {0,1,5,6,Z,Z,Z,Z}, /* 60-63 */
    {2,5,6,Z,Z,Z,Z,Z}, {0,2,5,6,Z,Z,Z,Z}, {1,2,5,6,Z,Z,Z,Z}, {0,1,2,5,6,Z,Z,Z}, /* 64-67 */
    {3,5,6,Z,Z,Z,Z,Z}, {0,3,5,6,Z,Z,Z,Z}, {1,3,5,6,Z,Z,Z,Z}, {0,1,3,5,6,Z,Z,Z}, /* 68-6B */
    {2,3,5,6,Z,Z,Z,Z}, {0,2,3,5,6,Z,Z,Z}, {1,2,3,5,6,Z,Z,Z}, {0,1,2,3,5,6,Z,Z}, /* 6C-6F */
    {4,5,6,Z,Z,Z,Z,Z}, {0,4,5,6,Z,Z,Z,Z}, {1,4,5,6,Z,Z,Z,Z}, {0,1,4,5,6,Z,Z,Z}, /* 70-73 */
    {2,4,5,6,Z,Z,Z,Z}, {0,2,4,5,6,Z,Z,Z}, {1,2,4,5,6,Z,Z,Z}, {0,1,2,4,5,6,Z,Z}, /* 74-77 */
    {3,4,5,6,Z,Z,Z,Z}, {0,3,4,5,6,Z,Z,Z}, {1,3,4,5,6,Z,Z,Z}, {0,1,3,4,5,6,Z,Z}, /* 78-7B */
    {2,3,4,5,6,Z,Z,Z}, {0,2,3,4,5,6,Z,Z}, {1,2,3,4,5,6,Z,Z}, {0,1,2,3,4,5,6,Z}, /* 7C-7F */
    {7,Z,Z,Z,Z,Z,Z,Z}, {0,7,Z,Z,Z,Z,Z,Z}, {1,7,Z,Z,Z,Z,Z,Z}, {0,1,7,Z,Z,Z,Z,Z}, /* 80-83 */
    {2,7,Z,Z,Z,Z,Z,Z}, {0,2,7,Z,Z,Z,Z,Z}, {1,2,7,Z,Z,Z,Z,Z}, {0,1,2,7,Z,Z,Z,Z}, /* 84-87 */
    {3,7,Z,Z,Z,Z,Z,Z}, {0,3,7,Z,Z,Z,Z,Z}, {1,3,7,Z,Z,Z,Z,Z}, {0,1,3,7,Z,Z,Z,Z}, /* 88-8B */
    {2,3,7,Z,Z,Z,Z,Z}, {0,2,3,7,Z,Z,Z,Z}, {1,2,3,7,Z,Z,Z,Z}, {0,1,2,3,7,Z,Z,Z}, /* 8C-8F */
    {4,7,Z,Z,Z,Z,Z,Z}, {0,4,7,Z,Z,Z,Z,Z}, {1,4,7,Z,Z,Z,Z,Z}, {0,1,4,7,Z,Z,Z,Z}, /* 90-93 */
    {2,4,7,Z,Z,Z,Z,Z}, {0,2,4,7,Z,Z,Z,Z}, {1,2,4,7,Z,Z,Z,Z}, {0,1,2,4,7,Z,Z,Z}, /* 94-97 */
    {3,4,7,Z,Z,Z,Z,Z}, {0,3,4,7,Z,Z,Z,Z}, {1,3,4,7,Z,Z,Z,Z}, {0,1,3,4,7,Z,Z,Z}, /* 98-9B */
    {2,3,4,7,Z,Z,Z,Z}, {0,2,3,4,7,Z,Z,Z}, {1,2,3,4,7,Z,Z,Z}, {0,1,2,3,4,7,Z,Z}, /* 9C-9F */
    {5,7,Z,Z,Z,Z,Z,Z}, {0,5,7,Z,Z,Z,Z,Z}, {1,5,7,Z,Z,Z,Z,Z}, {0,1,5,7,Z,Z,Z,Z}, /* A0-A3 */
    {2,5,7,Z,Z,Z,Z,Z}, {0,2,5,7,Z,Z,Z,Z}, {1,2,5,7,Z,Z,Z,Z}, {0,1,2,5,7,Z,Z,Z}, /* A4-A7 */
    {3,5,7,Z,Z,Z,Z,Z}, {0,3,5,7,Z,Z,Z,Z}, {1,3,5,7,Z,Z,Z,Z}, {0,1,3,5,7,Z,Z,Z}, /* A8-AB */
    {2,3,5,7,Z,Z,Z,Z}, {0,2,3,5,7,Z,Z,Z}, {1,2,3,5,7,Z,Z,Z}, {0,1,2,3,5,7,Z,Z}, /* AC-AF */
    {4,5,7,Z,Z,Z,Z,Z}, {0,4,5,7,Z,Z,Z,Z}, {1,4,5,7,Z,Z,Z,Z}, {0,1,4,5,7,Z,Z,Z}, /* B0-B3 */
    {2,4,5,7,Z,Z,Z,Z}, {0,2,4,5,7,Z,Z,Z}, {1,2,4,5,7,Z,Z,Z}, {0,1,2,4,5,7,Z,Z}, /* B4-B7 */
    {3,4,5,7,Z,Z,Z,Z}, {0,3,4,5,7,Z,Z,Z}, {1,3,4,5,7,Z,Z,Z}, {0,1,3,4,5,7,Z,Z}, /* B8-BB */
    {2,3,4,5,7,Z,Z,Z}, {0,2,3,4,5,7,Z,Z}, {1,2,3,4,5,7,Z,Z}, {0,1,2,3,4,5,7,Z}, /* BC-BF */
    {6,7,Z,Z,Z,Z,Z,Z}, {0,6,7,Z,Z,Z,Z,Z}, {1,6,7,Z,Z,Z,Z,Z}, {0,1,6,7,Z,Z,Z,Z}, /* C0-C3 */
    {2,6,7,Z,Z,Z,Z,Z}, {0,2,6,7,Z,Z,Z,Z}, {1,2,6,7,Z,Z,Z,Z}, {0,1,2,6,7,Z,Z,Z}, /* C4-C7 */
    {3,6,7,Z,Z,Z,Z,Z}, {0,3,6,7,Z,Z,Z,Z}, {1,3,6,7,Z,Z,Z,Z}, {0,1,3,6,7,Z,Z,Z}, /* C8-CB */
    {2,3,6,7,Z,Z,Z,Z}, {0,2,3,6,7,Z,Z,Z}, {1,2,3,6,7,Z,Z,Z}, {0,1,2,3,6,7,Z,Z}, /* CC-CF */
    {4,6,7,Z,Z,Z,Z,Z}, {0,4,6,7,Z,Z,Z,Z}, {1,4,6,7,Z,Z,Z,Z}, {0,1,4,6,7,Z,Z,Z}, /* D0-D3 */
    {2,4,6,7,Z,Z,Z,Z}, {0,2,4,6,7,Z,Z,Z}, {1,2,4,6,7,Z,Z,Z}, {0,1,2,4,6,7,Z,Z}, /* D4-D7 */
    {3,4,6,7,Z,Z,Z,Z}, {0,3,4,6,7,Z,Z,Z}, {1,3,4,6,7,Z,Z,Z}, {0,1,3,4,6,7,Z,Z}, /* D8-DB */
    {2,3,4,6,7,Z,Z,Z}, {0,2,3,4,6,7,Z,Z}, {1,2,3,4,6,7,Z,Z}, {0,1,2,3,4,6,7,Z}, /* DC-DF */
    {5,6,7,Z,Z,Z,Z,Z}, {0,5,6,7,Z,Z,Z,Z}, {1,5,6,7,Z,Z,Z,Z}, {0,1,5,6,7,Z,Z,Z}, /* E0-E3 */
    {2,5,6,7,Z,Z,Z,Z}, {0,2,5,6,7,Z,Z,Z}, {1,2,5,6,7,Z,Z,Z}, {0,1,2,5,6,7,Z,Z}, /* E4-E7 */
    {3,5,6,7,Z,Z,Z,Z}, {0,3,5,6,7,Z,Z,Z}, {1,3,5,6,7,Z,Z,Z}, {0,1,3,5,6,7,Z,Z}, /* E8-EB */
    {2,3,5,6,7,Z,Z,Z}, {0,2,3,5,6,7,Z,Z}, {1,2,3,5,6,7,Z,Z}, {0,1,2,3,5,6,7,Z}, /* EC-EF */
    {4,5,6,7,Z,Z,Z,Z}, {0,4,5,6,7,Z,Z,Z}, {1,4,5,6,7,Z,Z,Z}, {0,1,4,5,6,7,Z,Z}, /* F0-F3 */
    {2,4,5,6,7,Z,Z,Z}, {0,2,4,5,6,7,Z,Z}, {1,2,4,5,6,7,Z,Z}, {0,1,2,4,5,6,7,Z}, /* F4-F7 */
    {3,4,5,6,7,Z,Z,Z}, {0,3,4,5,6,7,Z,Z}, {1,3,4,5,6,7,Z,Z}, {0,1,3,4,5,6,7,Z}, /* F8-FB */
    {2,3,4,5,6,7,Z,Z}, {0,2,3,4,5,6,7,Z}, {1,2,3,4,5,6,7,Z}, {0,1,2,3,4,5,6,7}, /* FC-FF */
};
#undef Z
// clang-format on

/* Stores the bytes of d whose bit is set in keep (16 bits), in order; returns
 * the end of the output. Each half is compacted by its own table entry; the
 * upper half is stored right after the kept bytes of the lower half, over the
 * lower half's leftovers. Writes at most 16 bytes from out. */
static inline uint8_t *pct_sse_compact_store(uint8_t *out, __m128i d, unsigned keep)
{
    const __m128i shuffle =
        _mm_add_epi8(_mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)compact_8[keep & 0xFF]),
                                        _mm_loadl_epi64((const __m128i *)compact_8[keep >> 8])),
                     _mm_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 8, 8, 8, 8, 8, 8, 8, 8));
    const __m128i packed = _mm_shuffle_epi8(d, shuffle);
    _mm_storel_epi64((__m128i *)out, packed);
    out += __builtin_popcount(keep & 0xFF);
    _mm_storel_epi64((__m128i *)out, _mm_unpackhi_epi64(packed, packed));
    return out + __builtin_popcount(keep >> 8);
}

/* 1 if src[0..len) and dst[0..len) do not overlap. Decoding in place
 * (dst == src) works on every path, as the output never runs ahead of the
 * input; the paths that store whole vectors ahead of the output need
 * separate buffers. */
static inline int pct_disjoint(const uint8_t *src, const uint8_t *dst, size_t len)
{
    const uintptr_t s = (uintptr_t)src, d = (uintptr_t)dst;
    return d + len <= s || s + len <= d;
}

#endif /* PCT_SSE42_COMPACT_H */
