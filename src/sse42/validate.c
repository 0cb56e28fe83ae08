/* sse42/validate.c - the SSE4.2 validators: generic/validate_body.h over sse42/vec.h. */
#include "sse42/vec.h"
#include "generic/validate_body.h"
#include "sse42/kernels.h"

PCT_GENERIC_DEFINE_VALIDATE(sse42)
