/* avx2/encode.c - the AVX2 percent-encoder: generic/encode_body.h over avx2/vec.h. */
#include "avx2/vec.h"
#include "generic/encode_body.h"
#include "avx2/kernels.h"

PCT_GENERIC_DEFINE_ENCODE(avx2)
