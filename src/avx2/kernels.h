/* avx2/kernels.h - the AVX2 implementation's operations (impl.h shapes). */
#ifndef PCT_AVX2_KERNELS_H
#define PCT_AVX2_KERNELS_H

#include "impl.h"

PCT_DECLARE_KERNELS(avx2);
pct_validate_utf8_fn pct_avx2_validate_utf8;
pct_find_all_fn pct_avx2_find_all;
pct_batch_offsets_fn pct_avx2_batch_offsets;
pct_batch_decode_fn pct_avx2_batch_decode;

#endif /* PCT_AVX2_KERNELS_H */
