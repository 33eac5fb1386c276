/*
 * aesni_v512.c -- the `aesni` backend's VAES tier on zmm (AVX-512): ECB and
 * CTR, and XTS with 4 tweaks per zmm.
 */
#include <string.h>

#include "aesni.h"
#include "cryptopim.h"

#ifdef CPIM_HAVE_X86

/* ---- VAES on zmm (AVX-512), 8 zmm = 32 blocks in flight -------------------------------- */

/* 4 zmm = 16 blocks per iteration: as fast as 8 zmm when the data is in
 * cache (the AES units are busy either way), and clearly faster when the
 * data streams from DRAM (measured on Zen 4: 8 zmm lost ~25% at 256 MiB). */
#define V512_LANES 4

/* Opmask for the first n (1..3) blocks of a zmm, in 64-bit elements. */
#define V512_MASK(n) ((__mmask8)((1u << (2 * (n))) - 1))

TGT_V512 INLINE void v512_ecb(const uint8_t *rk, const unsigned nr, const int dec,
                              const uint8_t *in, uint8_t *out, size_t nb)
{
    __m512i k[AESNI_MAX_ROUNDS + 1];
    for (unsigned r = 0; r <= nr; r++)
        k[r] = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(rk + 16 * r)));
    for (; nb >= 4 * V512_LANES;
         nb -= 4 * V512_LANES, in += 64 * V512_LANES, out += 64 * V512_LANES) {
        __m512i x[V512_LANES];
#pragma GCC unroll 8
        for (int i = 0; i < V512_LANES; i++)
            x[i] = _mm512_xor_si512(_mm512_loadu_si512((const void *)(in + 64 * i)), k[0]);
#pragma GCC unroll 14
        for (unsigned r = 1; r < nr; r++)
#pragma GCC unroll 8
            for (int i = 0; i < V512_LANES; i++)
                x[i] = dec ? _mm512_aesdec_epi128(x[i], k[r]) : _mm512_aesenc_epi128(x[i], k[r]);
#pragma GCC unroll 8
        for (int i = 0; i < V512_LANES; i++) {
            x[i] =
                dec ? _mm512_aesdeclast_epi128(x[i], k[nr]) : _mm512_aesenclast_epi128(x[i], k[nr]);
            _mm512_storeu_si512((void *)(out + 64 * i), x[i]);
        }
    }
    while (nb) {
        size_t n = nb < 4 ? nb : 4;
        __mmask8 m = V512_MASK(n);
        __m512i x = _mm512_xor_si512(_mm512_maskz_loadu_epi64(m, in), k[0]);
#pragma GCC unroll 14
        for (unsigned r = 1; r < nr; r++)
            x = dec ? _mm512_aesdec_epi128(x, k[r]) : _mm512_aesenc_epi128(x, k[r]);
        x = dec ? _mm512_aesdeclast_epi128(x, k[nr]) : _mm512_aesenclast_epi128(x, k[nr]);
        _mm512_mask_storeu_epi64(out, m, x);
        nb -= n, in += 16 * n, out += 16 * n;
    }
}

/* Counter blocks for blocks lo .. lo+3 of a zmm (byte-reversed lo in qword 0
 * of each lane, hi in qword 1), byte-swapped to the big-endian blocks. */
TGT_V512 INLINE __m512i v512_counters(uint64_t hi, uint64_t lo, __m512i bswap)
{
    const long long h = (long long)hi;
    return _mm512_shuffle_epi8(_mm512_set_epi64(h, (long long)(lo + 3), h, (long long)(lo + 2), h,
                                                (long long)(lo + 1), h, (long long)lo),
                               bswap);
}

TGT_V512 INLINE void v512_ctr(const uint8_t *rk, const unsigned nr, uint64_t hi, uint64_t lo,
                              const uint8_t *in, uint8_t *out, size_t nb)
{
    const __m512i bswap =
        _mm512_broadcast_i32x4(_mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
    __m512i k[AESNI_MAX_ROUNDS + 1];
    for (unsigned r = 0; r <= nr; r++)
        k[r] = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(rk + 16 * r)));
    /* Fast path: while the last counter byte does not overflow within an
     * iteration, the counters are the big-endian block of `lo` plus the lane
     * offset in its last byte (qword 1 of each lane, bits 56..63), so no
     * byte swap is needed; otherwise (about 1 iteration in 16) they are
     * rebuilt from the scalar counter. */
    __m512i off[V512_LANES];
    for (int i = 0; i < V512_LANES; i++) {
        long long o = 4 * i;
        off[i] = _mm512_set_epi64((o + 3) << 56, 0, (o + 2) << 56, 0, (o + 1) << 56, 0, o << 56, 0);
    }
    const __m512i step = _mm512_set_epi64(
        (long long)(4 * V512_LANES) << 56, 0, (long long)(4 * V512_LANES) << 56, 0,
        (long long)(4 * V512_LANES) << 56, 0, (long long)(4 * V512_LANES) << 56, 0);
    __m512i base = _mm512_broadcast_i32x4(_mm512_castsi512_si128(v512_counters(hi, lo, bswap)));
    for (; nb >= 4 * V512_LANES;
         nb -= 4 * V512_LANES, in += 64 * V512_LANES, out += 64 * V512_LANES) {
        __m512i x[V512_LANES];
        /* Strictly below: `base` must also stay exact after the step. */
        if ((lo & 0xff) < 256 - 4 * V512_LANES) {
#pragma GCC unroll 8
            for (int i = 0; i < V512_LANES; i++)
                x[i] = _mm512_xor_si512(_mm512_add_epi64(base, off[i]), k[0]);
            base = _mm512_add_epi64(base, step);
        } else {
#pragma GCC unroll 8
            for (int i = 0; i < V512_LANES; i++)
                x[i] = _mm512_xor_si512(v512_counters(hi, lo + 4 * (unsigned)i, bswap), k[0]);
            base = _mm512_broadcast_i32x4(
                _mm512_castsi512_si128(v512_counters(hi, lo + 4 * V512_LANES, bswap)));
        }
        lo += 4 * V512_LANES;
#pragma GCC unroll 14
        for (unsigned r = 1; r < nr; r++)
#pragma GCC unroll 8
            for (int i = 0; i < V512_LANES; i++)
                x[i] = _mm512_aesenc_epi128(x[i], k[r]);
#pragma GCC unroll 8
        for (int i = 0; i < V512_LANES; i++) {
            x[i] = _mm512_aesenclast_epi128(
                x[i], _mm512_xor_si512(k[nr], _mm512_loadu_si512((const void *)(in + 64 * i))));
            _mm512_storeu_si512((void *)(out + 64 * i), x[i]);
        }
    }
    while (nb) {
        size_t n = nb < 4 ? nb : 4;
        __mmask8 m = V512_MASK(n);
        __m512i x = _mm512_xor_si512(v512_counters(hi, lo, bswap), k[0]);
        lo += 4;
#pragma GCC unroll 14
        for (unsigned r = 1; r < nr; r++)
            x = _mm512_aesenc_epi128(x, k[r]);
        x = _mm512_aesenclast_epi128(x, k[nr]);
        _mm512_mask_storeu_epi64(out, m, _mm512_xor_si512(x, _mm512_maskz_loadu_epi64(m, in)));
        nb -= n, in += 16 * n, out += 16 * n;
    }
}

DEFINE_TIER(TGT_V512, v512)

/* ---- XTS on zmm: 4 tweaks per vector ------------------------------------------------------ */

/* The XTS kernel also uses VPCLMULQDQ (every CPU with VAES on zmm has it;
 * aesni.c picks this kernel only when both are there). */
#define TGT_V512X                                                                                  \
    __attribute__((target("aes,sse4.1,avx2,vaes,avx512f,avx512bw,avx512vl,pclmul,vpclmulqdq")))

/* Each 128-bit lane times alpha^k (1 <= k <= 56): the lane is a
 * little-endian 128-bit number (qword 0 low), shifted left by k; the k bits
 * that leave the top are c * x^128 = c * (x^7 + x^2 + x + 1), a carry-less
 * product of at most k + 7 bits, xored into the low qword.  That product is
 * one VPCLMULQDQ of the high qword's top bits by 0x87.  Used once per data
 * unit, for its first tweaks.  No data-dependent branch (the tweak is
 * secret). */
TGT_V512X INLINE __m512i v512_alpha_k(__m512i x, const unsigned k)
{
    const __m512i poly = _mm512_set1_epi64(0x87);
    const __m512i c = _mm512_srli_epi64(x, 64 - k);
    const __m512i up = _mm512_bslli_epi128(c, 8); /* the low qword's top bits, into the high */
    /* the high qword's top bits times 0x87, into the low qword */
    const __m512i red = _mm512_clmulepi64_epi128(c, poly, 0x01);
    return _mm512_ternarylogic_epi64(_mm512_slli_epi64(x, k), up, red, 0x96);
}

/* Each 128-bit lane times alpha^16, the step of the main loop: a shift by
 * two whole bytes, so byte shifts (VPSLLDQ / VPSRLDQ) do it; with the
 * VPCLMULQDQ of the 16 bits shifted out by 0x87 (at most 23 bits, into the
 * low qword) all three run on the shuffle / multiplier port.  Bit shifts of
 * zmm issue on one port only, the port of the AES rounds: the bit-shift
 * form (v512_alpha_k) took two of its slots per step, eight per 16 blocks
 * (1/7 of the 56 rounds of AES-256 there). */
TGT_V512X INLINE __m512i v512_alpha_16(__m512i x)
{
    const __m512i poly = _mm512_set1_epi64(0x87);
    const __m512i red = _mm512_clmulepi64_epi128(_mm512_bsrli_epi128(x, 14), poly, 0x00);
    return _mm512_xor_si512(_mm512_bslli_epi128(x, 2), red);
}

/* XTS over nb whole blocks of one data unit: out_j = E(in_j ^ T_j) ^ T_j,
 * T_j = t * alpha^j; with cts, t becomes T_nb (for ciphertext stealing).
 * The tweaks of 16 blocks are 4 zmm in registers, T[i] holding the tweaks
 * of blocks 4i .. 4i+3; each steps by alpha^16 on its own, so the chain
 * carried from one iteration to the next is one v512_alpha_16 (a chain of
 * four made the loop latency-bound at ~40 % of ECB's speed), and no serial
 * pass over a tweak array (the batch path of aesni_xts.c made XTS ~10x slower than
 * ECB).  The last round adds key ^ T_j (aesenclast's AddRoundKey), so the
 * output needs no separate xor.  In place is fine. */
TGT_V512X INLINE void v512_xts(const uint8_t *rk, const uint8_t *rk2, const unsigned nr,
                               const int dec, const int cts, uint64_t *tu, size_t nu, size_t stride,
                               const uint8_t *in0, uint8_t *out0, const size_t nb0)
{
    __m512i k[AESNI_MAX_ROUNDS + 1];
    for (unsigned r = 0; r <= nr; r++)
        k[r] = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(rk + 16 * r)));
    /* T_0 .. T_3: t in every lane, lane i times alpha^i (v512_alpha_k with
     * per-lane shift counts; a count of 64 shifts everything out) */
    const __m512i sh = _mm512_set_epi64(3, 3, 2, 2, 1, 1, 0, 0);
    for (size_t u = 0; u < nu; u++) { /* units back to back: keys loaded once */
        uint64_t *t = tu + 2 * u;
        const uint8_t *in = in0 + u * stride;
        uint8_t *out = out0 + u * stride;
        size_t nb = nb0;
        __m128i t1 = _mm_loadu_si128((const __m128i *)t);
        if (rk2) { /* the tweak key on xmm: one block, its latency only */
            t1 = _mm_xor_si128(t1, _mm_loadu_si128((const __m128i *)rk2));
#pragma GCC unroll 14
            for (unsigned r = 1; r < nr; r++)
                t1 = _mm_aesenc_si128(t1, _mm_loadu_si128((const __m128i *)(rk2 + 16 * r)));
            t1 = _mm_aesenclast_si128(t1, _mm_loadu_si128((const __m128i *)(rk2 + 16 * nr)));
        }
        const __m512i t4 = _mm512_broadcast_i32x4(t1);
        const __m512i c0 = _mm512_srlv_epi64(t4, _mm512_sub_epi64(_mm512_set1_epi64(64), sh));
        const __m512i dn0 = _mm512_bsrli_epi128(c0, 8);
        __m512i T[V512_LANES];
        T[0] = _mm512_ternarylogic_epi64(_mm512_sllv_epi64(t4, sh), _mm512_bslli_epi128(c0, 8), dn0,
                                         0x96);
        T[0] = _mm512_ternarylogic_epi64(T[0], _mm512_slli_epi64(dn0, 1), _mm512_slli_epi64(dn0, 2),
                                         0x96);
        T[0] = _mm512_xor_si512(T[0], _mm512_slli_epi64(dn0, 7));
#pragma GCC unroll 8
        for (int i = 1; i < V512_LANES; i++)
            T[i] = v512_alpha_k(T[0], 4 * (unsigned)i);
        for (; nb >= 4 * V512_LANES;
             nb -= 4 * V512_LANES, in += 64 * V512_LANES, out += 64 * V512_LANES) {
            __m512i x[V512_LANES];
#pragma GCC unroll 8
            for (int i = 0; i < V512_LANES; i++)
                x[i] = _mm512_ternarylogic_epi64(_mm512_loadu_si512((const void *)(in + 64 * i)),
                                                 T[i], k[0], 0x96);
#pragma GCC unroll 14
            for (unsigned r = 1; r < nr; r++)
#pragma GCC unroll 8
                for (int i = 0; i < V512_LANES; i++)
                    x[i] =
                        dec ? _mm512_aesdec_epi128(x[i], k[r]) : _mm512_aesenc_epi128(x[i], k[r]);
#pragma GCC unroll 8
            for (int i = 0; i < V512_LANES; i++) {
                const __m512i kl = _mm512_xor_si512(k[nr], T[i]);
                x[i] =
                    dec ? _mm512_aesdeclast_epi128(x[i], kl) : _mm512_aesenclast_epi128(x[i], kl);
                _mm512_storeu_si512((void *)(out + 64 * i), x[i]);
                T[i] = v512_alpha_16(T[i]);
            }
        }
        /* the last nb < 16 blocks: their tweaks are T[0], T[1], ... as they
         * are; tn, lane: where T_nb is (v is constant once unrolled, so T
         * stays in registers) */
        __m512i tn = T[0];
        unsigned lane = 0;
#pragma GCC unroll 4
        for (int v = 0; v < V512_LANES && nb; v++) {
            const size_t n = nb < 4 ? nb : 4;
            const __mmask8 m = V512_MASK(n);
            __m512i x =
                _mm512_ternarylogic_epi64(_mm512_maskz_loadu_epi64(m, in), T[v], k[0], 0x96);
#pragma GCC unroll 14
            for (unsigned r = 1; r < nr; r++)
                x = dec ? _mm512_aesdec_epi128(x, k[r]) : _mm512_aesenc_epi128(x, k[r]);
            const __m512i kl = _mm512_xor_si512(k[nr], T[v]);
            x = dec ? _mm512_aesdeclast_epi128(x, kl) : _mm512_aesenclast_epi128(x, kl);
            _mm512_mask_storeu_epi64(out, m, x);
            nb -= n, in += 16 * n, out += 16 * n;
            if (n == 4) /* nb < 16: never past T[3] */
                tn = T[v + 1 < V512_LANES ? v + 1 : v];
            else
                tn = T[v], lane = (unsigned)n;
        }
        if (cts) { /* T_nb, for the stealing step */
            uint64_t tv[8];
            _mm512_storeu_si512((void *)tv, tn);
            t[0] = tv[2 * lane], t[1] = tv[2 * lane + 1];
            cpim_wipe(tv, sizeof tv);
        }
    }
}

TGT_V512X void cpim_aesni_v512_xts(const uint8_t *rk, const uint8_t *rk2, unsigned nr, int dec,
                                   int cts, uint64_t *t, size_t nu, size_t stride,
                                   const uint8_t *in, uint8_t *out, size_t nb)
{
#define V512_XTS(n, d) v512_xts(rk, rk2, n, d, cts, t, nu, stride, in, out, nb)
    if (dec)
        BY_ROUNDS(V512_XTS(10, 1), V512_XTS(12, 1), V512_XTS(14, 1));
    else
        BY_ROUNDS(V512_XTS(10, 0), V512_XTS(12, 0), V512_XTS(14, 0));
#undef V512_XTS
}

#endif /* CPIM_HAVE_X86 */
