/*
 * aesni_ghash.c -- GHASH for the `aesni` backend's GCM with PCLMULQDQ, and
 * 4 blocks per zmm with VPCLMULQDQ.
 */
#include <string.h>

#include "aesni.h"

#ifdef CPIM_HAVE_X86

/* ---- GHASH with PCLMULQDQ ----------------------------------------------------------------- */

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

/* hp = H^1 .. H^GHASH_POWERS, byte-reversed. */
TGT_CL void cpim_aesni_cl_powers(const uint8_t h[16], uint8_t *hp)
{
    __m128i H = cl_bswap(_mm_loadu_si128((const __m128i *)h)), x = H;
    for (int i = 0; i < GHASH_POWERS; i++) {
        _mm_storeu_si128((__m128i *)(hp + 16 * i), x);
        x = cl_mul(x, H);
    }
}

/* 4 blocks per reduction: y' = (y ^ B0) H^4 ^ B1 H^3 ^ B2 H^2 ^ B3 H. */
TGT_CL void cpim_aesni_cl_ghash(const uint8_t *hp, uint8_t y[16], const uint8_t *p, size_t nb)
{
    const __m128i *H = (const __m128i *)hp;
    __m128i Y = cl_bswap(_mm_loadu_si128((const __m128i *)y));
    const __m128i h1 = _mm_loadu_si128(H), h2 = _mm_loadu_si128(H + 1);
    const __m128i h3 = _mm_loadu_si128(H + 2), h4 = _mm_loadu_si128(H + 3);
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

/* VPCLMULQDQ on zmm: 16 blocks per reduction, four per instruction; zmm g
 * holds H^(16-4g) .. H^(13-4g) in its lanes 0..3, matching blocks 4g..4g+3. */
TGT_VCL void cpim_aesni_vcl_ghash(const uint8_t *hp, uint8_t y[16], const uint8_t *p, size_t nb)
{
    const __m512i rev =
        _mm512_broadcast_i32x4(_mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
    __m512i hz[4];
    for (int g = 0; g < 4; g++) {
        const __m128i *H = (const __m128i *)hp;
        /* lane l of group g is block 4g + l: power 16 - 4g - l, index 15 - 4g - l */
        hz[g] = _mm512_inserti32x4(
            _mm512_inserti32x4(
                _mm512_inserti32x4(_mm512_castsi128_si512(_mm_loadu_si128(H + 15 - 4 * g)),
                                   _mm_loadu_si128(H + 14 - 4 * g), 1),
                _mm_loadu_si128(H + 13 - 4 * g), 2),
            _mm_loadu_si128(H + 12 - 4 * g), 3);
    }
    __m128i Y = cl_bswap(_mm_loadu_si128((const __m128i *)y));
    for (; nb >= 16; nb -= 16, p += 256) {
        __m512i lo = _mm512_setzero_si512(), mid = lo, hi = lo;
        for (int g = 0; g < 4; g++) {
            __m512i x = _mm512_shuffle_epi8(_mm512_loadu_si512(p + 64 * g), rev);
            if (g == 0)
                x = _mm512_xor_si512(x, _mm512_zextsi128_si512(Y));
            lo = _mm512_xor_si512(lo, _mm512_clmulepi64_epi128(x, hz[g], 0x00));
            hi = _mm512_xor_si512(hi, _mm512_clmulepi64_epi128(x, hz[g], 0x11));
            mid = _mm512_xor_si512(mid, _mm512_xor_si512(_mm512_clmulepi64_epi128(x, hz[g], 0x01),
                                                         _mm512_clmulepi64_epi128(x, hz[g], 0x10)));
        }
#define FOLD4(z)                                                                                   \
    _mm_xor_si128(_mm_xor_si128(_mm512_castsi512_si128(z), _mm512_extracti32x4_epi32(z, 1)),       \
                  _mm_xor_si128(_mm512_extracti32x4_epi32(z, 2), _mm512_extracti32x4_epi32(z, 3)))
        Y = cl_reduce(FOLD4(lo), FOLD4(mid), FOLD4(hi));
#undef FOLD4
    }
    _mm_storeu_si128((__m128i *)y, cl_bswap(Y));
    if (nb)
        cpim_aesni_cl_ghash(hp, y, p, nb);
}

#endif /* CPIM_HAVE_X86 */
