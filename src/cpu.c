/* cpu.c - CPU feature detection. Compiled without ISA flags: it runs before
 * anything knows which instructions are safe. */
#include "cpu.h"

#include <stdatomic.h>
#include <stddef.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

/* XCR0: which register states the OS saves on context switch. A CPU may
 * support AVX2 while the OS does not save YMM registers; then AVX2 code would
 * have its registers corrupted, so the XCR0 bits are required too. */
static uint64_t read_xcr0(void)
{
    uint32_t eax, edx;
    __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
    return ((uint64_t)edx << 32) | eax;
}

static uint32_t detect(void)
{
    uint32_t features = 0;
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx))
        return features;
    const int ssse3 = (ecx >> 9) & 1, sse42 = (ecx >> 20) & 1, popcnt = (ecx >> 23) & 1;
    const int osxsave = (ecx >> 27) & 1, avx = (ecx >> 28) & 1;
    if (ssse3 && sse42 && popcnt)
        features |= PCT_CPU_SSE42;
    if (!osxsave || !avx)
        return features;
    const uint64_t xcr0 = read_xcr0();
    const int ymm_saved = (xcr0 & 0x6) == 0x6;                /* XMM + YMM */
    const int zmm_saved = ymm_saved && (xcr0 & 0xE0) == 0xE0; /* opmask + ZMM */
    if (__get_cpuid_max(0, 0) < 7)
        return features;
    __cpuid_count(7, 0, eax, ebx, ecx, edx);
    const int bmi1 = (ebx >> 3) & 1, avx2 = (ebx >> 5) & 1, bmi2 = (ebx >> 8) & 1;
    const int avx512f = (ebx >> 16) & 1, avx512bw = (ebx >> 30) & 1, avx512vl = (ebx >> 31) & 1;
    const int vbmi = (ecx >> 1) & 1, vbmi2 = (ecx >> 6) & 1, vpopcntdq = (ecx >> 14) & 1;
    if (ymm_saved && avx2 && bmi1 && bmi2)
        features |= PCT_CPU_AVX2;
    if (zmm_saved && (features & PCT_CPU_AVX2) && avx512f && avx512bw && avx512vl && vbmi &&
        vbmi2 && vpopcntdq)
        features |= PCT_CPU_AVX512;
    return features;
}

#elif defined(__aarch64__) || defined(_M_ARM64)

static uint32_t detect(void)
{
    return PCT_CPU_NEON; /* Advanced SIMD is part of the AArch64 baseline */
}

#else

static uint32_t detect(void)
{
    return 0;
}

#endif

uint32_t pct_cpu_features(void)
{
    static _Atomic uint32_t cached;
    uint32_t features = atomic_load_explicit(&cached, memory_order_relaxed);
    if (features == 0) {
        /* Racing first calls all compute the same value: storing it twice is harmless. */
        features = detect() | PCT_CPU_KNOWN;
        atomic_store_explicit(&cached, features, memory_order_relaxed);
    }
    return features;
}

const char *pct_cpu_feature_name(uint32_t bit)
{
    switch (bit) {
    case PCT_CPU_SSE42:
        return "SSE4.2/SSSE3/POPCNT";
    case PCT_CPU_AVX2:
        return "AVX2/BMI1/BMI2 with YMM state saved by the OS";
    case PCT_CPU_AVX512:
        return "AVX-512 F/BW/VL/VBMI/VBMI2/VPOPCNTDQ with ZMM state saved by the OS";
    case PCT_CPU_NEON:
        return "AArch64 NEON";
    default:
        return NULL;
    }
}
