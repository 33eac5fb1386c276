/*
 * ntt_tab.c -- host side of the NTT DPU program that needs no <dpu.h>: the
 * per-modulus constants and twiddle tables of dpu/ntt_args.h, for both
 * programs (also used by the standalone kernel harness tests/emu/ntt_counts.c).
 */
#include "ntt_tab.h"

static uint32_t mulmod(uint32_t a, uint32_t b, uint32_t q)
{
    return (uint32_t)((uint64_t)a * b % q);
}

static uint32_t powmod(uint32_t a, uint64_t e, uint32_t q)
{
    uint32_t r = 1 % q;
    for (; e; e >>= 1, a = mulmod(a, a, q))
        if (e & 1)
            r = mulmod(r, a, q);
    return r;
}

static uint32_t shoup(uint32_t w, uint32_t q)
{
    return (uint32_t)(((uint64_t)w << 32) / q);
}

static uint32_t bitrev(uint32_t x, unsigned bits)
{
    uint32_t r = 0;
    for (unsigned i = 0; i < bits; i++, x >>= 1)
        r = r << 1 | (x & 1u);
    return r;
}

void cpim_pim_ntt_tab(uint32_t q, uint32_t psi, unsigned log_n, struct ntt_limb *l, uint32_t *fwd,
                      uint32_t *inv)
{
    const uint32_t n = 1u << log_n, ipsi = powmod(psi, q - 2, q);
    /* -q^-1 mod 2^32 by Newton's iteration (q odd) */
    uint32_t x = q;
    for (int i = 0; i < 5; i++)
        x *= 2u - q * x;
    const uint32_t r1 = (uint32_t)((1ull << 32) % q), ninv = powmod(n, q - 2, q);
    l->q = q;
    l->qinv = 0u - x;
    l->r1 = r1, l->r1p = shoup(r1, q);
    l->ninv = ninv, l->ninvp = shoup(ninv, q);
    l->ninvr = mulmod(ninv, r1, q), l->ninvrp = shoup(l->ninvr, q);
    const uint32_t w1 = powmod(ipsi, bitrev(1, log_n), q);
    l->lastw = mulmod(w1, ninv, q), l->lastwp = shoup(l->lastw, q);
    l->lastwr = mulmod(w1, l->ninvr, q), l->lastwrp = shoup(l->lastwr, q);
    if (!fwd)
        return;
    fwd[0] = fwd[1] = inv[0] = inv[1] = 0;
    /* psi^k and psi^-k for k < n, then placed in bit-reversed order */
    uint32_t pw = 1, ipw = 1;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t r = bitrev(k, log_n);
        fwd[2 * r] = pw, fwd[2 * r + 1] = shoup(pw, q);
        inv[2 * r] = ipw, inv[2 * r + 1] = shoup(ipw, q);
        pw = mulmod(pw, psi, q), ipw = mulmod(ipw, ipsi, q);
    }
}

/* ---- double-word moduli (q < 2^62) ------------------------------------------------ */

typedef unsigned __int128 u128;

static uint64_t mulmod64(uint64_t a, uint64_t b, uint64_t q)
{
    return (uint64_t)((u128)a * b % q);
}

static uint64_t powmod64(uint64_t a, uint64_t e, uint64_t q)
{
    uint64_t r = 1 % q;
    for (; e; e >>= 1, a = mulmod64(a, a, q))
        if (e & 1)
            r = mulmod64(r, a, q);
    return r;
}

static uint64_t shoup64(uint64_t w, uint64_t q)
{
    return (uint64_t)(((u128)w << 64) / q);
}

void cpim_pim_ntt_tab64(uint64_t q, uint64_t psi, unsigned log_n, struct ntt_limb64 *l,
                        uint64_t *fwd, uint64_t *inv)
{
    const uint64_t n = 1ull << log_n, ipsi = powmod64(psi, q - 2, q);
    /* -q^-1 mod 2^64 by Newton's iteration (q odd; each step doubles the bits) */
    uint64_t x = q;
    for (int i = 0; i < 6; i++)
        x *= 2u - q * x;
    const uint64_t r1 = (uint64_t)(((u128)1 << 64) % q), ninv = powmod64(n, q - 2, q);
    l->q = q;
    l->qinv = 0u - x;
    l->r1 = r1, l->r1p = shoup64(r1, q);
    l->ninv = ninv, l->ninvp = shoup64(ninv, q);
    l->ninvr = mulmod64(ninv, r1, q), l->ninvrp = shoup64(l->ninvr, q);
    const uint64_t w1 = powmod64(ipsi, bitrev(1, log_n), q);
    l->lastw = mulmod64(w1, ninv, q), l->lastwp = shoup64(l->lastw, q);
    l->lastwr = mulmod64(w1, l->ninvr, q), l->lastwrp = shoup64(l->lastwr, q);
    if (!fwd)
        return;
    fwd[0] = fwd[1] = inv[0] = inv[1] = 0;
    uint64_t pw = 1, ipw = 1;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t r = bitrev(k, log_n);
        fwd[2 * r] = pw, fwd[2 * r + 1] = shoup64(pw, q);
        inv[2 * r] = ipw, inv[2 * r + 1] = shoup64(ipw, q);
        pw = mulmod64(pw, psi, q), ipw = mulmod64(ipw, ipsi, q);
    }
}
