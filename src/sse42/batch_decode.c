/* sse42/batch_decode.c - pct_batch_decode for SSE4.2: generic/batch_decode.h over
 * sse42/vec.h. */
#include "sse42/vec.h"
#include "generic/batch_decode.h"
#include "sse42/kernels.h"

PCT_GENERIC_DEFINE_BATCH_DECODE(sse42)
