/* cpu.h - CPU features the kernels need, detected once. */
#ifndef PCT_CPU_H
#define PCT_CPU_H

#include <stdint.h>

/* Each feature has its own bit; PCT_CPU_KNOWN marks "detection has run", so
 * that 0 can mean "not detected yet". */
#define PCT_CPU_SSE42 (1u << 0)  /* SSE4.2 + SSSE3 + POPCNT */
#define PCT_CPU_AVX2 (1u << 1)   /* AVX2 + BMI1 + BMI2, YMM state saved by the OS */
#define PCT_CPU_AVX512 (1u << 2) /* AVX-512 F/BW/VL/VBMI/VBMI2/VPOPCNTDQ, ZMM saved */
#define PCT_CPU_NEON (1u << 3)   /* AArch64 Advanced SIMD */
#define PCT_CPU_KNOWN (1u << 31)

/* The features of this CPU (and OS), detected on the first call and cached:
 * cpuid is a VM exit under virtualization (microseconds), so it must never
 * run on a hot path. */
uint32_t pct_cpu_features(void);

/* What one PCT_CPU_* bit stands for, for messages ("AVX2/BMI1/BMI2 with YMM
 * state saved by the OS"); NULL for a bit that is no feature. */
const char *pct_cpu_feature_name(uint32_t bit);

#endif /* PCT_CPU_H */
