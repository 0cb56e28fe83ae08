/* neon/kernels.h - the NEON implementation's operations (impl.h shapes). */
#ifndef PCT_NEON_KERNELS_H
#define PCT_NEON_KERNELS_H

#include "impl.h"

PCT_DECLARE_KERNELS(neon);
pct_validate_utf8_fn pct_neon_validate_utf8;
pct_find_all_fn pct_neon_find_all;
pct_batch_offsets_fn pct_neon_batch_offsets;
pct_batch_decode_fn pct_neon_batch_decode;

#endif /* PCT_NEON_KERNELS_H */
