/*
 * ntt_x86_lanes64.h -- the body of the 64-bit-lane transforms of
 * ntt_x86_64.c, included once per product form (IFMA52, AVX-512DQ): the
 * stage structure is the same, only the Shoup product differs.  The
 * includer defines
 *   K_TARGET       the target attribute of every function here
 *   K_SHOUP        w y mod q in [0, 2q) for y < 4q: K_SHOUP(w, ws, y, qm)
 *   K_QFORM(q)     the vector qm of q that K_SHOUP takes
 *   K_WS(x)        a 64-bit Shoup constant floor(w 2^64 / q) in the form
 *                  K_SHOUP takes (IFMA: >> 12; DQ: as is)
 *   K_PSIS(md), K_IPSIS(md)  the plan's Shoup tables of that form
 *   K_YMAX         the largest y K_SHOUP takes
 *   K_BARRETT      y mod q in [0, 2q) for y <= K_YMAX: K_BARRETT(y, c, qm, q2)
 *                  with c = K_BCONST(q)
 *   K_FWD, K_INV   the names of the two transforms defined here, and
 *   K_FWD_BF, K_INV_BF, K_FULL, K_TW4, K_TW2, K_TAIL_FWD, K_TAIL_INV,
 *   K_FWD_STAGE, K_INV_STAGE, K_FWD_BODY, K_INV_BODY  names for their helpers
 * and NTT64_BLOCK, the block of the depth-first stages (K_FWD says why).
 * and includes it (the end of this file undefines them); nothing here is
 * used elsewhere.
 *
 * Harvey's butterflies (src/crypto/ntt.h): forward values in [0, 4q),
 * inverse in [0, 2q), 4q < 2^64 (DQ) or < 2^52 (IFMA); where the values
 * cannot pass K_YMAX, left unreduced between stages (K_FWD_BODY, K_INV_BODY).  Stages with
 * half-distance t >= 8 are vertical (one broadcast twiddle per group, 8
 * lanes); t = 4, 2, 1 work on 16 consecutive coefficients in two
 * registers, which stay there through all three (K_TAIL_FWD/INV say how).  The forward transform's
 * final reduction happens there too (no extra pass); the inverse's
 * scaling by n^-1 is fused into its last stage (ninv64: x = n^-1 (u + v),
 * y = n^-1 w (u - v)), so each direction reads and writes the polynomial
 * log2(n) - 2 times.  Needs n >= 16.
 */

/* grow (a constant): x is taken as it is (K_FWD says when that is right) */
K_TARGET static inline void K_FWD_BF(__m512i *x, __m512i *y, __m512i w, __m512i ws, __m512i qm,
                                     __m512i q2, int grow)
{
    __m512i u = grow ? *x : _mm512_min_epu64(*x, _mm512_sub_epi64(*x, q2)); /* [0, 2q) */
    __m512i v = K_SHOUP(w, ws, *y, qm);                                     /* [0, 2q) */
    *x = _mm512_add_epi64(u, v);
    *y = _mm512_add_epi64(_mm512_sub_epi64(u, v), q2);
}

/* bq: the inputs' bound B q (2q unless growing); grow (a constant): the
 * sum is left unreduced, in [0, 2 B q) (K_INV says when that is right) */
K_TARGET static inline void K_INV_BF(__m512i *x, __m512i *y, __m512i w, __m512i ws, __m512i qm,
                                     __m512i q2, __m512i bq, int grow)
{
    __m512i s = _mm512_add_epi64(*x, *y);
    __m512i d = _mm512_add_epi64(_mm512_sub_epi64(*x, *y), bq);
    *x = grow ? s : _mm512_min_epu64(s, _mm512_sub_epi64(s, q2));
    *y = K_SHOUP(w, ws, d, qm);
}

/* [0, 4q) -> [0, q) */
K_TARGET static inline __m512i K_FULL(__m512i v, __m512i q, __m512i q2)
{
    v = _mm512_min_epu64(v, _mm512_sub_epi64(v, q2));
    return _mm512_min_epu64(v, _mm512_sub_epi64(v, q));
}

/* the twiddles of 8 butterflies of a stage with half-distance t = 4, 2 at
 * table entries e.. in the layouts below (lane l <- entry e + l mod (8 / t)):
 * broadcast loads, which take no shuffle port */
K_TARGET static inline __m512i K_TW4(const uint64_t *e)
{
    return _mm512_broadcast_i32x4(_mm_loadu_si128((const void *)e));
}

K_TARGET static inline __m512i K_TW2(const uint64_t *e)
{
    return _mm512_broadcast_i64x4(_mm256_loadu_si256((const void *)e));
}

/* The stages t = 4, 2, 1 on each 16-coefficient chunk in two registers X
 * (butterfly tops) and Y (bottoms), laid out so that lane l holds a
 * butterfly of group l mod (8 / t) of the chunk's 16 / 2t groups: t = 4:
 * X = elements 0, 8, 1, 9, 2, 10, 3, 11; t = 2: X = 0, 4, 8, 12, 1, 5, 9,
 * 13; t = 1: X = the even elements (the twiddles are then whole-vector or
 * broadcast loads).  One permute pair moves the data each step: the
 * interleave Z (lanes 0-3 of X and Y alternating into X, lanes 4-7 into
 * Y) gathers the chunk into t = 4's layout, goes from each stage's to the
 * next's, and scatters t = 1's back; the inverse runs the same steps
 * backwards with its inverse U (X = the even lanes of the pair, Y = the
 * odd ones).  So 8 data permutes per chunk for the three stages. */
#define ZX _mm512_set_epi64(11, 3, 10, 2, 9, 1, 8, 0)
#define ZY _mm512_set_epi64(15, 7, 14, 6, 13, 5, 12, 4)
#define UX _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0)
#define UY _mm512_set_epi64(15, 13, 11, 9, 7, 5, 3, 1)

/* the chunks c0 <= c < c1 (16 coefficients each) */
K_TARGET static inline __attribute__((always_inline)) void
K_TAIL_FWD(uint64_t *a, uint32_t n, uint32_t c0, uint32_t c1, const uint64_t *tw,
           const uint64_t *tws, __m512i q, __m512i qm, __m512i q2, __m512i bc, int full, int grow)
{
    const uint64_t *t4 = tw + n / 8, *t4s = tws + n / 8, *t2 = tw + n / 4, *t2s = tws + n / 4;
    const uint64_t *t1 = tw + n / 2, *t1s = tws + n / 2;
#pragma GCC unroll 2
    for (uint32_t c = c0; c < c1; c++) {
        __m512i v0 = _mm512_loadu_si512(a + 16 * c), v1 = _mm512_loadu_si512(a + 16 * c + 8);
        __m512i x = _mm512_permutex2var_epi64(v0, ZX, v1);
        __m512i y = _mm512_permutex2var_epi64(v0, ZY, v1);
        K_FWD_BF(&x, &y, K_TW4(t4 + 2 * c), K_TW4(t4s + 2 * c), qm, q2, grow);
        __m512i x2 = _mm512_permutex2var_epi64(x, ZX, y);
        __m512i y2 = _mm512_permutex2var_epi64(x, ZY, y);
        K_FWD_BF(&x2, &y2, K_TW2(t2 + 4 * c), K_TW2(t2s + 4 * c), qm, q2, grow);
        x = _mm512_permutex2var_epi64(x2, ZX, y2);
        y = _mm512_permutex2var_epi64(x2, ZY, y2);
        /* growing, the tops are reduced here, once, to [0, 2q) (what the
         * butterfly's own reduction would give), so the outputs are in [0, 4q) */
        if (grow)
            x = K_BARRETT(x, bc, qm, q2);
        K_FWD_BF(&x, &y, _mm512_loadu_si512(t1 + 8 * c), _mm512_loadu_si512(t1s + 8 * c), qm, q2,
                 grow);
        if (full) {
            x = K_FULL(x, q, q2);
            y = K_FULL(y, q, q2);
        }
        _mm512_storeu_si512(a + 16 * c, _mm512_permutex2var_epi64(x, ZX, y));
        _mm512_storeu_si512(a + 16 * c + 8, _mm512_permutex2var_epi64(x, ZY, y));
    }
}

K_TARGET static inline __attribute__((always_inline)) void
K_TAIL_INV(uint64_t *a, uint32_t n, uint32_t c0, uint32_t c1, const uint64_t *tw,
           const uint64_t *tws, __m512i qm, __m512i q2, int grow)
{
    /* the inputs' bounds of the three stages: 2q, then (growing) 4q and 8q */
    const __m512i b2 = grow ? _mm512_add_epi64(q2, q2) : q2,
                  b4 = grow ? _mm512_add_epi64(b2, b2) : q2;
    const uint64_t *t4 = tw + n / 8, *t4s = tws + n / 8, *t2 = tw + n / 4, *t2s = tws + n / 4;
    const uint64_t *t1 = tw + n / 2, *t1s = tws + n / 2;
#pragma GCC unroll 2
    for (uint32_t c = c0; c < c1; c++) {
        __m512i v0 = _mm512_loadu_si512(a + 16 * c), v1 = _mm512_loadu_si512(a + 16 * c + 8);
        __m512i x = _mm512_permutex2var_epi64(v0, UX, v1);
        __m512i y = _mm512_permutex2var_epi64(v0, UY, v1);
        K_INV_BF(&x, &y, _mm512_loadu_si512(t1 + 8 * c), _mm512_loadu_si512(t1s + 8 * c), qm, q2,
                 q2, grow);
        __m512i x2 = _mm512_permutex2var_epi64(x, UX, y);
        __m512i y2 = _mm512_permutex2var_epi64(x, UY, y);
        K_INV_BF(&x2, &y2, K_TW2(t2 + 4 * c), K_TW2(t2s + 4 * c), qm, q2, b2, grow);
        x = _mm512_permutex2var_epi64(x2, UX, y2);
        y = _mm512_permutex2var_epi64(x2, UY, y2);
        K_INV_BF(&x, &y, K_TW4(t4 + 2 * c), K_TW4(t4s + 2 * c), qm, q2, b4, grow);
        _mm512_storeu_si512(a + 16 * c, _mm512_permutex2var_epi64(x, UX, y));
        _mm512_storeu_si512(a + 16 * c + 8, _mm512_permutex2var_epi64(x, UY, y));
    }
}

#undef ZX
#undef ZY
#undef UX
#undef UY

/* one vertical stage (half-distance t >= 8, m groups in all) on the groups
 * i0 <= i < i1 */
K_TARGET static inline __attribute__((always_inline)) void
K_FWD_STAGE(uint64_t *a, uint32_t m, uint32_t t, uint32_t i0, uint32_t i1, const uint64_t *psi,
            const uint64_t *psis, __m512i qm, __m512i q2, int grow)
{
    for (uint32_t i = i0; i < i1; i++) {
        __m512i w = _mm512_set1_epi64((long long)psi[m + i]);
        __m512i ws = _mm512_set1_epi64((long long)psis[m + i]);
        uint64_t *x = a + 2 * (size_t)i * t, *y = x + t;
#pragma GCC unroll 4
        for (uint32_t j = 0; j < t; j += 8) {
            __m512i vx = _mm512_loadu_si512(x + j), vy = _mm512_loadu_si512(y + j);
            K_FWD_BF(&vx, &vy, w, ws, qm, q2, grow);
            _mm512_storeu_si512(x + j, vx);
            _mm512_storeu_si512(y + j, vy);
        }
    }
}

K_TARGET static inline __attribute__((always_inline)) void
K_INV_STAGE(uint64_t *a, uint32_t h, uint32_t t, uint32_t i0, uint32_t i1, const uint64_t *ipsi,
            const uint64_t *ipsis, __m512i qm, __m512i q2, __m512i bq, int grow)
{
    for (uint32_t i = i0; i < i1; i++) {
        __m512i w = _mm512_set1_epi64((long long)ipsi[h + i]);
        __m512i ws = _mm512_set1_epi64((long long)ipsis[h + i]);
        uint64_t *x = a + 2 * (size_t)i * t, *y = x + t;
#pragma GCC unroll 4
        for (uint32_t j = 0; j < t; j += 8) {
            __m512i vx = _mm512_loadu_si512(x + j), vy = _mm512_loadu_si512(y + j);
            K_INV_BF(&vx, &vy, w, ws, qm, q2, bq, grow);
            _mm512_storeu_si512(x + j, vx);
            _mm512_storeu_si512(y + j, vy);
        }
    }
}

/* Stages whose butterflies span more than NTT64_BLOCK coefficients run over
 * the whole polynomial (breadth first); the others run block by block, all
 * of them on one block before the next (depth first), so that a block
 * stays in the L1 cache through its last stages instead of every stage
 * streaming the whole polynomial from L2 (N >= 16384 is 128 KiB and more).
 *
 * Growing (grow, a constant): Shoup's product takes any y <= K_YMAX, so
 * where the values cannot pass K_YMAX the tops are not reduced before each
 * butterfly (two operations of nine saved per butterfly): a stage adds
 * 2q to the bound, from 4q to (4 + 2 log2 n) q, and the last stage reduces
 * its tops once (K_BARRETT) so that the outputs are in [0, 4q) again. */
K_TARGET static inline __attribute__((always_inline)) void
K_FWD_BODY(uint64_t *a, uint32_t n, const cpim_ntt_mod *md, int full, int grow)
{
    const uint64_t *psi = md->t64.psi, *psis = K_PSIS(md);
    const __m512i vq = _mm512_set1_epi64((long long)md->q), vqm = K_QFORM(md->q);
    const __m512i vq2 = _mm512_set1_epi64((long long)(2 * md->q));
    const __m512i vbc = K_BCONST(md->q);
    const uint32_t blk = n < NTT64_BLOCK ? n : NTT64_BLOCK;
    uint32_t m = 1, t = n / 2;
    for (; t >= 8 && 2 * t > blk; m <<= 1, t >>= 1)
        K_FWD_STAGE(a, m, t, 0, m, psi, psis, vqm, vq2, grow);
    for (uint32_t b = 0; b < n / blk; b++) {
        for (uint32_t mm = m, tt = t; tt >= 8; mm <<= 1, tt >>= 1) {
            const uint32_t g = blk / (2 * tt); /* groups per block */
            K_FWD_STAGE(a, mm, tt, b * g, (b + 1) * g, psi, psis, vqm, vq2, grow);
        }
        if (full)
            K_TAIL_FWD(a, n, b * blk / 16, (b + 1) * blk / 16, psi, psis, vq, vqm, vq2, vbc, 1,
                       grow);
        else
            K_TAIL_FWD(a, n, b * blk / 16, (b + 1) * blk / 16, psi, psis, vq, vqm, vq2, vbc, 0,
                       grow);
    }
}

K_TARGET static void K_FWD(uint64_t *a, uint32_t n, const cpim_ntt_mod *md, int full)
{
    /* the largest bound, (4 + 2 log2 n) q, within K_YMAX */
    if (md->q <= K_YMAX / (4 + 2 * (uint64_t)__builtin_ctz(n)))
        K_FWD_BODY(a, n, md, full, 1);
    else
        K_FWD_BODY(a, n, md, full, 0);
}

/* Growing (grow, a constant), the inverse leaves its sums unreduced: the
 * bound doubles each stage, from 2q to n q before the last, whose Shoup
 * products (with the scaling) take up to 2 n q; right where that is within
 * K_YMAX.  Each butterfly's difference adds the inputs' bound (bq). */
K_TARGET static inline __attribute__((always_inline)) void
K_INV_BODY(uint64_t *a, uint32_t n, const cpim_ntt_mod *md, int full, int grow)
{
    const uint64_t *ipsi = md->t64.ipsi, *ipsis = K_IPSIS(md);
    const __m512i vq = _mm512_set1_epi64((long long)md->q), vqm = K_QFORM(md->q);
    const __m512i vq2 = _mm512_set1_epi64((long long)(2 * md->q));
    const uint32_t blk = n < NTT64_BLOCK ? n : NTT64_BLOCK;
    /* (h, t): the first stage after the per-block ones; the last stage
     * (h = 1) is never one of those: it is fused with the scaling below */
    uint32_t h = n / 16, t = 8;
    while (h >= 2 && 2 * t <= blk)
        h >>= 1, t <<= 1;
    /* growing, the inputs of the stage of half-distance t are below 2 t q */
    for (uint32_t b = 0; b < n / blk; b++) {
        K_TAIL_INV(a, n, b * blk / 16, (b + 1) * blk / 16, ipsi, ipsis, vqm, vq2, grow);
        for (uint32_t hh = n / 16, tt = 8; tt < t; hh >>= 1, tt <<= 1) {
            const uint32_t g = blk / (2 * tt);
            const __m512i bq = grow ? _mm512_set1_epi64((long long)(2 * tt * md->q)) : vq2;
            K_INV_STAGE(a, hh, tt, b * g, (b + 1) * g, ipsi, ipsis, vqm, vq2, bq, grow);
        }
    }
    for (; h >= 2; h >>= 1, t <<= 1) {
        const __m512i bq = grow ? _mm512_set1_epi64((long long)(2 * t * md->q)) : vq2;
        K_INV_STAGE(a, h, t, 0, h, ipsi, ipsis, vqm, vq2, bq, grow);
    }
    /* the last stage (t = n / 2) with the scaling fused; Shoup's product
     * takes u + v < 2 t q as it is */
    const __m512i bq = grow ? _mm512_set1_epi64((long long)(2 * t * md->q)) : vq2;
    const __m512i n0 = _mm512_set1_epi64((long long)md->ninv64[0]);
    const __m512i n1 = K_WS(_mm512_set1_epi64((long long)md->ninv64[1]));
    const __m512i n2 = _mm512_set1_epi64((long long)md->ninv64[2]);
    const __m512i n3 = K_WS(_mm512_set1_epi64((long long)md->ninv64[3]));
    for (uint32_t j = 0; j < t; j += 8) {
        __m512i u = _mm512_loadu_si512(a + j), v = _mm512_loadu_si512(a + t + j);
        __m512i x = K_SHOUP(n0, n1, _mm512_add_epi64(u, v), vqm);
        __m512i y = K_SHOUP(n2, n3, _mm512_add_epi64(_mm512_sub_epi64(u, v), bq), vqm);
        if (full) {
            x = _mm512_min_epu64(x, _mm512_sub_epi64(x, vq));
            y = _mm512_min_epu64(y, _mm512_sub_epi64(y, vq));
        }
        _mm512_storeu_si512(a + j, x);
        _mm512_storeu_si512(a + t + j, y);
    }
}

K_TARGET static void K_INV(uint64_t *a, uint32_t n, const cpim_ntt_mod *md, int full)
{
    if (md->q <= K_YMAX / (2 * (uint64_t)n))
        K_INV_BODY(a, n, md, full, 1);
    else
        K_INV_BODY(a, n, md, full, 0);
}

/* the parameters undefined, for the next inclusion */
#undef K_TARGET
#undef K_SHOUP
#undef K_QFORM
#undef K_WS
#undef K_PSIS
#undef K_IPSIS
#undef K_FWD_BF
#undef K_INV_BF
#undef K_FULL
#undef K_TW4
#undef K_TW2
#undef K_TAIL_FWD
#undef K_TAIL_INV
#undef K_FWD_STAGE
#undef K_INV_STAGE
#undef K_FWD
#undef K_INV
#undef K_FWD_BODY
#undef K_INV_BODY
#undef K_BARRETT
#undef K_BCONST
#undef K_YMAX
