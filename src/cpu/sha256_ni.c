/*
 * sha256_ni.c -- SHA-256 with the x86 SHA extensions (sha256rnds2 /
 * sha256msg1 / sha256msg2): one stream, and 2..4 streams interleaved (see
 * sha256_x86.h).
 *
 * Within a block every sha256rnds2 depends on the previous one, so a single
 * stream is bound by that chain's latency and leaves the SHA unit idle most
 * of the time; independent streams interleaved round by round fill it
 * (like intel-ipsec-mb's sha256_ni_x2).
 */
#include "sha256_x86.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

#include "sha256.h"

#define TGT_SHA __attribute__((target("sha,sse4.1")))
#define INLINE  static inline __attribute__((always_inline))
#define MAXL    4

/* Compresses nb blocks for each of n (1..4) lanes: lane l hashes
 * p[l][0 .. 64 * nb) into h[l].  n is a compile-time constant at every call
 * site, so the lane loops unroll and the streams interleave. */
TGT_SHA INLINE void ni_kernel(const int n, uint32_t *const h[], const uint8_t *const p[], size_t nb)
{
    const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
    __m128i s0[MAXL], s1[MAXL];
    const uint8_t *q[MAXL];
    /* The state as the instructions want it: s0 = ABEF, s1 = CDGH. */
#pragma GCC unroll 4
    for (int l = 0; l < n; l++) {
        __m128i t = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)h[l]), 0xB1);
        __m128i u = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)(h[l] + 4)), 0x1B);
        s0[l] = _mm_alignr_epi8(t, u, 8);
        s1[l] = _mm_blend_epi16(u, t, 0xF0);
        q[l] = p[l];
    }
    for (; nb; nb--) {
        __m128i save0[MAXL], save1[MAXL], w[MAXL][4];
#pragma GCC unroll 4
        for (int l = 0; l < n; l++)
            save0[l] = s0[l], save1[l] = s1[l];
#pragma GCC unroll 16
        for (int g = 0; g < 16; g++) {
            const __m128i k = _mm_loadu_si128((const __m128i *)(cpim_crypto_sha256_k + 4 * g));
#pragma GCC unroll 4
            for (int l = 0; l < n; l++) {
                __m128i *x = w[l];
                if (g < 4) {
                    x[g] =
                        _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(q[l] + 16 * g)), bswap);
                } else {
                    /* W[4g..4g+3] from W[4g-16 ..]: msg1 adds sigma0, the
                     * alignr supplies W[i-7], msg2 adds sigma1. */
                    __m128i t = _mm_sha256msg1_epu32(x[g & 3], x[(g + 1) & 3]);
                    t = _mm_add_epi32(t, _mm_alignr_epi8(x[(g + 3) & 3], x[(g + 2) & 3], 4));
                    x[g & 3] = _mm_sha256msg2_epu32(t, x[(g + 3) & 3]);
                }
                __m128i m = _mm_add_epi32(x[g & 3], k);
                s1[l] = _mm_sha256rnds2_epu32(s1[l], s0[l], m);
                s0[l] = _mm_sha256rnds2_epu32(s0[l], s1[l], _mm_shuffle_epi32(m, 0x0E));
            }
        }
#pragma GCC unroll 4
        for (int l = 0; l < n; l++) {
            s0[l] = _mm_add_epi32(s0[l], save0[l]);
            s1[l] = _mm_add_epi32(s1[l], save1[l]);
            q[l] += 64;
        }
    }
#pragma GCC unroll 4
    for (int l = 0; l < n; l++) {
        __m128i t = _mm_shuffle_epi32(s0[l], 0x1B);                        /* FEBA */
        __m128i u = _mm_shuffle_epi32(s1[l], 0xB1);                        /* DCHG */
        _mm_storeu_si128((__m128i *)h[l], _mm_blend_epi16(t, u, 0xF0));    /* DCBA */
        _mm_storeu_si128((__m128i *)(h[l] + 4), _mm_alignr_epi8(u, t, 8)); /* HGFE */
    }
}

TGT_SHA void cpim_sha256_ni_x1(uint32_t h[8], const uint8_t *p, size_t nb)
{
    uint32_t *hh[1] = {h};
    const uint8_t *pp[1] = {p};
    ni_kernel(1, hh, pp, nb);
}

TGT_SHA static void ni_x2(uint32_t *const h[], const uint8_t *const p[], size_t nb)
{
    ni_kernel(2, h, p, nb);
}
TGT_SHA static void ni_x3(uint32_t *const h[], const uint8_t *const p[], size_t nb)
{
    ni_kernel(3, h, p, nb);
}
TGT_SHA static void ni_x4(uint32_t *const h[], const uint8_t *const p[], size_t nb)
{
    ni_kernel(4, h, p, nb);
}

void cpim_sha256_ni_lanes(int n, uint32_t *const h[], const uint8_t *const p[], size_t nb)
{
    switch (n) {
    case 1:
        cpim_sha256_ni_x1(h[0], p[0], nb);
        break;
    case 2:
        ni_x2(h, p, nb);
        break;
    case 3:
        ni_x3(h, p, nb);
        break;
    default:
        ni_x4(h, p, nb);
        break;
    }
}

#else /* not x86: never called (the scheduler checks the CPU first) */

void cpim_sha256_ni_x1(uint32_t h[8], const uint8_t *p, size_t nb)
{
    (void)h, (void)p, (void)nb;
}
void cpim_sha256_ni_lanes(int n, uint32_t *const h[], const uint8_t *const p[], size_t nb)
{
    (void)n, (void)h, (void)p, (void)nb;
}

#endif
