/*
 * test_ntt_limb.c -- the one-limb path of cryptopim_ntt.h
 * (cpim_ntt_forward_limb / cpim_ntt_inverse_limb: HEXL's contract) on every
 * kernel it can run: `cpu`'s portable ones and `aesni`'s tiers (IFMA52 for
 * moduli below 2^50 and AVX-512DQ above; AVX-512DQ for all moduli; the
 * portable 64-bit kernels where AVX-512DQ is masked).  Every N = 2 .. 2^17,
 * moduli of 31 (a word modulus: the one-limb path runs it on 64-bit words),
 * 46, 48, 50, 51, 52, 55, 60, 61 and 62 bits (either side of each kernel's
 * limits: IFMA52's at 2^50, and the sizes up to which the AVX-512 kernels
 * leave values unreduced between stages), inputs spread over [0, k q) with
 * their largest value included, every input and output bound: full
 * outputs must equal cpu's batch call on the reduced input to the bit,
 * lazy ones must be in range and congruent.  For N <= 32 the reference
 * itself is checked against the O(N^2) definition.  Also: out of place
 * equals in place, and the arguments refused.
 *
 * Every (input bound, output bound) pair at N <= 4096; above, one pair per
 * size, in turn, to keep the test under a few seconds.
 */
#include <stdlib.h>
#include <string.h>

#include "../src/cpu/x86_cpu.h"
#include "cryptopim.h"
#include "cryptopim_ntt.h"
#include "test.h"

/* the largest prime below 2^b with q = 1 mod 2^18 (every N <= 2^17) */
static const uint64_t limb_mods[10] = {
    2146959361ull,          /* 31 bits */
    70368740769793ull,      /* 46 */
    281474975662081ull,     /* 48 */
    1125899902124033ull,    /* 50 */
    2251799807131649ull,    /* 51 */
    4503599626321921ull,    /* 52 */
    36028797005856769ull,   /* 55 */
    1152921504606584833ull, /* 60 */
    2305843009211596801ull, /* 61 */
    4611686018425815041ull, /* 62 */
};
#define NMODS     10
#define MAX_LOG_N 17

typedef unsigned __int128 u128;

static uint64_t lrng = 0x2545f4914f6cdd1dull;
static uint64_t lrnd(void)
{
    lrng ^= lrng << 13, lrng ^= lrng >> 7, lrng ^= lrng << 17; /* xorshift64 */
    return lrng;
}

static uint64_t lpow(uint64_t a, uint64_t e, uint64_t q)
{
    uint64_t r = 1;
    for (; e; e >>= 1, a = (uint64_t)((u128)a * a % q))
        if (e & 1)
            r = (uint64_t)((u128)r * a % q);
    return r;
}

/* the forward NTT by its definition: out[bitrev(i)] = sum a_k psi^((2i+1)k) */
static int matches_definition(const uint64_t *a, const uint64_t *o, size_t n, unsigned logn,
                              uint64_t q)
{
    uint64_t psi = 0;
    for (uint64_t b = 2; !psi; b++) {
        uint64_t c = lpow(b, (q - 1) / (2 * n), q);
        if (lpow(c, n, q) == q - 1)
            psi = c;
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t w = lpow(psi, 2 * i + 1, q), e = 0, wk = 1;
        for (size_t k = 0; k < n; k++, wk = (uint64_t)((u128)wk * w % q))
            e = (uint64_t)((e + (u128)a[k] * wk) % q);
        size_t r = 0;
        for (unsigned b = 0; b < logn; b++)
            r |= ((i >> b) & 1) << (logn - 1 - b);
        if (o[r] != e)
            return 0;
    }
    return 1;
}

/* count of values of got not in [0, bound q) or not = want mod q */
static size_t bad_values(const uint64_t *got, const uint64_t *want, size_t n, uint64_t q,
                         unsigned bound)
{
    size_t bad = 0;
    for (size_t k = 0; k < n; k++)
        bad += got[k] >= bound * q || got[k] % q != want[k];
    return bad;
}

/* the kernels of the one-limb path: tier 0..3 of aesni, 4 = cpu */
static const char *const limb_tier_name[5] = {"ifma", "dq", "portable64", "avx2", "cpu"};

static void limb_tier(size_t tier, size_t unused)
{
    (void)unused;
    static const unsigned masks[4] = {~0u, ~(unsigned)CPIM_X86_IFMA,
                                      ~(unsigned)(CPIM_X86_IFMA | CPIM_X86_AVX512DQ),
                                      ~(unsigned)CPIM_X86_AVX512};
    const char *name = tier == 4 ? "cpu" : "aesni";
    cpim_ctx *ctx, *ref;
    if (cpim_open(&ctx, name, NULL) != CPIM_OK) {
        test_skip("backend unavailable");
        return;
    }
    if (cpim_open(&ref, "cpu", NULL) != CPIM_OK) {
        cpim_close(ctx);
        CHECK(0, "cpu does not open");
        return;
    }
    unsigned old = cpim_x86_set_mask(tier < 4 ? masks[tier] : ~0u);
    const size_t nmax = (size_t)1 << MAX_LOG_N;
    uint64_t *in = malloc(nmax * 8), *red = malloc(nmax * 8), *want = malloc(nmax * 8);
    uint64_t *got = malloc(nmax * 8), *tmp = malloc(nmax * 8);
    static const unsigned fwd_pairs[6][2] = {{1, 1}, {2, 4}, {4, 1}, {1, 4}, {2, 1}, {4, 4}};
    static const unsigned inv_pairs[4][2] = {{1, 1}, {2, 2}, {2, 1}, {1, 2}};
    unsigned turn = 0;
    for (unsigned logn = 1; logn <= MAX_LOG_N; logn++) {
        const size_t n = (size_t)1 << logn;
        cpim_ntt *r, *rr;
        CHECK(cpim_ntt_create(ctx, n, limb_mods, NMODS, &r) == CPIM_OK, "create n %zu", n);
        CHECK(cpim_ntt_create(ref, n, limb_mods, NMODS, &rr) == CPIM_OK, "ref create n %zu", n);
        for (size_t j = 0; j < NMODS; j++) {
            const uint64_t q = limb_mods[j];
            const size_t all = n <= 4096;
            for (size_t pi = 0; pi < 6 + 4; pi++) {
                if (!all && pi != turn % 10)
                    continue;
                const int fwd = pi < 6;
                const unsigned ib = fwd ? fwd_pairs[pi][0] : inv_pairs[pi - 6][0];
                const unsigned ob = fwd ? fwd_pairs[pi][1] : inv_pairs[pi - 6][1];
                /* inputs in [0, ib q), the largest one included */
                for (size_t k = 0; k < n; k++)
                    in[k] = lrnd() % (ib * q);
                in[lrnd() % n] = ib * q - 1;
                /* the reference: cpu's batch call (limb j of an otherwise zero
                 * polynomial) on the reduced input */
                uint64_t *batch = calloc(NMODS * n, 8);
                for (size_t k = 0; k < n; k++)
                    batch[j * n + k] = red[k] = in[k] % q;
                cpim_err rc = fwd ? cpim_ntt_forward(rr, batch, batch, 1)
                                  : cpim_ntt_inverse(rr, batch, batch, 1);
                CHECK(rc == CPIM_OK, "reference: %s", cpim_strerror(rc));
                memcpy(want, batch + j * n, n * 8);
                free(batch);
                if (fwd && n <= 32)
                    CHECK(matches_definition(red, want, n, logn, q),
                          "reference n %zu q %llu: not the definition", n, (unsigned long long)q);
                /* in place */
                memcpy(got, in, n * 8);
                rc = fwd ? cpim_ntt_forward_limb(r, j, got, got, ib, ob)
                         : cpim_ntt_inverse_limb(r, j, got, got, ib, ob);
                CHECK(rc == CPIM_OK, "%s limb: %s", fwd ? "forward" : "inverse", cpim_strerror(rc));
                if (ob == 1)
                    CHECK(!memcmp(got, want, n * 8),
                          "%s n %zu q %llu bounds %u/%u: full outputs differ from cpu's",
                          fwd ? "forward" : "inverse", n, (unsigned long long)q, ib, ob);
                else
                    CHECK(!bad_values(got, want, n, q, ob),
                          "%s n %zu q %llu bounds %u/%u: %zu lazy outputs out of range or "
                          "not congruent",
                          fwd ? "forward" : "inverse", n, (unsigned long long)q, ib, ob,
                          bad_values(got, want, n, q, ob));
                /* out of place: the same values, the input untouched */
                memcpy(red, in, n * 8);
                rc = fwd ? cpim_ntt_forward_limb(r, j, in, tmp, ib, ob)
                         : cpim_ntt_inverse_limb(r, j, in, tmp, ib, ob);
                CHECK(rc == CPIM_OK && !memcmp(tmp, got, n * 8) && !memcmp(in, red, n * 8),
                      "n %zu: out of place differs from in place", n);
            }
            turn++;
        }
        cpim_ntt_destroy(r);
        cpim_ntt_destroy(rr);
    }
    cpim_x86_set_mask(old);
    free(in), free(red), free(want), free(got), free(tmp);
    cpim_close(ref);
    cpim_close(ctx);
}

__attribute__((constructor)) static void register_limb_tests(void)
{
    for (size_t t = 0; t < 5; t++) {
        char name[64];
        snprintf(name, sizeof name, "ntt_limb_%s", limb_tier_name[t]);
        test_register_case(name, limb_tier, t, 0);
    }
}

/* what the one-limb path refuses, and pim's answer */
TEST(ntt_limb_args)
{
    cpim_ctx *ctx;
    if (cpim_open(&ctx, "auto", NULL) != CPIM_OK) {
        CHECK(0, "auto does not open");
        return;
    }
    cpim_ntt *r;
    uint64_t a[64] = {0};
    CHECK(cpim_ntt_create(ctx, 16, limb_mods, 2, &r) == CPIM_OK, "create");
    CHECK(cpim_ntt_forward_limb(NULL, 0, a, a, 1, 1) == CPIM_ERR_INVALID_ARG, "NULL ring");
    CHECK(cpim_ntt_forward_limb(r, 0, NULL, a, 1, 1) == CPIM_ERR_INVALID_ARG, "NULL in");
    CHECK(cpim_ntt_inverse_limb(r, 0, a, NULL, 1, 1) == CPIM_ERR_INVALID_ARG, "NULL out");
    CHECK(cpim_ntt_forward_limb(r, 2, a, a, 1, 1) == CPIM_ERR_INVALID_ARG, "limb 2 of 2");
    CHECK(cpim_ntt_forward_limb(r, 0, a, a + 8, 1, 1) == CPIM_ERR_INVALID_ARG, "overlap");
    CHECK(cpim_ntt_forward_limb(r, 0, a, a + 16, 1, 1) == CPIM_OK, "adjacent");
    CHECK(cpim_ntt_forward_limb(r, 0, a, a, 3, 1) == CPIM_ERR_INVALID_ARG, "forward in 3");
    CHECK(cpim_ntt_forward_limb(r, 0, a, a, 8, 1) == CPIM_ERR_INVALID_ARG, "forward in 8");
    CHECK(cpim_ntt_forward_limb(r, 0, a, a, 1, 2) == CPIM_ERR_INVALID_ARG, "forward out 2");
    CHECK(cpim_ntt_inverse_limb(r, 0, a, a, 4, 1) == CPIM_ERR_INVALID_ARG, "inverse in 4");
    CHECK(cpim_ntt_inverse_limb(r, 0, a, a, 1, 4) == CPIM_ERR_INVALID_ARG, "inverse out 4");
    CHECK(cpim_ntt_inverse_limb(r, 1, a, a, 2, 2) == CPIM_OK, "inverse 2/2");
    cpim_ntt_destroy(r);
    cpim_close(ctx);
    /* the DPUs have no host kernels: the caller takes cpim_ntt_forward */
    if (cpim_open(&ctx, "pim", NULL) == CPIM_OK) {
        CHECK(cpim_ntt_create(ctx, 16, limb_mods, 2, &r) == CPIM_OK, "pim create");
        CHECK(cpim_ntt_forward_limb(r, 0, a, a, 1, 1) == CPIM_ERR_UNSUPPORTED, "pim forward");
        CHECK(cpim_ntt_inverse_limb(r, 0, a, a, 1, 1) == CPIM_ERR_UNSUPPORTED, "pim inverse");
        cpim_ntt_destroy(r);
        cpim_close(ctx);
    }
}
