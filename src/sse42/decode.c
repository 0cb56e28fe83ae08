/* sse42/decode.c - the SSE4.2 percent-decoder: generic/decode_body.h over sse42/vec.h. */
#include "sse42/vec.h"
#include "generic/decode_body.h"
#include "sse42/kernels.h"

PCT_GENERIC_DEFINE_DECODE(sse42)
