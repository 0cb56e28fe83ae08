/* avx512/kernels.h - the AVX-512 implementation's operations (impl.h shapes). */
#ifndef PCT_AVX512_KERNELS_H
#define PCT_AVX512_KERNELS_H

#include "impl.h"

pct_find_fn pct_avx512_find;
pct_encode_length_fn pct_avx512_encode_length;
pct_encode_fn pct_avx512_encode;
pct_decode_fn pct_avx512_decode;
pct_validate_fn pct_avx512_validate;
pct_validate_utf8_fn pct_avx512_validate_utf8;

#endif /* PCT_AVX512_KERNELS_H */
