/*
 * test_ntt.c -- the NTT API (cryptopim_ntt.h): parameter and
 * input errors, and on every backend that has the op (cpu, aesni's x86
 * vector kernels in each tier, auto, pim once wired): INTT(NTT(x)) = x, the
 * bit-reversed evaluation order and the choice of psi, products of known
 * polynomials (x^(N-1) * x = -1, all-(q-1) squares, zero), a schoolbook
 * negacyclic product at N = 1024, pointwise and tensor against polymul, and
 * identical bytes across backends.  The comparison with FLINT, an
 * independent implementation, is test_ntt_flint.c.
 *
 * Sizes stay small (N <= 4096, a few polynomials; one polynomial of 2^17
 * and one of 2^20 points for the largest rings): the CI budget, and the
 * pim backend runs on the virtual UPMEM.
 */
#include <stdlib.h>
#include <string.h>

#include "../src/cpu/x86_cpu.h"
#include "cryptopim.h"
#include "cryptopim_ntt.h"
#include "test.h"

/* NTT primes = 1 mod 2^17 (every N up to 65536) of each size */
#define W31 2147352577ull          /* < 2^31 */
#define W30 1073479681ull          /* < 2^30 */
#define D50 1125899903827969ull    /* < 2^50 */
#define D62 4611686018425815041ull /* < 2^62 */

static const uint64_t mods4[4] = {W31, D62, W30, D50};
/* for a backend that refuses double-word moduli (CPIM_ERR_UNSUPPORTED) */
static const uint64_t mods_word[2] = {W31, W30};

typedef unsigned __int128 u128;

static uint64_t mulm(uint64_t a, uint64_t b, uint64_t q)
{
    return (uint64_t)((u128)a * b % q);
}

static uint64_t powm(uint64_t a, uint64_t e, uint64_t q)
{
    uint64_t r = 1;
    for (; e; e >>= 1, a = mulm(a, a, q))
        if (e & 1)
            r = mulm(r, a, q);
    return r;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)
{
    uint64_t x = rng_state; /* xorshift64 */
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    return rng_state = x;
}

/* a batch of count polynomials, uniform below each modulus */
static uint64_t *rand_batch(size_t count, size_t n, const uint64_t *m, size_t L)
{
    uint64_t *p = malloc(count * L * n * sizeof *p);
    for (size_t i = 0; i < count; i++)
        for (size_t j = 0; j < L; j++)
            for (size_t k = 0; k < n; k++)
                p[(i * L + j) * n + k] = rnd() % m[j];
    return p;
}

/* ---- parameter and input errors --------------------------------------------------- */

TEST(ntt_params)
{
    cpim_ctx *ctx;
    if (cpim_open(&ctx, "cpu", NULL) != CPIM_OK) {
        CHECK(0, "open cpu");
        return;
    }
    cpim_ntt *r = (cpim_ntt *)1;
    const uint64_t w = W31;
    static const size_t bad_n[] = {0, 1, 3, 1000, 1536, 2097152};
    for (size_t i = 0; i < sizeof bad_n / sizeof bad_n[0]; i++) {
        CHECK(cpim_ntt_create(ctx, bad_n[i], &w, 1, &r) == CPIM_ERR_NTT_PARAM, "n %zu", bad_n[i]);
        CHECK(r == NULL, "ring set on error");
    }
    /* not prime (6145 = 5 * 1229; 503369729 = 12289 * 40961, no factor a
     * trial division by small primes finds), not 1 mod 2N (2^31 - 1 is
     * prime), too large (a prime = 1 mod 2048 above 2^62), 0, 1, 2 */
    static const uint64_t bad_q[] = {
        6145, 503369729ull, 2147483647ull, 4611686018427457537ull, 0, 1, 2, W31 + 2048};
    for (size_t i = 0; i < sizeof bad_q / sizeof bad_q[0]; i++)
        CHECK(cpim_ntt_create(ctx, 1024, &bad_q[i], 1, &r) == CPIM_ERR_NTT_PARAM, "q %llu",
              (unsigned long long)bad_q[i]);
    /* 12289 = 3 * 2^12 + 1: fine up to N = 2048, not at 4096 */
    const uint64_t small = 12289;
    CHECK(cpim_ntt_create(ctx, 2048, &small, 1, &r) == CPIM_OK, "12289 at N = 2048");
    cpim_ntt_destroy(r);
    CHECK(cpim_ntt_create(ctx, 4096, &small, 1, &r) == CPIM_ERR_NTT_PARAM, "12289 at N = 4096");
    const uint64_t dup[2] = {W31, W31};
    CHECK(cpim_ntt_create(ctx, 1024, dup, 2, &r) == CPIM_ERR_NTT_PARAM, "duplicate moduli");
    CHECK(cpim_ntt_create(ctx, 1024, dup, 0, &r) == CPIM_ERR_NTT_PARAM, "no moduli");
    uint64_t many[CPIM_NTT_MAX_MODULI + 1];
    for (size_t i = 0; i <= CPIM_NTT_MAX_MODULI; i++)
        many[i] = W31;
    CHECK(cpim_ntt_create(ctx, 1024, many, CPIM_NTT_MAX_MODULI + 1, &r) == CPIM_ERR_NTT_PARAM,
          "17 moduli");
    CHECK(cpim_ntt_create(NULL, 1024, &w, 1, &r) == CPIM_ERR_INVALID_ARG, "NULL ctx");
    CHECK(cpim_ntt_create(ctx, 1024, NULL, 1, &r) == CPIM_ERR_INVALID_ARG, "NULL moduli");
    CHECK(cpim_ntt_create(ctx, 1024, &w, 1, NULL) == CPIM_ERR_INVALID_ARG, "NULL ring");

    /* inputs: every op refuses a coefficient = q (in a or in b) and writes nothing */
    size_t n = 1024;
    CHECK(cpim_ntt_create(ctx, n, mods4, 4, &r) == CPIM_OK, "create 4 moduli");
    if (!r) {
        cpim_close(ctx);
        return;
    }
    size_t L = 4, elems = 2 * L * n;
    uint64_t *a = calloc(elems, 8), *b = calloc(elems, 8), *o = calloc(3 * L * n, 8);
    for (size_t j = 0; j < L; j++) {
        memset(a, 0, elems * 8);
        a[(1 * L + j) * n + 7] = mods4[j]; /* poly 1, limb j */
        memset(o, 0xab, 3 * L * n * 8);
        CHECK(cpim_ntt_forward(r, a, o, 2) == CPIM_ERR_NTT_COEFF, "forward, limb %zu", j);
        CHECK(cpim_ntt_inverse(r, a, o, 2) == CPIM_ERR_NTT_COEFF, "inverse, limb %zu", j);
        CHECK(cpim_ntt_pointwise(r, b, a, o, 2) == CPIM_ERR_NTT_COEFF, "pointwise b");
        CHECK(cpim_ntt_polymul(r, a, b, o, 2) == CPIM_ERR_NTT_COEFF, "polymul a");
        CHECK(cpim_ntt_tensor(r, b, a, o, 1) == CPIM_ERR_NTT_COEFF, "tensor d");
        CHECK(o[0] == 0xababababababababull && o[3 * L * n - 1] == 0xababababababababull,
              "output written on error");
        a[(1 * L + j) * n + 7] = ~0ull; /* >= 2^62: also refused */
        CHECK(cpim_ntt_forward(r, a, o, 2) == CPIM_ERR_NTT_COEFF, "2^64 - 1, limb %zu", j);
        a[(1 * L + j) * n + 7] = mods4[j] - 1;
        CHECK(cpim_ntt_forward(r, a, o, 2) == CPIM_OK, "q - 1 accepted, limb %zu", j);
    }
    CHECK(cpim_ntt_forward(r, NULL, o, 1) == CPIM_ERR_INVALID_ARG, "NULL in");
    CHECK(cpim_ntt_polymul(r, a, NULL, o, 1) == CPIM_ERR_INVALID_ARG, "NULL b");
    CHECK(cpim_ntt_forward(r, NULL, NULL, 0) == CPIM_OK, "count 0");
    CHECK(cpim_ntt_forward(NULL, a, o, 1) == CPIM_ERR_INVALID_ARG, "NULL ring");
    CHECK(cpim_ntt_forward(r, a, o, SIZE_MAX / 8) == CPIM_ERR_NTT_PARAM, "size overflow");
    CHECK(cpim_ntt_tensor(r, a, b, o, (SIZE_MAX / 8) / (3 * L * n) + 1) == CPIM_ERR_NTT_PARAM,
          "tensor size overflow");
    CHECK(cpim_ntt_tensor(r, a, b, a, 1) == CPIM_ERR_INVALID_ARG, "tensor out overlaps c");
    /* statistics: bytes of the inputs */
    cpim_stats st;
    CHECK(cpim_ntt_polymul(r, b, b, o, 2) == CPIM_OK, "polymul");
    CHECK(cpim_last_stats(ctx, &st) == CPIM_OK && st.bytes == 2 * elems * 8, "stats bytes %llu",
          (unsigned long long)st.bytes);
    free(a), free(b), free(o);
    cpim_ntt_destroy(r);
    cpim_ntt_destroy(NULL);
    cpim_close(ctx);
}

/* Every backend has the op (cpu-table and shani run cpu's portable code): each available
 * one transforms X to cpu's bytes (the per-backend cases below test them in depth). */
TEST(ntt_every_backend)
{
    const uint64_t w = W31;
    uint64_t x[1024] = {0}, want[1024], got[1024];
    x[1] = 1;
    cpim_ctx *cpu;
    cpim_ntt *r;
    CHECK(cpim_open(&cpu, "cpu", NULL) == CPIM_OK &&
              cpim_ntt_create(cpu, 1024, &w, 1, &r) == CPIM_OK &&
              cpim_ntt_forward(r, x, want, 1) == CPIM_OK,
          "cpu");
    cpim_ntt_destroy(r);
    cpim_close(cpu);
    for (size_t i = 0; i < cpim_backend_count(); i++) {
        cpim_backend_info info;
        cpim_ctx *ctx;
        /* (pim: tests/test_pim_ntt.c, on a small virtual machine) */
        if (cpim_backend_info_at(i, &info) != CPIM_OK || !info.available ||
            strcmp(info.name, "pim") == 0 || cpim_open(&ctx, info.name, NULL) != CPIM_OK)
            continue;
        memset(got, 0, sizeof got);
        cpim_err rc = cpim_ntt_create(ctx, 1024, &w, 1, &r);
        if (rc == CPIM_OK)
            rc = cpim_ntt_forward(r, x, got, 1);
        CHECK(rc == CPIM_OK && !memcmp(got, want, sizeof got), "%s: %s", info.name,
              cpim_strerror(rc));
        cpim_ntt_destroy(r);
        cpim_close(ctx);
    }
}

/* ---- per backend ------------------------------------------------------------------ */

/* schoolbook a * b mod (X^n + 1, q) */
static void negacyclic(const uint64_t *a, const uint64_t *b, uint64_t *c, size_t n, uint64_t q)
{
    for (size_t k = 0; k < n; k++)
        c[k] = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            uint64_t t = mulm(a[i], b[j], q);
            size_t k = i + j;
            if (k < n)
                c[k] = (c[k] + t) % q;
            else
                c[k - n] = (c[k - n] + q - t) % q;
        }
}

static unsigned bitrev(unsigned x, unsigned bits)
{
    unsigned r = 0;
    for (unsigned i = 0; i < bits; i++, x >>= 1)
        r = (r << 1) | (x & 1);
    return r;
}

/* the tiers of aesni's kernels: all features, AVX2 only, none */
static const unsigned tier_mask[3] = {~0u, ~(unsigned)CPIM_X86_AVX512,
                                      ~(unsigned)(CPIM_X86_AVX512 | CPIM_X86_AVX2)};
static const char *const tier_name[3] = {"", "-avx2", "-scalar"};

/* cpu's forward and polymul of the 4-modulus N = 1024 batch, the bytes every
 * other backend must reproduce */
static void run_backend(const char *name, unsigned tier)
{
    cpim_ctx *ctx;
    cpim_err rc = cpim_open(&ctx, name, NULL);
    if (rc != CPIM_OK) {
        test_skip(rc == CPIM_ERR_UNAVAILABLE ? "backend unavailable" : "backend does not open");
        return;
    }
    unsigned old = cpim_x86_set_mask(tier_mask[tier]);
    const size_t sizes[2] = {1024, 4096};
    const uint64_t *mods4_ = mods4;
    size_t L = 4;
    for (size_t si = 0; si < 2; si++) {
        size_t n = sizes[si], cnt = 3, sz = cnt * L * n;
        unsigned logn = si ? 12 : 10;
        cpim_ntt *r;
        CHECK(cpim_ntt_create(ctx, n, mods4_, L, &r) == CPIM_OK, "create n %zu", n);
        if (si == 0) { /* word moduli only where the backend refuses double-word ones */
            uint64_t z[4 * 1024] = {0};
            if (cpim_ntt_forward(r, z, z, 1) == CPIM_ERR_UNSUPPORTED) {
                cpim_ntt_destroy(r);
                mods4_ = mods_word, L = 2, sz = cnt * L * n;
                CHECK(cpim_ntt_create(ctx, n, mods4_, L, &r) == CPIM_OK, "create word n %zu", n);
                if (cpim_ntt_forward(r, z, z, 1) != CPIM_ERR_UNSUPPORTED)
                    printf("# %s: double-word moduli unsupported, word moduli only\n", name);
            }
        }
        uint64_t *x = rand_batch(cnt, n, mods4_, L), *y = rand_batch(cnt, n, mods4_, L);
        uint64_t *f = malloc(sz * 8), *g = malloc(sz * 8), *h = malloc(sz * 8);
        rc = cpim_ntt_forward(r, x, f, cnt);
        if (rc == CPIM_ERR_UNSUPPORTED) {
            test_skip("backend has no NTT");
            free(x), free(y), free(f), free(g), free(h);
            cpim_ntt_destroy(r);
            break;
        }
        CHECK(rc == CPIM_OK, "forward: %s", cpim_strerror(rc));
        /* INTT(NTT(x)) = x, out of place and in place */
        CHECK(cpim_ntt_inverse(r, f, g, cnt) == CPIM_OK, "inverse");
        CHECK_MEM(g, x, sz * 8, "INTT(NTT(x))");
        memcpy(g, x, sz * 8);
        CHECK(cpim_ntt_forward(r, g, g, cnt) == CPIM_OK && !memcmp(g, f, sz * 8),
              "forward in place");
        CHECK(cpim_ntt_inverse(r, g, g, cnt) == CPIM_OK && !memcmp(g, x, sz * 8),
              "inverse in place");
        /* NTT(X): out[bitrev(i)] = psi^(2i+1), psi = x^((q-1)/2N) for the
         * smallest x whose power has order 2N */
        memset(g, 0, sz * 8);
        for (size_t j = 0; j < L; j++)
            g[j * n + 1] = 1;
        CHECK(cpim_ntt_forward(r, g, h, 1) == CPIM_OK, "forward X");
        for (size_t j = 0; j < L; j++) {
            uint64_t q = mods4_[j], psi = 0;
            for (uint64_t b = 2; !psi; b++) {
                uint64_t c = powm(b, (q - 1) / (2 * n), q);
                if (powm(c, n, q) == q - 1)
                    psi = c;
            }
            int bad = 0;
            for (unsigned i = 0; i < n; i++)
                bad += h[j * n + bitrev(i, logn)] != powm(psi, 2 * i + 1, q);
            CHECK(!bad, "NTT(X) limb %zu: %d values not psi^(2i+1) in bit-reversed order", j, bad);
        }
        /* X^(N-1) * X = -1; (-1 - X - ... - X^(N-1))^2: c_k = 2k + 2 - N; 0 * y = 0 */
        memset(g, 0, sz * 8);
        memset(h, 0, sz * 8);
        for (size_t j = 0; j < L; j++)
            g[j * n + n - 1] = 1, h[j * n + 1] = 1;
        CHECK(cpim_ntt_polymul(r, g, h, f, 1) == CPIM_OK, "polymul");
        for (size_t j = 0; j < L; j++) {
            int bad = f[j * n] != mods4_[j] - 1;
            for (size_t k = 1; k < n; k++)
                bad += f[j * n + k] != 0;
            CHECK(!bad, "X^(N-1) * X != -1, limb %zu", j);
        }
        for (size_t j = 0; j < L; j++)
            for (size_t k = 0; k < n; k++)
                g[j * n + k] = mods4_[j] - 1;
        CHECK(cpim_ntt_polymul(r, g, g, f, 1) == CPIM_OK, "polymul q-1");
        for (size_t j = 0; j < L; j++) {
            int bad = 0;
            for (size_t k = 0; k < n; k++) {
                int64_t v = 2 * (int64_t)k + 2 - (int64_t)n;
                uint64_t e = v >= 0 ? (uint64_t)v : mods4_[j] - (uint64_t)-v;
                bad += f[j * n + k] != e;
            }
            CHECK(!bad, "(q-1)-polynomial squared, limb %zu: %d wrong", j, bad);
        }
        memset(h, 0, sz * 8);
        CHECK(cpim_ntt_polymul(r, x, h, f, cnt) == CPIM_OK, "polymul 0");
        CHECK_MEM(f, h, sz * 8, "x * 0");
        /* polymul against the schoolbook product (N = 1024, one polynomial) */
        CHECK(cpim_ntt_polymul(r, x, y, f, cnt) == CPIM_OK, "polymul x y");
        if (n == 1024)
            for (size_t j = 0; j < L; j++) {
                negacyclic(x + j * n, y + j * n, g, n, mods4_[j]);
                CHECK_MEM(f + j * n, g, n * 8, "polymul vs schoolbook");
            }
        /* INTT(NTT(x) .* NTT(y)) = polymul */
        CHECK(cpim_ntt_forward(r, x, g, cnt) == CPIM_OK && cpim_ntt_forward(r, y, h, cnt) == 0,
              "forward x, y");
        CHECK(cpim_ntt_pointwise(r, g, h, g, cnt) == CPIM_OK, "pointwise");
        CHECK(cpim_ntt_inverse(r, g, g, cnt) == CPIM_OK, "inverse");
        CHECK_MEM(g, f, sz * 8, "INTT(NTT(x) . NTT(y)) vs polymul");
        /* in place: out == a */
        memcpy(g, x, sz * 8);
        CHECK(cpim_ntt_polymul(r, g, y, g, cnt) == CPIM_OK, "polymul in place");
        CHECK_MEM(g, f, sz * 8, "polymul in place");
        /* tensor of 1 ciphertext pair (c = polys 0, 1 of x; d = of y) */
        uint64_t *t = malloc(3 * L * n * 8), *u = malloc(2 * L * n * 8);
        CHECK(cpim_ntt_tensor(r, x, y, t, 1) == CPIM_OK, "tensor");
        CHECK_MEM(t, f, L * n * 8, "tensor c0 d0");
        memcpy(u, y + L * n, L * n * 8); /* d1 */
        memcpy(u + L * n, y, L * n * 8); /* d0 */
        CHECK(cpim_ntt_polymul(r, x, u, u, 2) == CPIM_OK, "c0 d1, c1 d0");
        for (size_t j = 0; j < L; j++)
            for (size_t k = 0; k < n; k++) {
                size_t i = j * n + k;
                u[i] = (u[i] + u[L * n + i]) % mods4_[j];
            }
        CHECK_MEM(t + L * n, u, L * n * 8, "tensor c0 d1 + c1 d0");
        CHECK_MEM(t + 2 * L * n, f + L * n, L * n * 8, "tensor c1 d1");
        /* every backend, same bytes as cpu */
        cpim_ctx *ref;
        cpim_ntt *rr;
        if (cpim_open(&ref, "cpu", NULL) == CPIM_OK) {
            CHECK(cpim_ntt_create(ref, n, mods4_, L, &rr) == CPIM_OK, "ref create");
            CHECK(cpim_ntt_forward(rr, x, g, cnt) == CPIM_OK, "ref forward");
            CHECK(cpim_ntt_forward(r, x, h, cnt) == CPIM_OK, "forward");
            CHECK_MEM(h, g, sz * 8, "forward = cpu's");
            cpim_ntt_destroy(rr);
            cpim_close(ref);
        }
        free(t), free(u), free(x), free(y), free(f), free(g), free(h);
        cpim_ntt_destroy(r);
    }
    cpim_x86_set_mask(old);
    cpim_close(ctx);
}

static void run_case(size_t bi, size_t tier)
{
    cpim_backend_info info;
    if (cpim_backend_info_at(bi, &info) != CPIM_OK) {
        CHECK(0, "backend %zu vanished", bi);
        return;
    }
    run_backend(info.name, (unsigned)tier);
}

__attribute__((constructor)) static void register_ntt_tests(void)
{
    for (size_t bi = 0; bi < cpim_backend_count(); bi++) {
        cpim_backend_info info;
        if (cpim_backend_info_at(bi, &info) != CPIM_OK)
            continue;
        /* the vector tiers are aesni's; the others run once */
        size_t tiers = strcmp(info.name, "aesni") == 0 ? 3 : 1;
        for (size_t t = 0; t < tiers; t++) {
            char name[64];
            snprintf(name, sizeof name, "ntt_backend_%s%s", info.name, tier_name[t]);
            test_register_case(name, run_case, bi, t);
        }
    }
}

/* ---- small and large rings ------------------------------------------------------------ */

/* Rings of N = 2 .. 512 on every NTT path: cpu, aesni's three tiers (the
 * vector kernels hand rings below two vectors to the portable code), auto,
 * and pim (which runs them on the host: no modeled time).  Word, IFMA-range
 * and 62-bit moduli, three polynomials: forward against the O(N^2)
 * definition (psi^(2i+1) at bitrev(i)), INTT(NTT(x)) = x, polymul against
 * the schoolbook product, the tensor against polymul. */
static void small_rings(const char *name, unsigned tier)
{
    cpim_ctx *ctx;
    if (cpim_open(&ctx, name, NULL) != CPIM_OK) {
        CHECK(0, "%s: does not open", name);
        return;
    }
    unsigned old = cpim_x86_set_mask(tier_mask[tier]);
    const size_t L = 4, cnt = 3;
    for (unsigned logn = 1; logn <= 9; logn++) {
        const size_t n = (size_t)1 << logn, sz = cnt * L * n;
        cpim_ntt *r;
        cpim_err rc = cpim_ntt_create(ctx, n, mods4, L, &r);
        CHECK(rc == CPIM_OK, "%s: create n %zu: %s", name, n, cpim_strerror(rc));
        if (rc != CPIM_OK)
            break;
        uint64_t *x = rand_batch(cnt, n, mods4, L), *y = rand_batch(cnt, n, mods4, L);
        uint64_t *f = malloc(sz * 8), *g = malloc(sz * 8), *t = malloc(3 * L * n * 8);
        CHECK(cpim_ntt_forward(r, x, f, cnt) == CPIM_OK, "%s n %zu: forward", name, n);
        int bad = 0;
        for (size_t p = 0; p < cnt; p++)
            for (size_t j = 0; j < L; j++) {
                uint64_t q = mods4[j], psi = 0;
                for (uint64_t b = 2; !psi; b++) {
                    uint64_t c = powm(b, (q - 1) / (2 * n), q);
                    if (powm(c, n, q) == q - 1)
                        psi = c;
                }
                const uint64_t *a = x + (p * L + j) * n, *o = f + (p * L + j) * n;
                for (size_t i = 0; i < n; i++) {
                    uint64_t w = powm(psi, 2 * i + 1, q), e = 0, wk = 1;
                    for (size_t k = 0; k < n; k++, wk = mulm(wk, w, q))
                        e = (e + mulm(a[k], wk, q)) % q;
                    bad += o[bitrev((unsigned)i, logn)] != e;
                }
            }
        CHECK(!bad, "%s n %zu: %d values differ from the definition", name, n, bad);
        CHECK(cpim_ntt_inverse(r, f, g, cnt) == CPIM_OK, "%s n %zu: inverse", name, n);
        CHECK(!memcmp(g, x, sz * 8), "%s n %zu: INTT(NTT(x))", name, n);
        CHECK(cpim_ntt_polymul(r, x, y, f, cnt) == CPIM_OK, "%s n %zu: polymul", name, n);
        for (size_t p = 0; p < cnt; p++)
            for (size_t j = 0; j < L; j++) {
                size_t at = (p * L + j) * n;
                negacyclic(x + at, y + at, g, n, mods4[j]);
                CHECK(!memcmp(f + at, g, n * 8), "%s n %zu: polymul vs schoolbook", name, n);
            }
        CHECK(cpim_ntt_tensor(r, x, y, t, 1) == CPIM_OK, "%s n %zu: tensor", name, n);
        CHECK(!memcmp(t, f, L * n * 8), "%s n %zu: tensor c0 d0", name, n);
        CHECK(!memcmp(t + 2 * L * n, f + L * n, L * n * 8), "%s n %zu: tensor c1 d1", name, n);
        cpim_stats st;
        CHECK(cpim_last_stats(ctx, &st) == CPIM_OK && !st.has_modeled,
              "%s n %zu: a modeled time for a host computation", name, n);
        free(x), free(y), free(f), free(g), free(t);
        cpim_ntt_destroy(r);
    }
    cpim_x86_set_mask(old);
    cpim_close(ctx);
}

TEST(ntt_small_rings_cpu)
{
    small_rings("cpu", 0);
}
TEST(ntt_small_rings_aesni)
{
    for (unsigned tier = 0; tier < 3; tier++)
        small_rings("aesni", tier);
}
TEST(ntt_small_rings_auto)
{
    small_rings("auto", 0);
}
TEST(ntt_small_rings_pim)
{
    small_rings("pim", 0);
}

/* N = 2^17 .. 2^20 (HEXL's largest rings; pim runs them on the host):
 * INTT(NTT(x)) = x, NTT(X) = psi^(2i+1) at bitrev(i), and auto's bytes =
 * cpu's, with a word and a 62-bit modulus = 1 mod 2^21. */
TEST(ntt_large_rings)
{
    static const uint64_t mods[2] = {2130706433ull, 4611686018326724609ull};
    static const char *const names[3] = {"cpu", "auto", "pim"};
    cpim_ctx *ctx[3];
    for (int b = 0; b < 3; b++)
        CHECK(cpim_open(&ctx[b], names[b], NULL) == CPIM_OK, "open %s", names[b]);
    for (unsigned logn = 17; logn <= 20; logn += 3) {
        const size_t n = (size_t)1 << logn, sz = 2 * n;
        uint64_t *x = rand_batch(1, n, mods, 2), *f[3], *g = malloc(sz * 8);
        for (int b = 0; b < 3; b++) {
            cpim_ntt *r;
            f[b] = calloc(sz, 8);
            CHECK(cpim_ntt_create(ctx[b], n, mods, 2, &r) == CPIM_OK, "%s n %zu", names[b], n);
            CHECK(cpim_ntt_forward(r, x, f[b], 1) == CPIM_OK &&
                      cpim_ntt_inverse(r, f[b], g, 1) == 0,
                  "%s n %zu: forward, inverse", names[b], n);
            CHECK(!memcmp(g, x, sz * 8), "%s n %zu: INTT(NTT(x))", names[b], n);
            if (b == 0) {
                memset(g, 0, sz * 8);
                g[1] = g[n + 1] = 1;
                CHECK(cpim_ntt_forward(r, g, g, 1) == CPIM_OK, "forward X");
                int bad = 0;
                for (size_t j = 0; j < 2; j++) {
                    uint64_t q = mods[j], psi = 0;
                    for (uint64_t c = 2; !psi; c++) {
                        uint64_t v = powm(c, (q - 1) / (2 * n), q);
                        if (powm(v, n, q) == q - 1)
                            psi = v;
                    }
                    uint64_t w = psi, w2 = mulm(psi, psi, q);
                    for (size_t i = 0; i < n; i++, w = mulm(w, w2, q))
                        bad += g[j * n + bitrev((unsigned)i, logn)] != w;
                }
                CHECK(!bad, "n %zu: NTT(X): %d values not psi^(2i+1)", n, bad);
            } else {
                CHECK(!memcmp(f[b], f[0], sz * 8), "%s n %zu: = cpu's", names[b], n);
            }
            cpim_ntt_destroy(r);
        }
        for (int b = 0; b < 3; b++)
            free(f[b]);
        free(x), free(g);
    }
    for (int b = 0; b < 3; b++)
        cpim_close(ctx[b]);
}

/* cpim_ntt_create_roots: the caller's psi.  With psi' = psi^3 (also a
 * primitive 2N-th root), forward(X) is psi'^(2i+1) at position bitrev(i) and
 * inverse(forward(x)) = x, on the CPU backends and pim; roots that are not
 * primitive 2N-th roots (1, q - 1, a square root of psi) are refused. */
TEST(ntt_caller_roots)
{
    static const char *backends[] = {"cpu", "auto", "pim"};
    const size_t n = 1024;
    const uint64_t mods[2] = {W31, D62};
    for (size_t bi = 0; bi < sizeof backends / sizeof *backends; bi++) {
        cpim_ctx *ctx;
        if (cpim_open(&ctx, backends[bi], NULL) != CPIM_OK) {
            CHECK(0, "%s: not available", backends[bi]);
            continue;
        }
        cpim_ntt *dflt = NULL, *r = NULL;
        /* the default psi of each modulus: forward(X)[bitrev(0)] = psi */
        size_t L = strcmp(backends[bi], "pim") == 0 ? 1 : 2; /* pim: word moduli */
        uint64_t *x = calloc(L * n, 8), *y = calloc(L * n, 8), *z = calloc(L * n, 8);
        for (size_t j = 0; j < L; j++)
            x[j * n + 1] = 1;
        CHECK(cpim_ntt_create(ctx, n, mods, L, &dflt) == CPIM_OK, "%s: create", backends[bi]);
        CHECK(dflt && cpim_ntt_forward(dflt, x, y, 1) == CPIM_OK, "%s: forward", backends[bi]);
        uint64_t roots[2], bad[2];
        for (size_t j = 0; j < L; j++) {
            roots[j] = powm(y[j * n], 3, mods[j]);
            bad[j] = roots[j];
        }
        CHECK(cpim_ntt_create_roots(ctx, n, mods, roots, L, &r) == CPIM_OK, "%s: create_roots",
              backends[bi]);
        CHECK(r && cpim_ntt_forward(r, x, y, 1) == CPIM_OK, "%s: forward psi^3", backends[bi]);
        int ok = 1;
        for (size_t j = 0; j < L; j++)
            for (size_t i = 0; i < n; i++) {
                unsigned br = 0;
                for (unsigned b = 0, v = (unsigned)i; b < 10; b++, v >>= 1)
                    br = (br << 1) | (v & 1);
                ok &= y[j * n + br] == powm(roots[j], 2 * i + 1, mods[j]);
            }
        CHECK(ok, "%s: forward(X) = psi'^(2i+1), bit-reversed", backends[bi]);
        CHECK(r && cpim_ntt_inverse(r, y, z, 1) == CPIM_OK && memcmp(z, x, L * n * 8) == 0,
              "%s: inverse(forward(x)) = x with psi'", backends[bi]);
        /* back to the default ring on the same context: its own psi again
         * (pim keeps twiddle tables on the DPUs between calls) */
        CHECK(dflt && cpim_ntt_forward(dflt, x, z, 1) == CPIM_OK, "%s: forward", backends[bi]);
        for (size_t j = 0; j < L; j++)
            CHECK(powm(z[j * n], 3, mods[j]) == roots[j],
                  "%s: the default ring after the other: psi^3 = psi'", backends[bi]);
        CHECK(r && cpim_ntt_forward(r, x, y, 1) == CPIM_OK && y[0] == roots[0],
              "%s: and psi' again", backends[bi]);
        cpim_ntt_destroy(r);
        for (size_t j = 0; j < L; j++) {
            uint64_t q = mods[j], cands[3] = {1, q - 1, 0};
            /* a square root of psi has order 4N: not a 2N-th root */
            for (uint64_t g = 2; !cands[2]; g++) {
                uint64_t s = powm(g, (q - 1) / (4 * n), q);
                if (powm(s, 2 * n, q) == q - 1)
                    cands[2] = s;
            }
            for (size_t c = 0; c < 3; c++) {
                memcpy(bad, roots, sizeof bad);
                bad[j] = cands[c];
                r = (cpim_ntt *)1;
                CHECK(cpim_ntt_create_roots(ctx, n, mods, bad, L, &r) == CPIM_ERR_NTT_PARAM && !r,
                      "%s: root %zu of limb %zu refused", backends[bi], c, j);
            }
        }
        CHECK(cpim_ntt_create_roots(ctx, n, mods, NULL, L, &r) == CPIM_OK, "NULL roots");
        cpim_ntt_destroy(r);
        cpim_ntt_destroy(dflt);
        free(x), free(y), free(z);
        cpim_close(ctx);
    }
}
