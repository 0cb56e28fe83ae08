/* avx2/impl.c - the AVX2 implementation's descriptor (dispatch.c lists it). */
#include "cpu.h"
#include "impl.h"
#include "avx2/kernels.h"

const pct_impl pct_avx2_impl = {
    .name = "avx2",
    .required = PCT_CPU_AVX2,
    .find = pct_avx2_find,
    .encode_length = pct_avx2_encode_length,
    .encode = pct_avx2_encode,
    .decode = pct_avx2_decode,
    .validate = pct_avx2_validate,
};
