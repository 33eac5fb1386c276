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
 *    w'' = floor(w 2^52 / q) (the plan's t64.*_shoup52 tables); qhat = madd52hi(w'', y), v =
 * (madd52lo(w, y) - madd52lo(qhat, q)) mod 2^52, exact because the true v is in [0, 2q) (HEXL's
 * form; Boemer et al., "Intel HEXL", 2021);
 *  - AVX-512DQ (every q < 2^62, 4q < 2^64): the high half of the 64 x 64-bit
 *    product w' y from 32 x 32 -> 64-bit vpmuludq partial products (AVX-512
 *    has no 64-bit high multiply; the lowest one left out, see
 *    mulhi64_approx), the low halves w y and qhat q with vpmullq,
 *    v = w y - qhat q mod 2^64, then one correction.
 * The stage structure, shared by both, is ntt_x86_lanes64.h.
 */
#include "ntt_x86_64.h"

#include <stdint.h>

#include "ntt_plan.h"

#if defined(__x86_64__)
#include <immintrin.h>

/* 8 KiB of coefficients: a block and its twiddles stay in a 32 KiB L1
 * data cache (Intel HEXL's AVX-512 NTT recurses down to the same size) */
#define NTT64_BLOCK 1024u

/* ---- IFMA52 ---------------------------------------------------------------- */

#define TIFMA __attribute__((target("avx512f,avx512vl,avx512ifma")))

/* qm = 2^52 - q: the second madd52lo adds qhat (2^52 - q) = -qhat q mod 2^52
 * to the low half of w y, so the subtraction costs nothing */
TIFMA static inline __m512i shoup52(__m512i w, __m512i ws, __m512i y, __m512i qm)
{
    const __m512i zero = _mm512_setzero_si512(), mask = _mm512_set1_epi64((1ll << 52) - 1);
    __m512i qh = _mm512_madd52hi_epu64(zero, ws, y);
    __m512i r = _mm512_madd52lo_epu64(zero, w, y);
    return _mm512_and_si512(_mm512_madd52lo_epu64(r, qh, qm), mask);
}

/* y mod q in [0, 2q) for any y < 2^52, c = floor(2^52 / q) (Barrett's
 * quotient estimate, short by at most one) */
TIFMA static inline __m512i barrett52(__m512i y, __m512i c, __m512i qm, __m512i q2)
{
    (void)q2;
    const __m512i mask = _mm512_set1_epi64((1ll << 52) - 1);
    __m512i qh = _mm512_madd52hi_epu64(_mm512_setzero_si512(), c, y);
    return _mm512_and_si512(_mm512_madd52lo_epu64(y, qh, qm), mask);
}

#define K_TARGET    TIFMA
#define K_SHOUP     shoup52
#define K_YMAX      ((1ull << 52) - 1)
#define K_BARRETT   barrett52
#define K_BCONST(q) _mm512_set1_epi64((long long)((1ull << 52) / (q)))
#define K_QFORM(q)  _mm512_set1_epi64((long long)((1ull << 52) - (q)))
#define K_WS(x)     _mm512_srli_epi64(x, 12)
#define K_PSIS(md)  (md)->t64.psi_shoup52
#define K_IPSIS(md) (md)->t64.ipsi_shoup52
#define K_FWD_BF    fwd_bf_ifma
#define K_INV_BF    inv_bf_ifma
#define K_FULL      full_ifma
#define K_TW4       tw4_ifma
#define K_TW2       tw2_ifma
#define K_TAIL_FWD  tail_fwd_ifma
#define K_TAIL_INV  tail_inv_ifma
#define K_FWD_STAGE fwd_stage_ifma
#define K_INV_STAGE inv_stage_ifma
#define K_FWD       fwd_ifma
#define K_INV       inv_ifma
#define K_FWD_BODY  fwd_body_ifma
#define K_INV_BODY  inv_body_ifma
#include "ntt_x86_lanes64.h"

/* ---- AVX-512DQ --------------------------------------------------------------- */

#define TDQ __attribute__((target("avx512f,avx512vl,avx512dq")))

/* Why this form: on the AVX-512 cores with IFMA (Ice Lake, Sapphire Rapids)
 * 512-bit multiplies and shifts issue on one port (p0) and shuffles on
 * another (p5), so the product's p0 work is what bounds a butterfly.
 *
 * x >> 32 per 64-bit lane as a shuffle (dword 1 to dword 0, dword 1
 * zeroed): port 5's work, where vpsrlq would be port 0's. */
TDQ static inline __m512i hi32(__m512i x)
{
    return _mm512_maskz_shuffle_epi32(0x5555, x, _MM_PERM_CDAB);
}

/* floor(a b / 2^64) or one less, per lane: a = ah 2^32 + al, b likewise;
 * mid = ah bl + (al bh mod 2^32) < 2^64, and the high half is
 * ah bh + (al bh >> 32) + (mid >> 32), short of one carry at most since
 * al bl >> 32 is left out (three vpmuludq, not four; Intel HEXL's
 * AVX-512DQ NTT drops the same partial product).  vpmuludq reads the low
 * dword of each lane, so ah and bh are dword swaps (port 5), not shifts. */
TDQ static inline __m512i mulhi64_approx(__m512i a, __m512i b)
{
    const __m512i lo32 = _mm512_set1_epi64(0xffffffffll);
    __m512i ah = _mm512_shuffle_epi32(a, _MM_PERM_CDAB);
    __m512i bh = _mm512_shuffle_epi32(b, _MM_PERM_CDAB);
    __m512i lh = _mm512_mul_epu32(a, bh), hl = _mm512_mul_epu32(ah, b);
    __m512i hh = _mm512_mul_epu32(ah, bh);
    __m512i mid = _mm512_add_epi64(hl, _mm512_and_si512(lh, lo32));
    return _mm512_add_epi64(_mm512_add_epi64(hh, hi32(lh)), hi32(mid));
}

/* qhat = the quotient or one less, so w y - qhat q is in [0, 3q) (< 2^64 for
 * q < 2^62: exact mod 2^64), and one correction by 2q gives [0, 2q). */
TDQ static inline __m512i shoup64(__m512i w, __m512i ws, __m512i y, __m512i q)
{
    __m512i qh = mulhi64_approx(ws, y);
    __m512i r = _mm512_sub_epi64(_mm512_mullo_epi64(w, y), _mm512_mullo_epi64(qh, q));
    __m512i q2 = _mm512_add_epi64(q, q);
    return _mm512_min_epu64(r, _mm512_sub_epi64(r, q2));
}

/* y mod q in [0, 2q) for any y < 2^64, c = floor(2^64 / q): the quotient
 * estimate is short by at most two (the approximate high product), so
 * y - qhat q is in [0, 3q), and one correction */
TDQ static inline __m512i barrett64(__m512i y, __m512i c, __m512i q, __m512i q2)
{
    __m512i r = _mm512_sub_epi64(y, _mm512_mullo_epi64(mulhi64_approx(c, y), q));
    return _mm512_min_epu64(r, _mm512_sub_epi64(r, q2));
}

#define K_TARGET    TDQ
#define K_SHOUP     shoup64
#define K_YMAX      UINT64_MAX
#define K_BARRETT   barrett64
#define K_BCONST(q) _mm512_set1_epi64((long long)(UINT64_MAX / (q)))
#define K_QFORM(q)  _mm512_set1_epi64((long long)(q))
#define K_WS(x)     (x)
#define K_PSIS(md)  (md)->t64.psi_shoup
#define K_IPSIS(md) (md)->t64.ipsi_shoup
#define K_FWD_BF    fwd_bf_dq
#define K_INV_BF    inv_bf_dq
#define K_FULL      full_dq
#define K_TW4       tw4_dq
#define K_TW2       tw2_dq
#define K_TAIL_FWD  tail_fwd_dq
#define K_TAIL_INV  tail_inv_dq
#define K_FWD_STAGE fwd_stage_dq
#define K_INV_STAGE inv_stage_dq
#define K_FWD       fwd_dq
#define K_INV       inv_dq
#define K_FWD_BODY  fwd_body_dq
#define K_INV_BODY  inv_body_dq
#include "ntt_x86_lanes64.h"

/* IFMA's products need 4q < 2^52: the moduli with 52-bit tables */
#define IFMA_MAX_BITS CPIM_NTT_SHOUP52_BITS

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
