/*
 * aesni_v256.c -- the `aesni` backend's VAES tier on ymm (AVX2): 8 ymm = 16
 * blocks in flight.
 */
#include <string.h>

#include "aesni.h"
#include "aesni_ni.h"

#ifdef CPIM_HAVE_X86

/* ---- VAES on ymm (AVX2), 8 ymm = 16 blocks in flight ----------------------------------- */

#define V256_LANES 8

TGT_V256 INLINE void v256_ecb(const uint8_t *rk, const unsigned nr, const int dec,
                              const uint8_t *in, uint8_t *out, size_t nb)
{
    __m256i k[AESNI_MAX_ROUNDS + 1];
    for (unsigned r = 0; r <= nr; r++)
        k[r] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(rk + 16 * r)));
    for (; nb >= 2 * V256_LANES;
         nb -= 2 * V256_LANES, in += 32 * V256_LANES, out += 32 * V256_LANES) {
        __m256i x[V256_LANES];
#pragma GCC unroll 8
        for (int i = 0; i < V256_LANES; i++)
            x[i] = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(in + 32 * i)), k[0]);
#pragma GCC unroll 14
        for (unsigned r = 1; r < nr; r++)
#pragma GCC unroll 8
            for (int i = 0; i < V256_LANES; i++)
                x[i] = dec ? _mm256_aesdec_epi128(x[i], k[r]) : _mm256_aesenc_epi128(x[i], k[r]);
#pragma GCC unroll 8
        for (int i = 0; i < V256_LANES; i++) {
            x[i] =
                dec ? _mm256_aesdeclast_epi128(x[i], k[nr]) : _mm256_aesenclast_epi128(x[i], k[nr]);
            _mm256_storeu_si256((__m256i *)(out + 32 * i), x[i]);
        }
    }
    for (; nb >= 2; nb -= 2, in += 32, out += 32) {
        __m256i x = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)in), k[0]);
#pragma GCC unroll 14
        for (unsigned r = 1; r < nr; r++)
            x = dec ? _mm256_aesdec_epi128(x, k[r]) : _mm256_aesenc_epi128(x, k[r]);
        x = dec ? _mm256_aesdeclast_epi128(x, k[nr]) : _mm256_aesenclast_epi128(x, k[nr]);
        _mm256_storeu_si256((__m256i *)out, x);
    }
    if (nb)
        ni_ecb(rk, nr, dec, in, out, nb);
}

TGT_V256 INLINE void v256_ctr(const uint8_t *rk, const unsigned nr, uint64_t hi, uint64_t lo,
                              const uint8_t *in, uint8_t *out, size_t nb)
{
    const __m256i bswap = _mm256_broadcastsi128_si256(
        _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
    const __m256i two = _mm256_set_epi64x(0, 2, 0, 2);
    __m256i k[AESNI_MAX_ROUNDS + 1];
    for (unsigned r = 0; r <= nr; r++)
        k[r] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(rk + 16 * r)));
    __m256i c = _mm256_set_epi64x((long long)hi, (long long)(lo + 1), (long long)hi, (long long)lo);
    size_t done = 0;
    for (; nb - done >= 2 * V256_LANES; done += 2 * V256_LANES) {
        const uint8_t *ip = in + 16 * done;
        uint8_t *op = out + 16 * done;
        __m256i x[V256_LANES];
#pragma GCC unroll 8
        for (int i = 0; i < V256_LANES; i++) {
            x[i] = _mm256_xor_si256(_mm256_shuffle_epi8(c, bswap), k[0]);
            c = _mm256_add_epi64(c, two);
        }
#pragma GCC unroll 14
        for (unsigned r = 1; r < nr; r++)
#pragma GCC unroll 8
            for (int i = 0; i < V256_LANES; i++)
                x[i] = _mm256_aesenc_epi128(x[i], k[r]);
#pragma GCC unroll 8
        for (int i = 0; i < V256_LANES; i++) {
            x[i] = _mm256_aesenclast_epi128(
                x[i], _mm256_xor_si256(k[nr], _mm256_loadu_si256((const __m256i *)(ip + 32 * i))));
            _mm256_storeu_si256((__m256i *)(op + 32 * i), x[i]);
        }
    }
    if (nb > done)
        ni_ctr(rk, nr, hi, lo + done, in + 16 * done, out + 16 * done, nb - done);
}

DEFINE_TIER(TGT_V256, v256)

#endif /* CPIM_HAVE_X86 */
