/* avx2/batch_decode.c - pct_batch_decode for AVX2: generic/batch_decode.h over
 * avx2/vec.h. */
#include "avx2/vec.h"
#include "generic/batch_decode.h"
#include "avx2/kernels.h"

PCT_GENERIC_DEFINE_BATCH_DECODE(avx2)
