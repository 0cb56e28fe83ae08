/* avx2/encode.c - the AVX2 percent-encoder: x86/encode_body.h over avx2/vec.h. */
#include "avx2/vec.h"
#include "x86/encode_body.h"
#include "avx2/kernels.h"

PCT_X86_DEFINE_ENCODE(avx2)
