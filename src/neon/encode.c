/* neon/encode.c - the NEON percent-encoder: generic/encode_body.h over neon/vec.h. */
#include "neon/vec.h"
#include "generic/encode_body.h"
#include "neon/kernels.h"

PCT_GENERIC_DEFINE_ENCODE(neon)
