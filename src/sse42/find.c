/* sse42/find.c - pct_find and pct_encode_length: kernel/find_body.h over
 * sse42/block.h. */
#include "sse42/block.h"
#include "kernel/find_body.h"
#include "sse42/kernels.h"

size_t pct_sse42_find(const uint8_t *src, size_t len, const pct_set *set)
{
    return find_body(src, len, set);
}

size_t pct_sse42_encode_length(const uint8_t *src, size_t len, const pct_set *set, unsigned flags)
{
    if (len > SIZE_MAX / 3) /* the scalar routine saturates at SIZE_MAX */
        return pct_scalar_encode_length(src, len, set, flags);
    return encode_length_body(src, len, set, flags);
}
