/*
 * test_pim_ntt.c -- the pim backend's NTT (src/pim/pim_ntt.c, dpu/ntt.c) against
 * the cpu backend on small virtual machines: every op, batches that do not
 * divide evenly over the DPUs, 1..24 tasklets, both tasklet schedules, WRAM
 * blocks that need up to 5 passes, the three host modes with several rounds,
 * the twiddle tables kept across calls (and resent after another ring or
 * program), double-word moduli (the ntt64 program), timing-only runs.  Kept
 * small for CI: N = 1024 (one double-word case at 4096), a handful of
 * polynomials per case.
 */
#include <stdlib.h>
#include <string.h>

#include "cryptopim.h"
#include "cryptopim_ntt.h"
#include "test.h"

static int is_prime(uint64_t q)
{
    if (q < 2)
        return 0;
    for (uint64_t d = 2; d * d <= q; d++)
        if (q % d == 0)
            return 0;
    return 1;
}

/* count primes = 1 mod 2n below 2^bits, from the top, skipping `skip` */
static void primes(size_t n, unsigned bits, size_t skip, size_t count, uint64_t *out)
{
    uint64_t q = ((1ull << bits) - 1) / (2 * n) * (2 * n) + 1;
    for (size_t k = 0; k < skip + count; q -= 2 * n)
        if (q < (1ull << bits) && is_prime(q)) {
            if (k >= skip)
                out[k - skip] = q;
            k++;
        }
}

static cpim_ctx *open_pim(unsigned dpus, unsigned tasklets, cpim_pim_mode mode, const char *profile,
                          int timing_only)
{
    cpim_options o;
    cpim_options_init(&o);
    o.dpus = dpus;
    o.ranks = dpus ? 0 : 2;
    o.tasklets = tasklets;
    o.mode = mode;
    o.profile = profile;
    o.timing_only = timing_only;
    cpim_ctx *ctx = NULL;
    cpim_err rc = cpim_open(&ctx, "pim", &o);
    CHECK(rc == CPIM_OK, "open pim (%s, %u tasklets): %s", profile ? profile : "-", tasklets,
          cpim_strerror(rc));
    return ctx;
}

static void fill(uint64_t *seed, uint64_t *x, size_t polys, size_t n, const uint64_t *q, size_t L)
{
    for (size_t p = 0; p < polys; p++)
        for (size_t j = 0; j < L; j++)
            for (size_t k = 0; k < n; k++) {
                uint64_t v = test_rand(seed) % q[j];
                x[(p * L + j) * n + k] = k == 0 ? q[j] - 1 : k == 1 ? 0 : v; /* the edges */
            }
}

static const char *const op_names[] = {"forward", "inverse", "pointwise", "polymul", "tensor"};

static cpim_err run_op(cpim_ntt *r, int op, const uint64_t *a, const uint64_t *b, uint64_t *out,
                       size_t count)
{
    switch (op) {
    case 0:
        return cpim_ntt_forward(r, a, out, count);
    case 1:
        return cpim_ntt_inverse(r, a, out, count);
    case 2:
        return cpim_ntt_pointwise(r, a, b, out, count);
    case 3:
        return cpim_ntt_polymul(r, a, b, out, count);
    default:
        return cpim_ntt_tensor(r, a, b, out, count);
    }
}

/* One op on pim and cpu, same inputs; 1 when both agree. */
static int same(cpim_ctx *pim, cpim_ctx *cpu, size_t n, const uint64_t *q, size_t L, int op,
                size_t count, uint64_t *seed, const char *what)
{
    cpim_ntt *rp = NULL, *rc = NULL;
    cpim_err e1 = cpim_ntt_create(pim, n, q, L, &rp), e2 = cpim_ntt_create(cpu, n, q, L, &rc);
    CHECK(e1 == CPIM_OK && e2 == CPIM_OK, "%s: rings: %s / %s", what, cpim_strerror(e1),
          cpim_strerror(e2));
    const size_t in_polys = op == 4 ? 2 * count : count, out_polys = op == 4 ? 3 * count : count;
    uint64_t *a = malloc(in_polys * L * n * 8), *b = malloc(in_polys * L * n * 8);
    uint64_t *x = malloc(out_polys * L * n * 8), *y = malloc(out_polys * L * n * 8);
    fill(seed, a, in_polys, n, q, L);
    fill(seed, b, in_polys, n, q, L);
    int ok = 0;
    if (rp && rc && a && b && x && y) {
        e1 = run_op(rp, op, a, b, x, count);
        e2 = run_op(rc, op, a, b, y, count);
        CHECK(e1 == CPIM_OK && e2 == CPIM_OK, "%s, %s: %s / %s", what, op_names[op],
              cpim_strerror(e1), cpim_strerror(e2));
        ok = e1 == CPIM_OK && e2 == CPIM_OK && !memcmp(x, y, out_polys * L * n * 8);
        CHECK(ok || e1 != CPIM_OK, "%s, %s: pim differs from cpu", what, op_names[op]);
    }
    free(a), free(b), free(x), free(y);
    cpim_ntt_destroy(rp);
    cpim_ntt_destroy(rc);
    return ok;
}

/* Every op; 3 DPUs, so 4 polynomials x 2 limbs (8 items) split 3/3/2 and 4
 * ciphertexts 2/1/1; in == out for the products. */
TEST(pim_ntt_ops_uneven)
{
    cpim_ctx *pim = open_pim(3, 5, CPIM_PIM_SYNC, NULL, 0), *cpu = NULL;
    CHECK(cpim_open(&cpu, "cpu", NULL) == CPIM_OK, "cpu");
    uint64_t q[2], seed = 1;
    primes(1024, 31, 0, 2, q);
    for (int op = 0; pim && cpu && op < 5; op++)
        same(pim, cpu, 1024, q, 2, op, 4, &seed, "3 DPUs");
    /* a single limb, one polynomial: two DPUs idle */
    same(pim, cpu, 1024, q, 1, 3, 1, &seed, "1 item");
    /* in == out */
    cpim_ntt *rp = NULL, *rc = NULL;
    if (pim && cpu && cpim_ntt_create(pim, 1024, q, 2, &rp) == CPIM_OK &&
        cpim_ntt_create(cpu, 1024, q, 2, &rc) == CPIM_OK) {
        uint64_t *a = malloc(3 * 2048 * 8), *b = malloc(3 * 2048 * 8), *c = malloc(3 * 2048 * 8);
        fill(&seed, a, 3, 1024, q, 2);
        fill(&seed, b, 3, 1024, q, 2);
        CHECK(cpim_ntt_polymul(rc, a, b, c, 3) == CPIM_OK, "cpu polymul");
        CHECK(cpim_ntt_polymul(rp, a, b, a, 3) == CPIM_OK, "pim polymul, out = a");
        CHECK_MEM(a, c, 3 * 2048 * 8, "polymul in place");
        free(a), free(b), free(c);
    }
    cpim_ntt_destroy(rp);
    cpim_ntt_destroy(rc);
    cpim_close(pim);
    cpim_close(cpu);
}

/* 1, 16 and 24 tasklets (24: the smaller WRAM block), both schedules;
 * blocks of 16 coefficients (nttBlock=4): 4 passes at N = 1024. */
TEST(pim_ntt_tasklets_schedules)
{
    cpim_ctx *cpu = NULL;
    CHECK(cpim_open(&cpu, "cpu", NULL) == CPIM_OK, "cpu");
    uint64_t q[2], seed = 2;
    primes(1024, 31, 3, 2, q);
    static const unsigned ts[] = {1, 16, 24};
    static const char *const prof[] = {"nttSched=0", "nttSched=1", "nttSched=0,nttBlock=4",
                                       "nttSched=1,nttBlock=4"};
    for (size_t i = 0; i < sizeof ts / sizeof *ts; i++)
        for (size_t p = 0; p < 4; p++) {
            if (ts[i] == 1 && p >= 2)
                continue; /* one tasklet: nothing to share */
            cpim_ctx *pim = open_pim(2, ts[i], CPIM_PIM_SYNC, prof[p], 0);
            char what[96];
            snprintf(what, sizeof what, "%u tasklets, %s", ts[i], prof[p]);
            if (pim && cpu) {
                same(pim, cpu, 1024, q, 2, 3, 2, &seed, what);
                if (p >= 2)
                    same(pim, cpu, 1024, q, 1, 4, 2, &seed, what);
            }
            cpim_close(pim);
        }
    cpim_close(cpu);
}

/* The asynchronous modes on 2 ranks, and rounds: a 48 KiB budget holds 2
 * polymul items (24 KiB each: 2 32-bit slots, 2 64-bit inputs) or 4
 * transforms per DPU: 21 and 27 items on 5 DPUs take 3 and 2 rounds. */
TEST(pim_ntt_modes_rounds)
{
    cpim_ctx *cpu = NULL;
    CHECK(cpim_open(&cpu, "cpu", NULL) == CPIM_OK, "cpu");
    uint64_t q[3], seed = 3;
    primes(1024, 31, 5, 3, q);
    static const cpim_pim_mode modes[] = {CPIM_PIM_SYNC, CPIM_PIM_ASYNC_XFER, CPIM_PIM_ASYNC_EXEC};
    for (int m = 0; m < 3; m++) {
        cpim_ctx *pim = open_pim(0, 4, modes[m],
                                 "nrRanks=2,nrDpusPerRank=3,disabledDpus=1.2,mramBudget=49152", 0);
        if (pim && cpu) {
            same(pim, cpu, 1024, q, 3, 3, 7, &seed, "polymul, rounds");
            same(pim, cpu, 1024, q, 3, 0, 9, &seed, "forward, rounds");
        }
        cpim_close(pim);
    }
    cpim_close(cpu);
}

/* The twiddles stay on the DPUs between calls of a ring, and are sent
 * again for another ring, and after another program ran. */
TEST(pim_ntt_ring_cache)
{
    cpim_ctx *pim = open_pim(2, 4, CPIM_PIM_SYNC, NULL, 0), *cpu = NULL;
    CHECK(cpim_open(&cpu, "cpu", NULL) == CPIM_OK, "cpu");
    uint64_t qa[1], qb[2], seed = 4;
    primes(1024, 31, 0, 1, qa);
    primes(1024, 30, 0, 2, qb);
    if (pim && cpu) {
        same(pim, cpu, 1024, qa, 1, 3, 2, &seed, "ring a");
        same(pim, cpu, 1024, qa, 1, 3, 2, &seed, "ring a again");
        same(pim, cpu, 1024, qb, 2, 3, 2, &seed, "ring b");
        same(pim, cpu, 1024, qa, 1, 1, 2, &seed, "ring a after b");
        uint8_t key[16] = {1}, blk[64] = {0};
        CHECK(cpim_aes_set_key(pim, key, 16) == CPIM_OK &&
                  cpim_aes_ecb(pim, CPIM_ENCRYPT, blk, blk, 64) == CPIM_OK,
              "AES in between");
        same(pim, cpu, 1024, qa, 1, 3, 2, &seed, "ring a after AES");
    }
    cpim_close(pim);
    cpim_close(cpu);
}

/* Double-word moduli (the ntt64 program): every op on 3 DPUs with an
 * uneven split, a base mixing word and double-word moduli (the whole base
 * runs on the double-word program), then the extremes: the largest
 * prime below 2^62 = 1 mod 2N (lazy values up to 4q < 2^64) at N = 4096,
 * INTT(NTT(x)) = x.  (fill() puts q - 1 and 0 in every polynomial.) */
TEST(pim_ntt_dword_ops)
{
    cpim_ctx *pim = open_pim(3, 16, CPIM_PIM_SYNC, NULL, 0), *cpu = NULL;
    CHECK(cpim_open(&cpu, "cpu", NULL) == CPIM_OK, "cpu");
    uint64_t q[3], seed = 6; /* 62, 31, 50 bits */
    primes(1024, 62, 0, 1, q);
    primes(1024, 31, 0, 1, q + 1);
    primes(1024, 50, 0, 1, q + 2);
    for (int op = 0; pim && cpu && op < 5; op++)
        same(pim, cpu, 1024, q, op == 4 ? 3 : 2, op, op >= 3 ? 1 : 2, &seed, "3 DPUs, mixed base");
    uint64_t qb[1];
    primes(4096, 62, 0, 1, qb);
    cpim_ntt *r = NULL, *rc = NULL;
    const size_t n = 4096;
    if (pim && cpu && cpim_ntt_create(pim, n, qb, 1, &r) == CPIM_OK &&
        cpim_ntt_create(cpu, n, qb, 1, &rc) == CPIM_OK) {
        uint64_t *a = malloc(n * 8), *f = malloc(n * 8), *fc = malloc(n * 8);
        uint64_t *back = malloc(n * 8);
        fill(&seed, a, 1, n, qb, 1);
        for (size_t k = n / 2; k < n; k += 2)
            a[k] = qb[0] - 1; /* a run of the largest value */
        CHECK(cpim_ntt_forward(r, a, f, 1) == CPIM_OK && cpim_ntt_forward(rc, a, fc, 1) == CPIM_OK,
              "N = 4096 forward");
        CHECK_MEM(f, fc, n * 8, "N = 4096 forward, pim = cpu");
        CHECK(cpim_ntt_inverse(r, f, back, 1) == CPIM_OK, "N = 4096 inverse");
        CHECK_MEM(back, a, n * 8, "INTT(NTT(x)) = x, q just below 2^62");
        free(a), free(f), free(fc), free(back);
    } else
        CHECK(0, "ring with a 62-bit modulus at N = 4096");
    cpim_ntt_destroy(r);
    cpim_ntt_destroy(rc);
    cpim_close(pim);
    cpim_close(cpu);
}

/* Double-word: both schedules, 24 tasklets (blocks of 64) and blocks of
 * 16 (nttBlock=4, 4 passes); the three host modes with rounds (a 16 KiB
 * budget holds one polymul item: 6 items on 5 DPUs take 2 rounds). */
TEST(pim_ntt_dword_modes)
{
    cpim_ctx *cpu = NULL;
    CHECK(cpim_open(&cpu, "cpu", NULL) == CPIM_OK, "cpu");
    uint64_t q[2], seed = 7;
    primes(1024, 61, 0, 1, q);
    primes(1024, 40, 0, 1, q + 1);
    static const struct {
        unsigned tasklets;
        const char *prof;
        int op;
    } cfg[] = {{24, "nttSched=0", 3},
               {16, "nttSched=1", 3},
               {16, "nttSched=1", 4},
               {4, "nttSched=0,nttBlock=4", 4}};
    for (size_t i = 0; i < sizeof cfg / sizeof *cfg; i++) {
        cpim_ctx *pim = open_pim(2, cfg[i].tasklets, CPIM_PIM_SYNC, cfg[i].prof, 0);
        if (pim && cpu)
            same(pim, cpu, 1024, q, cfg[i].op == 3 ? 2 : 1, cfg[i].op, 1, &seed, cfg[i].prof);
        cpim_close(pim);
    }
    static const cpim_pim_mode modes[] = {CPIM_PIM_SYNC, CPIM_PIM_ASYNC_XFER, CPIM_PIM_ASYNC_EXEC};
    for (int m = 0; m < 3; m++) {
        cpim_ctx *pim = open_pim(0, 8, modes[m],
                                 "nrRanks=2,nrDpusPerRank=3,disabledDpus=1.2,mramBudget=16384", 0);
        if (pim && cpu)
            same(pim, cpu, 1024, q, 2, 3, 3, &seed, "dword polymul, rounds");
        cpim_close(pim);
    }
    cpim_close(cpu);
}

/* timing_only: timed, output zeroed, CPIM_ERR_TIMING_ONLY, modeled stats. */
TEST(pim_ntt_timing_only)
{
    cpim_ctx *pim = open_pim(4, 4, CPIM_PIM_SYNC, NULL, 1);
    uint64_t q[1], seed = 5;
    primes(1024, 31, 0, 1, q);
    cpim_ntt *r = NULL;
    if (pim && cpim_ntt_create(pim, 1024, q, 1, &r) == CPIM_OK) {
        uint64_t *a = malloc(4 * 1024 * 8), *o = malloc(4 * 1024 * 8);
        fill(&seed, a, 4, 1024, q, 1);
        memset(o, 0xab, 4 * 1024 * 8);
        CHECK(cpim_ntt_polymul(r, a, a, o, 4) == CPIM_ERR_TIMING_ONLY, "timing-only result");
        int zero = 1;
        for (size_t i = 0; i < 4 * 1024; i++)
            zero &= o[i] == 0;
        CHECK(zero, "output zeroed");
        cpim_stats st;
        CHECK(cpim_last_stats(pim, &st) == CPIM_OK && st.has_modeled && st.modeled.kernel_s > 0,
              "modeled kernel time");
        free(a), free(o);
    }
    cpim_ntt_destroy(r);
    cpim_close(pim);
}
