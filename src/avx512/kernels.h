/* avx512/kernels.h - the AVX-512 implementation's operations (impl.h shapes). */
#ifndef PCT_AVX512_KERNELS_H
#define PCT_AVX512_KERNELS_H

#include "impl.h"

PCT_DECLARE_KERNELS(avx512);
pct_validate_utf8_fn pct_avx512_validate_utf8;
pct_find_all_fn pct_avx512_find_all;
pct_batch_offsets_fn pct_avx512_batch_offsets;
pct_batch_decode_fn pct_avx512_batch_decode;

#endif /* PCT_AVX512_KERNELS_H */
