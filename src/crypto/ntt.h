/*
 * ntt.h -- the portable negacyclic number-theoretic transform of
 * cryptopim: the reference the `cpu` backend runs on the host and the
 * arithmetic the DPU kernel (dpu/ntt*.c) may share.
 *
 * Portability: plain C99 with fixed-width types and <stdint.h> only (no libc,
 * no size_t), like the rest of src/crypto: it compiles for the host and for
 * the 32-bit DPU (clang --target=riscv32).  The word path (q < 2^31) uses
 * 32 x 32 -> 64-bit multiplies only; the double-word path (q < 2^62) needs a
 * 64 x 64 -> 128-bit product, from unsigned __int128 where the compiler has
 * it (the host), else from four 32 x 32 -> 64 partial products.
 *
 * The transform (Longa and Naehrig, "Speeding up the Number Theoretic
 * Transform for Faster Ideal Lattice-Based Cryptography", CANS 2016, Alg. 1
 * and 2; the form SEAL and HEXL use):
 *  - forward: Cooley-Tukey butterflies, natural order in, bit-reversed order
 *    out, with psi (a primitive 2N-th root of unity mod q) merged into the
 *    twiddles: out[bitrev(i)] = sum_k a[k] psi^((2i+1)k), the evaluation of
 *    a at the odd powers psi^(2i+1), the roots of X^N + 1;
 *  - inverse: Gentleman-Sande butterflies, bit-reversed order in, natural
 *    order out, times N^-1.
 * Twiddles: psi_br[i] = psi^bitrev(i) and ipsi_br[i] = psi^-bitrev(i)
 * (log2 N-bit reversal), each with its Shoup constant
 * w' = floor(w * 2^32 / q) (word) or floor(w * 2^64 / q) (double word)
 * (V. Shoup, NTL; D. Harvey, "Faster arithmetic for number-theoretic
 * transforms", J. Symb. Comp. 2014): w * y mod q for a fixed w costs two
 * multiplies and a subtraction, with a result in [0, 2q).
 *
 * Laziness: double-word butterflies keep values in [0, 4q) (forward) and
 * [0, 2q) (inverse) as Harvey does (4q < 2^64).  Word moduli may be as
 * large as 2^31, so 4q does not fit 32 bits: there values stay in [0, 2q)
 * (2q < 2^32) with one compare-and-select per add or subtract.  Both paths
 * end with a full reduction to [0, q) (the double-word ones optionally not:
 * the lazy outputs HE libraries take).  Inputs must be < q, except where a
 * function says otherwise.
 */
#ifndef CPIM_NTT_H
#define CPIM_NTT_H

#include <stdint.h>

/* ---- modular arithmetic --------------------------------------------------- */

/* Shoup constant of w < q: floor(w * 2^32 / q) (q < 2^31). */
uint32_t cpim_crypto_shoup32(uint32_t w, uint32_t q);
/* floor(w * 2^64 / q) (q < 2^62). */
uint64_t cpim_crypto_shoup64(uint64_t w, uint64_t q);

/* w * y mod q, in [0, 2q), for any y < 2^32 (ws = shoup32(w, q)). */
static inline uint32_t cpim_crypto_mulshoup32(uint32_t w, uint32_t ws, uint32_t y, uint32_t q)
{
    uint32_t qh = (uint32_t)(((uint64_t)ws * y) >> 32);
    return w * y - qh * q; /* exact mod 2^32: the true value is < 2q < 2^32 */
}

/* the high 64 bits of a * b */
static inline uint64_t cpim_crypto_mulhi64(uint64_t a, uint64_t b)
{
#ifdef __SIZEOF_INT128__
    return (uint64_t)(((unsigned __int128)a * b) >> 64);
#else
    uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;
    return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
#endif
}

/* w * y mod q, in [0, 2q), for any y < 2^64 (ws = shoup64(w, q)). */
static inline uint64_t cpim_crypto_mulshoup64(uint64_t w, uint64_t ws, uint64_t y, uint64_t q)
{
    return w * y - cpim_crypto_mulhi64(ws, y) * q;
}

/* Barrett reduction (P. Barrett, CRYPTO '86) of x < q^2 with b = bit length
 * of q and mu = floor(2^(2b) / q) (< 2^(b+1), so 32 bits for word moduli):
 * t = floor(floor(x / 2^(b-1)) * mu / 2^(b+1)) underestimates floor(x / q)
 * by at most 2, so x - t q < 3q and two conditional subtractions finish. */
static inline uint32_t cpim_crypto_barrett32(uint64_t x, uint32_t q, uint32_t mu, unsigned b)
{
    /* x >> (b-1) < 2^(b+1) <= 2^32 and mu < 2^32: one 32 x 32 -> 64 multiply */
    uint64_t t = ((uint64_t)(uint32_t)(x >> (b - 1)) * mu) >> (b + 1);
    uint64_t r = x - (uint64_t)(uint32_t)t * q; /* t <= x / q < 2^31; r < 3q, maybe >= 2^32 */
    r = r >= q ? r - q : r;
    return (uint32_t)(r >= q ? r - q : r);
}

/* a * b mod q for a, b < q < 2^31, by Barrett. */
static inline uint32_t cpim_crypto_mulmod32(uint32_t a, uint32_t b, uint32_t q, uint32_t mu,
                                            unsigned b_bits)
{
    return cpim_crypto_barrett32((uint64_t)a * b, q, mu, b_bits);
}

/* a * b mod q for a, b < q < 2^62, by Barrett (mu = floor(2^(2b) / q)). */
uint64_t cpim_crypto_mulmod64(uint64_t a, uint64_t b, uint64_t q, uint64_t mu, unsigned b_bits);

/* ---- transforms on one polynomial (n = 2^log_n coefficients, each < q) -------- */

/* In place; psi, psis: psi_br and its Shoup constants (n entries). */
void cpim_crypto_ntt_fwd32(uint32_t *a, uint32_t n, const uint32_t *psi, const uint32_t *psis,
                           uint32_t q);
/* In place; ipsi, ipsis: ipsi_br and its Shoup constants; ninv = N^-1 mod q and
 * its Shoup constant. */
void cpim_crypto_ntt_inv32(uint32_t *a, uint32_t n, const uint32_t *ipsi, const uint32_t *ipsis,
                           uint32_t q, uint32_t ninv, uint32_t ninvs);
/* Double-word transforms, in place, with HEXL's lazy ranges (ntt.h's
 * Laziness): the forward one takes inputs in [0, 4q), the inverse one in
 * [0, 2q); outputs are in [0, q) when full, else in [0, 4q) (forward) or
 * [0, 2q) (inverse).  Every q < 2^62, word moduli too (with 64-bit
 * tables).  The inverse's scaling by N^-1 is fused into its last stage:
 * ninv = {N^-1, its Shoup constant, N^-1 * ipsi[1] mod q, its Shoup
 * constant}. */
void cpim_crypto_ntt_fwd64(uint64_t *a, uint32_t n, const uint64_t *psi, const uint64_t *psis,
                           uint64_t q, int full);
void cpim_crypto_ntt_inv64(uint64_t *a, uint32_t n, const uint64_t *ipsi, const uint64_t *ipsis,
                           uint64_t q, const uint64_t ninv[4], int full);

#endif /* CPIM_NTT_H */
