/* avx2/find.c - pct_find, pct_find_all and pct_encode_length:
 * generic/find_body.h over avx2/vec.h. */
#include "avx2/vec.h"
#include "generic/find_body.h"
#include "avx2/kernels.h"

PCT_GENERIC_DEFINE_FIND(avx2)
