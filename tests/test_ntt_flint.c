/*
 * test_ntt_flint.c -- every backend's negacyclic product (cpim_ntt_polymul,
 * and so its forward and inverse NTT) against an independent
 * implementation: FLINT's nmod_poly_mul (the full product of degree
 * 2N - 2) followed by the reduction mod X^N + 1 (c_k - c_{k+N}), on random
 * inputs for N = 1024, 4096, 16384 and 65536, each with word (< 2^31, < 2^30)
 * and double-word (< 2^50, < 2^62) moduli in one RNS base.
 *
 * Built with FLINT when <flint/flint.h> is there (Debian libflint-dev, which
 * .ci/run installs); without it the test reports a skip.  Sizes: 2
 * polynomials up to N = 4096, 1 above (the CI budget); the pim backend only
 * up to N = 4096 (the virtual UPMEM interprets every DPU instruction).
 */
#include <stdlib.h>
#include <string.h>

#include "cryptopim.h"
#include "cryptopim_ntt.h"
#include "test.h"

#ifdef CPIM_HAVE_FLINT
#include <flint/flint.h>
#include <flint/nmod_poly.h>

static const uint64_t mods[4] = {2147352577ull, 1073479681ull, 1125899903827969ull,
                                 4611686018425815041ull};

static uint64_t rng_state = 0x2545f4914f6cdd1dull;
static uint64_t rnd(void)
{
    uint64_t x = rng_state; /* xorshift64 */
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    return rng_state = x;
}

/* FLINT's a * b mod (X^n + 1, q) */
static void flint_negacyclic(const uint64_t *a, const uint64_t *b, uint64_t *c, size_t n,
                             uint64_t q)
{
    nmod_poly_t fa, fb, fc;
    nmod_poly_init(fa, q), nmod_poly_init(fb, q), nmod_poly_init(fc, q);
    for (size_t k = 0; k < n; k++) {
        nmod_poly_set_coeff_ui(fa, (slong)k, a[k]);
        nmod_poly_set_coeff_ui(fb, (slong)k, b[k]);
    }
    nmod_poly_mul(fc, fa, fb);
    for (size_t k = 0; k < n; k++) {
        uint64_t lo = nmod_poly_get_coeff_ui(fc, (slong)k);
        uint64_t hi = nmod_poly_get_coeff_ui(fc, (slong)(k + n)); /* 0 past the degree */
        c[k] = lo >= hi ? lo - hi : lo + (q - hi);
    }
    nmod_poly_clear(fa), nmod_poly_clear(fb), nmod_poly_clear(fc);
}

static void run_flint(size_t bi, size_t ni)
{
    static const size_t sizes[4] = {1024, 4096, 16384, 65536};
    cpim_backend_info info;
    if (cpim_backend_info_at(bi, &info) != CPIM_OK) {
        CHECK(0, "backend %zu vanished", bi);
        return;
    }
    size_t n = sizes[ni], L = 4, cnt = n <= 4096 ? 2 : 1, sz = cnt * L * n;
    if (strcmp(info.name, "pim") == 0 && n > 4096) {
        test_skip("pim: N > 4096 left out (virtual UPMEM time)");
        return;
    }
    cpim_ctx *ctx;
    cpim_err rc = cpim_open(&ctx, info.name, NULL);
    if (rc != CPIM_OK) {
        test_skip("backend unavailable");
        return;
    }
    cpim_ntt *r;
    const uint64_t *m = mods;
    CHECK(cpim_ntt_create(ctx, n, m, L, &r) == CPIM_OK, "create");
    uint64_t *z = calloc(L * n, 8);
    if (cpim_ntt_forward(r, z, z, 1) == CPIM_ERR_UNSUPPORTED) {
        /* a backend without double-word moduli (pim): the word ones only */
        cpim_ntt_destroy(r);
        m = mods, L = 2, sz = cnt * L * n;
        CHECK(cpim_ntt_create(ctx, n, m, L, &r) == CPIM_OK, "create word");
        if (cpim_ntt_forward(r, z, z, 1) != CPIM_ERR_UNSUPPORTED)
            printf("# %s: double-word moduli unsupported, word moduli only\n", info.name);
    }
    free(z);
    uint64_t *a = malloc(sz * 8), *b = malloc(sz * 8), *c = malloc(sz * 8), *e = malloc(n * 8);
    for (size_t p = 0; p < cnt; p++)
        for (size_t j = 0; j < L; j++)
            for (size_t k = 0; k < n; k++) {
                size_t i = (p * L + j) * n + k;
                a[i] = rnd() % m[j], b[i] = rnd() % m[j];
            }
    a[0] = m[0] - 1, b[L * n - 1] = m[L - 1] - 1; /* the extreme values too */
    rc = cpim_ntt_polymul(r, a, b, c, cnt);
    if (rc == CPIM_ERR_UNSUPPORTED) {
        test_skip("backend has no NTT");
    } else {
        CHECK(rc == CPIM_OK, "polymul: %s", cpim_strerror(rc));
        for (size_t p = 0; p < cnt && rc == CPIM_OK; p++)
            for (size_t j = 0; j < L; j++) {
                size_t off = (p * L + j) * n;
                flint_negacyclic(a + off, b + off, e, n, m[j]);
                CHECK(!memcmp(c + off, e, n * 8), "poly %zu limb %zu (q = %llu) != FLINT", p, j,
                      (unsigned long long)m[j]);
            }
    }
    free(a), free(b), free(c), free(e);
    cpim_ntt_destroy(r);
    cpim_close(ctx);
}

__attribute__((constructor)) static void register_flint_tests(void)
{
    static const char *const nn[4] = {"1024", "4096", "16384", "65536"};
    for (size_t bi = 0; bi < cpim_backend_count(); bi++) {
        cpim_backend_info info;
        if (cpim_backend_info_at(bi, &info) != CPIM_OK)
            continue;
        for (size_t ni = 0; ni < 4; ni++) {
            char name[64];
            snprintf(name, sizeof name, "ntt_flint_%s_%s", info.name, nn[ni]);
            test_register_case(name, run_flint, bi, ni);
        }
    }
}

#else

TEST(ntt_flint)
{
    test_skip("FLINT not installed (Debian libflint-dev): no comparison with FLINT");
}

#endif
