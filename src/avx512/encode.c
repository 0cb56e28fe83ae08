/* avx512/encode.c - the AVX-512 percent-encoder: avx512/encode_body.h over
 * avx512/block.h. */
#include "avx512/block.h"
#include "avx512/encode_body.h"
#include "avx512/kernels.h"

/* One-shot calls without flags get their own copy of the body (as in
 * avx512/decode.c): no flag tests in its blocks, no partial mode. */
__attribute__((noinline)) static pct_result encode_plain(const uint8_t *src, size_t len,
                                                         uint8_t *dst, const pct_set *set)
{
    return encode_body(src, len, dst, set, 0, NULL);
}

__attribute__((noinline)) static pct_result encode_any(const uint8_t *src, size_t len, uint8_t *dst,
                                                       const pct_set *set, unsigned flags,
                                                       size_t *consumed)
{
    return encode_body(src, len, dst, set, flags, consumed);
}

pct_result pct_avx512_encode(const uint8_t *src, size_t len, uint8_t *dst, const pct_set *set,
                             unsigned flags, size_t *consumed)
{
    if (flags == 0 && consumed == NULL)
        return encode_plain(src, len, dst, set);
    return encode_any(src, len, dst, set, flags, consumed);
}
