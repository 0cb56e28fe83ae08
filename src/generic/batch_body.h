/* generic/batch_body.h - pct_batch_offsets of a SIMD implementation
 * without one of its own (the generic family: SSE4.2, AVX2, NEON, through generic/find_body.h): the
 * chunk's '%' as one mask word per 64 bytes, each with the count of '%'
 * before it, then per string one popcount and no branch. The includer
 * defines batch_percent_block(p): the '%' of the 64 bytes at p, bit k for
 * byte k. Compiled with the ISA's flags, so the popcounts are the popcnt
 * instruction (batch.c, built for the baseline, has none).
 */
#include <stdint.h>
#include <string.h>

#include "impl.h"

#define PCT_BATCH_INLINE static inline __attribute__((always_inline))

enum {
    BATCH_WORDS = PCT_BATCH_CHUNK / 64 + 1 /* a chunk's words, and the one its end may fall in */
};

/* masks[w] bit k: byte 64w + k is a '%'; near[w] bit k: byte 64w + k - 1 or
 * 64w + k - 2 is one (it would be in the last two bytes of a string ending
 * at 64w + k); before[w]: the '%' before byte 64w. Past the chunk, no bits. */
typedef struct batch_map {
    uint64_t masks[BATCH_WORDS];
    uint64_t near[BATCH_WORDS];
    uint64_t before[BATCH_WORDS];
} batch_map;

PCT_BATCH_INLINE void batch_map_word(batch_map *m, size_t w, uint64_t b, uint64_t prev,
                                     uint64_t *count)
{
    m->masks[w] = b;
    m->near[w] = b << 1 | b << 2 | prev >> 63 | prev >> 62;
    m->before[w] = *count;
    *count += (uint64_t)__builtin_popcountll(b);
}

/* The map of a chunk of len <= PCT_BATCH_CHUNK bytes whose masks are
 * written: the other words. */
PCT_BATCH_INLINE void batch_map_count(batch_map *m, size_t len)
{
    const size_t words = (len + 63) / 64;
    uint64_t count = 0, prev = 0;
    for (size_t w = 0; w < words; w++) {
        const uint64_t b = m->masks[w];
        batch_map_word(m, w, b, prev, &count);
        prev = b;
    }
    batch_map_word(m, words, 0, prev, &count);
}

/* The masks of src[0..len), len <= PCT_BATCH_CHUNK; the last, partial
 * block from a zero-padded copy (no '%' in the padding). */
PCT_BATCH_INLINE void batch_map_masks(batch_map *m, const uint8_t *src, size_t len)
{
    const size_t whole = len / 64;
    for (size_t w = 0; w < whole; w++)
        m->masks[w] = batch_percent_block(src + 64 * w);
    if (len % 64) {
        uint8_t pad[64] = {0};
        memcpy(pad, src + 64 * whole, len % 64);
        m->masks[whole] = batch_percent_block(pad);
    }
}

/* The strings' sizes and output offsets from the map: string i ends, in the
 * output, 2 bytes before its input end per '%' before that. */
PCT_BATCH_INLINE int batch_strings(int wide, const batch_map *m, const void *offsets, size_t n,
                                   size_t out0, void *out_offsets, pct_result *results)
{
    const int32_t *o32 = (const int32_t *)offsets;
    const int64_t *o64 = (const int64_t *)offsets;
    const int64_t base = wide ? o64[0] : o32[0];
    uint64_t crossing = 0;
    uint64_t prev = out0; /* the sums modulo 2^64 (impl.h) */
    for (size_t i = 0; i < n; i++) {
        const size_t end = (size_t)((wide ? o64[i + 1] : o32[i + 1]) - base);
        const size_t w = end >> 6, k = end & 63;
        const uint64_t below = m->masks[w] & ((UINT64_C(1) << k) - 1);
        const uint64_t out =
            (uint64_t)out0 + end - 2 * (m->before[w] + (uint64_t)__builtin_popcountll(below));
        crossing |= m->near[w] >> k;
        results[i].status = PCT_OK;
        results[i].count = (size_t)(out - prev);
        pct_batch_sum_store(out_offsets, wide, i + 1, out);
        prev = out;
    }
    return (int)(crossing & 1);
}

#include "simd_shared/batch_entry.h"
