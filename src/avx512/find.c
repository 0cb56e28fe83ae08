/* avx512/find.c - pct_find, pct_find_all and pct_encode_length: avx512/find_body.h over
 * avx512/block.h; pct_batch_offsets: avx512/batch.h. */
#include "avx512/block.h"
#include "avx512/find_body.h"
#include "avx512/batch.h"
#include "avx512/kernels.h"

size_t pct_avx512_find(const uint8_t *src, size_t len, const pct_set *set)
{
    return find_body(src, len, set);
}

void pct_avx512_find_all(const uint8_t *src, size_t len, const pct_set *set, uint64_t *bits)
{
    find_all_body(src, len, set, bits);
}

size_t pct_avx512_encode_length(const uint8_t *src, size_t len, const pct_set *set, unsigned flags)
{
    if (len > SIZE_MAX / 3) /* the scalar routine saturates at SIZE_MAX */
        return pct_scalar_encode_length(src, len, set, flags);
    return encode_length_body(src, len, set, flags);
}

int pct_avx512_batch_offsets(const uint8_t *src, const void *offsets, int wide, size_t n,
                             size_t out0, void *out_offsets, pct_result *results)
{
    return batch_offsets_body(src, offsets, wide, n, out0, out_offsets, results);
}
