/* avx2/impl.c - the AVX2 implementation's descriptor (dispatch.c lists it). */
#include "cpu.h"
#include "impl.h"
#include "avx2/kernels.h"

PCT_IMPL_DESCRIPTOR(pct_avx2_impl, avx2, "avx2", PCT_CPU_AVX2, pct_avx2_validate_utf8,
                    pct_avx2_find_all, pct_avx2_batch_offsets, pct_avx2_batch_decode);
