/* sse42/batch_decode.c - pct_batch_decode for SSE4.2: x86/batch_decode.h over
 * sse42/vec.h. */
#include "sse42/vec.h"
#include "x86/batch_decode.h"
#include "sse42/kernels.h"

PCT_X86_DEFINE_BATCH_DECODE(sse42)
