/* sse42/validate.c - the SSE4.2 validator: kernel/validate_body.h over
 * sse42/block.h. */
#include "sse42/block.h"
#include "kernel/validate_body.h"
#include "sse42/kernels.h"

pct_result pct_sse42_validate(const uint8_t *src, size_t len, const pct_set *set, unsigned flags)
{
    return validate_body(src, len, set, flags);
}
