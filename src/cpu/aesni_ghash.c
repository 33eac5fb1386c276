/*
 * aesni_ghash.c -- GHASH for the `aesni` backend's GCM with PCLMULQDQ, and
 * 4 blocks per zmm with VPCLMULQDQ.
 */
#include <string.h>

#include "aesni.h"
#include "aesni_clmul.h"

#ifdef CPIM_HAVE_X86

/* ---- GHASH with PCLMULQDQ ----------------------------------------------------------------- */

/* hp = H^i x^-1 for i = GHASH_POWERS down to 1, byte-reversed
 * (aesni_clmul.h: cl_reduce's extra factor x is taken out in advance). */
TGT_CL void cpim_aesni_cl_powers(const uint8_t h[16], uint8_t *hp)
{
    /* H x^-1: in the reflected domain a shift left by one bit, the bit
     * carried out of the top reduced by the reflected modulus (no branch
     * on the key's bits) */
    const __m128i H = cl_bswap(_mm_loadu_si128((const __m128i *)h));
    const uint64_t lo = (uint64_t)_mm_cvtsi128_si64(H), hi = (uint64_t)_mm_extract_epi64(H, 1);
    const uint64_t top = 0 - (hi >> 63);
    const __m128i p1 = _mm_set_epi64x((long long)((hi << 1 | lo >> 63) ^ (top & CL_POLY)),
                                      (long long)(lo << 1 ^ (top & 1)));
    __m128i x = p1;
    for (int i = 0; i < GHASH_POWERS; i++) {
        _mm_storeu_si128((__m128i *)(hp + 16 * (GHASH_POWERS - 1 - i)), x);
        x = cl_mul(x, p1); /* H^(i+1) x^-1 * H x^-1 * x */
    }
}

/* 4 blocks per reduction: y' = (y ^ B0) H^4 ^ B1 H^3 ^ B2 H^2 ^ B3 H. */
TGT_CL void cpim_aesni_cl_ghash(const uint8_t *hp, uint8_t y[16], const uint8_t *p, size_t nb)
{
    __m128i Y = cl_bswap(_mm_loadu_si128((const __m128i *)y));
    const __m128i h1 = cl_power(hp, 1), h2 = cl_power(hp, 2);
    const __m128i h3 = cl_power(hp, 3), h4 = cl_power(hp, 4);
    for (; nb >= 4; nb -= 4, p += 64) {
        const __m128i *q = (const __m128i *)p;
        __m128i lo = _mm_setzero_si128(), mid = lo, hi = lo;
        cl_mul_acc(_mm_xor_si128(Y, cl_bswap(_mm_loadu_si128(q))), h4, &lo, &mid, &hi);
        cl_mul_acc(cl_bswap(_mm_loadu_si128(q + 1)), h3, &lo, &mid, &hi);
        cl_mul_acc(cl_bswap(_mm_loadu_si128(q + 2)), h2, &lo, &mid, &hi);
        cl_mul_acc(cl_bswap(_mm_loadu_si128(q + 3)), h1, &lo, &mid, &hi);
        Y = cl_reduce(lo, mid, hi);
    }
    for (; nb; nb--, p += 16)
        Y = cl_mul(_mm_xor_si128(Y, cl_bswap(_mm_loadu_si128((const __m128i *)p))), h1);
    _mm_storeu_si128((__m128i *)y, cl_bswap(Y));
}

/* VPCLMULQDQ on zmm: 16 blocks per reduction, four per instruction. */
TGT_VCL void cpim_aesni_vcl_ghash(const uint8_t *hp, uint8_t y[16], const uint8_t *p, size_t nb)
{
    if (nb < 16) { /* a length block, a short AAD: no zmm set-up */
        cpim_aesni_cl_ghash(hp, y, p, nb);
        return;
    }
    const __m512i rev = vcl_rev();
    __m512i hz[4];
    for (int g = 0; g < 4; g++)
        hz[g] = vcl_powers16(hp, g);
    __m128i Y = cl_bswap(_mm_loadu_si128((const __m128i *)y));
    for (; nb >= 16; nb -= 16, p += 256) {
        __m512i lo = _mm512_setzero_si512(), mid = lo, hi = lo;
#pragma GCC unroll 4
        for (int g = 0; g < 4; g++) {
            __m512i x = _mm512_shuffle_epi8(_mm512_loadu_si512(p + 64 * g), rev);
            if (g == 0)
                x = _mm512_xor_si512(x, _mm512_zextsi128_si512(Y));
            vcl_mul_acc(x, hz[g], &lo, &mid, &hi);
        }
        Y = vcl_reduce(lo, mid, hi);
    }
    _mm_storeu_si128((__m128i *)y, cl_bswap(Y));
    if (nb)
        cpim_aesni_cl_ghash(hp, y, p, nb);
}

#endif /* CPIM_HAVE_X86 */
