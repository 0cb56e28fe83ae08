/* sse42/impl.c - the SSE4.2 implementation's descriptor (dispatch.c lists it). */
#include "cpu.h"
#include "impl.h"
#include "sse42/kernels.h"

const pct_impl pct_sse42_impl = {
    .name = "sse42",
    .required = PCT_CPU_SSE42,
    .find = pct_sse42_find,
    .encode_length = pct_sse42_encode_length,
    .encode = pct_sse42_encode,
    .decode = pct_sse42_decode,
    .validate = pct_sse42_validate,
};
