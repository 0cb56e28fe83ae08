/* sse42/encode.c - the SSE4.2 percent-encoder: generic/encode_body.h over sse42/vec.h. */
#include "sse42/vec.h"
#include "generic/encode_body.h"
#include "sse42/kernels.h"

PCT_GENERIC_DEFINE_ENCODE(sse42)
