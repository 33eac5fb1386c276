/*
 * ntt_tab.c -- host side of the NTT DPU program that needs no <dpu.h>: the
 * per-modulus constants and twiddle tables of dpu/ntt_args.h (also used by
 * the standalone kernel harness tests/emu/ntt_counts.c).
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
