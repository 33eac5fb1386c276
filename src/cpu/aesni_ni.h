/*
 * aesni_ni.h -- the AES-NI tier's inline ECB and CTR loops: the tier's own
 * kernels (aesni_ni.c), and the tails of a run shorter than the VAES tiers'
 * vectors (aesni_v256.c).
 */
#ifndef CPIM_AESNI_NI_H
#define CPIM_AESNI_NI_H

#include <string.h>

#include "aesni.h"

#ifdef CPIM_HAVE_X86

/* ---- AES-NI, 8 xmm blocks in flight ---------------------------------------------------- */

#define NI_LANES 8

TGT_NI INLINE void ni_ecb(const uint8_t *rk, const unsigned nr, const int dec, const uint8_t *in,
                          uint8_t *out, size_t nb)
{
    __m128i k[AESNI_MAX_ROUNDS + 1];
    for (unsigned r = 0; r <= nr; r++)
        k[r] = _mm_loadu_si128((const __m128i *)(rk + 16 * r));
    for (; nb >= NI_LANES; nb -= NI_LANES, in += 16 * NI_LANES, out += 16 * NI_LANES) {
        __m128i x[NI_LANES];
#pragma GCC unroll 8
        for (int i = 0; i < NI_LANES; i++)
            x[i] = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(in + 16 * i)), k[0]);
#pragma GCC unroll 14
        for (unsigned r = 1; r < nr; r++)
#pragma GCC unroll 8
            for (int i = 0; i < NI_LANES; i++)
                x[i] = dec ? _mm_aesdec_si128(x[i], k[r]) : _mm_aesenc_si128(x[i], k[r]);
#pragma GCC unroll 8
        for (int i = 0; i < NI_LANES; i++) {
            x[i] = dec ? _mm_aesdeclast_si128(x[i], k[nr]) : _mm_aesenclast_si128(x[i], k[nr]);
            _mm_storeu_si128((__m128i *)(out + 16 * i), x[i]);
        }
    }
    for (; nb; nb--, in += 16, out += 16) {
        __m128i x = _mm_xor_si128(_mm_loadu_si128((const __m128i *)in), k[0]);
#pragma GCC unroll 14
        for (unsigned r = 1; r < nr; r++)
            x = dec ? _mm_aesdec_si128(x, k[r]) : _mm_aesenc_si128(x, k[r]);
        x = dec ? _mm_aesdeclast_si128(x, k[nr]) : _mm_aesenclast_si128(x, k[nr]);
        _mm_storeu_si128((__m128i *)out, x);
    }
}

TGT_NI INLINE void ni_ctr(const uint8_t *rk, const unsigned nr, uint64_t hi, uint64_t lo,
                          const uint8_t *in, uint8_t *out, size_t nb)
{
    const __m128i bswap = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m128i one = _mm_set_epi64x(0, 1);
    __m128i k[AESNI_MAX_ROUNDS + 1];
    for (unsigned r = 0; r <= nr; r++)
        k[r] = _mm_loadu_si128((const __m128i *)(rk + 16 * r));
    /* Byte-reversed counter: qword 0 = lo, qword 1 = hi (never carried here). */
    __m128i c = _mm_set_epi64x((long long)hi, (long long)lo);
    for (; nb >= NI_LANES; nb -= NI_LANES, in += 16 * NI_LANES, out += 16 * NI_LANES) {
        __m128i x[NI_LANES];
#pragma GCC unroll 8
        for (int i = 0; i < NI_LANES; i++) {
            x[i] = _mm_xor_si128(_mm_shuffle_epi8(c, bswap), k[0]);
            c = _mm_add_epi64(c, one);
        }
#pragma GCC unroll 14
        for (unsigned r = 1; r < nr; r++)
#pragma GCC unroll 8
            for (int i = 0; i < NI_LANES; i++)
                x[i] = _mm_aesenc_si128(x[i], k[r]);
#pragma GCC unroll 8
        for (int i = 0; i < NI_LANES; i++) {
            x[i] = _mm_aesenclast_si128(
                x[i], _mm_xor_si128(k[nr], _mm_loadu_si128((const __m128i *)(in + 16 * i))));
            _mm_storeu_si128((__m128i *)(out + 16 * i), x[i]);
        }
    }
    for (; nb; nb--, in += 16, out += 16) {
        __m128i x = _mm_xor_si128(_mm_shuffle_epi8(c, bswap), k[0]);
        c = _mm_add_epi64(c, one);
#pragma GCC unroll 14
        for (unsigned r = 1; r < nr; r++)
            x = _mm_aesenc_si128(x, k[r]);
        x = _mm_aesenclast_si128(x, k[nr]);
        _mm_storeu_si128((__m128i *)out, _mm_xor_si128(x, _mm_loadu_si128((const __m128i *)in)));
    }
}

#endif /* CPIM_HAVE_X86 */

#endif /* CPIM_AESNI_NI_H */
