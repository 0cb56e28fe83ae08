/* sse42/decode.c - the SSE4.2 percent-decoder: kernel/decode_body.h over
 * sse42/block.h. */
#include "sse42/block.h"
#include "kernel/decode_body.h"
#include "sse42/kernels.h"

/* The common cases get their own copy of the body, with the flags known, so
 * their blocks carry no test of a flag they do not have. */
pct_result pct_sse42_decode(const uint8_t *src, size_t len, uint8_t *dst, const pct_set *keep,
                            unsigned flags, size_t *consumed)
{
    if (keep == NULL && flags == 0)
        return decode_body(src, len, dst, NULL, 0, consumed);
    if (keep == NULL && flags == PCT_PLUS)
        return decode_body(src, len, dst, NULL, PCT_PLUS, consumed);
    if (keep == NULL && flags == (PCT_STRICT | PCT_UTF8))
        return decode_body(src, len, dst, NULL, PCT_STRICT | PCT_UTF8, consumed);
    return decode_body(src, len, dst, keep, flags, consumed);
}
