/* neon/decode.c - the NEON percent-decoder: generic/decode_body.h over neon/vec.h. */
#include "neon/vec.h"
#include "generic/decode_body.h"
#include "neon/kernels.h"

PCT_GENERIC_DEFINE_DECODE(neon)
