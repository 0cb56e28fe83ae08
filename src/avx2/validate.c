/* avx2/validate.c - the AVX2 validators: generic/validate_body.h over avx2/vec.h. */
#include "avx2/vec.h"
#include "generic/validate_body.h"
#include "avx2/kernels.h"

PCT_GENERIC_DEFINE_VALIDATE(avx2)
