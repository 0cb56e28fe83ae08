/* neon/batch_decode.c - pct_batch_decode for NEON: generic/batch_decode.h over
 * neon/vec.h. */
#include "neon/vec.h"
#include "generic/batch_decode.h"
#include "neon/kernels.h"

PCT_GENERIC_DEFINE_BATCH_DECODE(neon)
