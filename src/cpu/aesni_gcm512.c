/*
 * aesni_gcm512.c -- the `aesni` backend's AES-GCM bulk kernel on zmm: the
 * CTR keystream (VAES) and the GHASH of the ciphertext (VPCLMULQDQ) in one
 * pass over the data, 16 blocks at a time.
 */
#include <string.h>

#include "aesni.h"
#include "aesni_clmul.h"

#ifdef CPIM_HAVE_X86

#define TGT_VGCM                                                                                   \
    __attribute__((target("aes,sse4.1,avx2,vaes,avx512f,avx512bw,avx512vl,pclmul,vpclmulqdq")))

/* Opmask for the first n (0..4) blocks of a zmm, in 64-bit elements. */
#define VGCM_MASK(n) ((__mmask8)((1u << (2 * (n))) - 1))

/*
 * Why one pass: CTR alone keeps the AES units busy and GHASH alone the
 * carry-less multiplier; run one after the other (gcm_run.h's pieces) the
 * message costs the sum of both.  In one loop body the two are independent
 * instruction streams, and the out-of-order core overlaps them: the 16
 * VPCLMULQDQ products of one chunk fit in the shadow of its 4 x nr VAES
 * rounds, so GCM runs at nearly CTR's speed.
 *
 * Counters: GCM's inc32 adds to the low 32 bits of the counter block only,
 * wrapping without a carry.  The counter block is kept byte-reversed, where
 * those bits are the first dword of each lane: a 32-bit vector add is
 * exactly inc32 (no branch on the counter, which is secret when J0 comes
 * from hashing a long IV), and one byte shuffle per zmm gives the blocks.
 *
 * GHASH: 16 blocks per reduction, y' = (y ^ C0) H^16 ^ C1 H^15 ^ ... ^ C15 H
 * (aggregated reduction, aesni_clmul.h).  Encryption hashes the ciphertext
 * of the previous chunk while it encrypts the current one (its own is not
 * there yet); decryption hashes the chunk it is decrypting, loaded before
 * anything is stored, so in == out works both ways.
 */
TGT_VGCM INLINE void v512_gcm(const uint8_t *rk, const unsigned nr, const uint8_t *hp,
                              const int dec, uint8_t c[16], uint8_t y[16], const uint8_t *in,
                              uint8_t *out, size_t nb)
{
    const __m512i rev = vcl_rev();
    __m512i k[AESNI_MAX_ROUNDS + 1], hz[4];
    for (unsigned r = 0; r <= nr; r++)
        k[r] = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(rk + 16 * r)));
    for (int g = 0; g < 4; g++)
        hz[g] = vcl_powers16(hp, g);
    /* the byte-reversed counter block in every lane, lane l plus l */
    __m512i ctr =
        _mm512_add_epi32(_mm512_broadcast_i32x4(cl_bswap(_mm_loadu_si128((const __m128i *)c))),
                         _mm512_set_epi32(0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0));
    const __m512i four = _mm512_set_epi32(0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4);
    __m128i Y = cl_bswap(_mm_loadu_si128((const __m128i *)y));
    const uint32_t blocks = (uint32_t)nb; /* inc32 wraps anyway */
    __m512i g[4];    /* the (byte-reversed) ciphertext hashed in this iteration */
    int pending = 0; /* encryption: g holds the previous chunk's */
    for (; nb >= 16; nb -= 16, in += 256, out += 256) {
        __m512i x[4], lo = _mm512_setzero_si512(), mid = lo, hi = lo;
        const int hash = dec || pending;
        if (dec)
            for (int i = 0; i < 4; i++)
                g[i] = _mm512_shuffle_epi8(_mm512_loadu_si512((const void *)(in + 64 * i)), rev);
        if (hash)
            g[0] = _mm512_xor_si512(g[0], _mm512_zextsi128_si512(Y));
        for (int i = 0; i < 4; i++) {
            x[i] = _mm512_xor_si512(_mm512_shuffle_epi8(ctr, rev), k[0]);
            ctr = _mm512_add_epi32(ctr, four);
        }
        /* the products of zmm r-1 during round r: spread among the rounds
         * so that neither unit waits for the other's burst */
#pragma GCC unroll 14
        for (unsigned r = 1; r < nr; r++) {
#pragma GCC unroll 4
            for (int i = 0; i < 4; i++)
                x[i] = _mm512_aesenc_epi128(x[i], k[r]);
            if (hash && r <= 4)
                vcl_mul_acc(g[r - 1], hz[r - 1], &lo, &mid, &hi);
        }
#pragma GCC unroll 4
        for (int i = 0; i < 4; i++) {
            x[i] = _mm512_aesenclast_epi128(
                x[i], _mm512_xor_si512(k[nr], _mm512_loadu_si512((const void *)(in + 64 * i))));
            _mm512_storeu_si512((void *)(out + 64 * i), x[i]);
        }
        if (hash)
            Y = vcl_reduce(lo, mid, hi);
        if (!dec) {
            for (int i = 0; i < 4; i++)
                g[i] = _mm512_shuffle_epi8(x[i], rev);
            pending = 1;
        }
    }
    if (pending) { /* the last whole chunk's ciphertext */
        __m512i lo = _mm512_setzero_si512(), mid = lo, hi = lo;
        g[0] = _mm512_xor_si512(g[0], _mm512_zextsi128_si512(Y));
        for (int i = 0; i < 4; i++)
            vcl_mul_acc(g[i], hz[i], &lo, &mid, &hi);
        Y = vcl_reduce(lo, mid, hi);
    }
    /* 1..15 blocks left: masked CTR, 4 blocks per zmm, hashed one by one
     * (the decryption's before it is overwritten) */
    const __m128i h1 = _mm_loadu_si128((const __m128i *)hp);
    if (dec)
        for (size_t b = 0; b < nb; b++)
            Y = cl_mul(_mm_xor_si128(Y, cl_bswap(_mm_loadu_si128((const __m128i *)(in + 16 * b)))),
                       h1);
    for (size_t left = nb; left;) {
        const size_t n = left < 4 ? left : 4;
        const __mmask8 m = VGCM_MASK(n);
        __m512i x = _mm512_xor_si512(_mm512_shuffle_epi8(ctr, rev), k[0]);
        ctr = _mm512_add_epi32(ctr, four);
#pragma GCC unroll 14
        for (unsigned r = 1; r < nr; r++)
            x = _mm512_aesenc_epi128(x, k[r]);
        x = _mm512_xor_si512(_mm512_aesenclast_epi128(x, k[nr]), _mm512_maskz_loadu_epi64(m, in));
        _mm512_mask_storeu_epi64(out, m, x);
        left -= n, in += 16 * n, out += 16 * n;
    }
    if (!dec)
        for (size_t b = 0; b < nb; b++)
            Y = cl_mul(
                _mm_xor_si128(Y, cl_bswap(_mm_loadu_si128((const __m128i *)(out - 16 * (nb - b))))),
                h1);
    _mm_storeu_si128((__m128i *)y, cl_bswap(Y));
    /* c += blocks, inc32 */
    uint32_t low = (uint32_t)c[12] << 24 | (uint32_t)c[13] << 16 | (uint32_t)c[14] << 8 | c[15];
    low += blocks;
    c[12] = (uint8_t)(low >> 24), c[13] = (uint8_t)(low >> 16), c[14] = (uint8_t)(low >> 8),
    c[15] = (uint8_t)low;
}

TGT_VGCM void cpim_aesni_v512_gcm(const uint8_t *rk, unsigned nr, const uint8_t *hp, int dec,
                                  uint8_t c[16], uint8_t y[16], const uint8_t *in, uint8_t *out,
                                  size_t nb)
{
#define V512_GCM(n, d) v512_gcm(rk, n, hp, d, c, y, in, out, nb)
    if (dec)
        BY_ROUNDS(V512_GCM(10, 1), V512_GCM(12, 1), V512_GCM(14, 1));
    else
        BY_ROUNDS(V512_GCM(10, 0), V512_GCM(12, 0), V512_GCM(14, 0));
#undef V512_GCM
}

#endif /* CPIM_HAVE_X86 */
