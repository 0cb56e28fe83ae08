/* sse42/kernels.h - the SSE4.2 implementation's operations (impl.h shapes). */
#ifndef PCT_SSE42_KERNELS_H
#define PCT_SSE42_KERNELS_H

#include "impl.h"

PCT_DECLARE_KERNELS(sse42);
pct_validate_utf8_fn pct_sse42_validate_utf8;
pct_find_all_fn pct_sse42_find_all;
pct_batch_offsets_fn pct_sse42_batch_offsets;
pct_batch_decode_fn pct_sse42_batch_decode;

#endif /* PCT_SSE42_KERNELS_H */
