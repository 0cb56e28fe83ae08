/* sse42/impl.c - the SSE4.2 implementation's descriptor (dispatch.c lists it). */
#include "cpu.h"
#include "impl.h"
#include "sse42/kernels.h"

const pct_impl pct_sse42_impl = {
    "sse42",          PCT_CPU_SSE42,    pct_sse42_find,     pct_sse42_encode_length,
    pct_sse42_encode, pct_sse42_decode, pct_sse42_validate,
};
