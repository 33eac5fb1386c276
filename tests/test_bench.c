/*
 * test_bench.c -- the property the experiment suite relies on to finish in
 * time: the DPU kernels are data-oblivious.  Same sizes, different data =>
 * exactly the same modeled DPU time, so simulating one of several identical
 * DPUs is enough to know them all (`cryptopim bench`, docs/MODEL.md).
 * Every output is also checked against the cpu backend.
 */
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "cryptopim.h"
#include "test.h"

/* Modeled times are differences of points on a modeled timeline whose
 * origin includes measured host work, so equal cycle counts can differ in
 * the last bits of a double.  Half a DPU cycle (350 MHz) still tells any
 * two different cycle counts apart. */
static int same_cycles(double a, double b)
{
    double d = a > b ? a - b : b - a;
    return a > 0 && b > 0 && d < 0.5 / 350e6;
}

static const uint8_t tb_key[16] = {0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6,
                                   0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c};

static cpim_ctx *open_pim(unsigned dpus, int timing_only)
{
    cpim_options o;
    cpim_options_init(&o);
    o.dpus = dpus;
    o.tasklets = 16;
    o.timing_only = timing_only;
    cpim_ctx *ctx = NULL;
    if (cpim_open(&ctx, "pim", &o) != CPIM_OK)
        return NULL;
    if (cpim_aes_set_key(ctx, tb_key, 16) != CPIM_OK) {
        cpim_close(ctx);
        return NULL;
    }
    return ctx;
}

/* AES on `dpus` DPUs: returns the modeled kernel seconds, output in out. */
/* Modeled kernel time of one ECB call; -1 if the call did not end with
 * `want` (CPIM_OK, or CPIM_ERR_TIMING_ONLY for a timing-only context). */
static double aes_kernel_rc(cpim_ctx *ctx, const uint8_t *in, uint8_t *out, size_t len,
                            cpim_err want)
{
    cpim_stats st;
    if (cpim_aes_ecb(ctx, CPIM_ENCRYPT, in, out, len) != want ||
        cpim_last_stats(ctx, &st) != CPIM_OK || !st.has_modeled)
        return -1;
    return st.modeled.kernel_s;
}

static double aes_kernel(cpim_ctx *ctx, const uint8_t *in, uint8_t *out, size_t len)
{
    return aes_kernel_rc(ctx, in, out, len, CPIM_OK);
}

static void aes_ref(const uint8_t *in, uint8_t *out, size_t len)
{
    cpim_ctx *c = NULL;
    CHECK(cpim_open(&c, "cpu", NULL) == CPIM_OK, "cpu backend");
    CHECK(cpim_aes_set_key(c, tb_key, 16) == CPIM_OK, "key");
    CHECK(cpim_aes_ecb(c, CPIM_ENCRYPT, in, out, len) == CPIM_OK, "cpu ecb");
    cpim_close(c);
}

TEST(bench_aes_data_oblivious)
{
    if (!test_require_backend("pim"))
        return;
    const size_t len = 64 * 1024;
    uint8_t *a = malloc(len), *b = malloc(len), *out = malloc(len), *ref = malloc(len);
    CHECK(a && b && out && ref, "malloc");
    uint64_t s1 = 1, s2 = 0xdeadbeef;
    test_fill(&s1, a, len);
    test_fill(&s2, b, len);
    memset(b, 0, len / 4); /* some very different data: zeros */
    cpim_ctx *ctx = open_pim(2, 0);
    CHECK(ctx != NULL, "open pim");
    if (ctx) {
        /* The first launch of a loaded program also builds the AES tables in
         * WRAM (kept across launches), so it is longer whatever the data:
         * warm up once, then compare two launches that differ only in data. */
        CHECK(aes_kernel(ctx, b, out, len) > 0, "warm-up launch");
        double ta = aes_kernel(ctx, a, out, len);
        aes_ref(a, ref, len);
        CHECK_MEM(out, ref, len, "AES output, data A");
        double tb = aes_kernel(ctx, b, out, len);
        aes_ref(b, ref, len);
        CHECK_MEM(out, ref, len, "AES output, data B");
        CHECK(same_cycles(ta, tb), "modeled kernel time depends on data: %.12g vs %.12g s", ta, tb);
        cpim_close(ctx);
    }
    free(a);
    free(b);
    free(out);
    free(ref);
}

TEST(bench_sha256_data_oblivious)
{
    if (!test_require_backend("pim"))
        return;
    enum { N = 8, L = 4096 };
    uint8_t *data = malloc(2 * N * L);
    const uint8_t *ma[N], *mb[N];
    size_t lens[N];
    uint8_t dig[N][32], ref[N][32];
    CHECK(data != NULL, "malloc");
    uint64_t s = 7;
    test_fill(&s, data, 2 * N * L);
    memset(data + N * L, 0xff, L);
    for (int i = 0; i < N; i++) {
        ma[i] = data + (size_t)i * L;
        mb[i] = data + (size_t)(N + i) * L;
        lens[i] = L;
    }
    cpim_ctx *ctx = open_pim(2, 0), *cpu = NULL;
    CHECK(ctx != NULL, "open pim");
    CHECK(cpim_open(&cpu, "cpu", NULL) == CPIM_OK, "cpu backend");
    if (ctx && cpu) {
        double t[2];
        for (int r = 0; r < 2; r++) {
            const uint8_t *const *m = r ? mb : ma;
            cpim_stats st;
            CHECK(cpim_sha256_batch(ctx, m, lens, N, dig) == CPIM_OK, "pim sha");
            CHECK(cpim_last_stats(ctx, &st) == CPIM_OK && st.has_modeled, "stats");
            t[r] = st.modeled.kernel_s;
            CHECK(cpim_sha256_batch(cpu, m, lens, N, ref) == CPIM_OK, "cpu sha");
            CHECK_MEM(dig, ref, sizeof dig, "SHA-256 digests");
        }
        CHECK(same_cycles(t[0], t[1]), "modeled kernel time depends on data: %.12g vs %.12g s",
              t[0], t[1]);
    }
    cpim_close(ctx);
    cpim_close(cpu);
    free(data);
}

/* A timing-only run (on the virtual UPMEM: sampleDpus=1, time one DPU per
 * rank and launch, skip the identical others) gives the fully simulated
 * modeled kernel time, returns CPIM_ERR_TIMING_ONLY and no output at all:
 * the buffer is zeroed, none of it is the input or a partial result. */
TEST(bench_sampled_equals_full)
{
    if (!test_require_backend("pim"))
        return;
    cpim_ctx *sampled = open_pim(4, 1);
    CHECK(sampled != NULL, "open a timing-only pim context");
    if (!sampled)
        return;
    const size_t len = 64 * 1024;
    uint8_t *in = malloc(len), *out = malloc(len), *ref = malloc(len);
    CHECK(in && out && ref, "malloc");
    uint64_t s = 99;
    test_fill(&s, in, len);
    aes_ref(in, ref, len);
    cpim_ctx *full = open_pim(4, 0);
    CHECK(full != NULL, "open pim");
    if (full) {
        double tf = aes_kernel(full, in, out, len);
        CHECK_MEM(out, ref, len, "full run output");
        memset(out, 0xa5, len);
        double ts = aes_kernel_rc(sampled, in, out, len, CPIM_ERR_TIMING_ONLY);
        CHECK(ts > 0 && same_cycles(tf, ts), "sampled kernel %.12g s != full %.12g s", ts, tf);
        uint8_t *zero = calloc(len, 1);
        CHECK(zero != NULL, "calloc");
        if (zero)
            CHECK_MEM(out, zero, len, "timing-only output (must be zeroed)");
        free(zero);
        cpim_close(full);
    }
    cpim_close(sampled);
    free(in);
    free(out);
    free(ref);
}

/* sampleReuse (timing-only, docs/VIRTUAL_UPMEM_HOST.md §5): a DPU run whose
 * program and WRAM equal an earlier run's is not simulated again but given
 * its cycles.  A sequence of calls -- the first launch builds the AES tables
 * in WRAM, the later ones find them there, one of them half as long, then
 * SHA-256 -- on a fully
 * simulated context, a sampled one and two sampled ones with reuse (the
 * second reusing the first's runs): every call's modeled phases are the
 * same cycle counts (hostClock=none: no measured host work in them). */
static int phases(cpim_ctx *ctx, int k, const uint8_t *in, uint8_t *out, size_t len, cpim_phases *p)
{
    enum { N = 8 };
    const uint8_t *m[N];
    size_t lens[N];
    uint8_t dig[N][32];
    for (int i = 0; i < N; i++)
        m[i] = in + (size_t)i * (len / N), lens[i] = len / N;
    cpim_err rc =
        k ? cpim_sha256_batch(ctx, m, lens, N, dig) : cpim_aes_ecb(ctx, CPIM_ENCRYPT, in, out, len);
    cpim_stats st;
    if ((rc != CPIM_OK && rc != CPIM_ERR_TIMING_ONLY) || cpim_last_stats(ctx, &st) != CPIM_OK ||
        !st.has_modeled)
        return -1;
    *p = st.modeled;
    return 0;
}

TEST(bench_reuse_equals_full)
{
    if (!test_require_backend("pim"))
        return;
    enum { CALLS = 4 };
    const size_t len = 32 * 1024;
    uint8_t *in = malloc(CALLS * len), *out = malloc(len);
    CHECK(in && out, "malloc");
    uint64_t s = 5;
    test_fill(&s, in, CALLS * len);
    static const char *const prof[] = {"hostClock=none", "hostClock=none",
                                       "hostClock=none,sampleReuse=1",
                                       "hostClock=none,sampleReuse=1"};
    cpim_phases p[4][CALLS];
    memset(p, 0, sizeof p);
    for (int c = 0; c < 4; c++) {
        cpim_options o;
        cpim_options_init(&o);
        o.dpus = 4;
        o.tasklets = 16;
        o.timing_only = c > 0;
        o.profile = prof[c];
        cpim_ctx *ctx = NULL;
        CHECK(cpim_open(&ctx, "pim", &o) == CPIM_OK && cpim_aes_set_key(ctx, tb_key, 16) == CPIM_OK,
              "open pim (%s%s)", prof[c], c ? ", timing-only" : "");
        for (int i = 0; ctx && i < CALLS; i++)
            CHECK(phases(ctx, i == CALLS - 1, in + i * len, out, i == 1 ? len / 2 : len,
                         &p[c][i]) == 0,
                  "call %d of context %d", i, c);
        cpim_close(ctx);
    }
    for (int c = 1; c < 4; c++)
        for (int i = 0; i < CALLS; i++) {
            const cpim_phases *a = &p[c][i], *f = &p[0][i];
            CHECK(a->kernel_s > 0 && same_cycles(a->kernel_s, f->kernel_s) &&
                      same_cycles(a->cpu_dpu_s, f->cpu_dpu_s) &&
                      same_cycles(a->dpu_cpu_s, f->dpu_cpu_s) &&
                      same_cycles(a->total_s, f->total_s),
                  "context %d (%s), call %d: phases %.12g %.12g %.12g total %.12g s; full "
                  "simulation %.12g %.12g %.12g total %.12g s",
                  c, prof[c], i, a->cpu_dpu_s, a->kernel_s, a->dpu_cpu_s, a->total_s, f->cpu_dpu_s,
                  f->kernel_s, f->dpu_cpu_s, f->total_s);
        }
    free(in);
    free(out);
}
