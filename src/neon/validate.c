/* neon/validate.c - the NEON validators: generic/validate_body.h over neon/vec.h. */
#include "neon/vec.h"
#include "generic/validate_body.h"
#include "neon/kernels.h"

PCT_GENERIC_DEFINE_VALIDATE(neon)
