/* simd_shared/batch_entry.h - batch_offsets_body and batch_decode_body, the
 * entries of every SIMD pct_batch_offsets and pct_batch_decode: the chunk's
 * length from its offsets, the '%' masks of its map (found here, or kept
 * by the decoder), the rest of the map, then the strings, in a loop of
 * their own for 32- and for 64-bit offsets. The includer defines
 * batch_map (its masks[] a word per 64 bytes), batch_map_masks(m, src,
 * len), batch_map_count(m, len) and batch_strings(wide, m, offsets, n,
 * out0, out_offsets, results): generic/batch_body.h (SSE4.2, AVX2) and
 * avx512/batch.h.
 */
#ifndef PCT_SIMD_SHARED_BATCH_ENTRY_H
#define PCT_SIMD_SHARED_BATCH_ENTRY_H

#include <stddef.h>
#include <stdint.h>

#include "impl.h"

/* The bytes of the chunk of n strings that offsets bound. */
static inline __attribute__((always_inline)) size_t batch_chunk_len(const void *offsets, int wide,
                                                                    size_t n)
{
    return wide ? (size_t)(((const int64_t *)offsets)[n] - ((const int64_t *)offsets)[0])
                : (size_t)(((const int32_t *)offsets)[n] - ((const int32_t *)offsets)[0]);
}

/* The strings' sizes and output offsets from a map whose masks are
 * written. */
static inline __attribute__((always_inline)) int
batch_offsets_counted(batch_map *m, size_t len, const void *offsets, int wide, size_t n,
                      size_t out0, void *out_offsets, pct_result *results)
{
    batch_map_count(m, len);
    return wide ? batch_strings(1, m, offsets, n, out0, out_offsets, results)
                : batch_strings(0, m, offsets, n, out0, out_offsets, results);
}

static inline __attribute__((always_inline)) int
batch_offsets_body(const uint8_t *src, const void *offsets, int wide, size_t n, size_t out0,
                   void *out_offsets, pct_result *results)
{
    batch_map m;
    const size_t len = batch_chunk_len(offsets, wide, n);
    batch_map_masks(&m, src, len);
    return batch_offsets_counted(&m, len, offsets, wide, n, out0, out_offsets, results);
}

/* A lenient decoder of a whole chunk that keeps each 64-byte block's '%'
 * mask in words[]: an ISA's copy of its decoder for flags 0 or PCT_PLUS. */
typedef pct_result batch_mapped_decoder(const uint8_t *src, size_t len, uint8_t *dst,
                                        uint64_t *words);

static inline __attribute__((always_inline)) int
batch_decode_body(batch_mapped_decoder *plain, batch_mapped_decoder *form, const uint8_t *src,
                  const void *offsets, int wide, size_t n, uint8_t *dst, unsigned flags,
                  pct_result *decoded, size_t out0, void *out_offsets, pct_result *results)
{
    batch_map m;
    const size_t len = batch_chunk_len(offsets, wide, n);
    /* two calls, not a call through a chosen pointer: both are direct */
    *decoded = flags & PCT_PLUS ? form(src, len, dst, m.masks) : plain(src, len, dst, m.masks);
    return batch_offsets_counted(&m, len, offsets, wide, n, out0, out_offsets, results);
}

#endif /* PCT_SIMD_SHARED_BATCH_ENTRY_H */
