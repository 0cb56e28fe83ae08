/* sse42/impl.c - the SSE4.2 implementation's descriptor (dispatch.c lists it). */
#include "cpu.h"
#include "impl.h"
#include "sse42/kernels.h"

PCT_IMPL_DESCRIPTOR(pct_sse42_impl, sse42, "sse42", PCT_CPU_SSE42, pct_sse42_validate_utf8,
                    pct_sse42_find_all, pct_sse42_batch_offsets, pct_sse42_batch_decode);
