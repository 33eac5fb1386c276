/*
 * ntt.c -- the portable negacyclic NTT (see ntt.h for the transform, its
 * sources and the ranges of the lazy butterflies).
 *
 * No division anywhere: the Shoup constants come from a shift-and-subtract
 * long division, so that the file needs no compiler runtime helper
 * (__udivdi3) on the 32-bit DPU.
 */
#include "ntt.h"

uint32_t cpim_crypto_shoup32(uint32_t w, uint32_t q)
{
    /* floor(w * 2^32 / q), one quotient bit per step; r < q < 2^31 so
     * r << 1 never overflows */
    uint32_t r = w, quo = 0;
    for (int i = 0; i < 32; i++) {
        r <<= 1;
        quo <<= 1;
        if (r >= q) {
            r -= q;
            quo |= 1;
        }
    }
    return quo;
}

uint64_t cpim_crypto_shoup64(uint64_t w, uint64_t q)
{
    uint64_t r = w, quo = 0; /* r < q < 2^62 */
    for (int i = 0; i < 64; i++) {
        r <<= 1;
        quo <<= 1;
        if (r >= q) {
            r -= q;
            quo |= 1;
        }
    }
    return quo;
}

/* (hi, lo) = a * b */
static inline void mul128(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
    *lo = a * b;
    *hi = cpim_crypto_mulhi64(a, b);
}

uint64_t cpim_crypto_mulmod64(uint64_t a, uint64_t b, uint64_t q, uint64_t mu, unsigned b_bits)
{
    uint64_t xh, xl, th, tl;
    mul128(a, b, &xh, &xl);                     /* x = a b < q^2 < 2^(2b) */
    unsigned s = b_bits - 1;                    /* 1 <= s <= 61 */
    uint64_t xs = (xl >> s) | (xh << (64 - s)); /* x >> (b-1) < 2^(b+1) <= 2^63 */
    mul128(xs, mu, &th, &tl);                   /* < 2^(2b+2) <= 2^126 */
    unsigned s2 = b_bits + 1;                   /* 3 <= s2 <= 63 */
    uint64_t t = (tl >> s2) | (th << (64 - s2));
    uint64_t r = xl - t * q; /* true value < 3q < 2^64: exact mod 2^64 */
    r = r >= q ? r - q : r;
    return r >= q ? r - q : r;
}

/* ---- word moduli: values in [0, 2q), 2q < 2^32 ---------------------------- */

/* x + y mod 2q for x, y < 2q, without overflowing 32 bits */
static inline uint32_t add2q(uint32_t x, uint32_t y, uint32_t q2)
{
    uint32_t d = q2 - y; /* in (0, 2q] */
    return x >= d ? x - d : x + y;
}

/* x - y mod 2q for x, y < 2q */
static inline uint32_t sub2q(uint32_t x, uint32_t y, uint32_t q2)
{
    return x >= y ? x - y : x + (q2 - y);
}

void cpim_crypto_ntt_fwd32(uint32_t *a, uint32_t n, const uint32_t *psi, const uint32_t *psis,
                           uint32_t q)
{
    uint32_t q2 = 2 * q;
    uint32_t t = n;
    for (uint32_t m = 1; m < n; m <<= 1) {
        t >>= 1;
        for (uint32_t i = 0; i < m; i++) {
            uint32_t w = psi[m + i], ws = psis[m + i];
            uint32_t *x = a + 2 * i * t, *y = x + t;
            for (uint32_t j = 0; j < t; j++) {
                uint32_t u = x[j];
                uint32_t v = cpim_crypto_mulshoup32(w, ws, y[j], q); /* [0, 2q) */
                x[j] = add2q(u, v, q2);
                y[j] = sub2q(u, v, q2);
            }
        }
    }
    for (uint32_t j = 0; j < n; j++)
        a[j] = a[j] >= q ? a[j] - q : a[j];
}

void cpim_crypto_ntt_inv32(uint32_t *a, uint32_t n, const uint32_t *ipsi, const uint32_t *ipsis,
                           uint32_t q, uint32_t ninv, uint32_t ninvs)
{
    uint32_t q2 = 2 * q;
    uint32_t t = 1;
    for (uint32_t m = n; m > 1; m >>= 1) {
        uint32_t h = m >> 1;
        for (uint32_t i = 0; i < h; i++) {
            uint32_t w = ipsi[h + i], ws = ipsis[h + i];
            uint32_t *x = a + 2 * i * t, *y = x + t;
            for (uint32_t j = 0; j < t; j++) {
                uint32_t u = x[j], v = y[j];
                x[j] = add2q(u, v, q2);
                y[j] = cpim_crypto_mulshoup32(w, ws, sub2q(u, v, q2), q);
            }
        }
        t <<= 1;
    }
    for (uint32_t j = 0; j < n; j++) {
        uint32_t r = cpim_crypto_mulshoup32(ninv, ninvs, a[j], q);
        a[j] = r >= q ? r - q : r;
    }
}

/* ---- double-word moduli: Harvey's lazy butterflies, 4q < 2^64 ---------------- */

void cpim_crypto_ntt_fwd64(uint64_t *a, uint32_t n, const uint64_t *psi, const uint64_t *psis,
                           uint64_t q, int full)
{
    uint64_t q2 = 2 * q;
    uint32_t t = n;
    for (uint32_t m = 1; m < n; m <<= 1) {
        t >>= 1;
        for (uint32_t i = 0; i < m; i++) {
            uint64_t w = psi[m + i], ws = psis[m + i];
            uint64_t *x = a + 2 * (uint64_t)i * t, *y = x + t;
            for (uint32_t j = 0; j < t; j++) {
                uint64_t u = x[j]; /* [0, 4q) */
                u = u >= q2 ? u - q2 : u;
                uint64_t v = cpim_crypto_mulshoup64(w, ws, y[j], q); /* [0, 2q) */
                x[j] = u + v;                                        /* [0, 4q) */
                y[j] = u - v + q2;                                   /* [0, 4q) */
            }
        }
    }
    if (!full)
        return;
    for (uint32_t j = 0; j < n; j++) {
        uint64_t r = a[j] >= q2 ? a[j] - q2 : a[j];
        a[j] = r >= q ? r - q : r;
    }
}

void cpim_crypto_ntt_inv64(uint64_t *a, uint32_t n, const uint64_t *ipsi, const uint64_t *ipsis,
                           uint64_t q, const uint64_t ninv[4], int full)
{
    uint64_t q2 = 2 * q;
    uint32_t t = 1;
    for (uint32_t m = n; m > 2; m >>= 1) {
        uint32_t h = m >> 1;
        for (uint32_t i = 0; i < h; i++) {
            uint64_t w = ipsi[h + i], ws = ipsis[h + i];
            uint64_t *x = a + 2 * (uint64_t)i * t, *y = x + t;
            for (uint32_t j = 0; j < t; j++) {
                uint64_t u = x[j], v = y[j]; /* [0, 2q) */
                uint64_t s = u + v;
                x[j] = s >= q2 ? s - q2 : s;
                y[j] = cpim_crypto_mulshoup64(w, ws, u - v + q2, q); /* [0, 2q) */
            }
        }
        t <<= 1;
    }
    /* the last stage (one twiddle, ipsi[1]) with the scaling by N^-1 fused:
     * x = N^-1 (u + v), y = (N^-1 ipsi[1]) (u - v); Shoup's product takes
     * any 64-bit operand, so u + v < 4q needs no correction first */
    uint64_t *x = a, *y = a + t;
    for (uint32_t j = 0; j < t; j++) {
        uint64_t u = x[j], v = y[j];
        uint64_t r = cpim_crypto_mulshoup64(ninv[0], ninv[1], u + v, q);
        uint64_t s = cpim_crypto_mulshoup64(ninv[2], ninv[3], u - v + q2, q);
        x[j] = full && r >= q ? r - q : r;
        y[j] = full && s >= q ? s - q : s;
    }
}
