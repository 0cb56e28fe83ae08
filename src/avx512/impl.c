/* avx512/impl.c - the AVX-512 implementation's descriptor (dispatch.c lists it). */
#include "cpu.h"
#include "impl.h"
#include "avx512/kernels.h"

const pct_impl pct_avx512_impl = {
    .name = "avx512",
    .required = PCT_CPU_AVX512,
    .find = pct_avx512_find,
    .encode_length = pct_avx512_encode_length,
    .encode = pct_avx512_encode,
    .decode = pct_avx512_decode,
    .validate = pct_avx512_validate,
    .validate_utf8 = pct_avx512_validate_utf8,
};
