/* neon/impl.c - the NEON implementation's descriptor: "neon" natively on
 * AArch64, "neon-simde" when built through SIMDe's emulation elsewhere
 * (PCT_NEON_SIMDE; that runs on any CPU, so it requires no feature). */
#include "cpu.h"
#include "impl.h"
#include "neon/kernels.h"

#if defined(PCT_NEON_SIMDE)
#define NEON_IMPL pct_neon_simde_impl
#define NEON_NAME "neon-simde"
#define NEON_REQUIRED 0
#else
#define NEON_IMPL pct_neon_impl
#define NEON_NAME "neon"
#define NEON_REQUIRED PCT_CPU_NEON
#endif

PCT_IMPL_DESCRIPTOR(NEON_IMPL, neon, NEON_NAME, NEON_REQUIRED, pct_neon_validate_utf8,
                    pct_neon_find_all, pct_neon_batch_offsets, pct_neon_batch_decode);
