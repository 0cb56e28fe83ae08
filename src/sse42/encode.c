/* sse42/encode.c - the SSE4.2 percent-encoder: kernel/encode_body.h over
 * sse42/block.h. */
#include "sse42/block.h"
#include "kernel/encode_body.h"
#include "sse42/kernels.h"

pct_result pct_sse42_encode(const uint8_t *src, size_t len, uint8_t *dst, const pct_set *set,
                            unsigned flags, size_t *consumed)
{
    if (flags == 0)
        return encode_body(src, len, dst, set, 0, consumed);
    return encode_body(src, len, dst, set, flags, consumed);
}
