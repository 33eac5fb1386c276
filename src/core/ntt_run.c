/*
 * ntt_run.c -- the NTT ops on the host on per-polynomial kernels (see
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

void cpim_ntt_mul32_portable(uint32_t *a, const uint32_t *b, uint32_t n, uint32_t q, uint32_t mu,
                             unsigned bits)
{
    for (uint32_t c = 0; c < n; c++)
        a[c] = cpim_crypto_mulmod32(a[c], b[c], q, mu, bits);
}

void cpim_ntt_narrow_portable(uint32_t *d, const uint64_t *s, uint32_t n)
{
    for (uint32_t c = 0; c < n; c++)
        d[c] = (uint32_t)s[c];
}

void cpim_ntt_widen_portable(uint64_t *d, const uint32_t *s, uint32_t n)
{
    for (uint32_t c = 0; c < n; c++)
        d[c] = s[c];
}

void cpim_ntt_fwd64_portable(uint64_t *a, uint32_t n, const cpim_ntt_mod *m, int full)
{
    cpim_crypto_ntt_fwd64(a, n, m->t64.psi, m->t64.psi_shoup, m->q, full);
}

void cpim_ntt_inv64_portable(uint64_t *a, uint32_t n, const cpim_ntt_mod *m, int full)
{
    cpim_crypto_ntt_inv64(a, n, m->t64.ipsi, m->t64.ipsi_shoup, m->q, m->ninv64, full);
}

const cpim_ntt_kernels cpim_ntt_portable_kernels = {
    .min_n = 2,
    .fwd32 = cpim_crypto_ntt_fwd32,
    .inv32 = cpim_crypto_ntt_inv32,
    .fwd64 = cpim_ntt_fwd64_portable,
    .inv64 = cpim_ntt_inv64_portable,
    .mul32 = cpim_ntt_mul32_portable,
    .narrow = cpim_ntt_narrow_portable,
    .widen = cpim_ntt_widen_portable,
};

struct job {
    const cpim_ntt_kernels *k;
    const cpim_ntt_plan *pl;
    cpim_ntt_op op;
    const uint64_t *a, *b;
    uint64_t *out;
    atomic_int nomem;
};

/* Work items of smaller rings are grouped so that a thread's share holds at
 * least this many points: a thread is started for a 1024-point transform
 * and up, not for a handful of 2-point ones. */
#define GRAIN_N 1024u

/* Scratch of one thread: 5 polynomials of 64-bit words (enough for 32-bit
 * ones too). */
#define NBUF 5

#define load32(d, s, n)  k->narrow(d, s, (uint32_t)(n))
#define store32(d, s, n) k->widen(d, s, (uint32_t)(n))

static void item32(const struct job *jb, size_t it, uint32_t *buf)
{
    const cpim_ntt_plan *pl = jb->pl;
    const cpim_ntt_kernels *k = jb->k;
    size_t n = pl->n, L = pl->nmod, j = it % L;
    const cpim_ntt_mod *m = &pl->mod[j];
    uint32_t q = (uint32_t)m->q, mu = (uint32_t)m->mu;
    unsigned bits = m->bits;
    uint32_t *A = buf, *B = buf + n; /* C, D, E: the tensor's (scratch_polys) */
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
    case CPIM_NTT_OP_POINTWISE:
        load32(A, jb->a + it * n, n);
        load32(B, jb->b + it * n, n);
        k->mul32(A, B, nn, q, mu, bits);
        store32(jb->out + it * n, A, n);
        break;
    case CPIM_NTT_OP_POLYMUL:
        load32(A, jb->a + it * n, n);
        load32(B, jb->b + it * n, n);
        FWD(A);
        FWD(B);
        k->mul32(A, B, nn, q, mu, bits);
        INV(A);
        store32(jb->out + it * n, A, n);
        break;
    case CPIM_NTT_OP_TENSOR: {
        uint32_t *C = buf + 2 * n, *D = buf + 3 * n, *E = buf + 4 * n;
        size_t i = it / L;
        load32(A, jb->a + ((2 * i) * L + j) * n, n);
        load32(B, jb->a + ((2 * i + 1) * L + j) * n, n);
        load32(C, jb->b + ((2 * i) * L + j) * n, n);
        load32(D, jb->b + ((2 * i + 1) * L + j) * n, n);
        FWD(A), FWD(B), FWD(C), FWD(D);
        memcpy(E, A, n * sizeof *E);
        k->mul32(E, D, nn, q, mu, bits); /* c0 d1 */
        k->mul32(A, C, nn, q, mu, bits); /* c0 d0 */
        k->mul32(C, B, nn, q, mu, bits); /* c1 d0 */
        k->mul32(B, D, nn, q, mu, bits); /* c1 d1 */
        for (size_t c = 0; c < n; c++) { /* c0 d1 + c1 d0, both < q < 2^31 */
            uint32_t s = C[c] + E[c];
            C[c] = s >= q ? s - q : s;
        }
        INV(A), INV(C), INV(B);
        store32(jb->out + ((3 * i) * L + j) * n, A, n);
        store32(jb->out + ((3 * i + 1) * L + j) * n, C, n);
        store32(jb->out + ((3 * i + 2) * L + j) * n, B, n);
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
    uint64_t *A = buf, *B = buf + n; /* C, D: the tensor's (scratch_polys) */
    uint32_t nn = (uint32_t)n;
    size_t sz = n * sizeof *A;
#define FWD(x) k->fwd64(x, nn, m, 1)
#define INV(x) k->inv64(x, nn, m, 1)
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
        uint64_t *C = buf + 2 * n, *D = buf + 3 * n;
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

/* The scratch polynomials an op uses (64-bit words; word limbs use the
 * first half of them as 32-bit ones): a transform needs one, a product
 * two, the tensor NBUF.  No more than that, so that one-polynomial calls
 * (HEXL's, SEAL's) stay in the allocator's heap and the caches. */
static size_t scratch_polys(cpim_ntt_op op)
{
    switch (op) {
    case CPIM_NTT_OP_FORWARD:
    case CPIM_NTT_OP_INVERSE:
        return 1;
    case CPIM_NTT_OP_POINTWISE:
    case CPIM_NTT_OP_POLYMUL:
        return 2;
    case CPIM_NTT_OP_TENSOR:
        break;
    }
    return NBUF;
}

static void range(void *arg, size_t begin, size_t end)
{
    struct job *jb = arg;
    const size_t words = scratch_polys(jb->op) * jb->pl->n;
    uint64_t *buf = malloc(words * sizeof *buf);
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
    /* the polynomials may be secret (an HE secret key times a ciphertext) */
    cpim_wipe(buf, words * sizeof *buf);
    free(buf);
}

cpim_err cpim_ntt_run(const cpim_ntt_kernels *k, unsigned threads, const cpim_ntt_plan *plan,
                      cpim_ntt_op op, const uint64_t *a, const uint64_t *b, uint64_t *out,
                      size_t count)
{
    if (plan->n < k->min_n)
        k = &cpim_ntt_portable_kernels;
    struct job jb = {k, plan, op, a, b, out, 0};
    /* an item of GRAIN_N points or more is worth a thread's start-up;
     * smaller rings take as many items per share */
    const size_t grain = plan->n >= GRAIN_N ? 1 : GRAIN_N / plan->n;
    /* CPIM_ERR_THREAD still means all the work was done (in the caller). */
    (void)cpim_parallel_for(threads, count * plan->nmod, grain, range, &jb);
    return atomic_load(&jb.nomem) ? CPIM_ERR_NOMEM : CPIM_OK;
}
