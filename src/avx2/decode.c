/* avx2/decode.c - the AVX2 percent-decoder: x86/decode_body.h over avx2/vec.h. */
#include "avx2/vec.h"
#include "x86/decode_body.h"
#include "avx2/kernels.h"

PCT_X86_DEFINE_DECODE(avx2)
