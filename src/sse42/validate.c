/* sse42/validate.c - the SSE4.2 validators: x86/validate_body.h over sse42/vec.h. */
#include "sse42/vec.h"
#include "x86/validate_body.h"
#include "sse42/kernels.h"

PCT_X86_DEFINE_VALIDATE(sse42)
