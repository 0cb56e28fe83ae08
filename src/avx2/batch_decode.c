/* avx2/batch_decode.c - pct_batch_decode for AVX2: x86/batch_decode.h over
 * avx2/vec.h. */
#include "avx2/vec.h"
#include "x86/batch_decode.h"
#include "avx2/kernels.h"

PCT_X86_DEFINE_BATCH_DECODE(avx2)
