/*
 * aesni_clmul.h -- GF(2^128) arithmetic for GHASH with PCLMULQDQ, shared by
 * aesni_ghash.c (GHASH alone) and aesni_gcm512.c (GHASH stitched with CTR).
 */
#ifndef CPIM_AESNI_CLMUL_H
#define CPIM_AESNI_CLMUL_H

#include "aesni.h"

#ifdef CPIM_HAVE_X86

/* Blocks are byte-reversed on load, so that GCM's reflected bit order
 * becomes plain polynomial order shifted by one bit; the product of two
 * such values is the 256-bit carry-less product, shifted left by one and
 * reduced modulo x^128 + x^7 + x^2 + x + 1 (Gueron and Kounavis, "Intel
 * Carry-Less Multiplication Instruction and its Usage for Computing the GCM
 * Mode", algorithm 5).  Products of several blocks with several powers of H
 * are summed unreduced and reduced once (aggregated reduction, ibid.): the
 * reduction is linear, and it costs as much as the multiplication. */
#define TGT_CL  __attribute__((target("pclmul,sse4.1")))
#define TGT_VCL __attribute__((target("pclmul,sse4.1,avx2,avx512f,avx512bw,avx512vl,vpclmulqdq")))

TGT_CL INLINE __m128i cl_bswap(__m128i x)
{
    return _mm_shuffle_epi8(x, _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
}

/* lo/mid/hi += the three parts of the carry-less product a * b. */
TGT_CL INLINE void cl_mul_acc(__m128i a, __m128i b, __m128i *lo, __m128i *mid, __m128i *hi)
{
    *lo = _mm_xor_si128(*lo, _mm_clmulepi64_si128(a, b, 0x00));
    *hi = _mm_xor_si128(*hi, _mm_clmulepi64_si128(a, b, 0x11));
    *mid = _mm_xor_si128(
        *mid, _mm_xor_si128(_mm_clmulepi64_si128(a, b, 0x01), _mm_clmulepi64_si128(a, b, 0x10)));
}

/* The field element of the unreduced product (lo, mid, hi). */
TGT_CL INLINE __m128i cl_reduce(__m128i lo, __m128i mid, __m128i hi)
{
    __m128i t3 = _mm_xor_si128(lo, _mm_slli_si128(mid, 8));
    __m128i t6 = _mm_xor_si128(hi, _mm_srli_si128(mid, 8));
    /* shift the 256-bit t6:t3 left by one bit */
    __m128i t7 = _mm_srli_epi32(t3, 31), t8 = _mm_srli_epi32(t6, 31);
    t3 = _mm_slli_epi32(t3, 1);
    t6 = _mm_slli_epi32(t6, 1);
    __m128i t9 = _mm_srli_si128(t7, 12);
    t8 = _mm_slli_si128(t8, 4);
    t7 = _mm_slli_si128(t7, 4);
    t3 = _mm_or_si128(t3, t7);
    t6 = _mm_or_si128(_mm_or_si128(t6, t8), t9);
    /* reduce: first phase */
    t7 = _mm_xor_si128(_mm_xor_si128(_mm_slli_epi32(t3, 31), _mm_slli_epi32(t3, 30)),
                       _mm_slli_epi32(t3, 25));
    t8 = _mm_srli_si128(t7, 4);
    t7 = _mm_slli_si128(t7, 12);
    t3 = _mm_xor_si128(t3, t7);
    /* second phase */
    __m128i t2 = _mm_xor_si128(_mm_xor_si128(_mm_srli_epi32(t3, 1), _mm_srli_epi32(t3, 2)),
                               _mm_srli_epi32(t3, 7));
    t2 = _mm_xor_si128(t2, t8);
    t3 = _mm_xor_si128(t3, t2);
    return _mm_xor_si128(t6, t3);
}

TGT_CL INLINE __m128i cl_mul(__m128i a, __m128i b)
{
    __m128i lo = _mm_setzero_si128(), mid = lo, hi = lo;
    cl_mul_acc(a, b, &lo, &mid, &hi);
    return cl_reduce(lo, mid, hi);
}

/* ---- four blocks per zmm with VPCLMULQDQ --------------------------------------------------- */

/* The byte reversal of every 128-bit lane (GCM's order to PCLMULQDQ's). */
TGT_VCL INLINE __m512i vcl_rev(void)
{
    return _mm512_broadcast_i32x4(
        _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
}

/* Zmm g (0..3) of the powers for 16 blocks hashed together: its lane l is
 * block 4g + l's, H^(16 - 4g - l) (hp: H^1..H^GHASH_POWERS, see gcm_key). */
TGT_VCL INLINE __m512i vcl_powers16(const uint8_t *hp, int g)
{
    const __m128i *H = (const __m128i *)hp;
    return _mm512_inserti32x4(
        _mm512_inserti32x4(
            _mm512_inserti32x4(_mm512_castsi128_si512(_mm_loadu_si128(H + 15 - 4 * g)),
                               _mm_loadu_si128(H + 14 - 4 * g), 1),
            _mm_loadu_si128(H + 13 - 4 * g), 2),
        _mm_loadu_si128(H + 12 - 4 * g), 3);
}

/* lo/mid/hi += the unreduced products of x's four blocks with h's powers. */
TGT_VCL INLINE void vcl_mul_acc(__m512i x, __m512i h, __m512i *lo, __m512i *mid, __m512i *hi)
{
    *lo = _mm512_xor_si512(*lo, _mm512_clmulepi64_epi128(x, h, 0x00));
    *hi = _mm512_xor_si512(*hi, _mm512_clmulepi64_epi128(x, h, 0x11));
    *mid = _mm512_ternarylogic_epi64(*mid, _mm512_clmulepi64_epi128(x, h, 0x01),
                                     _mm512_clmulepi64_epi128(x, h, 0x10), 0x96);
}

TGT_VCL INLINE __m128i vcl_fold4(__m512i z)
{
    return _mm_xor_si128(
        _mm_xor_si128(_mm512_castsi512_si128(z), _mm512_extracti32x4_epi32(z, 1)),
        _mm_xor_si128(_mm512_extracti32x4_epi32(z, 2), _mm512_extracti32x4_epi32(z, 3)));
}

/* The field element of the sum of the four lanes' unreduced products: one
 * reduction for all of them. */
TGT_VCL INLINE __m128i vcl_reduce(__m512i lo, __m512i mid, __m512i hi)
{
    return cl_reduce(vcl_fold4(lo), vcl_fold4(mid), vcl_fold4(hi));
}

/* ---- two blocks per ymm with VPCLMULQDQ (no AVX-512) ------------------------------------- */

#define TGT_VCL256 __attribute__((target("pclmul,sse4.1,avx2,vpclmulqdq")))

TGT_VCL256 INLINE __m256i vcl256_rev(void)
{
    return _mm256_broadcastsi128_si256(
        _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
}

/* Ymm g (0..7) of the powers for 16 blocks hashed together: its lane l is
 * block 2g + l's, H^(16 - 2g - l). */
TGT_VCL256 INLINE __m256i vcl256_powers16(const uint8_t *hp, int g)
{
    const __m128i *H = (const __m128i *)hp;
    return _mm256_set_m128i(_mm_loadu_si128(H + 14 - 2 * g), _mm_loadu_si128(H + 15 - 2 * g));
}

TGT_VCL256 INLINE void vcl256_mul_acc(__m256i x, __m256i h, __m256i *lo, __m256i *mid, __m256i *hi)
{
    *lo = _mm256_xor_si256(*lo, _mm256_clmulepi64_epi128(x, h, 0x00));
    *hi = _mm256_xor_si256(*hi, _mm256_clmulepi64_epi128(x, h, 0x11));
    *mid = _mm256_xor_si256(*mid, _mm256_xor_si256(_mm256_clmulepi64_epi128(x, h, 0x01),
                                                   _mm256_clmulepi64_epi128(x, h, 0x10)));
}

TGT_VCL256 INLINE __m128i vcl256_fold2(__m256i z)
{
    return _mm_xor_si128(_mm256_castsi256_si128(z), _mm256_extracti128_si256(z, 1));
}

TGT_VCL256 INLINE __m128i vcl256_reduce(__m256i lo, __m256i mid, __m256i hi)
{
    return cl_reduce(vcl256_fold2(lo), vcl256_fold2(mid), vcl256_fold2(hi));
}

#endif /* CPIM_HAVE_X86 */

#endif /* CPIM_AESNI_CLMUL_H */
