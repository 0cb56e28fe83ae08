/* neon/find.c - pct_find, pct_find_all and pct_encode_length:
 * generic/find_body.h over neon/vec.h. */
#include "neon/vec.h"
#include "generic/find_body.h"
#include "neon/kernels.h"

PCT_GENERIC_DEFINE_FIND(neon)
