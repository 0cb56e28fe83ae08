/* avx512/validate.c - the AVX-512 validator: avx512/validate_body.h over
 * avx512/block.h. */
#include "avx512/block.h"
#include "avx512/validate_body.h"
#include "avx512/kernels.h"

pct_result pct_avx512_validate(const uint8_t *src, size_t len, const pct_set *set, unsigned flags)
{
    return validate_body(src, len, set, flags);
}

pct_result pct_avx512_validate_utf8(const uint8_t *src, size_t len)
{
    return validate_utf8_body(src, len);
}
