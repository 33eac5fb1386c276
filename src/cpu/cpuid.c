/* see x86_cpu.h */
#include "x86_cpu.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <stdint.h>

/* XGETBV by opcode, so no -mxsave is needed (only called when OSXSAVE is set). */
static uint64_t xgetbv0(void)
{
    uint32_t lo, hi;
    __asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

static unsigned detect(void)
{
    unsigned a, b, c, d, f = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    if (c & (1u << 19))
        f |= CPIM_X86_SSE41;
    if (c & (1u << 25))
        f |= CPIM_X86_AESNI;
    if ((c & (1u << 1)) && (f & CPIM_X86_SSE41))
        f |= CPIM_X86_PCLMUL;
    int avx = (c & (1u << 28)) != 0, osxsave = (c & (1u << 27)) != 0;
    uint64_t xcr0 = osxsave ? xgetbv0() : 0;
    int ymm_os = (xcr0 & 0x6) == 0x6;   /* XMM and YMM state */
    int zmm_os = (xcr0 & 0xe6) == 0xe6; /* plus opmask, ZMM_Hi256, Hi16_ZMM */
    unsigned max_leaf = __get_cpuid_max(0, 0);
    if (max_leaf < 7)
        return f;
    __cpuid_count(7, 0, a, b, c, d);
    if (b & (1u << 29))
        f |= CPIM_X86_SHANI;
    if (avx && ymm_os && (b & (1u << 5)))
        f |= CPIM_X86_AVX2;
    if ((f & CPIM_X86_AVX2) && (f & CPIM_X86_AESNI) && (c & (1u << 9)))
        f |= CPIM_X86_VAES;
    unsigned need512 = (1u << 16) | (1u << 30) | (1u << 31); /* F, BW, VL */
    if ((f & CPIM_X86_AVX2) && zmm_os && (b & need512) == need512)
        f |= CPIM_X86_AVX512;
    if ((f & CPIM_X86_VAES) && (f & CPIM_X86_AVX512))
        f |= CPIM_X86_VAES512;
    if ((f & CPIM_X86_PCLMUL) && (f & CPIM_X86_AVX512) && (c & (1u << 10)))
        f |= CPIM_X86_VPCLMUL;
    if ((f & CPIM_X86_PCLMUL) && (f & CPIM_X86_AVX2) && (c & (1u << 10)))
        f |= CPIM_X86_VPCLMUL256;
    if ((f & CPIM_X86_AVX512) && (b & (1u << 21)))
        f |= CPIM_X86_IFMA;
    if ((f & CPIM_X86_AVX512) && (b & (1u << 17)))
        f |= CPIM_X86_AVX512DQ;
    return f;
}

/* Both words are written once with the same value by any thread that gets
 * there first, so a benign race at worst; atomics keep the sanitizers quiet. */
static unsigned detected, detected_valid;
static unsigned mask_bits = ~0u;

unsigned cpim_x86_features(void)
{
    if (!__atomic_load_n(&detected_valid, __ATOMIC_ACQUIRE)) {
        __atomic_store_n(&detected, detect(), __ATOMIC_RELAXED);
        __atomic_store_n(&detected_valid, 1u, __ATOMIC_RELEASE);
    }
    return __atomic_load_n(&detected, __ATOMIC_RELAXED) &
           __atomic_load_n(&mask_bits, __ATOMIC_RELAXED);
}

unsigned cpim_x86_set_mask(unsigned mask)
{
    return __atomic_exchange_n(&mask_bits, mask, __ATOMIC_RELAXED);
}

#else /* not x86 */

unsigned cpim_x86_features(void)
{
    return 0;
}

unsigned cpim_x86_set_mask(unsigned mask)
{
    (void)mask;
    return ~0u;
}

#endif
