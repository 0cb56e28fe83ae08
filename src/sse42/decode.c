/* sse42/decode.c - the SSE4.2 percent-decoder: x86/decode_body.h over sse42/vec.h. */
#include "sse42/vec.h"
#include "x86/decode_body.h"
#include "sse42/kernels.h"

PCT_X86_DEFINE_DECODE(sse42)
