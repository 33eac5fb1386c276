/*
 * ntt_run.c -- the CPU backends' NTT ops on per-polynomial kernels (see
 * ntt_run.h).
 *
 * Work item = one (batch element, limb) pair: for POLYMUL the forward
 * transforms of a and b, their product and the inverse transform of one
 * limb; for TENSOR the 4 forward transforms, 3 products and 3 inverse
 * transforms of one limb of one ciphertext pair.  Word limbs are copied into
 * 32-bit scratch (half the memory traffic of the uint64_t batch layout, and
 * the form the 32-bit kernels take), double-word limbs into 64-bit scratch:
 * the inputs are read completely before the output is written, which is
 * what makes in == out safe.  Pointwise products use Barrett reduction with
 * the plan's constants (src/crypto/ntt.h).
 */
#include "ntt_run.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "ntt.h"
#include "parallel.h"

const cpim_ntt_kernels cpim_ntt_portable_kernels = {
    .fwd32 = cpim_crypto_ntt_fwd32,
    .inv32 = cpim_crypto_ntt_inv32,
    .fwd64 = cpim_crypto_ntt_fwd64,
    .inv64 = cpim_crypto_ntt_inv64,
};

struct job {
    const cpim_ntt_kernels *k;
    const cpim_ntt_plan *pl;
    cpim_ntt_op op;
    const uint64_t *a, *b;
    uint64_t *out;
    atomic_int nomem;
};

/* Scratch of one thread: 4 polynomials of 64-bit words (enough for 32-bit
 * ones too). */
#define NBUF 4

static void load32(uint32_t *d, const uint64_t *s, size_t n)
{
    for (size_t k = 0; k < n; k++)
        d[k] = (uint32_t)s[k];
}

static void store32(uint64_t *d, const uint32_t *s, size_t n)
{
    for (size_t k = 0; k < n; k++)
        d[k] = s[k];
}

static void item32(const struct job *jb, size_t it, uint32_t *buf)
{
    const cpim_ntt_plan *pl = jb->pl;
    const cpim_ntt_kernels *k = jb->k;
    size_t n = pl->n, L = pl->nmod, j = it % L;
    const cpim_ntt_mod *m = &pl->mod[j];
    uint32_t q = (uint32_t)m->q, mu = (uint32_t)m->mu;
    unsigned bits = m->bits;
    uint32_t *A = buf, *B = buf + n, *C = buf + 2 * n, *D = buf + 3 * n;
    uint32_t nn = (uint32_t)n;
#define FWD(x) k->fwd32(x, nn, m->t32.psi, m->t32.psi_shoup, q)
#define INV(x)                                                                                     \
    k->inv32(x, nn, m->t32.ipsi, m->t32.ipsi_shoup, q, (uint32_t)m->ninv, (uint32_t)m->ninv_shoup)
    switch (jb->op) {
    case CPIM_NTT_OP_FORWARD:
    case CPIM_NTT_OP_INVERSE:
        load32(A, jb->a + it * n, n);
        if (jb->op == CPIM_NTT_OP_FORWARD)
            FWD(A);
        else
            INV(A);
        store32(jb->out + it * n, A, n);
        break;
    case CPIM_NTT_OP_POINTWISE: {
        const uint64_t *a = jb->a + it * n, *b = jb->b + it * n;
        uint64_t *o = jb->out + it * n;
        for (size_t c = 0; c < n; c++)
            o[c] = cpim_crypto_mulmod32((uint32_t)a[c], (uint32_t)b[c], q, mu, bits);
        break;
    }
    case CPIM_NTT_OP_POLYMUL:
        load32(A, jb->a + it * n, n);
        load32(B, jb->b + it * n, n);
        FWD(A);
        FWD(B);
        for (size_t c = 0; c < n; c++)
            A[c] = cpim_crypto_mulmod32(A[c], B[c], q, mu, bits);
        INV(A);
        store32(jb->out + it * n, A, n);
        break;
    case CPIM_NTT_OP_TENSOR: {
        size_t i = it / L;
        load32(A, jb->a + ((2 * i) * L + j) * n, n);
        load32(B, jb->a + ((2 * i + 1) * L + j) * n, n);
        load32(C, jb->b + ((2 * i) * L + j) * n, n);
        load32(D, jb->b + ((2 * i + 1) * L + j) * n, n);
        FWD(A), FWD(B), FWD(C), FWD(D);
        for (size_t c = 0; c < n; c++) {
            uint32_t c0 = A[c], c1 = B[c], d0 = C[c], d1 = D[c];
            uint32_t x = cpim_crypto_mulmod32(c0, d1, q, mu, bits);
            uint32_t y = cpim_crypto_mulmod32(c1, d0, q, mu, bits);
            A[c] = cpim_crypto_mulmod32(c0, d0, q, mu, bits);
            B[c] = x >= q - y ? x - (q - y) : x + y;
            C[c] = cpim_crypto_mulmod32(c1, d1, q, mu, bits);
        }
        INV(A), INV(B), INV(C);
        store32(jb->out + ((3 * i) * L + j) * n, A, n);
        store32(jb->out + ((3 * i + 1) * L + j) * n, B, n);
        store32(jb->out + ((3 * i + 2) * L + j) * n, C, n);
        break;
    }
    }
#undef FWD
#undef INV
}

static void item64(const struct job *jb, size_t it, uint64_t *buf)
{
    const cpim_ntt_plan *pl = jb->pl;
    const cpim_ntt_kernels *k = jb->k;
    size_t n = pl->n, L = pl->nmod, j = it % L;
    const cpim_ntt_mod *m = &pl->mod[j];
    uint64_t q = m->q, mu = m->mu;
    unsigned bits = m->bits;
    uint64_t *A = buf, *B = buf + n, *C = buf + 2 * n, *D = buf + 3 * n;
    uint32_t nn = (uint32_t)n;
    size_t sz = n * sizeof *A;
#define FWD(x) k->fwd64(x, nn, m->t64.psi, m->t64.psi_shoup, q)
#define INV(x) k->inv64(x, nn, m->t64.ipsi, m->t64.ipsi_shoup, q, m->ninv, m->ninv_shoup)
    switch (jb->op) {
    case CPIM_NTT_OP_FORWARD:
    case CPIM_NTT_OP_INVERSE:
        memcpy(A, jb->a + it * n, sz);
        if (jb->op == CPIM_NTT_OP_FORWARD)
            FWD(A);
        else
            INV(A);
        memcpy(jb->out + it * n, A, sz);
        break;
    case CPIM_NTT_OP_POINTWISE: {
        const uint64_t *a = jb->a + it * n, *b = jb->b + it * n;
        uint64_t *o = jb->out + it * n;
        for (size_t c = 0; c < n; c++)
            o[c] = cpim_crypto_mulmod64(a[c], b[c], q, mu, bits);
        break;
    }
    case CPIM_NTT_OP_POLYMUL:
        memcpy(A, jb->a + it * n, sz);
        memcpy(B, jb->b + it * n, sz);
        FWD(A);
        FWD(B);
        for (size_t c = 0; c < n; c++)
            A[c] = cpim_crypto_mulmod64(A[c], B[c], q, mu, bits);
        INV(A);
        memcpy(jb->out + it * n, A, sz);
        break;
    case CPIM_NTT_OP_TENSOR: {
        size_t i = it / L;
        memcpy(A, jb->a + ((2 * i) * L + j) * n, sz);
        memcpy(B, jb->a + ((2 * i + 1) * L + j) * n, sz);
        memcpy(C, jb->b + ((2 * i) * L + j) * n, sz);
        memcpy(D, jb->b + ((2 * i + 1) * L + j) * n, sz);
        FWD(A), FWD(B), FWD(C), FWD(D);
        for (size_t c = 0; c < n; c++) {
            uint64_t c0 = A[c], c1 = B[c], d0 = C[c], d1 = D[c];
            uint64_t x = cpim_crypto_mulmod64(c0, d1, q, mu, bits);
            uint64_t y = cpim_crypto_mulmod64(c1, d0, q, mu, bits);
            A[c] = cpim_crypto_mulmod64(c0, d0, q, mu, bits);
            B[c] = x >= q - y ? x - (q - y) : x + y;
            C[c] = cpim_crypto_mulmod64(c1, d1, q, mu, bits);
        }
        INV(A), INV(B), INV(C);
        memcpy(jb->out + ((3 * i) * L + j) * n, A, sz);
        memcpy(jb->out + ((3 * i + 1) * L + j) * n, B, sz);
        memcpy(jb->out + ((3 * i + 2) * L + j) * n, C, sz);
        break;
    }
    }
#undef FWD
#undef INV
}

static void range(void *arg, size_t begin, size_t end)
{
    struct job *jb = arg;
    uint64_t *buf = malloc(NBUF * jb->pl->n * sizeof *buf);
    if (!buf) {
        atomic_store(&jb->nomem, 1);
        return;
    }
    for (size_t it = begin; it < end; it++) {
        if (jb->pl->mod[it % jb->pl->nmod].word)
            item32(jb, it, (uint32_t *)(void *)buf);
        else
            item64(jb, it, buf);
    }
    free(buf);
}

cpim_err cpim_ntt_run(const cpim_ntt_kernels *k, unsigned threads, const cpim_ntt_plan *plan,
                      cpim_ntt_op op, const uint64_t *a, const uint64_t *b, uint64_t *out,
                      size_t count)
{
    struct job jb = {k, plan, op, a, b, out, 0};
    /* one item is at least a 1024-point transform (~10 us): grain 1 */
    /* CPIM_ERR_THREAD still means all the work was done (in the caller). */
    (void)cpim_parallel_for(threads, count * plan->nmod, 1, range, &jb);
    return atomic_load(&jb.nomem) ? CPIM_ERR_NOMEM : CPIM_OK;
}
