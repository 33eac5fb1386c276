/*
 * ntt_x86_lanes64.h -- the body of the 64-bit-lane transforms of
 * ntt_x86_64.c, included once per product form (IFMA52, AVX-512DQ): the
 * stage structure is the same, only the Shoup product differs.  The
 * includer defines
 *   K_TARGET       the target attribute of every function here
 *   K_SHOUP        w y mod q in [0, 2q) for y < 4q: K_SHOUP(w, ws, y, q)
 *   K_WS(x)        a 64-bit Shoup constant floor(w 2^64 / q) in the form
 *                  K_SHOUP takes (IFMA: >> 12; DQ: as is)
 *   K_FWD, K_INV   the names of the two transforms defined here
 * and includes it; nothing here is used elsewhere.
 *
 * Harvey's butterflies (src/crypto/ntt.h): forward values in [0, 4q),
 * inverse in [0, 2q), 4q < 2^64 (DQ) or < 2^52 (IFMA).  Stages with
 * half-distance t >= 8 are vertical (one broadcast twiddle per group, 8
 * lanes); t = 4, 2, 1 work on 16 consecutive coefficients in two
 * registers: two-source permutes gather the butterfly tops (X) and bottoms
 * (Y), one permute spreads the 8 consecutive table entries over the lanes
 * (lane l <- entry l / t), the inverse permutes put the results back, and
 * the data stays in registers through all three.  The forward transform's
 * final reduction happens there too (no extra pass); the inverse's
 * scaling by n^-1 is fused into its last stage (ninv64: x = n^-1 (u + v),
 * y = n^-1 w (u - v)), so each direction reads and writes the polynomial
 * log2(n) - 2 times.  Needs n >= 16.
 */

K_TARGET static inline void K_FWD_BF(__m512i *x, __m512i *y, __m512i w, __m512i ws, __m512i q,
                                     __m512i q2)
{
    __m512i u = _mm512_min_epu64(*x, _mm512_sub_epi64(*x, q2)); /* [0, 2q) */
    __m512i v = K_SHOUP(w, ws, *y, q);                          /* [0, 2q) */
    *x = _mm512_add_epi64(u, v);
    *y = _mm512_add_epi64(_mm512_sub_epi64(u, v), q2);
}

K_TARGET static inline void K_INV_BF(__m512i *x, __m512i *y, __m512i w, __m512i ws, __m512i q,
                                     __m512i q2)
{
    __m512i s = _mm512_add_epi64(*x, *y);
    __m512i d = _mm512_add_epi64(_mm512_sub_epi64(*x, *y), q2);
    *x = _mm512_min_epu64(s, _mm512_sub_epi64(s, q2));
    *y = K_SHOUP(w, ws, d, q);
}

/* [0, 4q) -> [0, q) */
K_TARGET static inline __m512i K_FULL(__m512i v, __m512i q, __m512i q2)
{
    v = _mm512_min_epu64(v, _mm512_sub_epi64(v, q2));
    return _mm512_min_epu64(v, _mm512_sub_epi64(v, q));
}

K_TARGET static void K_TAIL(uint64_t *a, uint32_t n, const uint64_t *tw, const uint64_t *tws,
                            uint64_t q, int inverse, int full)
{
    const struct perm64 *p = &cpim_perm64;
    __m512i vq = _mm512_set1_epi64((long long)q), vq2 = _mm512_set1_epi64((long long)(2 * q));
    for (uint32_t c = 0; c < n / 16; c++) {
        __m512i v0 = _mm512_loadu_si512(a + 16 * c), v1 = _mm512_loadu_si512(a + 16 * c + 8);
        for (int k = 0; k < 3; k++) {
            int s = inverse ? 2 - k : k;
            uint32_t t = 4u >> s, m = (n / 8) << s, i0 = 8 * c / t;
            __m512i iw = _mm512_loadu_si512(p->w[s]);
            __m512i x = _mm512_permutex2var_epi64(v0, _mm512_loadu_si512(p->x[s]), v1);
            __m512i y = _mm512_permutex2var_epi64(v0, _mm512_loadu_si512(p->y[s]), v1);
            __m512i w = _mm512_permutexvar_epi64(iw, _mm512_loadu_si512(tw + m + i0));
            __m512i ws = K_WS(_mm512_permutexvar_epi64(iw, _mm512_loadu_si512(tws + m + i0)));
            if (inverse)
                K_INV_BF(&x, &y, w, ws, vq, vq2);
            else
                K_FWD_BF(&x, &y, w, ws, vq, vq2);
            v0 = _mm512_permutex2var_epi64(x, _mm512_loadu_si512(p->b0[s]), y);
            v1 = _mm512_permutex2var_epi64(x, _mm512_loadu_si512(p->b1[s]), y);
        }
        if (full) {
            v0 = K_FULL(v0, vq, vq2);
            v1 = K_FULL(v1, vq, vq2);
        }
        _mm512_storeu_si512(a + 16 * c, v0);
        _mm512_storeu_si512(a + 16 * c + 8, v1);
    }
}

K_TARGET static void K_FWD(uint64_t *a, uint32_t n, const cpim_ntt_mod *md, int full)
{
    const uint64_t *psi = md->t64.psi, *psis = md->t64.psi_shoup;
    __m512i vq = _mm512_set1_epi64((long long)md->q);
    __m512i vq2 = _mm512_set1_epi64((long long)(2 * md->q));
    for (uint32_t m = 1, t = n / 2; t >= 8; m <<= 1, t >>= 1) {
        for (uint32_t i = 0; i < m; i++) {
            __m512i w = _mm512_set1_epi64((long long)psi[m + i]);
            __m512i ws = K_WS(_mm512_set1_epi64((long long)psis[m + i]));
            uint64_t *x = a + 2 * (size_t)i * t, *y = x + t;
            for (uint32_t j = 0; j < t; j += 8) {
                __m512i vx = _mm512_loadu_si512(x + j), vy = _mm512_loadu_si512(y + j);
                K_FWD_BF(&vx, &vy, w, ws, vq, vq2);
                _mm512_storeu_si512(x + j, vx);
                _mm512_storeu_si512(y + j, vy);
            }
        }
    }
    K_TAIL(a, n, psi, psis, md->q, 0, full);
}

K_TARGET static void K_INV(uint64_t *a, uint32_t n, const cpim_ntt_mod *md, int full)
{
    const uint64_t *ipsi = md->t64.ipsi, *ipsis = md->t64.ipsi_shoup;
    __m512i vq = _mm512_set1_epi64((long long)md->q);
    __m512i vq2 = _mm512_set1_epi64((long long)(2 * md->q));
    K_TAIL(a, n, ipsi, ipsis, md->q, 1, 0);
    uint32_t t = 8;
    for (uint32_t h = n / 16; h >= 2; h >>= 1, t <<= 1) {
        for (uint32_t i = 0; i < h; i++) {
            __m512i w = _mm512_set1_epi64((long long)ipsi[h + i]);
            __m512i ws = K_WS(_mm512_set1_epi64((long long)ipsis[h + i]));
            uint64_t *x = a + 2 * (size_t)i * t, *y = x + t;
            for (uint32_t j = 0; j < t; j += 8) {
                __m512i vx = _mm512_loadu_si512(x + j), vy = _mm512_loadu_si512(y + j);
                K_INV_BF(&vx, &vy, w, ws, vq, vq2);
                _mm512_storeu_si512(x + j, vx);
                _mm512_storeu_si512(y + j, vy);
            }
        }
    }
    /* the last stage (t = n / 2) with the scaling fused; Shoup's product
     * takes u + v < 4q as it is */
    const __m512i n0 = _mm512_set1_epi64((long long)md->ninv64[0]);
    const __m512i n1 = K_WS(_mm512_set1_epi64((long long)md->ninv64[1]));
    const __m512i n2 = _mm512_set1_epi64((long long)md->ninv64[2]);
    const __m512i n3 = K_WS(_mm512_set1_epi64((long long)md->ninv64[3]));
    for (uint32_t j = 0; j < t; j += 8) {
        __m512i u = _mm512_loadu_si512(a + j), v = _mm512_loadu_si512(a + t + j);
        __m512i x = K_SHOUP(n0, n1, _mm512_add_epi64(u, v), vq);
        __m512i y = K_SHOUP(n2, n3, _mm512_add_epi64(_mm512_sub_epi64(u, v), vq2), vq);
        if (full) {
            x = _mm512_min_epu64(x, _mm512_sub_epi64(x, vq));
            y = _mm512_min_epu64(y, _mm512_sub_epi64(y, vq));
        }
        _mm512_storeu_si512(a + j, x);
        _mm512_storeu_si512(a + t + j, y);
    }
}
