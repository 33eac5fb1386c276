/*
 * ntt_x86_64.c -- x86 kernels of the negacyclic NTT on 8 x 64-bit lanes
 * (AVX-512) for the host runner's fwd64/inv64 (ntt_run.h): double-word
 * moduli, and every modulus on the one-limb path (cpim_ntt_forward_limb).
 * Same transform and twiddle tables as the portable src/crypto/ntt.c, the
 * same values for full outputs (the tests compare them bit for bit) and
 * the same ranges for lazy ones.
 *
 * Two forms of Shoup's product v = w y - floor(w' y / 2^k) q, in [0, 2q):
 *  - IFMA52 (q < 2^50, so that 4q < 2^52): 52-bit Shoup constants
 *    w'' = floor(w 2^52 / q) = the plan's floor(w 2^64 / q) >> 12 (nested
 *    floors); qhat = madd52hi(w'', y), v = (madd52lo(w, y) -
 *    madd52lo(qhat, q)) mod 2^52, exact because the true v is in [0, 2q)
 *    (HEXL's form; Boemer et al., "Intel HEXL", 2021);
 *  - AVX-512DQ (every q < 2^62, 4q < 2^64): the high half of the 64 x 64-bit
 *    product w' y from four 32 x 32 -> 64-bit vpmuludq partial products
 *    (AVX-512 has no 64-bit high multiply), the low halves w y and qhat q
 *    with vpmullq, v = w y - qhat q mod 2^64.  Intel HEXL's AVX-512DQ
 *    path for moduli above 50 bits takes the same high product.
 * The stage structure, shared by both, is ntt_x86_lanes64.h.
 */
#include "ntt_x86_64.h"

#include <stdint.h>

#include "ntt_plan.h"

#if defined(__x86_64__)
#include <immintrin.h>

/* The permutes of the stages t = 4, 2, 1 (s = 0..2) on 16 coefficients in
 * two registers: lane l of X (tops) and Y (bottoms) <- element
 * l / t * 2t + l % t (+ t), b0/b1 put 16 results back in order (index >= 8:
 * from Y), w: lane l <- twiddle entry l / t. */
struct perm64 {
    int64_t x[3][8], y[3][8], b0[3][8], b1[3][8], w[3][8];
};

static const struct perm64 cpim_perm64 = {
    .x = {{0, 1, 2, 3, 8, 9, 10, 11}, {0, 1, 4, 5, 8, 9, 12, 13}, {0, 2, 4, 6, 8, 10, 12, 14}},
    .y = {{4, 5, 6, 7, 12, 13, 14, 15}, {2, 3, 6, 7, 10, 11, 14, 15}, {1, 3, 5, 7, 9, 11, 13, 15}},
    .b0 = {{0, 1, 2, 3, 8, 9, 10, 11}, {0, 1, 8, 9, 2, 3, 10, 11}, {0, 8, 1, 9, 2, 10, 3, 11}},
    .b1 = {{4, 5, 6, 7, 12, 13, 14, 15},
           {4, 5, 12, 13, 6, 7, 14, 15},
           {4, 12, 5, 13, 6, 14, 7, 15}},
    .w = {{0, 0, 0, 0, 1, 1, 1, 1}, {0, 0, 1, 1, 2, 2, 3, 3}, {0, 1, 2, 3, 4, 5, 6, 7}},
};

/* ---- IFMA52 ---------------------------------------------------------------- */

#define TIFMA __attribute__((target("avx512f,avx512vl,avx512ifma")))

TIFMA static inline __m512i shoup52(__m512i w, __m512i ws, __m512i y, __m512i q)
{
    const __m512i zero = _mm512_setzero_si512(), mask = _mm512_set1_epi64((1ll << 52) - 1);
    __m512i qh = _mm512_madd52hi_epu64(zero, ws, y);
    __m512i r = _mm512_madd52lo_epu64(zero, w, y);
    return _mm512_and_si512(_mm512_sub_epi64(r, _mm512_madd52lo_epu64(zero, qh, q)), mask);
}

#define K_TARGET TIFMA
#define K_SHOUP  shoup52
#define K_WS(x)  _mm512_srli_epi64(x, 12)
#define K_FWD_BF fwd_bf_ifma
#define K_INV_BF inv_bf_ifma
#define K_FULL   full_ifma
#define K_TAIL   tail_ifma
#define K_FWD    fwd_ifma
#define K_INV    inv_ifma
#include "ntt_x86_lanes64.h"
#undef K_TARGET
#undef K_SHOUP
#undef K_WS
#undef K_FWD_BF
#undef K_INV_BF
#undef K_FULL
#undef K_TAIL
#undef K_FWD
#undef K_INV

/* ---- AVX-512DQ --------------------------------------------------------------- */

#define TDQ __attribute__((target("avx512f,avx512vl,avx512dq")))

/* the high 64 bits of a * b per lane: a = ah 2^32 + al, b likewise;
 * mid = ah bl + (al bl >> 32) and mid2 = al bh + (mid mod 2^32) cannot
 * overflow ((2^32 - 1)^2 + 2 (2^32 - 1) < 2^64), and the high half is
 * ah bh + (mid >> 32) + (mid2 >> 32) */
TDQ static inline __m512i mulhi64(__m512i a, __m512i b)
{
    const __m512i lo32 = _mm512_set1_epi64(0xffffffffll);
    __m512i ah = _mm512_srli_epi64(a, 32), bh = _mm512_srli_epi64(b, 32);
    __m512i ll = _mm512_mul_epu32(a, b), lh = _mm512_mul_epu32(a, bh);
    __m512i hl = _mm512_mul_epu32(ah, b), hh = _mm512_mul_epu32(ah, bh);
    __m512i mid = _mm512_add_epi64(hl, _mm512_srli_epi64(ll, 32));
    __m512i mid2 = _mm512_add_epi64(lh, _mm512_and_si512(mid, lo32));
    return _mm512_add_epi64(_mm512_add_epi64(hh, _mm512_srli_epi64(mid, 32)),
                            _mm512_srli_epi64(mid2, 32));
}

TDQ static inline __m512i shoup64(__m512i w, __m512i ws, __m512i y, __m512i q)
{
    __m512i qh = mulhi64(ws, y);
    return _mm512_sub_epi64(_mm512_mullo_epi64(w, y), _mm512_mullo_epi64(qh, q));
}

#define K_TARGET TDQ
#define K_SHOUP  shoup64
#define K_WS(x)  (x)
#define K_FWD_BF fwd_bf_dq
#define K_INV_BF inv_bf_dq
#define K_FULL   full_dq
#define K_TAIL   tail_dq
#define K_FWD    fwd_dq
#define K_INV    inv_dq
#include "ntt_x86_lanes64.h"

/* IFMA's products need 4q < 2^52 */
#define IFMA_MAX_BITS 50

void cpim_ntt_x86_fwd64_ifma(uint64_t *a, uint32_t n, const cpim_ntt_mod *m, int full)
{
    if (m->q >> IFMA_MAX_BITS)
        fwd_dq(a, n, m, full);
    else
        fwd_ifma(a, n, m, full);
}

void cpim_ntt_x86_inv64_ifma(uint64_t *a, uint32_t n, const cpim_ntt_mod *m, int full)
{
    if (m->q >> IFMA_MAX_BITS)
        inv_dq(a, n, m, full);
    else
        inv_ifma(a, n, m, full);
}

void cpim_ntt_x86_fwd64_dq(uint64_t *a, uint32_t n, const cpim_ntt_mod *m, int full)
{
    fwd_dq(a, n, m, full);
}

void cpim_ntt_x86_inv64_dq(uint64_t *a, uint32_t n, const cpim_ntt_mod *m, int full)
{
    inv_dq(a, n, m, full);
}
#endif /* __x86_64__ */
