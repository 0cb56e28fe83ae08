/* avx2/impl.c - the AVX2 implementation's descriptor (dispatch.c lists it). */
#include "cpu.h"
#include "impl.h"
#include "avx2/kernels.h"

const pct_impl pct_avx2_impl = {
    "avx2",          PCT_CPU_AVX2,    pct_avx2_find,     pct_avx2_encode_length,
    pct_avx2_encode, pct_avx2_decode, pct_avx2_validate,
};
