/* avx2/decode.c - the AVX2 percent-decoder: generic/decode_body.h over avx2/vec.h. */
#include "avx2/vec.h"
#include "generic/decode_body.h"
#include "avx2/kernels.h"

PCT_GENERIC_DEFINE_DECODE(avx2)
