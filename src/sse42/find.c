/* sse42/find.c - pct_find, pct_find_all and pct_encode_length: x86/find_body.h over sse42/vec.h. */
#include "sse42/vec.h"
#include "x86/find_body.h"
#include "sse42/kernels.h"

PCT_X86_DEFINE_FIND(sse42)
