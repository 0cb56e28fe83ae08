/* avx2/find.c - pct_find and pct_encode_length: kernel/find_body.h over
 * avx2/block.h. */
#include "avx2/block.h"
#include "kernel/find_body.h"
#include "avx2/kernels.h"

size_t pct_avx2_find(const uint8_t *src, size_t len, const pct_set *set)
{
    return find_body(src, len, set);
}

size_t pct_avx2_encode_length(const uint8_t *src, size_t len, const pct_set *set, unsigned flags)
{
    if (len > SIZE_MAX / 3) /* the scalar routine saturates at SIZE_MAX */
        return pct_scalar_encode_length(src, len, set, flags);
    return encode_length_body(src, len, set, flags);
}
