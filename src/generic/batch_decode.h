/* generic/batch_decode.h - pct_batch_decode of the generic family
 * (SSE4.2, AVX2, NEON), written once over the ISA's vec.h (included
 * first): a chunk of a lenient batch decoded as one buffer by
 * generic/decode_body.h, which keeps each block's '%' mask as the map of
 * generic/batch_body.h (through generic/find_body.h), so that the chunk's bytes
 * are compared with '%' once. */
#include "generic/decode_body.h"
#include "generic/find_body.h"

/* One copy of the decoder per flag (0, PCT_PLUS), as pct_<isa>_decode has. */
__attribute__((noinline)) static pct_result generic_decode_mapped(const uint8_t *src, size_t len,
                                                                  uint8_t *dst, uint64_t *words)
{
    return generic_decode_body(src, len, dst, NULL, 0, NULL, words);
}

__attribute__((noinline)) static pct_result
generic_decode_form_mapped(const uint8_t *src, size_t len, uint8_t *dst, uint64_t *words)
{
    return generic_decode_body(src, len, dst, NULL, PCT_PLUS, NULL, words);
}

#define PCT_GENERIC_DEFINE_BATCH_DECODE(isa)                                                       \
    int pct_##isa##_batch_decode(const uint8_t *src, const void *offsets, int wide, size_t n,      \
                                 uint8_t *dst, unsigned flags, pct_result *decoded, size_t out0,   \
                                 void *out_offsets, pct_result *results)                           \
    {                                                                                              \
        return batch_decode_body(generic_decode_mapped, generic_decode_form_mapped, src, offsets,  \
                                 wide, n, dst, flags, decoded, out0, out_offsets, results);        \
    }
