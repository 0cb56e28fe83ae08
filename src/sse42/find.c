/* sse42/find.c - pct_find, pct_find_all and pct_encode_length:
 * generic/find_body.h over sse42/vec.h. */
#include "sse42/vec.h"
#include "generic/find_body.h"
#include "sse42/kernels.h"

PCT_GENERIC_DEFINE_FIND(sse42)
