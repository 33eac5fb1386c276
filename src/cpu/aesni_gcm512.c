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

/* y' = (y ^ B0) H^n ^ B1 H^(n-1) ^ ... ^ B(n-1) H for n (0..15) blocks at p:
 * their powers are the table's last n entries, 4 per masked zmm, and one
 * reduction for all (no chain of n products). */
TGT_VGCM INLINE __m128i v512_hash_few(const uint8_t *hp, __m128i Y, const uint8_t *p,
                                      const size_t n)
{
    if (n == 0)
        return Y;
    const __m512i rev = vcl_rev();
    __m512i lo = _mm512_setzero_si512(), mid = lo, hi = lo;
    for (size_t j = 0; j < n; j += 4) {
        const __mmask8 mask = VGCM_MASK(n - j < 4 ? n - j : 4);
        __m512i x = _mm512_shuffle_epi8(_mm512_maskz_loadu_epi64(mask, p + 16 * j), rev);
        if (j == 0)
            x = _mm512_xor_si512(x, _mm512_zextsi128_si512(Y));
        vcl_mul_acc(x, _mm512_maskz_loadu_epi64(mask, hp + 16 * (GHASH_POWERS - n + j)), &lo, &mid,
                    &hi);
    }
    return vcl_reduce(lo, mid, hi);
}

/* Up to 15 blocks outside the 16-block loop: masked CTR, 4 blocks per zmm,
 * and their hash (the decryption's before it is overwritten).  ctr
 * (byte-reversed counters, lane l holding block l's) advances by n. */
TGT_VGCM INLINE __m128i v512_few(const __m512i *k, const unsigned nr, const uint8_t *hp,
                                 const int dec, __m512i *ctr, __m128i Y, const uint8_t *in,
                                 uint8_t *out, const size_t n)
{
    const __m512i rev = vcl_rev();
    if (dec)
        Y = v512_hash_few(hp, Y, in, n);
    for (size_t done = 0; done < n;) {
        const size_t m = n - done < 4 ? n - done : 4;
        const __mmask8 mask = VGCM_MASK(m);
        __m512i x = _mm512_xor_si512(_mm512_shuffle_epi8(*ctr, rev), k[0]);
        *ctr = _mm512_add_epi32(*ctr, _mm512_maskz_set1_epi32(0x1111, (int)m));
#pragma GCC unroll 14
        for (unsigned r = 1; r < nr; r++)
            x = _mm512_aesenc_epi128(x, k[r]);
        x = _mm512_xor_si512(_mm512_aesenclast_epi128(x, k[nr]),
                             _mm512_maskz_loadu_epi64(mask, in + 16 * done));
        _mm512_mask_storeu_epi64(out + 16 * done, mask, x);
        done += m;
    }
    if (!dec)
        Y = v512_hash_few(hp, Y, out, n);
    return Y;
}

/* One 16-block chunk of the loop (v512_gcm): CTR of in to out, and with
 * `hash`, Y absorbs the byte-reversed blocks in g (the decryption's own
 * ciphertext, the encryption's of the chunk before).  Encryption leaves
 * its ciphertext, byte-reversed, in g for the next chunk.  Every index is
 * a constant once inlined, so x, g and the accumulators live in
 * registers. */
TGT_VGCM INLINE void v512_chunk(const __m512i *k, const unsigned nr, const __m512i *hz,
                                const int dec, const int hash, __m512i *ctr, __m512i *g, __m128i *Y,
                                const uint8_t *in, uint8_t *out)
{
    const __m512i rev = vcl_rev();
    const __m512i four = _mm512_set_epi32(0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4);
    __m512i x[4], lo = _mm512_setzero_si512(), mid = lo, hi = lo;
    if (hash)
        g[0] = _mm512_xor_si512(g[0], _mm512_zextsi128_si512(*Y));
#pragma GCC unroll 4
    for (int i = 0; i < 4; i++) {
        x[i] = _mm512_xor_si512(_mm512_shuffle_epi8(*ctr, rev), k[0]);
        *ctr = _mm512_add_epi32(*ctr, four);
    }
    /* the products of two zmm during rounds 2 and 4: spread among the
     * rounds so that neither kind of work waits for the other's burst */
#pragma GCC unroll 14
    for (unsigned r = 1; r < nr; r++) {
#pragma GCC unroll 4
        for (int i = 0; i < 4; i++)
            x[i] = _mm512_aesenc_epi128(x[i], k[r]);
        if (hash && r == 2)
            vcl_mul_acc2(g[0], hz[0], g[1], hz[1], 1, &lo, &mid, &hi);
        if (hash && r == 4)
            vcl_mul_acc2(g[2], hz[2], g[3], hz[3], 0, &lo, &mid, &hi);
    }
#pragma GCC unroll 4
    for (int i = 0; i < 4; i++) {
        x[i] = _mm512_aesenclast_epi128(
            x[i], _mm512_xor_si512(k[nr], _mm512_loadu_si512((const void *)(in + 64 * i))));
        _mm512_storeu_si512((void *)(out + 64 * i), x[i]);
    }
    if (hash)
        *Y = vcl_reduce(lo, mid, hi);
    if (!dec)
#pragma GCC unroll 4
        for (int i = 0; i < 4; i++)
            g[i] = _mm512_shuffle_epi8(x[i], rev);
}

/*
 * Why one pass: CTR alone keeps the AES units busy and GHASH alone the
 * carry-less multiplier; run one after the other (gcm_run.h's pieces) the
 * message costs the sum of both.  In one loop body the two are independent
 * instruction streams, and the out-of-order core overlaps them: the 16
 * VPCLMULQDQ products of one chunk fit in the shadow of its 4 x nr VAES
 * rounds.  On this class of core VAES, VPCLMULQDQ, the byte shuffles and
 * the zmm xors share the same two vector ports, so what the loop costs is
 * its count of vector instructions: hence the reduction by products
 * (aesni_clmul.h, ten instructions for 16 blocks), xors merged three ways
 * (vpternlogq), and the powers loaded as they are stored.
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
 *
 * Alignment: a zmm load or store that straddles two cache lines costs
 * about two, so when out is 16-byte aligned but not 64, the first one to
 * three blocks go through v512_few and the loop stores whole lines.
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
    __m128i Y = cl_bswap(_mm_loadu_si128((const __m128i *)y));
    const uint32_t blocks = (uint32_t)nb; /* inc32 wraps anyway */
    size_t head = (size_t)(-(uintptr_t)out & 63) / 16;
    if (((uintptr_t)out & 15) || nb < 16 + head)
        head = 0;
    if (head) {
        Y = v512_few(k, nr, hp, dec, &ctr, Y, in, out, head);
        nb -= head, in += 16 * head, out += 16 * head;
    }
    __m512i g[4]; /* the (byte-reversed) ciphertext hashed in this chunk */
    if (dec) {
        for (; nb >= 16; nb -= 16, in += 256, out += 256) {
#pragma GCC unroll 4
            for (int i = 0; i < 4; i++)
                g[i] = _mm512_shuffle_epi8(_mm512_loadu_si512((const void *)(in + 64 * i)), rev);
            v512_chunk(k, nr, hz, 1, 1, &ctr, g, &Y, in, out);
        }
    } else if (nb >= 16) {
        /* the first chunk's ciphertext is hashed during the second's
         * rounds, and so on; the last one's after the loop */
        v512_chunk(k, nr, hz, 0, 0, &ctr, g, &Y, in, out);
        for (nb -= 16, in += 256, out += 256; nb >= 16; nb -= 16, in += 256, out += 256)
            v512_chunk(k, nr, hz, 0, 1, &ctr, g, &Y, in, out);
        __m512i lo, mid, hi;
        g[0] = _mm512_xor_si512(g[0], _mm512_zextsi128_si512(Y));
        vcl_mul_acc2(g[0], hz[0], g[1], hz[1], 1, &lo, &mid, &hi);
        vcl_mul_acc2(g[2], hz[2], g[3], hz[3], 0, &lo, &mid, &hi);
        Y = vcl_reduce(lo, mid, hi);
    }
    Y = v512_few(k, nr, hp, dec, &ctr, Y, in, out, nb);
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
