/* sse42/encode.c - the SSE4.2 percent-encoder: x86/encode_body.h over sse42/vec.h. */
#include "sse42/vec.h"
#include "x86/encode_body.h"
#include "sse42/kernels.h"

PCT_X86_DEFINE_ENCODE(sse42)
