/*
 * x86_cpu.h -- run-time x86 feature detection for the hardware backends
 * (aesni.c, shani.c).
 *
 * The library is built without any global -maes/-mavx flags: each kernel
 * enables its instructions with a per-function target attribute and is only
 * called after cpim_x86_features() said the CPU (and, for AVX/AVX-512, the
 * OS, via XGETBV) supports them.  On a non-x86 build every query returns 0.
 */
#ifndef CPIM_X86_CPU_H
#define CPIM_X86_CPU_H

enum {
    CPIM_X86_SSE41 = 1u << 0,   /* SSE4.1 (implies SSSE3) */
    CPIM_X86_AESNI = 1u << 1,   /* AES-NI */
    CPIM_X86_AVX2 = 1u << 2,    /* AVX2, with OS support for ymm state */
    CPIM_X86_VAES = 1u << 3,    /* VAES on ymm (needs AVX2 too) */
    CPIM_X86_AVX512 = 1u << 4,  /* AVX-512 F+BW+VL, with OS support for zmm state */
    CPIM_X86_VAES512 = 1u << 5, /* VAES on zmm: VAES and CPIM_X86_AVX512 */
    CPIM_X86_SHANI = 1u << 6,   /* SHA-NI (sha256rnds2/msg1/msg2) */
    /* GHASH: */
    CPIM_X86_PCLMUL = 1u << 7,  /* PCLMULQDQ (with SSE4.1 for the shuffles) */
    CPIM_X86_VPCLMUL = 1u << 8, /* VPCLMULQDQ on zmm: with CPIM_X86_AVX512 */
    /* NTT: */
    CPIM_X86_IFMA = 1u << 9, /* AVX512_IFMA (vpmadd52luq/huq): with CPIM_X86_AVX512 */
    /* GCM's ymm tier: */
    CPIM_X86_VPCLMUL256 = 1u << 10, /* VPCLMULQDQ on ymm: with CPIM_X86_AVX2 */
    /* NTT on 64-bit lanes: */
    CPIM_X86_AVX512DQ = 1u << 11, /* AVX512DQ (vpmullq): with CPIM_X86_AVX512 */
};

/* The CPIM_X86_* bits this CPU and OS support, restricted by the mask below.
 * Cheap after the first call (cached); thread-safe. */
unsigned cpim_x86_features(void);

/* Testing aid: restricts what cpim_x86_features() reports to `mask` (all bits
 * = no restriction), so tests can exercise the narrower code paths on a wide
 * machine.  Returns the previous mask.  Not for use while other threads run
 * hardware-backend operations. */
unsigned cpim_x86_set_mask(unsigned mask);

#endif /* CPIM_X86_CPU_H */
