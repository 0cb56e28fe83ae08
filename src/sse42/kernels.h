/* sse42/kernels.h - the SSE4.2 implementation's operations (impl.h shapes). */
#ifndef PCT_SSE42_KERNELS_H
#define PCT_SSE42_KERNELS_H

#include "impl.h"

pct_find_fn pct_sse42_find;
pct_encode_length_fn pct_sse42_encode_length;
pct_encode_fn pct_sse42_encode;
pct_decode_fn pct_sse42_decode;
pct_validate_fn pct_sse42_validate;

#endif /* PCT_SSE42_KERNELS_H */
