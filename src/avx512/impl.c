/* avx512/impl.c - the AVX-512 implementation's descriptor (dispatch.c lists
 * it), with its pct_validate_utf8. */
#include "cpu.h"
#include "impl.h"
#include "avx512/kernels.h"

PCT_IMPL_DESCRIPTOR(pct_avx512_impl, avx512, "avx512", PCT_CPU_AVX512, pct_avx512_validate_utf8,
                    pct_avx512_find_all, pct_avx512_batch_offsets, pct_avx512_batch_decode);
