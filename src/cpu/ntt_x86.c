/*
 * ntt_x86.c -- x86 vector kernels of the negacyclic NTT for word moduli
 * (q < 2^31, the DRAMatic case) on 32-bit lanes, and the tiers of the
 * `aesni` backend's ntt op (and so `auto`'s), whose double-word kernels on
 * 64-bit lanes are ntt_x86_64.c's.  Same transform, same twiddle tables,
 * same outputs as the portable src/crypto/ntt.c (the tests compare them
 * bit for bit).
 *
 * Tiers, chosen per call from CPUID/XGETBV (x86_cpu.h), each compiled with
 * its own target attribute:
 *   avx512-ifma  word moduli on 16 x 32-bit lanes (AVX-512F/BW/VL); on 8 x
 *                64-bit lanes double-word moduli below 2^50 with IFMA52,
 *                the others with AVX-512DQ
 *   avx512-dq    word moduli on 16 x 32-bit lanes, double-word ones on 8 x
 *                64-bit lanes with AVX-512DQ
 *   avx512       word moduli on 16 x 32-bit lanes
 *   avx2         word moduli on 8 x 32-bit lanes
 *   -            the portable kernels
 * Double-word moduli outside those take the portable kernels (scalar,
 * 64 x 64 -> 128-bit products).  Word moduli in the batch layout do not use
 * 64-bit lanes:
 * vpmadd52 works on 8 x 64-bit lanes, so a 31-bit modulus would get 8
 * butterflies per vector where 32-bit lanes give 16; the Shoup product on
 * 32-bit lanes costs two vpmuludq (high half) and two vpmulld (low halves),
 * the same count of multiplies as the IFMA form (madd52hi + 2 madd52lo) for
 * twice the lanes.  (The one-limb path, which works in place on the
 * caller's 64-bit words, runs them on the 64-bit kernels.)
 *
 * Butterflies on 32-bit lanes keep every value fully reduced in [0, q): q
 * may reach 2^31, so Harvey's [0, 4q) does not fit 32 bits, and [0, q)
 * makes every correction the same "x = min(x, x - q)" (unsigned min: when
 * x < q, x - q wraps to a larger number).  Shoup: v = w y - floor(w' y /
 * 2^32) q in [0, 2q), then one correction.
 *
 * Stages with half-distance t >= lanes are vertical (one twiddle broadcast
 * per group).  The last stages (t < lanes) of the forward transform, and the
 * first ones of the inverse, work on two vectors (2 x lanes consecutive
 * coefficients) at a time: a two-source permute gathers the butterfly tops
 * into X and the bottoms into Y (lane g*t + r <- element g*2t + r and
 * g*2t + t + r), one permute of lanes+ consecutive table entries gives the
 * twiddles (lane l <- entry l / t), and the inverse permutes put the results
 * back; the data stays in registers through all of these stages.
 */
#include "ntt_x86.h"

#include <stdint.h>

#include "ntt.h"
#include "ntt_run.h"
#include "ntt_x86_64.h"
#include "x86_cpu.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define T512 __attribute__((target("avx512f,avx512bw,avx512vl")))
#define T256 __attribute__((target("avx2")))

/* ---- AVX-512: 16 lanes ------------------------------------------------------ */

T512 static inline __m512i mulhi512(__m512i a, __m512i b)
{
    __m512i e = _mm512_mul_epu32(a, b);
    __m512i o = _mm512_mul_epu32(_mm512_srli_epi64(a, 32), _mm512_srli_epi64(b, 32));
    return _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64(e, 32), o);
}

T512 static inline __m512i red512(__m512i x, __m512i q)
{
    return _mm512_min_epu32(x, _mm512_sub_epi32(x, q));
}

T512 static inline __m512i shoup512(__m512i w, __m512i ws, __m512i y, __m512i q)
{
    __m512i qh = mulhi512(ws, y);
    return red512(_mm512_sub_epi32(_mm512_mullo_epi32(w, y), _mm512_mullo_epi32(qh, q)), q);
}

T512 static inline void fwd_bf512(__m512i *x, __m512i *y, __m512i w, __m512i ws, __m512i q)
{
    __m512i v = shoup512(w, ws, *y, q);
    __m512i s = _mm512_add_epi32(*x, v);
    __m512i d = _mm512_add_epi32(_mm512_sub_epi32(*x, v), q);
    *x = red512(s, q);
    *y = red512(d, q);
}

T512 static inline void inv_bf512(__m512i *x, __m512i *y, __m512i w, __m512i ws, __m512i q)
{
    __m512i s = _mm512_add_epi32(*x, *y);
    __m512i d = _mm512_add_epi32(_mm512_sub_epi32(*x, *y), q);
    *x = red512(s, q);
    *y = shoup512(w, ws, d, q);
}

/* The permutes of the stages with t < 16 (t = 8, 4, 2, 1 at s = 0..3). */
struct perm512 {
    int32_t x[4][16], y[4][16], b0[4][16], b1[4][16], w[4][16];
};

static void perm512_init(struct perm512 *p)
{
    for (int s = 0; s < 4; s++) {
        int t = 8 >> s;
        for (int l = 0; l < 16; l++) {
            int g = l / t, r = l % t;
            p->x[s][l] = g * 2 * t + r;
            p->y[s][l] = g * 2 * t + t + r;
            p->w[s][l] = l / t;
        }
        for (int e = 0; e < 32; e++) {
            int g = e / (2 * t), r = e % (2 * t);
            int src = r < t ? g * t + r : 16 + g * t + r - t;
            if (e < 16)
                p->b0[s][e] = src;
            else
                p->b1[s][e - 16] = src;
        }
    }
}

/* stages t = 8..1 (forward, s = 0..3) or t = 1..8 (inverse, s = 3..0) on
 * each 32-coefficient chunk; tw, tws: the twiddle tables; m0: the index
 * base of the t = 8 stage (n / 16), doubling as t halves */
T512 static void tail512(uint32_t *a, uint32_t n, const uint32_t *tw, const uint32_t *tws,
                         uint32_t q, int inverse)
{
    struct perm512 p;
    perm512_init(&p);
    __m512i vq = _mm512_set1_epi32((int)q);
    for (uint32_t c = 0; c < n / 32; c++) {
        __m512i v0 = _mm512_loadu_si512(a + 32 * c), v1 = _mm512_loadu_si512(a + 32 * c + 16);
        for (int k = 0; k < 4; k++) {
            int s = inverse ? 3 - k : k;
            uint32_t t = 8u >> s, m = (n / 16) << s, i0 = 16 * c / t;
            __m512i ix = _mm512_loadu_si512(p.x[s]), iy = _mm512_loadu_si512(p.y[s]);
            __m512i iw = _mm512_loadu_si512(p.w[s]);
            __m512i x = _mm512_permutex2var_epi32(v0, ix, v1);
            __m512i y = _mm512_permutex2var_epi32(v0, iy, v1);
            __m512i w = _mm512_permutexvar_epi32(iw, _mm512_loadu_si512(tw + m + i0));
            __m512i ws = _mm512_permutexvar_epi32(iw, _mm512_loadu_si512(tws + m + i0));
            if (inverse)
                inv_bf512(&x, &y, w, ws, vq);
            else
                fwd_bf512(&x, &y, w, ws, vq);
            v0 = _mm512_permutex2var_epi32(x, _mm512_loadu_si512(p.b0[s]), y);
            v1 = _mm512_permutex2var_epi32(x, _mm512_loadu_si512(p.b1[s]), y);
        }
        _mm512_storeu_si512(a + 32 * c, v0);
        _mm512_storeu_si512(a + 32 * c + 16, v1);
    }
}

T512 static void fwd32_avx512(uint32_t *a, uint32_t n, const uint32_t *psi, const uint32_t *psis,
                              uint32_t q)
{
    __m512i vq = _mm512_set1_epi32((int)q);
    for (uint32_t m = 1, t = n / 2; t >= 16; m <<= 1, t >>= 1) {
        for (uint32_t i = 0; i < m; i++) {
            __m512i w = _mm512_set1_epi32((int)psi[m + i]);
            __m512i ws = _mm512_set1_epi32((int)psis[m + i]);
            uint32_t *x = a + 2 * i * t, *y = x + t;
            for (uint32_t j = 0; j < t; j += 16) {
                __m512i vx = _mm512_loadu_si512(x + j), vy = _mm512_loadu_si512(y + j);
                fwd_bf512(&vx, &vy, w, ws, vq);
                _mm512_storeu_si512(x + j, vx);
                _mm512_storeu_si512(y + j, vy);
            }
        }
    }
    tail512(a, n, psi, psis, q, 0);
}

T512 static void inv32_avx512(uint32_t *a, uint32_t n, const uint32_t *ipsi, const uint32_t *ipsis,
                              uint32_t q, uint32_t ninv, uint32_t ninvs)
{
    __m512i vq = _mm512_set1_epi32((int)q);
    tail512(a, n, ipsi, ipsis, q, 1);
    for (uint32_t h = n / 32, t = 16; h >= 1; h >>= 1, t <<= 1) {
        for (uint32_t i = 0; i < h; i++) {
            __m512i w = _mm512_set1_epi32((int)ipsi[h + i]);
            __m512i ws = _mm512_set1_epi32((int)ipsis[h + i]);
            uint32_t *x = a + 2 * i * t, *y = x + t;
            for (uint32_t j = 0; j < t; j += 16) {
                __m512i vx = _mm512_loadu_si512(x + j), vy = _mm512_loadu_si512(y + j);
                inv_bf512(&vx, &vy, w, ws, vq);
                _mm512_storeu_si512(x + j, vx);
                _mm512_storeu_si512(y + j, vy);
            }
        }
    }
    __m512i w = _mm512_set1_epi32((int)ninv), ws = _mm512_set1_epi32((int)ninvs);
    for (uint32_t j = 0; j < n; j += 16)
        _mm512_storeu_si512(a + j, shoup512(w, ws, _mm512_loadu_si512(a + j), vq));
}

/* ---- AVX2: 8 lanes ----------------------------------------------------------- */

T256 static inline __m256i mulhi256(__m256i a, __m256i b)
{
    __m256i e = _mm256_mul_epu32(a, b);
    __m256i o = _mm256_mul_epu32(_mm256_srli_epi64(a, 32), _mm256_srli_epi64(b, 32));
    return _mm256_blend_epi32(_mm256_srli_epi64(e, 32), o, 0xAA);
}

T256 static inline __m256i red256(__m256i x, __m256i q)
{
    return _mm256_min_epu32(x, _mm256_sub_epi32(x, q));
}

T256 static inline __m256i shoup256(__m256i w, __m256i ws, __m256i y, __m256i q)
{
    __m256i qh = mulhi256(ws, y);
    return red256(_mm256_sub_epi32(_mm256_mullo_epi32(w, y), _mm256_mullo_epi32(qh, q)), q);
}

T256 static inline void fwd_bf256(__m256i *x, __m256i *y, __m256i w, __m256i ws, __m256i q)
{
    __m256i v = shoup256(w, ws, *y, q);
    __m256i s = _mm256_add_epi32(*x, v);
    __m256i d = _mm256_add_epi32(_mm256_sub_epi32(*x, v), q);
    *x = red256(s, q);
    *y = red256(d, q);
}

T256 static inline void inv_bf256(__m256i *x, __m256i *y, __m256i w, __m256i ws, __m256i q)
{
    __m256i s = _mm256_add_epi32(*x, *y);
    __m256i d = _mm256_add_epi32(_mm256_sub_epi32(*x, *y), q);
    *x = red256(s, q);
    *y = shoup256(w, ws, d, q);
}

/* t = 4, 2, 1 at s = 0..2: within one vector, p moves the tops (r < t) to
 * lanes 0-3 and the bottoms to lanes 4-7, pb undoes it; 128-bit lane swaps
 * then pair two vectors' tops (X) and bottoms (Y). */
struct perm256 {
    int32_t p[3][8], pb[3][8], w[3][8];
};

static void perm256_init(struct perm256 *p)
{
    for (int s = 0; s < 3; s++) {
        int t = 4 >> s;
        for (int l = 0; l < 4; l++) {
            int g = l / t, r = l % t;
            p->p[s][l] = g * 2 * t + r;
            p->p[s][4 + l] = g * 2 * t + t + r;
        }
        for (int l = 0; l < 8; l++) {
            p->pb[s][p->p[s][l]] = l;
            p->w[s][l] = l / t;
        }
    }
}

T256 static void tail256(uint32_t *a, uint32_t n, const uint32_t *tw, const uint32_t *tws,
                         uint32_t q, int inverse)
{
    struct perm256 p;
    perm256_init(&p);
    __m256i vq = _mm256_set1_epi32((int)q);
    for (uint32_t c = 0; c < n / 16; c++) {
        __m256i v0 = _mm256_loadu_si256((const __m256i *)(a + 16 * c));
        __m256i v1 = _mm256_loadu_si256((const __m256i *)(a + 16 * c + 8));
        for (int k = 0; k < 3; k++) {
            int s = inverse ? 2 - k : k;
            uint32_t t = 4u >> s, m = (n / 8) << s, i0 = 8 * c / t;
            __m256i ip = _mm256_loadu_si256((const __m256i *)p.p[s]);
            __m256i iw = _mm256_loadu_si256((const __m256i *)p.w[s]);
            __m256i p0 = _mm256_permutevar8x32_epi32(v0, ip);
            __m256i p1 = _mm256_permutevar8x32_epi32(v1, ip);
            __m256i x = _mm256_permute2x128_si256(p0, p1, 0x20);
            __m256i y = _mm256_permute2x128_si256(p0, p1, 0x31);
            __m256i w =
                _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(tw + m + i0)), iw);
            __m256i ws = _mm256_permutevar8x32_epi32(
                _mm256_loadu_si256((const __m256i *)(tws + m + i0)), iw);
            if (inverse)
                inv_bf256(&x, &y, w, ws, vq);
            else
                fwd_bf256(&x, &y, w, ws, vq);
            __m256i ib = _mm256_loadu_si256((const __m256i *)p.pb[s]);
            v0 = _mm256_permutevar8x32_epi32(_mm256_permute2x128_si256(x, y, 0x20), ib);
            v1 = _mm256_permutevar8x32_epi32(_mm256_permute2x128_si256(x, y, 0x31), ib);
        }
        _mm256_storeu_si256((__m256i *)(a + 16 * c), v0);
        _mm256_storeu_si256((__m256i *)(a + 16 * c + 8), v1);
    }
}

T256 static void fwd32_avx2(uint32_t *a, uint32_t n, const uint32_t *psi, const uint32_t *psis,
                            uint32_t q)
{
    __m256i vq = _mm256_set1_epi32((int)q);
    for (uint32_t m = 1, t = n / 2; t >= 8; m <<= 1, t >>= 1) {
        for (uint32_t i = 0; i < m; i++) {
            __m256i w = _mm256_set1_epi32((int)psi[m + i]);
            __m256i ws = _mm256_set1_epi32((int)psis[m + i]);
            uint32_t *x = a + 2 * i * t, *y = x + t;
            for (uint32_t j = 0; j < t; j += 8) {
                __m256i vx = _mm256_loadu_si256((const __m256i *)(x + j));
                __m256i vy = _mm256_loadu_si256((const __m256i *)(y + j));
                fwd_bf256(&vx, &vy, w, ws, vq);
                _mm256_storeu_si256((__m256i *)(x + j), vx);
                _mm256_storeu_si256((__m256i *)(y + j), vy);
            }
        }
    }
    tail256(a, n, psi, psis, q, 0);
}

T256 static void inv32_avx2(uint32_t *a, uint32_t n, const uint32_t *ipsi, const uint32_t *ipsis,
                            uint32_t q, uint32_t ninv, uint32_t ninvs)
{
    __m256i vq = _mm256_set1_epi32((int)q);
    tail256(a, n, ipsi, ipsis, q, 1);
    for (uint32_t h = n / 16, t = 8; h >= 1; h >>= 1, t <<= 1) {
        for (uint32_t i = 0; i < h; i++) {
            __m256i w = _mm256_set1_epi32((int)ipsi[h + i]);
            __m256i ws = _mm256_set1_epi32((int)ipsis[h + i]);
            uint32_t *x = a + 2 * i * t, *y = x + t;
            for (uint32_t j = 0; j < t; j += 8) {
                __m256i vx = _mm256_loadu_si256((const __m256i *)(x + j));
                __m256i vy = _mm256_loadu_si256((const __m256i *)(y + j));
                inv_bf256(&vx, &vy, w, ws, vq);
                _mm256_storeu_si256((__m256i *)(x + j), vx);
                _mm256_storeu_si256((__m256i *)(y + j), vy);
            }
        }
    }
    __m256i w = _mm256_set1_epi32((int)ninv), ws = _mm256_set1_epi32((int)ninvs);
    for (uint32_t j = 0; j < n; j += 8) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(a + j));
        _mm256_storeu_si256((__m256i *)(a + j), shoup256(w, ws, v, vq));
    }
}

/* ---- pointwise products: Barrett on 64-bit lanes --------------------------------
 * The even and the odd 32-bit lanes are multiplied separately into 64-bit
 * products x < q^2; t = ((x >> (b-1)) mu) >> (b+1) is again a 32 x 32-bit
 * product (x >> (b-1) < 2^32, mu < 2^32), and x - t q < 3q takes two
 * corrections (src/crypto/ntt.h's cpim_crypto_barrett32, lane by lane). */

T512 static inline __m512i barrett512(__m512i x, __m512i mu, __m512i q, __m128i s1, __m128i s2)
{
    __m512i t = _mm512_srl_epi64(_mm512_mul_epu32(_mm512_srl_epi64(x, s1), mu), s2);
    __m512i r = _mm512_sub_epi64(x, _mm512_mul_epu32(t, q));
    r = _mm512_min_epu64(r, _mm512_sub_epi64(r, q));
    return _mm512_min_epu64(r, _mm512_sub_epi64(r, q));
}

T512 static void mul32_avx512(uint32_t *a, const uint32_t *b, uint32_t n, uint32_t q, uint32_t mu,
                              unsigned bits)
{
    __m512i vq = _mm512_set1_epi64(q), vmu = _mm512_set1_epi64(mu);
    __m128i s1 = _mm_cvtsi32_si128((int)bits - 1), s2 = _mm_cvtsi32_si128((int)bits + 1);
    for (uint32_t j = 0; j < n; j += 16) {
        __m512i va = _mm512_loadu_si512(a + j), vb = _mm512_loadu_si512(b + j);
        __m512i e = barrett512(_mm512_mul_epu32(va, vb), vmu, vq, s1, s2);
        __m512i o =
            barrett512(_mm512_mul_epu32(_mm512_srli_epi64(va, 32), _mm512_srli_epi64(vb, 32)), vmu,
                       vq, s1, s2);
        _mm512_storeu_si512(a + j, _mm512_mask_blend_epi32(0xAAAA, e, _mm512_slli_epi64(o, 32)));
    }
}

T256 static inline __m256i barrett256(__m256i x, __m256i mu, __m256i q, __m128i s1, __m128i s2)
{
    __m256i t = _mm256_srl_epi64(_mm256_mul_epu32(_mm256_srl_epi64(x, s1), mu), s2);
    __m256i r = _mm256_sub_epi64(x, _mm256_mul_epu32(t, q));
    /* r < 3q < 2^33: signed 64-bit compares are exact */
    r = _mm256_sub_epi64(r, _mm256_andnot_si256(_mm256_cmpgt_epi64(q, r), q));
    return _mm256_sub_epi64(r, _mm256_andnot_si256(_mm256_cmpgt_epi64(q, r), q));
}

T256 static void mul32_avx2(uint32_t *a, const uint32_t *b, uint32_t n, uint32_t q, uint32_t mu,
                            unsigned bits)
{
    __m256i vq = _mm256_set1_epi64x(q), vmu = _mm256_set1_epi64x(mu);
    __m128i s1 = _mm_cvtsi32_si128((int)bits - 1), s2 = _mm_cvtsi32_si128((int)bits + 1);
    for (uint32_t j = 0; j < n; j += 8) {
        __m256i va = _mm256_loadu_si256((const __m256i *)(a + j));
        __m256i vb = _mm256_loadu_si256((const __m256i *)(b + j));
        __m256i e = barrett256(_mm256_mul_epu32(va, vb), vmu, vq, s1, s2);
        __m256i o =
            barrett256(_mm256_mul_epu32(_mm256_srli_epi64(va, 32), _mm256_srli_epi64(vb, 32)), vmu,
                       vq, s1, s2);
        _mm256_storeu_si256((__m256i *)(a + j),
                            _mm256_blend_epi32(e, _mm256_slli_epi64(o, 32), 0xAA));
    }
}

T512 static void narrow_avx512(uint32_t *d, const uint64_t *s, uint32_t n)
{
    for (uint32_t j = 0; j < n; j += 8)
        _mm256_storeu_si256((__m256i *)(d + j), _mm512_cvtepi64_epi32(_mm512_loadu_si512(s + j)));
}

T512 static void widen_avx512(uint64_t *d, const uint32_t *s, uint32_t n)
{
    for (uint32_t j = 0; j < n; j += 8)
        _mm512_storeu_si512(d + j,
                            _mm512_cvtepu32_epi64(_mm256_loadu_si256((const __m256i *)(s + j))));
}

T256 static void narrow_avx2(uint32_t *d, const uint64_t *s, uint32_t n)
{
    const __m256i idx = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
    for (uint32_t j = 0; j < n; j += 4) {
        __m256i v = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(s + j)), idx);
        _mm_storeu_si128((__m128i *)(d + j), _mm256_castsi256_si128(v));
    }
}

T256 static void widen_avx2(uint64_t *d, const uint32_t *s, uint32_t n)
{
    for (uint32_t j = 0; j < n; j += 4)
        _mm256_storeu_si256((__m256i *)(d + j),
                            _mm256_cvtepu32_epi64(_mm_loadu_si128((const __m128i *)(s + j))));
}

static const cpim_ntt_kernels k512ifma = {
    .min_n = 32, /* two 16-lane vectors (tail512; the 64-bit lanes need 16) */
    .fwd32 = fwd32_avx512,
    .inv32 = inv32_avx512,
    .fwd64 = cpim_ntt_x86_fwd64_ifma,
    .inv64 = cpim_ntt_x86_inv64_ifma,
    .mul32 = mul32_avx512,
    .narrow = narrow_avx512,
    .widen = widen_avx512,
};

static const cpim_ntt_kernels k512dq = {
    .min_n = 32,
    .fwd32 = fwd32_avx512,
    .inv32 = inv32_avx512,
    .fwd64 = cpim_ntt_x86_fwd64_dq,
    .inv64 = cpim_ntt_x86_inv64_dq,
    .mul32 = mul32_avx512,
    .narrow = narrow_avx512,
    .widen = widen_avx512,
};

static const cpim_ntt_kernels k512 = {
    .min_n = 32, /* two 16-lane vectors (tail512) */
    .fwd32 = fwd32_avx512,
    .inv32 = inv32_avx512,
    .fwd64 = cpim_ntt_fwd64_portable,
    .inv64 = cpim_ntt_inv64_portable,
    .mul32 = mul32_avx512,
    .narrow = narrow_avx512,
    .widen = widen_avx512,
};

static const cpim_ntt_kernels k256 = {
    .min_n = 16, /* two 8-lane vectors (tail256) */
    .fwd32 = fwd32_avx2,
    .inv32 = inv32_avx2,
    .fwd64 = cpim_ntt_fwd64_portable,
    .inv64 = cpim_ntt_inv64_portable,
    .mul32 = mul32_avx2,
    .narrow = narrow_avx2,
    .widen = widen_avx2,
};
#endif /* __x86_64__ */

const cpim_ntt_kernels *cpim_ntt_x86_kernels(const char **tier)
{
    const char *dummy;
    if (!tier)
        tier = &dummy;
#if defined(__x86_64__)
    unsigned f = cpim_x86_features();
    if ((f & CPIM_X86_AVX512) && (f & CPIM_X86_IFMA) && (f & CPIM_X86_AVX512DQ)) {
        *tier = "avx512-ifma";
        return &k512ifma;
    }
    if ((f & CPIM_X86_AVX512) && (f & CPIM_X86_AVX512DQ)) {
        *tier = "avx512-dq";
        return &k512dq;
    }
    if (f & CPIM_X86_AVX512) {
        *tier = "avx512";
        return &k512;
    }
    if (f & CPIM_X86_AVX2) {
        *tier = "avx2";
        return &k256;
    }
#endif
    *tier = "portable";
    return &cpim_ntt_portable_kernels;
}
