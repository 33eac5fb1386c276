/*
 * ntt_api.c -- the NTT API of cryptopim_ntt.h: parameter checks, the plan of a
 * ring (ntt_plan.h), input checks, and the call to the backend's ntt op.
 *
 * Everything here runs once per ring (cpim_ntt_create) or is a linear pass
 * over the inputs (the coefficient check), so it is plain 64-bit code with
 * unsigned __int128 products: clarity over speed.
 */
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "core.h"
#include "cryptopim.h"
#include "cryptopim_ntt.h"
#include "engine.h"
#include "ntt_plan.h"
#include "ntt_run.h"

struct cpim_ntt {
    cpim_ctx *ctx;
    cpim_ntt_plan plan;
};

typedef unsigned __int128 u128;

static uint64_t mulmod(uint64_t a, uint64_t b, uint64_t q)
{
    return (uint64_t)((u128)a * b % q);
}

static uint64_t powmod(uint64_t a, uint64_t e, uint64_t q)
{
    uint64_t r = 1 % q;
    a %= q;
    while (e) {
        if (e & 1)
            r = mulmod(r, a, q);
        a = mulmod(a, a, q);
        e >>= 1;
    }
    return r;
}

/* Deterministic Miller-Rabin for every n < 2^64: the first 12 primes as
 * bases suffice below 3.3 * 10^24 (Sorenson and Webster, "Strong
 * pseudoprimes to twelve prime bases", Math. Comp. 86 (2017)). */
static int is_prime(uint64_t n)
{
    static const uint64_t bases[12] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37};
    if (n < 2)
        return 0;
    for (int i = 0; i < 12; i++) {
        if (n == bases[i])
            return 1;
        if (n % bases[i] == 0)
            return 0;
    }
    uint64_t d = n - 1;
    unsigned s = 0;
    while (!(d & 1))
        d >>= 1, s++;
    for (int i = 0; i < 12; i++) {
        uint64_t x = powmod(bases[i], d, n);
        if (x == 1 || x == n - 1)
            continue;
        unsigned r = 1;
        for (; r < s; r++) {
            x = mulmod(x, x, n);
            if (x == n - 1)
                break;
        }
        if (r == s)
            return 0;
    }
    return 1;
}

static unsigned bitlen(uint64_t x)
{
    unsigned b = 0;
    while (x)
        b++, x >>= 1;
    return b;
}

static uint32_t bitrev(uint32_t x, unsigned bits)
{
    uint32_t r = 0;
    for (unsigned i = 0; i < bits; i++, x >>= 1)
        r = (r << 1) | (x & 1);
    return r;
}

static uint64_t shoup(uint64_t w, uint64_t q, int word)
{
    return word ? (uint64_t)(((u128)w << 32) / q) : (uint64_t)(((u128)w << 64) / q);
}

/* The parameter checks of cryptopim_ntt.h. */
static cpim_err check_params(size_t n, const uint64_t *moduli, size_t nmod)
{
    if (n < CPIM_NTT_MIN_N || n > CPIM_NTT_MAX_N || (n & (n - 1)))
        return CPIM_ERR_NTT_PARAM;
    if (nmod < 1 || nmod > CPIM_NTT_MAX_MODULI)
        return CPIM_ERR_NTT_PARAM;
    for (size_t j = 0; j < nmod; j++) {
        uint64_t q = moduli[j];
        if (q >= (1ull << CPIM_NTT_DWORD_BITS) || q % (2 * n) != 1 || !is_prime(q))
            return CPIM_ERR_NTT_PARAM;
        for (size_t k = 0; k < j; k++)
            if (moduli[k] == q)
                return CPIM_ERR_NTT_PARAM;
    }
    return CPIM_OK;
}

/* psi: x^((q-1)/2N) for the smallest x >= 2 whose power has order 2N
 * (2N is a power of two, so order 2N <=> psi^N = -1).  Half of all x
 * qualify, so the loop ends after a few tries. */
static uint64_t find_psi(uint64_t q, size_t n)
{
    for (uint64_t x = 2;; x++) {
        uint64_t g = powmod(x, (q - 1) / (2 * n), q);
        if (powmod(g, n, q) == q - 1)
            return g;
    }
}

/* A caller's root: a primitive 2N-th root of unity mod q, i.e. psi^N = -1
 * (2N is a power of two, so that is order exactly 2N). */
static int is_psi(uint64_t psi, uint64_t q, size_t n)
{
    return psi > 1 && psi < q && powmod(psi, n, q) == q - 1;
}

static cpim_err build_plan(cpim_ntt_plan *p, size_t n, const uint64_t *moduli,
                           const uint64_t *roots, size_t nmod)
{
    memset(p, 0, sizeof *p);
    p->n = n;
    p->log_n = bitlen(n) - 1;
    p->nmod = nmod;
    size_t bytes = 0;
    for (size_t j = 0; j < nmod; j++)
        bytes += 4 * n * (moduli[j] < (1ull << CPIM_NTT_WORD_BITS) ? 4 + 8 : 8) +
                 (moduli[j] < (1ull << CPIM_NTT_SHOUP52_BITS) ? 2 * n * 8 : 0);
    uint64_t *pw = malloc(n * sizeof *pw);
    unsigned char *t = malloc(bytes);
    if (!pw || !t) {
        free(pw);
        free(t);
        return CPIM_ERR_NOMEM;
    }
    p->tables = t;
    for (size_t j = 0; j < nmod; j++) {
        cpim_ntt_mod *m = &p->mod[j];
        uint64_t q = moduli[j];
        p->q[j] = m->q = q;
        m->word = q < (1ull << CPIM_NTT_WORD_BITS);
        m->bits = bitlen(q);
        m->mu = (uint64_t)(((u128)1 << (2 * m->bits)) / q);
        m->psi_root = roots ? roots[j] : find_psi(q, n);
        m->ninv = powmod(n, q - 2, q);
        m->ninv_shoup = shoup(m->ninv, q, m->word);
        pw[0] = 1;
        for (size_t k = 1; k < n; k++)
            pw[k] = mulmod(pw[k - 1], m->psi_root, q);
        uint64_t *a = (uint64_t *)(void *)t;
        for (size_t i = 0; i < n; i++) {
            uint32_t k = bitrev((uint32_t)i, p->log_n);
            uint64_t w = pw[k], iw = k ? q - pw[n - k] : 1; /* psi^-k = -psi^(N-k) */
            a[i] = w;
            a[n + i] = shoup(w, q, 0);
            a[2 * n + i] = iw;
            a[3 * n + i] = shoup(iw, q, 0);
        }
        m->t64.psi = a, m->t64.psi_shoup = a + n;
        m->t64.ipsi = a + 2 * n, m->t64.ipsi_shoup = a + 3 * n;
        t += 4 * n * 8;
        if (q < (1ull << CPIM_NTT_SHOUP52_BITS)) {
            uint64_t *s52 = (uint64_t *)(void *)t;
            for (size_t i = 0; i < n; i++) {
                s52[i] = a[n + i] >> 12; /* nested floors */
                s52[n + i] = a[3 * n + i] >> 12;
            }
            m->t64.psi_shoup52 = s52, m->t64.ipsi_shoup52 = s52 + n;
            t += 2 * n * 8;
        }
        uint64_t nw = mulmod(m->ninv, a[2 * n + 1], q);
        m->ninv64[0] = m->ninv, m->ninv64[1] = shoup(m->ninv, q, 0);
        m->ninv64[2] = nw, m->ninv64[3] = shoup(nw, q, 0);
        if (m->word) {
            uint32_t *b = (uint32_t *)(void *)t;
            for (size_t i = 0; i < n; i++) {
                b[i] = (uint32_t)a[i];
                b[n + i] = (uint32_t)shoup(a[i], q, 1);
                b[2 * n + i] = (uint32_t)a[2 * n + i];
                b[3 * n + i] = (uint32_t)shoup(a[2 * n + i], q, 1);
            }
            m->t32.psi = b, m->t32.psi_shoup = b + n;
            m->t32.ipsi = b + 2 * n, m->t32.ipsi_shoup = b + 3 * n;
            t += 4 * n * 4;
        }
    }
    free(pw);
    return CPIM_OK;
}

cpim_err cpim_ntt_create(cpim_ctx *ctx, size_t n, const uint64_t *moduli, size_t nmoduli,
                         cpim_ntt **ring)
{
    return cpim_ntt_create_roots(ctx, n, moduli, NULL, nmoduli, ring);
}

cpim_err cpim_ntt_create_roots(cpim_ctx *ctx, size_t n, const uint64_t *moduli,
                               const uint64_t *roots, size_t nmoduli, cpim_ntt **ring)
{
    if (!ring)
        return CPIM_ERR_INVALID_ARG;
    *ring = NULL;
    if (!ctx || (nmoduli && !moduli))
        return CPIM_ERR_INVALID_ARG;
    cpim_err rc = check_params(n, moduli, nmoduli);
    if (rc != CPIM_OK)
        return rc;
    for (size_t j = 0; roots && j < nmoduli; j++)
        if (!is_psi(roots[j], moduli[j], n))
            return CPIM_ERR_NTT_PARAM;
    cpim_ntt *r = calloc(1, sizeof *r);
    if (!r)
        return CPIM_ERR_NOMEM;
    r->ctx = ctx;
    rc = build_plan(&r->plan, n, moduli, roots, nmoduli);
    if (rc != CPIM_OK) {
        free(r);
        return rc;
    }
    *ring = r;
    return CPIM_OK;
}

void cpim_ntt_destroy(cpim_ntt *ring)
{
    if (!ring)
        return;
    free(ring->plan.tables);
    free(ring);
}

/* 1 when every coefficient of the polys polynomials at p is below its limb's
 * modulus.  Branch-free on GNU C vectors, which the compiler maps to plain
 * SSE2 (which has no unsigned 64-bit compare): for x < q < 2^62, x - q wraps to
 * a number with bit 63 set, for q <= x < 2^62 it does not, so the AND of all
 * x - q has bit 63 set iff every x < q, given that no x reaches 2^62 (the OR
 * of all x checks that).  */
typedef uint64_t u64x2 __attribute__((vector_size(16))); /* GNU C vector: one SSE2 register */

static int coeffs_ok(const cpim_ntt_plan *pl, const uint64_t *p, size_t polys)
{
    for (size_t i = 0; i < polys; i++)
        for (size_t j = 0; j < pl->nmod; j++, p += pl->n) {
            uint64_t q = pl->q[j];
            u64x2 vq = {q, q}, a0 = ~(u64x2){0}, a1 = a0, o0 = {0}, o1 = o0;
            /* N >= 2: pairs; the fourfold loop for N >= 4 */
            size_t k = 0;
            for (; k + 4 <= pl->n; k += 4) {
                u64x2 x0, x1;
                memcpy(&x0, p + k, sizeof x0);
                memcpy(&x1, p + k + 2, sizeof x1);
                a0 &= x0 - vq, a1 &= x1 - vq;
                o0 |= x0, o1 |= x1;
            }
            for (; k < pl->n; k += 2) {
                u64x2 x0;
                memcpy(&x0, p + k, sizeof x0);
                a0 &= x0 - vq, o0 |= x0;
            }
            uint64_t an = a0[0] & a0[1] & a1[0] & a1[1], o = o0[0] | o0[1] | o1[0] | o1[1];
            if (!(an >> 63) || (o >> CPIM_NTT_DWORD_BITS))
                return 0;
        }
    return 1;
}

static int overlap(const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
    return a < b + nb && b < a + na;
}

static cpim_err run(cpim_ntt *ring, cpim_ntt_op op, const uint64_t *a, const uint64_t *b,
                    uint64_t *out, size_t count)
{
    if (!ring)
        return CPIM_ERR_INVALID_ARG;
    const cpim_ntt_plan *pl = &ring->plan;
    if (!cpim_engine_has(ring->ctx, CPIM_OP_NTT))
        return CPIM_ERR_UNSUPPORTED;
    int two = op != CPIM_NTT_OP_FORWARD && op != CPIM_NTT_OP_INVERSE;
    size_t in_polys = op == CPIM_NTT_OP_TENSOR ? 2 : 1;
    size_t out_polys = op == CPIM_NTT_OP_TENSOR ? 3 : 1;
    /* count * out_polys * L * N * 8 bytes must fit (the largest array) */
    size_t per = out_polys * pl->nmod * pl->n;
    if (count > SIZE_MAX / 8 / per)
        return CPIM_ERR_NTT_PARAM;
    size_t in_elems = count * in_polys * pl->nmod * pl->n;
    size_t out_elems = count * per;
    if (count && (!a || !out || (two && !b)))
        return CPIM_ERR_INVALID_ARG;
    if (count && op == CPIM_NTT_OP_TENSOR &&
        (overlap(out, out_elems, a, in_elems) || overlap(out, out_elems, b, in_elems)))
        return CPIM_ERR_INVALID_ARG;
    if (count &&
        (!coeffs_ok(pl, a, count * in_polys) || (two && !coeffs_ok(pl, b, count * in_polys))))
        return CPIM_ERR_NTT_COEFF;
    cpim_stats st;
    if (cpim_core_begin(ring->ctx, &st, in_elems * 8 * (two ? 2 : 1)) != CPIM_OK)
        return CPIM_ERR_BUSY;
    double t0 = cpim_core_now(ring->ctx);
    cpim_err rc = CPIM_OK;
    if (count)
        rc = cpim_engine_ntt(ring->ctx, pl, op, a, two ? b : NULL, out, count, &st);
    return cpim_core_finish(ring->ctx, rc, &st, t0);
}

cpim_err cpim_ntt_forward(cpim_ntt *ring, const uint64_t *in, uint64_t *out, size_t count)
{
    return run(ring, CPIM_NTT_OP_FORWARD, in, NULL, out, count);
}

cpim_err cpim_ntt_inverse(cpim_ntt *ring, const uint64_t *in, uint64_t *out, size_t count)
{
    return run(ring, CPIM_NTT_OP_INVERSE, in, NULL, out, count);
}

cpim_err cpim_ntt_pointwise(cpim_ntt *ring, const uint64_t *a, const uint64_t *b, uint64_t *out,
                            size_t count)
{
    return run(ring, CPIM_NTT_OP_POINTWISE, a, b, out, count);
}

cpim_err cpim_ntt_polymul(cpim_ntt *ring, const uint64_t *a, const uint64_t *b, uint64_t *out,
                          size_t count)
{
    return run(ring, CPIM_NTT_OP_POLYMUL, a, b, out, count);
}

cpim_err cpim_ntt_tensor(cpim_ntt *ring, const uint64_t *c, const uint64_t *d, uint64_t *out,
                         size_t count)
{
    return run(ring, CPIM_NTT_OP_TENSOR, c, d, out, count);
}

/* The one-limb path: the kernels' own entry points on the caller's buffer
 * (ntt_run.h's fwd64/inv64 contract is exactly the bounds taken here). */
static cpim_err limb(const cpim_ntt *ring, int forward, size_t j, const uint64_t *in, uint64_t *out,
                     unsigned in_bound, unsigned out_bound)
{
    if (!ring || !in || !out || j >= ring->plan.nmod)
        return CPIM_ERR_INVALID_ARG;
    const size_t n = ring->plan.n;
    if (in != out && overlap(in, n, out, n))
        return CPIM_ERR_INVALID_ARG;
    int lazy_out = forward ? 4 : 2;
    if (!(in_bound == 1 || in_bound == 2 || (forward && in_bound == 4)) ||
        !(out_bound == 1 || out_bound == (unsigned)lazy_out))
        return CPIM_ERR_INVALID_ARG;
    const cpim_ntt_kernels *k = cpim_engine_ntt_kernels(ring->ctx);
    if (!k)
        return CPIM_ERR_UNSUPPORTED;
    if (n < k->min_n)
        k = &cpim_ntt_portable_kernels;
    if (in != out)
        memcpy(out, in, n * sizeof *out);
    const cpim_ntt_mod *m = &ring->plan.mod[j];
    if (forward)
        k->fwd64(out, (uint32_t)n, m, out_bound == 1);
    else
        k->inv64(out, (uint32_t)n, m, out_bound == 1);
    return CPIM_OK;
}

cpim_err cpim_ntt_forward_limb(const cpim_ntt *ring, size_t j, const uint64_t *in, uint64_t *out,
                               unsigned in_bound, unsigned out_bound)
{
    return limb(ring, 1, j, in, out, in_bound, out_bound);
}

cpim_err cpim_ntt_inverse_limb(const cpim_ntt *ring, size_t j, const uint64_t *in, uint64_t *out,
                               unsigned in_bound, unsigned out_bound)
{
    return limb(ring, 0, j, in, out, in_bound, out_bound);
}
