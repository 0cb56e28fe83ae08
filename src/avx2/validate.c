/* avx2/validate.c - the AVX2 validators: x86/validate_body.h over avx2/vec.h. */
#include "avx2/vec.h"
#include "x86/validate_body.h"
#include "avx2/kernels.h"

PCT_X86_DEFINE_VALIDATE(avx2)
