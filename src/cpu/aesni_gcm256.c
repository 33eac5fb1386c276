/*
 * aesni_gcm256.c -- the `aesni` backend's AES-GCM bulk kernel on ymm for
 * CPUs with VAES and VPCLMULQDQ but no AVX-512: the CTR keystream and the
 * GHASH of the ciphertext in one pass, 16 blocks (8 ymm) at a time.  The
 * method is aesni_gcm512.c's (why one pass, the byte-reversed counters that
 * make inc32 a 32-bit add, the aggregated reduction, the order of hashing),
 * with two blocks per register.
 */
#include <string.h>

#include "aesni.h"
#include "aesni_clmul.h"

#ifdef CPIM_HAVE_X86

#define TGT_VGCM256 __attribute__((target("aes,sse4.1,avx2,vaes,pclmul,vpclmulqdq")))

#define V256_REGS 8 /* ymm per 16-block chunk */

/* One block of the keystream from the byte-reversed counter in the low
 * lane of c (AES-NI on xmm, for the chunk's tail). */
TGT_VGCM256 INLINE __m128i one_block(const __m256i *k, const unsigned nr, __m128i c, __m128i rev)
{
    __m128i x = _mm_xor_si128(_mm_shuffle_epi8(c, rev), _mm256_castsi256_si128(k[0]));
#pragma GCC unroll 14
    for (unsigned r = 1; r < nr; r++)
        x = _mm_aesenc_si128(x, _mm256_castsi256_si128(k[r]));
    return _mm_aesenclast_si128(x, _mm256_castsi256_si128(k[nr]));
}

/* One 16-block chunk (8 ymm) of v256_gcm's loop, as v512_chunk
 * (aesni_gcm512.c): CTR of in to out, with `hash` Y absorbs g, and
 * encryption leaves its ciphertext byte-reversed in g. */
TGT_VGCM256 INLINE void v256_chunk(const __m256i *k, const unsigned nr, const __m256i *hz,
                                   const int dec, const int hash, __m256i *ctr, __m256i *g,
                                   __m128i *Y, const uint8_t *in, uint8_t *out)
{
    const __m256i rev = vcl256_rev(), two = _mm256_set_epi32(0, 0, 0, 2, 0, 0, 0, 2);
    __m256i x[V256_REGS], lo = _mm256_setzero_si256(), mid = lo, hi = lo;
    if (hash)
        g[0] = _mm256_xor_si256(g[0], _mm256_zextsi128_si256(*Y));
#pragma GCC unroll 8
    for (int i = 0; i < V256_REGS; i++) {
        x[i] = _mm256_xor_si256(_mm256_shuffle_epi8(*ctr, rev), k[0]);
        *ctr = _mm256_add_epi32(*ctr, two);
    }
    /* the products of ymm r-1 during round r (8 of the 9..13 rounds) */
#pragma GCC unroll 14
    for (unsigned r = 1; r < nr; r++) {
#pragma GCC unroll 8
        for (int i = 0; i < V256_REGS; i++)
            x[i] = _mm256_aesenc_epi128(x[i], k[r]);
        if (hash && r <= V256_REGS)
            vcl256_mul_acc(g[r - 1], hz[r - 1], &lo, &mid, &hi);
    }
#pragma GCC unroll 8
    for (int i = 0; i < V256_REGS; i++) {
        x[i] = _mm256_aesenclast_epi128(
            x[i], _mm256_xor_si256(k[nr], _mm256_loadu_si256((const __m256i *)(in + 32 * i))));
        _mm256_storeu_si256((__m256i *)(out + 32 * i), x[i]);
    }
    if (hash)
        *Y = vcl256_reduce(lo, mid, hi);
    if (!dec)
#pragma GCC unroll 8
        for (int i = 0; i < V256_REGS; i++)
            g[i] = _mm256_shuffle_epi8(x[i], rev);
}

TGT_VGCM256 INLINE void v256_gcm(const uint8_t *rk, const unsigned nr, const uint8_t *hp,
                                 const int dec, uint8_t c[16], uint8_t y[16], const uint8_t *in,
                                 uint8_t *out, size_t nb)
{
    const __m256i rev = vcl256_rev();
    __m256i k[AESNI_MAX_ROUNDS + 1], hz[V256_REGS];
    for (unsigned r = 0; r <= nr; r++)
        k[r] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(rk + 16 * r)));
    for (int g = 0; g < V256_REGS; g++)
        hz[g] = vcl256_powers16(hp, g);
    __m256i ctr =
        _mm256_add_epi32(_mm256_broadcastsi128_si256(cl_bswap(_mm_loadu_si128((const __m128i *)c))),
                         _mm256_set_epi32(0, 0, 0, 1, 0, 0, 0, 0));
    __m128i Y = cl_bswap(_mm_loadu_si128((const __m128i *)y));
    const uint32_t blocks = (uint32_t)nb;
    __m256i g[V256_REGS]; /* the (byte-reversed) ciphertext hashed in this chunk */
    if (dec) {
        for (; nb >= 16; nb -= 16, in += 256, out += 256) {
#pragma GCC unroll 8
            for (int i = 0; i < V256_REGS; i++)
                g[i] = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(in + 32 * i)), rev);
            v256_chunk(k, nr, hz, 1, 1, &ctr, g, &Y, in, out);
        }
    } else if (nb >= 16) {
        /* as aesni_gcm512.c: each chunk's ciphertext hashed during the
         * next one's rounds, the last one's after the loop */
        v256_chunk(k, nr, hz, 0, 0, &ctr, g, &Y, in, out);
        for (nb -= 16, in += 256, out += 256; nb >= 16; nb -= 16, in += 256, out += 256)
            v256_chunk(k, nr, hz, 0, 1, &ctr, g, &Y, in, out);
        __m256i lo = _mm256_setzero_si256(), mid = lo, hi = lo;
        g[0] = _mm256_xor_si256(g[0], _mm256_zextsi128_si256(Y));
#pragma GCC unroll 8
        for (int i = 0; i < V256_REGS; i++)
            vcl256_mul_acc(g[i], hz[i], &lo, &mid, &hi);
        Y = vcl256_reduce(lo, mid, hi);
    }
    /* 1..15 blocks left: one at a time, hashed one by one (the
     * decryption's before it is overwritten) */
    const __m128i h1 = cl_power(hp, 1), rev1 = _mm256_castsi256_si128(rev);
    __m128i c1 = _mm256_castsi256_si128(ctr);
    const __m128i one = _mm_set_epi32(0, 0, 0, 1);
    for (; nb; nb--, in += 16, out += 16) {
        const __m128i ci = _mm_loadu_si128((const __m128i *)in);
        if (dec)
            Y = cl_mul(_mm_xor_si128(Y, cl_bswap(ci)), h1);
        const __m128i o = _mm_xor_si128(one_block(k, nr, c1, rev1), ci);
        c1 = _mm_add_epi32(c1, one);
        _mm_storeu_si128((__m128i *)out, o);
        if (!dec)
            Y = cl_mul(_mm_xor_si128(Y, cl_bswap(o)), h1);
    }
    _mm_storeu_si128((__m128i *)y, cl_bswap(Y));
    uint32_t low = (uint32_t)c[12] << 24 | (uint32_t)c[13] << 16 | (uint32_t)c[14] << 8 | c[15];
    low += blocks; /* inc32 */
    c[12] = (uint8_t)(low >> 24), c[13] = (uint8_t)(low >> 16), c[14] = (uint8_t)(low >> 8),
    c[15] = (uint8_t)low;
}

TGT_VGCM256 void cpim_aesni_v256_gcm(const uint8_t *rk, unsigned nr, const uint8_t *hp, int dec,
                                     uint8_t c[16], uint8_t y[16], const uint8_t *in, uint8_t *out,
                                     size_t nb)
{
#define V256_GCM(n, d) v256_gcm(rk, n, hp, d, c, y, in, out, nb)
    if (dec)
        BY_ROUNDS(V256_GCM(10, 1), V256_GCM(12, 1), V256_GCM(14, 1));
    else
        BY_ROUNDS(V256_GCM(10, 0), V256_GCM(12, 0), V256_GCM(14, 0));
#undef V256_GCM
}

#endif /* CPIM_HAVE_X86 */
