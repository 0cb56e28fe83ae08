/* avx512/batch_decode.c - pct_batch_decode for AVX-512: a chunk of a
 * lenient batch decoded as one buffer (avx512/decode_body.h) with each
 * block's '%' mask kept as the map of its offsets (avx512/batch.h), so
 * that the chunk's bytes are compared with '%' once, not once more after
 * the decoder (that second pass took a third of the offsets' time). */
#include "avx512/block.h"
#include "avx512/decode_body.h"
#include "avx512/batch.h"
#include "avx512/kernels.h"

/* One copy per flag, as the one-shot decoders have (avx512/decode.c); no
 * dense runs, so that every block starts at a multiple of 64. */
__attribute__((noinline)) static pct_result decode_mapped(const uint8_t *src, size_t len,
                                                          uint8_t *dst, uint64_t *words)
{
    return decode_body(src, len, dst, NULL, 0, NULL, 0, words);
}

__attribute__((noinline)) static pct_result decode_form_mapped(const uint8_t *src, size_t len,
                                                               uint8_t *dst, uint64_t *words)
{
    return decode_body(src, len, dst, NULL, PCT_PLUS, NULL, 0, words);
}

int pct_avx512_batch_decode(const uint8_t *src, const void *offsets, int wide, size_t n,
                            uint8_t *dst, unsigned flags, pct_result *decoded, size_t out0,
                            void *out_offsets, pct_result *results)
{
    return batch_decode_body(decode_mapped, decode_form_mapped, src, offsets, wide, n, dst, flags,
                             decoded, out0, out_offsets, results);
}
