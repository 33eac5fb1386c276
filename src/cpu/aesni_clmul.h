/*
 * aesni_clmul.h -- GF(2^128) arithmetic for GHASH with PCLMULQDQ, shared by
 * aesni_ghash.c (GHASH alone) and aesni_gcm512.c (GHASH stitched with CTR).
 */
#ifndef CPIM_AESNI_CLMUL_H
#define CPIM_AESNI_CLMUL_H

#include "aesni.h"

#ifdef CPIM_HAVE_X86

/* Blocks are byte-reversed on load, so that GCM's reflected bit order
 * becomes the reflection of plain polynomial order: x^i is register bit
 * 127 - i.  The carry-less product of two such values is the reflected
 * 255-bit product, and it is reduced the Montgomery way: in the reflected
 * domain, clearing the low 64 bits twice by adding multiples of the
 * reflected modulus x^128 + x^127 + x^126 + x^121 + 1 divides by the
 * register's x^128 (Gueron and Kounavis, "Intel Carry-Less Multiplication
 * Instruction and its Usage for Computing the GCM Mode", and Gueron,
 * "Optimized Galois-Counter-Mode Implementation on Intel Architecture
 * Processors").  Each step is one carry-less product by 0xc2 << 56 and a
 * swap of 64-bit halves (cl_reduce): two PCLMULQDQ and no shifts.  That
 * reduction leaves an extra factor x in the product, so the table holds
 * H^i x^-1 (cpim_aesni_cl_powers) and a block times a table entry is the
 * block times H^i.
 *
 * Products of several blocks with several powers of H are summed
 * unreduced and reduced once (aggregated reduction, ibid.): the reduction
 * is linear. */
#define TGT_CL  __attribute__((target("pclmul,sse4.1")))
#define TGT_VCL __attribute__((target("pclmul,sse4.1,avx2,avx512f,avx512bw,avx512vl,vpclmulqdq")))

/* The reduction constant: x^63 + x^62 + x^57 in the low 64 bits (the
 * reflected modulus's terms below x^128, after the x^64 of one step). */
#define CL_POLY 0xc200000000000000ull

TGT_CL INLINE __m128i cl_bswap(__m128i x)
{
    return _mm_shuffle_epi8(x, _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
}

/* lo/mid/hi += the three parts of the carry-less product a * b (mid is
 * 64 bits above lo, hi 128). */
TGT_CL INLINE void cl_mul_acc(__m128i a, __m128i b, __m128i *lo, __m128i *mid, __m128i *hi)
{
    *lo = _mm_xor_si128(*lo, _mm_clmulepi64_si128(a, b, 0x00));
    *hi = _mm_xor_si128(*hi, _mm_clmulepi64_si128(a, b, 0x11));
    *mid = _mm_xor_si128(
        *mid, _mm_xor_si128(_mm_clmulepi64_si128(a, b, 0x01), _mm_clmulepi64_si128(a, b, 0x10)));
}

/* The field element of the unreduced product (lo, mid, hi), times x (see
 * above): fold lo into mid, then mid into hi, each fold one product by
 * CL_POLY and a swap of halves. */
TGT_CL INLINE __m128i cl_reduce(__m128i lo, __m128i mid, __m128i hi)
{
    const __m128i poly = _mm_set_epi64x(0, (long long)CL_POLY);
    mid = _mm_xor_si128(_mm_xor_si128(mid, _mm_clmulepi64_si128(lo, poly, 0x00)),
                        _mm_shuffle_epi32(lo, 0x4e));
    return _mm_xor_si128(_mm_xor_si128(hi, _mm_clmulepi64_si128(mid, poly, 0x00)),
                         _mm_shuffle_epi32(mid, 0x4e));
}

/* a * p * x: with p = H^i x^-1 from the table, a * H^i. */
TGT_CL INLINE __m128i cl_mul(__m128i a, __m128i p)
{
    __m128i lo = _mm_setzero_si128(), mid = lo, hi = lo;
    cl_mul_acc(a, p, &lo, &mid, &hi);
    return cl_reduce(lo, mid, hi);
}

/* H^i x^-1 (1 <= i <= GHASH_POWERS) from the table hp, which holds the
 * powers from the highest down (so that 16 blocks' powers are one run). */
TGT_CL INLINE __m128i cl_power(const uint8_t *hp, int i)
{
    return _mm_loadu_si128((const __m128i *)(hp + 16 * (GHASH_POWERS - i)));
}

/* ---- four blocks per zmm with VPCLMULQDQ --------------------------------------------------- */

/* The byte reversal of every 128-bit lane (GCM's order to PCLMULQDQ's). */
TGT_VCL INLINE __m512i vcl_rev(void)
{
    return _mm512_broadcast_i32x4(
        _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
}

/* Zmm g (0..3) of the powers for 16 blocks hashed together: its lane l is
 * block 4g + l's, H^(16 - 4g - l) (the table is in that order, see
 * cl_power; these loads take it to start at H^16). */
_Static_assert(GHASH_POWERS == 16, "the 16-block loads take the table to start at H^16");
TGT_VCL INLINE __m512i vcl_powers16(const uint8_t *hp, int g)
{
    return _mm512_loadu_si512((const void *)(hp + 64 * g));
}

/* lo/mid/hi += the unreduced products of x's four blocks with h's powers. */
TGT_VCL INLINE void vcl_mul_acc(__m512i x, __m512i h, __m512i *lo, __m512i *mid, __m512i *hi)
{
    *lo = _mm512_xor_si512(*lo, _mm512_clmulepi64_epi128(x, h, 0x00));
    *hi = _mm512_xor_si512(*hi, _mm512_clmulepi64_epi128(x, h, 0x11));
    *mid = _mm512_ternarylogic_epi64(*mid, _mm512_clmulepi64_epi128(x, h, 0x01),
                                     _mm512_clmulepi64_epi128(x, h, 0x10), 0x96);
}

/* lo/mid/hi (+)= the unreduced products of x0's and x1's four blocks with
 * h0's and h1's powers, xors merged three ways; `first`: lo/mid/hi are
 * set, not added to. */
TGT_VCL INLINE void vcl_mul_acc2(__m512i x0, __m512i h0, __m512i x1, __m512i h1, const int first,
                                 __m512i *lo, __m512i *mid, __m512i *hi)
{
    const __m512i l0 = _mm512_clmulepi64_epi128(x0, h0, 0x00),
                  l1 = _mm512_clmulepi64_epi128(x1, h1, 0x00);
    const __m512i h0h = _mm512_clmulepi64_epi128(x0, h0, 0x11),
                  h1h = _mm512_clmulepi64_epi128(x1, h1, 0x11);
    const __m512i m0 = _mm512_clmulepi64_epi128(x0, h0, 0x01),
                  m1 = _mm512_clmulepi64_epi128(x0, h0, 0x10);
    const __m512i m2 = _mm512_clmulepi64_epi128(x1, h1, 0x01),
                  m3 = _mm512_clmulepi64_epi128(x1, h1, 0x10);
    if (first) {
        *lo = _mm512_xor_si512(l0, l1);
        *hi = _mm512_xor_si512(h0h, h1h);
        *mid = _mm512_xor_si512(_mm512_ternarylogic_epi64(m0, m1, m2, 0x96), m3);
    } else {
        *lo = _mm512_ternarylogic_epi64(*lo, l0, l1, 0x96);
        *hi = _mm512_ternarylogic_epi64(*hi, h0h, h1h, 0x96);
        *mid =
            _mm512_ternarylogic_epi64(_mm512_ternarylogic_epi64(*mid, m0, m1, 0x96), m2, m3, 0x96);
    }
}

/* The xor of z's four lanes. */
TGT_VCL INLINE __m128i vcl_fold4(__m512i z)
{
    const __m256i y = _mm256_xor_si256(_mm512_castsi512_si256(z), _mm512_extracti64x4_epi64(z, 1));
    return _mm_xor_si128(_mm256_castsi256_si128(y), _mm256_extracti128_si256(y, 1));
}

/* The field element of the sum of the four lanes' unreduced products (times
 * x, as cl_reduce): each lane reduced in place, then the lanes summed, so
 * that one reduction's instructions serve four lanes and only the result
 * crosses them. */
TGT_VCL INLINE __m128i vcl_reduce(__m512i lo, __m512i mid, __m512i hi)
{
    const __m512i poly = _mm512_set1_epi64((long long)CL_POLY);
    mid = _mm512_ternarylogic_epi64(mid, _mm512_clmulepi64_epi128(lo, poly, 0x00),
                                    _mm512_shuffle_epi32(lo, (_MM_PERM_ENUM)0x4e), 0x96);
    hi = _mm512_ternarylogic_epi64(hi, _mm512_clmulepi64_epi128(mid, poly, 0x00),
                                   _mm512_shuffle_epi32(mid, (_MM_PERM_ENUM)0x4e), 0x96);
    return vcl_fold4(hi);
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
    return _mm256_loadu_si256((const __m256i *)(hp + 32 * g));
}

TGT_VCL256 INLINE void vcl256_mul_acc(__m256i x, __m256i h, __m256i *lo, __m256i *mid, __m256i *hi)
{
    *lo = _mm256_xor_si256(*lo, _mm256_clmulepi64_epi128(x, h, 0x00));
    *hi = _mm256_xor_si256(*hi, _mm256_clmulepi64_epi128(x, h, 0x11));
    *mid = _mm256_xor_si256(*mid, _mm256_xor_si256(_mm256_clmulepi64_epi128(x, h, 0x01),
                                                   _mm256_clmulepi64_epi128(x, h, 0x10)));
}

/* The lanes' sum reduced, as vcl_reduce. */
TGT_VCL256 INLINE __m128i vcl256_reduce(__m256i lo, __m256i mid, __m256i hi)
{
    const __m256i poly = _mm256_set1_epi64x((long long)CL_POLY);
    mid = _mm256_xor_si256(_mm256_xor_si256(mid, _mm256_clmulepi64_epi128(lo, poly, 0x00)),
                           _mm256_shuffle_epi32(lo, 0x4e));
    hi = _mm256_xor_si256(_mm256_xor_si256(hi, _mm256_clmulepi64_epi128(mid, poly, 0x00)),
                          _mm256_shuffle_epi32(mid, 0x4e));
    return _mm_xor_si128(_mm256_castsi256_si128(hi), _mm256_extracti128_si256(hi, 1));
}

#endif /* CPIM_HAVE_X86 */

#endif /* CPIM_AESNI_CLMUL_H */
