/* avx2/decode.c - the AVX2 percent-decoder: kernel/decode_body.h over
 * avx2/block.h. */
#include "avx2/block.h"
#include "kernel/decode_body.h"
#include "avx2/kernels.h"

/* The common cases get their own copy of the body, with the flags known, so
 * their blocks carry no test of a flag they do not have. */
pct_result pct_avx2_decode(const uint8_t *src, size_t len, uint8_t *dst, const pct_set *keep,
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
