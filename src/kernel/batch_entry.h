/* kernel/batch_entry.h - batch_offsets_body, the entry of every SIMD
 * pct_batch_offsets: the chunk's length from its offsets, its map, then the
 * strings, in a loop of their own for 32- and for 64-bit offsets. The
 * includer defines batch_map, batch_map_build(m, src, len) and
 * batch_strings(wide, m, offsets, n, out0, out_offsets, results):
 * kernel/batch_body.h (SSE4.2, AVX2) and avx512/batch.h.
 */
#ifndef PCT_KERNEL_BATCH_ENTRY_H
#define PCT_KERNEL_BATCH_ENTRY_H

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

static inline __attribute__((always_inline)) int
batch_offsets_body(const uint8_t *src, const void *offsets, int wide, size_t n, size_t out0,
                   void *out_offsets, pct_result *results)
{
    batch_map m;
    const size_t len = batch_chunk_len(offsets, wide, n);
    batch_map_build(&m, src, len);
    return wide ? batch_strings(1, &m, offsets, n, out0, out_offsets, results)
                : batch_strings(0, &m, offsets, n, out0, out_offsets, results);
}

#endif /* PCT_KERNEL_BATCH_ENTRY_H */
