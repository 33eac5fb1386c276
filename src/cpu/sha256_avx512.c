/*
 * sha256_avx512.c -- 16-lane multi-buffer SHA-256 on AVX-512 (see
 * sha256_x86.h).
 *
 * One message per 32-bit lane: the state is 8 zmm (A..H, transposed), each
 * block of the 16 lanes is loaded as 16 rows, byte-swapped and transposed
 * into W[0..15] (64 shuffles per 16 blocks).  Word t + 16 of the message
 * schedule is computed during round t, in place in a 16-register ring: 8
 * state + 16 ring + temporaries just fit the 32 zmm (expanding the whole
 * schedule to the stack first measured ~15% slower).  Software prefetch of
 * the lanes' next blocks (2, 4 or 8 ahead) measured no gain.  The Makefile
 * builds this file with clang-14 when it can: the same source runs ~25%
 * faster than gcc 12's code (docs/CRYPTO.md).  AVX-512 gives the two things that make 16
 * lanes pay: vprord (a rotate is one instruction, three with AVX2) and vpternlogd (Ch, Maj and the
 * three-way XORs of the sigmas each one instruction).
 */
#include "sha256_x86.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

#include "sha256.h"

#define TGT_512 __attribute__((target("avx512f,avx512bw,avx512vl,avx2")))
#define INLINE  static inline __attribute__((always_inline))

typedef __m512i V;

/* K[t] in all 16 lanes (FIPS 180-4 4.2.2): a memory operand of vpaddd, so
 * no broadcast instruction per round. */
#define R16(x)                                                                                     \
    {                                                                                              \
        x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x                                             \
    }
static const _Alignas(64) uint32_t k16[64][16] = {
    R16(0x428a2f98), R16(0x71374491), R16(0xb5c0fbcf), R16(0xe9b5dba5), R16(0x3956c25b),
    R16(0x59f111f1), R16(0x923f82a4), R16(0xab1c5ed5), R16(0xd807aa98), R16(0x12835b01),
    R16(0x243185be), R16(0x550c7dc3), R16(0x72be5d74), R16(0x80deb1fe), R16(0x9bdc06a7),
    R16(0xc19bf174), R16(0xe49b69c1), R16(0xefbe4786), R16(0x0fc19dc6), R16(0x240ca1cc),
    R16(0x2de92c6f), R16(0x4a7484aa), R16(0x5cb0a9dc), R16(0x76f988da), R16(0x983e5152),
    R16(0xa831c66d), R16(0xb00327c8), R16(0xbf597fc7), R16(0xc6e00bf3), R16(0xd5a79147),
    R16(0x06ca6351), R16(0x14292967), R16(0x27b70a85), R16(0x2e1b2138), R16(0x4d2c6dfc),
    R16(0x53380d13), R16(0x650a7354), R16(0x766a0abb), R16(0x81c2c92e), R16(0x92722c85),
    R16(0xa2bfe8a1), R16(0xa81a664b), R16(0xc24b8b70), R16(0xc76c51a3), R16(0xd192e819),
    R16(0xd6990624), R16(0xf40e3585), R16(0x106aa070), R16(0x19a4c116), R16(0x1e376c08),
    R16(0x2748774c), R16(0x34b0bcb5), R16(0x391c0cb3), R16(0x4ed8aa4a), R16(0x5b9cca4f),
    R16(0x682e6ff3), R16(0x748f82ee), R16(0x78a5636f), R16(0x84c87814), R16(0x8cc70208),
    R16(0x90befffa), R16(0xa4506ceb), R16(0xbef9a3f7), R16(0xc67178f2)};

#define ROR(x, n)     _mm512_ror_epi32((x), (n))
#define XOR3(x, y, z) _mm512_ternarylogic_epi32((x), (y), (z), 0x96)
#define CH(e, f, g)   _mm512_ternarylogic_epi32((e), (f), (g), 0xca) /* e ? f : g */
#define MAJ(a, b, c)  _mm512_ternarylogic_epi32((a), (b), (c), 0xe8)
#define ADD(x, y)     _mm512_add_epi32((x), (y))
#define BSIG0(x)      XOR3(ROR(x, 2), ROR(x, 13), ROR(x, 22))
#define BSIG1(x)      XOR3(ROR(x, 6), ROR(x, 11), ROR(x, 25))
#define SSIG0(x)      XOR3(ROR(x, 7), ROR(x, 18), _mm512_srli_epi32((x), 3))
#define SSIG1(x)      XOR3(ROR(x, 17), ROR(x, 19), _mm512_srli_epi32((x), 10))

/* Loads block b of the 16 lanes as W[0..15] (big-endian words). */
TGT_512 INLINE void load_transpose(V w[16], const uint8_t *const p[16], size_t off)
{
    const V bswap =
        _mm512_broadcast_i32x4(_mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL));
    V r[16], a[16], b[16];
#pragma GCC unroll 16
    for (int i = 0; i < 16; i++)
        r[i] = _mm512_shuffle_epi8(_mm512_loadu_si512((const void *)(p[i] + off)), bswap);
        /* Row i holds W[0..15] of lane i.  Pairs of rows, then quads, then the
         * 128-bit chunks: b[4g + m] has, in chunk k, W[4k + m] of rows 4g..4g+3. */
#pragma GCC unroll 8
    for (int i = 0; i < 8; i++) {
        a[2 * i] = _mm512_unpacklo_epi32(r[2 * i], r[2 * i + 1]);
        a[2 * i + 1] = _mm512_unpackhi_epi32(r[2 * i], r[2 * i + 1]);
    }
#pragma GCC unroll 4
    for (int g = 0; g < 4; g++) {
        b[4 * g + 0] = _mm512_unpacklo_epi64(a[4 * g], a[4 * g + 2]);
        b[4 * g + 1] = _mm512_unpackhi_epi64(a[4 * g], a[4 * g + 2]);
        b[4 * g + 2] = _mm512_unpacklo_epi64(a[4 * g + 1], a[4 * g + 3]);
        b[4 * g + 3] = _mm512_unpackhi_epi64(a[4 * g + 1], a[4 * g + 3]);
    }
#pragma GCC unroll 4
    for (int m = 0; m < 4; m++) {
        V u0 = _mm512_shuffle_i32x4(b[m], b[4 + m], 0x44);
        V u1 = _mm512_shuffle_i32x4(b[m], b[4 + m], 0xee);
        V v0 = _mm512_shuffle_i32x4(b[8 + m], b[12 + m], 0x44);
        V v1 = _mm512_shuffle_i32x4(b[8 + m], b[12 + m], 0xee);
        w[m] = _mm512_shuffle_i32x4(u0, v0, 0x88);
        w[4 + m] = _mm512_shuffle_i32x4(u0, v0, 0xdd);
        w[8 + m] = _mm512_shuffle_i32x4(u1, v1, 0x88);
        w[12 + m] = _mm512_shuffle_i32x4(u1, v1, 0xdd);
    }
}

/* Round t, with the message word t + 16 computed alongside for t < 48 (the
 * 16-word ring w[] stays in registers: 8 state + 16 ring + temporaries fit
 * the 32 zmm). */
#define ROUNDW(a, b, c, d, e, f, g, h, t)                                                          \
    do {                                                                                           \
        V t1_ = ADD(ADD(h, w[(t)&15]), _mm512_load_si512(kp[t]));                                  \
        t1_ = ADD(t1_, ADD(CH(e, f, g), BSIG1(e)));                                                \
        d = ADD(d, t1_);                                                                           \
        h = ADD(t1_, ADD(BSIG0(a), MAJ(a, b, c)));                                                 \
        if ((t) < 48)                                                                              \
            w[(t)&15] = ADD(ADD(w[(t)&15], SSIG0(w[((t) + 1) & 15])),                              \
                            ADD(w[((t) + 9) & 15], SSIG1(w[((t) + 14) & 15])));                    \
    } while (0)

#define ROUNDSW8(t)                                                                                \
    do {                                                                                           \
        ROUNDW(A, B, C, D, E, F, G, H, (t) + 0);                                                   \
        ROUNDW(H, A, B, C, D, E, F, G, (t) + 1);                                                   \
        ROUNDW(G, H, A, B, C, D, E, F, (t) + 2);                                                   \
        ROUNDW(F, G, H, A, B, C, D, E, (t) + 3);                                                   \
        ROUNDW(E, F, G, H, A, B, C, D, (t) + 4);                                                   \
        ROUNDW(D, E, F, G, H, A, B, C, (t) + 5);                                                   \
        ROUNDW(C, D, E, F, G, H, A, B, (t) + 6);                                                   \
        ROUNDW(B, C, D, E, F, G, H, A, (t) + 7);                                                   \
    } while (0)

TGT_512 void cpim_sha256_avx512_x16(cpim_sha_x16 *s, const uint8_t *const p[16], size_t nb)
{
    V A = _mm512_load_si512(s->v[0]), B = _mm512_load_si512(s->v[1]);
    V C = _mm512_load_si512(s->v[2]), D = _mm512_load_si512(s->v[3]);
    V E = _mm512_load_si512(s->v[4]), F = _mm512_load_si512(s->v[5]);
    V G = _mm512_load_si512(s->v[6]), H = _mm512_load_si512(s->v[7]);
    /* Hidden from the optimiser: knowing every row is one value, gcc would
     * rebuild each with a broadcast and spill it, 128 instructions a block. */
    const uint32_t(*kp)[16] = k16;
    __asm__("" : "+r"(kp));
    for (size_t off = 0; off < 64 * nb; off += 64) {
        V w[16];
        load_transpose(w, p, off);
        V a0 = A, b0 = B, c0 = C, d0 = D, e0 = E, f0 = F, g0 = G, h0 = H;
#pragma GCC unroll 8
        for (int r = 0; r < 8; r++)
            ROUNDSW8(8 * r);
        A = ADD(A, a0), B = ADD(B, b0), C = ADD(C, c0), D = ADD(D, d0);
        E = ADD(E, e0), F = ADD(F, f0), G = ADD(G, g0), H = ADD(H, h0);
    }
    _mm512_store_si512(s->v[0], A), _mm512_store_si512(s->v[1], B);
    _mm512_store_si512(s->v[2], C), _mm512_store_si512(s->v[3], D);
    _mm512_store_si512(s->v[4], E), _mm512_store_si512(s->v[5], F);
    _mm512_store_si512(s->v[6], G), _mm512_store_si512(s->v[7], H);
}

#else /* not x86: never called (the scheduler checks the CPU first) */

void cpim_sha256_avx512_x16(cpim_sha_x16 *s, const uint8_t *const p[16], size_t nb)
{
    (void)s, (void)p, (void)nb;
}

#endif
