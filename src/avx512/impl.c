/* avx512/impl.c - the AVX-512 implementation's descriptor (dispatch.c lists it). */
#include "cpu.h"
#include "impl.h"
#include "avx512/kernels.h"

const pct_impl pct_avx512_impl = {
    "avx512",          PCT_CPU_AVX512,    pct_avx512_find,     pct_avx512_encode_length,
    pct_avx512_encode, pct_avx512_decode, pct_avx512_validate,
};
