/* avx2/validate.c - the AVX2 validator: kernel/validate_body.h over
 * avx2/block.h. */
#include "avx2/block.h"
#include "kernel/validate_body.h"
#include "avx2/kernels.h"

pct_result pct_avx2_validate(const uint8_t *src, size_t len, const pct_set *set, unsigned flags)
{
    return validate_body(src, len, set, flags);
}
