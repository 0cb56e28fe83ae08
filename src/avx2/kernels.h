/* avx2/kernels.h - the AVX2 implementation's operations (impl.h shapes). */
#ifndef PCT_AVX2_KERNELS_H
#define PCT_AVX2_KERNELS_H

#include "impl.h"

pct_find_fn pct_avx2_find;
pct_encode_length_fn pct_avx2_encode_length;
pct_encode_fn pct_avx2_encode;
pct_decode_fn pct_avx2_decode;
pct_validate_fn pct_avx2_validate;

#endif /* PCT_AVX2_KERNELS_H */
