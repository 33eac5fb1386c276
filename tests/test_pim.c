/*
 * test_pim.c -- the pim backend against the cpu backend: every mode x key
 * size x ECB/CTR x direction on awkward sizes (0, 16, one block per DPU,
 * not divisible by the DPU or tasklet count, several MRAM rounds), SHA-256
 * on the classic padding lengths, a machine with disabled DPUs, and a
 * provoked DPU fault.  Small machines (a few DPUs, 4 tasklets) and a small
 * MRAM budget (the backend's `mramBudget` profile key) keep it fast.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common.h"
#include "cryptopim.h"
#include "test.h"

/* 2 ranks of 3 DPUs, one of them disabled: 5 DPUs in 2 ranks. */
#define PROFILE "nrRanks=2,nrDpusPerRank=3,disabledDpus=1.2"

static cpim_ctx *open_pim(cpim_pim_mode mode, const char *profile, unsigned dpus, const char *dir)
{
    cpim_options o;
    cpim_options_init(&o);
    o.dpus = dpus;
    o.ranks = dpus ? 0 : 2;
    o.tasklets = 4;
    o.mode = mode;
    o.profile = profile;
    o.dpu_dir = dir;
    cpim_ctx *ctx = NULL;
    cpim_err rc = cpim_open(&ctx, "pim", &o);
    CHECK(rc == CPIM_OK, "open pim (%s): %s", profile, cpim_strerror(rc));
    return ctx;
}

static const uint8_t key32[32] = {0x60, 0x3d, 0xeb, 0x10, 0x15, 0xca, 0x71, 0xbe, 0x2b, 0x73, 0xae,
                                  0xf0, 0x85, 0x7d, 0x77, 0x81, 0x1f, 0x35, 0x2c, 0x07, 0x3b, 0x61,
                                  0x08, 0xd7, 0x2d, 0x98, 0x10, 0xa3, 0x09, 0x14, 0xdf, 0xf4};

/* One AES case on pim and cpu; CTR starts near a 64-bit carry. */
static void aes_case(cpim_ctx *pim, cpim_ctx *cpu, int ctr, cpim_dir dir, size_t len,
                     uint64_t *seed, const char *what)
{
    uint8_t *in = malloc(len + 1), *a = malloc(len + 1), *b = malloc(len + 1);
    uint8_t ca[16], cb[16];
    test_fill(seed, in, len);
    memset(ca, 0xff, 16);
    ca[0] = 0x12;
    ca[7] = 0x34;
    memcpy(cb, ca, 16);
    cpim_err r1, r2;
    if (ctr) {
        r1 = cpim_aes_ctr(pim, ca, in, a, len);
        r2 = cpim_aes_ctr(cpu, cb, in, b, len);
    } else {
        len &= ~(size_t)15;
        r1 = cpim_aes_ecb(pim, dir, in, a, len);
        r2 = cpim_aes_ecb(cpu, dir, in, b, len);
    }
    CHECK(r1 == CPIM_OK && r2 == CPIM_OK, "%s len %zu: %s", what, len, cpim_strerror(r1));
    if (r1 == CPIM_OK && r2 == CPIM_OK) {
        CHECK_MEM(a, b, len, what);
        if (ctr)
            CHECK_MEM(ca, cb, 16, "advanced counter");
    }
    free(in);
    free(a);
    free(b);
}

TEST(pim_aes_modes_keys_sizes)
{
    if (!test_require_backend("pim"))
        return;
    static const char *const mode_name[] = {"sync", "async-xfer", "async-exec"};
    uint64_t seed = 5;
    cpim_ctx *cpu = NULL;
    CHECK(cpim_open(&cpu, "cpu", NULL) == CPIM_OK, "cpu");
    for (int mode = 0; mode < 3; mode++) {
        /* 5 DPUs x 4 tasklets; budget 128 B per DPU: > 640 B takes several rounds. */
        cpim_ctx *pim = open_pim((cpim_pim_mode)mode, PROFILE ",mramBudget=128", 0, NULL);
        if (!pim)
            break;
        cpim_stats st;
        for (size_t kl = 16; kl <= 32; kl += 8) {
            CHECK(cpim_aes_set_key(pim, key32, kl) == CPIM_OK, "key");
            CHECK(cpim_aes_set_key(cpu, key32, kl) == CPIM_OK, "key");
            const size_t sizes[] = {0, 16, 5 * 16, 7 * 16, 37 * 16 + 5, 41 * 16, 300 * 16 + 9};
            for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
                char what[96];
                snprintf(what, sizeof what, "%s AES-%zu", mode_name[mode], kl * 8);
                aes_case(pim, cpu, 0, CPIM_ENCRYPT, sizes[i], &seed, what);
                aes_case(pim, cpu, 0, CPIM_DECRYPT, sizes[i], &seed, what);
                aes_case(pim, cpu, 1, CPIM_ENCRYPT, sizes[i], &seed, what);
            }
        }
        CHECK(cpim_last_stats(pim, &st) == CPIM_OK, "stats");
        CHECK(st.dpus == 5 && st.ranks == 2 && st.tasklets == 4, "machine %u DPUs %u ranks",
              st.dpus, st.ranks);
        CHECK(st.virtual_upmem == st.has_modeled, "modeled clock iff virtual");
        CHECK(!st.has_modeled || st.modeled.kernel_s > 0, "modeled kernel time");
        /* the power model: at least the allocated ranks' idle DPUs over
         * the call's modeled time (dpuIdleW, 0.103 W, for each of the 2 x 3 DPUs) */
        CHECK(!st.has_modeled || st.modeled_joules >= 0.103 * 6 * st.modeled.total_s * 0.999,
              "modeled energy %.9g J over %.9g s", st.modeled_joules, st.modeled.total_s);
        CHECK(st.has_modeled || st.modeled_joules == 0, "modeled energy without a model");
        cpim_close(pim);
    }
    cpim_close(cpu);
}

TEST(pim_sha256_lengths)
{
    if (!test_require_backend("pim"))
        return;
    enum { N = 23 };
    static const size_t fixed[] = {0, 1, 55, 56, 63, 64, 65, 119, 120, 1000, 32768};
    size_t lens[N];
    uint8_t *bufs[N];
    const uint8_t *msgs[N];
    uint8_t(*a)[32] = malloc(N * 32), (*b)[32] = malloc(N * 32);
    uint64_t seed = 9;
    for (int i = 0; i < N; i++) {
        lens[i] = i < 11 ? fixed[i] : (size_t)(test_rand(&seed) % 3000);
        bufs[i] = malloc(lens[i] + 1);
        test_fill(&seed, bufs[i], lens[i]);
        msgs[i] = bufs[i];
    }
    cpim_ctx *cpu = NULL;
    CHECK(cpim_open(&cpu, "cpu", NULL) == CPIM_OK, "cpu");
    CHECK(cpim_sha256_batch(cpu, msgs, lens, N, b) == CPIM_OK, "cpu sha");
    const char *profiles[] = {PROFILE, PROFILE ",mramBudget=4096"}; /* 32 KiB: 9 segments */
    for (int mode = 0; mode < 3; mode++)
        for (int p = 0; p < 2; p++) {
            cpim_ctx *pim = open_pim((cpim_pim_mode)mode, profiles[p], 0, NULL);
            if (!pim)
                continue;
            memset(a, 0, N * 32);
            cpim_err rc = cpim_sha256_batch(pim, msgs, lens, N, a);
            CHECK(rc == CPIM_OK, "pim sha mode %d: %s", mode, cpim_strerror(rc));
            CHECK_MEM(a, b, N * 32, "digests");
            /* fewer messages than DPUs */
            rc = cpim_sha256_batch(pim, msgs, lens, 3, a);
            CHECK(rc == CPIM_OK && !memcmp(a, b, 3 * 32), "3 messages on 5 DPUs");
            cpim_close(pim);
        }
    cpim_close(cpu);
    for (int i = 0; i < N; i++)
        free(bufs[i]);
    free(a);
    free(b);
}

/* The streaming API on the DPUs (sha256_blocks: chaining values in and out
 * of the kernel): streams fed in random splits (0-byte, sub-block, around a
 * block, large pieces), through update_many and update, in every mode and
 * with an MRAM budget small enough that a stream's blocks span several
 * rounds; every digest equals the cpu backend's one-shot batch.  A DPU
 * fault in an update leaves every state as it was. */
TEST(pim_sha256_stream_random_splits)
{
    if (!test_require_backend("pim"))
        return;
    enum { N = 9, DATA = 150000 };
    uint8_t *data = malloc(DATA);
    uint64_t seed = 0x5714u;
    test_fill(&seed, data, DATA);
    cpim_ctx *cpu = NULL;
    CHECK(cpim_open(&cpu, "cpu", NULL) == CPIM_OK, "cpu");
    const char *profiles[] = {PROFILE, PROFILE ",mramBudget=4096"};
    for (int mode = 0; mode < 3; mode++)
        for (int pr = 0; pr < 2; pr++) {
            cpim_ctx *pim = open_pim((cpim_pim_mode)mode, profiles[pr], 0, NULL);
            if (!pim)
                continue;
            const uint8_t *msgs[N];
            size_t lens[N], done[N];
            uint8_t want[N][32], got[N][32];
            cpim_sha256_state st[N], *sp[N];
            for (int i = 0; i < N; i++) {
                uint64_t r = test_rand(&seed);
                lens[i] = i == 0 ? 0 : i == 1 ? 64 : (size_t)(r % (DATA / 3));
                msgs[i] = data + (size_t)(test_rand(&seed) % (DATA - lens[i] + 1));
                done[i] = 0;
                sp[i] = &st[i];
                cpim_sha256_init(&st[i]);
            }
            CHECK(cpim_sha256_batch(cpu, msgs, lens, N, want) == CPIM_OK, "cpu reference");
            cpim_err rc = CPIM_OK;
            for (int step = 0; rc == CPIM_OK; step++) {
                const uint8_t *p[N];
                size_t n[N];
                int left = 0;
                for (int i = 0; i < N; i++) {
                    uint64_t r = test_rand(&seed);
                    size_t rest = lens[i] - done[i];
                    size_t c = r % 4 == 0   ? 0
                               : r % 4 == 1 ? (size_t)(r >> 8) % 70
                               : r % 4 == 2 ? 64 * (1 + (size_t)(r >> 8) % 3) - 1 + (r >> 20) % 3
                                            : (size_t)(r >> 8) % (rest + 1);
                    n[i] = c < rest ? c : rest;
                    p[i] = n[i] ? msgs[i] + done[i] : NULL;
                    left |= done[i] + n[i] < lens[i];
                }
                if (step % 3 == 2)
                    for (int i = 0; i < N && rc == CPIM_OK; i++)
                        rc = cpim_sha256_update(pim, &st[i], p[i], n[i]);
                else
                    rc = cpim_sha256_update_many(pim, sp, p, n, N);
                CHECK(rc == CPIM_OK, "mode %d budget %d step %d: %s", mode, pr, step,
                      cpim_strerror(rc));
                for (int i = 0; i < N; i++)
                    done[i] += n[i];
                if (!left)
                    break;
            }
            if (rc == CPIM_OK)
                rc = cpim_sha256_final_many(pim, sp, N, got);
            CHECK(rc == CPIM_OK, "final_many: %s", cpim_strerror(rc));
            if (rc == CPIM_OK)
                for (int i = 0; i < N; i++) {
                    char what[96];
                    snprintf(what, sizeof what, "mode %d budget %d stream %d (%zu bytes)", mode, pr,
                             i, lens[i]);
                    CHECK_MEM(got[i], want[i], 32, what);
                }
            cpim_close(pim);
        }
    /* a faulting DPU program: the update fails, the state is unchanged */
    if (access("build/dpu/fault/sha256-t4", R_OK) == 0) {
        cpim_ctx *bad = open_pim(CPIM_PIM_SYNC, "nrRanks=2,nrDpusPerRank=2", 0, "build/dpu/fault");
        cpim_sha256_state s1, s2;
        cpim_sha256_init(&s1);
        CHECK(cpim_sha256_update(cpu, &s1, data, 100) == CPIM_OK, "cpu update");
        s2 = s1;
        cpim_err rc = bad ? cpim_sha256_update(bad, &s1, data + 100, 1000) : CPIM_OK;
        CHECK(!bad || rc == CPIM_ERR_PIM_FAULT, "fault: got %s", cpim_strerror(rc));
        CHECK(!memcmp(&s1, &s2, sizeof s1), "a failed update changed the state");
        cpim_close(bad);
    }
    cpim_close(cpu);
    free(data);
}

/* Allocation by DPU count: 3 DPUs of a 2 x 3 machine with one disabled. */
TEST(pim_alloc_by_dpus)
{
    if (!test_require_backend("pim"))
        return;
    cpim_ctx *pim = open_pim(CPIM_PIM_ASYNC_XFER, PROFILE, 3, NULL), *cpu = NULL;
    if (!pim)
        return;
    CHECK(cpim_open(&cpu, "cpu", NULL) == CPIM_OK, "cpu");
    CHECK(cpim_aes_set_key(pim, key32, 16) == CPIM_OK && cpim_aes_set_key(cpu, key32, 16) == 0,
          "key");
    uint64_t seed = 3;
    aes_case(pim, cpu, 0, CPIM_ENCRYPT, 3 * 16, &seed, "one block per DPU");
    cpim_stats st;
    CHECK(cpim_last_stats(pim, &st) == CPIM_OK && st.dpus == 3, "3 DPUs, got %u", st.dpus);
    cpim_close(pim);
    cpim_close(cpu);
}

/* cpim_options.dpu_dir: a folder that does not exist makes the backend
 * unavailable for that context, one without the needed program fails the
 * first operation with CPIM_ERR_PIM_LOAD; the build tree's folder named
 * explicitly works as the default does. */
TEST(pim_dpu_dir_option)
{
    if (!test_require_backend("pim"))
        return;
    cpim_options opt;
    cpim_options_init(&opt);
    opt.dpu_dir = "/nonexistent/cryptopim-dpu";
    cpim_ctx *ctx = (cpim_ctx *)1;
    CHECK(cpim_open(&ctx, "pim", &opt) == CPIM_ERR_UNAVAILABLE && ctx == NULL,
          "a dpu_dir without programs must give CPIM_ERR_UNAVAILABLE");
    opt.dpu_dir = "tests";
    cpim_err rc = cpim_open(&ctx, "pim", &opt);
    CHECK(rc == CPIM_OK, "open with dpu_dir=tests: %s", cpim_strerror(rc));
    if (rc == CPIM_OK) {
        uint8_t b[16] = {0};
        rc = cpim_aes_set_key(ctx, key32, 16);
        if (rc == CPIM_OK)
            rc = cpim_aes_ecb(ctx, CPIM_ENCRYPT, b, b, sizeof b);
        CHECK(rc == CPIM_ERR_PIM_LOAD,
              "a folder without aes-t16 must give CPIM_ERR_PIM_LOAD, got %s", cpim_strerror(rc));
        cpim_close(ctx);
    }
    opt.dpu_dir = CPIM_DPU_DIR;
    CHECK(cpim_open(&ctx, "pim", &opt) == CPIM_OK, "dpu_dir = the build tree's %s", CPIM_DPU_DIR);
    cpim_close(ctx);
}

/* A DPU program that faults: a clear error, never a wrong answer. */
TEST(pim_fault_reported)
{
    if (!test_require_backend("pim"))
        return;
    if (access("build/dpu/fault/aes-t4", R_OK) != 0) {
        test_skip("build/dpu/fault not built");
        return;
    }
    for (int mode = 0; mode < 3; mode++) {
        cpim_ctx *pim =
            open_pim((cpim_pim_mode)mode, "nrRanks=2,nrDpusPerRank=2", 0, "build/dpu/fault");
        if (!pim)
            return;
        uint8_t buf[256] = {0};
        CHECK(cpim_aes_set_key(pim, key32, 16) == CPIM_OK, "key");
        cpim_err rc = cpim_aes_ecb(pim, CPIM_ENCRYPT, buf, buf, sizeof buf);
        CHECK(rc == CPIM_ERR_PIM_FAULT, "mode %d: got %s", mode, cpim_strerror(rc));
        const uint8_t *m[1] = {buf};
        size_t l[1] = {100};
        uint8_t d[1][32];
        rc = cpim_sha256_batch(pim, m, l, 1, d);
        CHECK(rc == CPIM_ERR_PIM_FAULT, "sha mode %d: got %s", mode, cpim_strerror(rc));
        cpim_close(pim);
    }
}

static void sleep_20ms(void)
{
    struct timespec d = {0, 20000000};
    while (nanosleep(&d, &d) != 0)
        ;
}

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The virtual UPMEM's hostTime=modeled puts a program's own clock calls on
 * the modeled clock; when UPMEM_PROFILE says so it beats the pim backend's
 * hostTime=real (the SDK's order), yet cpim_now stays the measured clock:
 * across a 20 ms sleep with hostClock=none the program's CLOCK_MONOTONIC
 * stands still (host work charged as 0) and cpim_now does not. */
TEST(pim_measured_clock_stays_real)
{
    if (!test_require_backend("pim"))
        return;
    setenv("UPMEM_PROFILE", "hostTime=modeled,hostClock=none", 1);
    cpim_options o;
    cpim_options_init(&o);
    o.dpus = 1;
    o.tasklets = 4;
    cpim_ctx *ctx = NULL;
    cpim_err rc = cpim_open(&ctx, "pim", &o);
    unsetenv("UPMEM_PROFILE");
    if (rc != CPIM_OK) { /* real hardware: the SDK has no such keys */
        test_skip("the UPMEM layer refused hostTime/hostClock (not the virtual UPMEM)");
        return;
    }
    double m0 = mono_s(), c0 = cpim_now();
    sleep_20ms();
    double m1 = mono_s(), c1 = cpim_now();
    CHECK(m1 - m0 < 1e-6, "the program's clock advanced %.6f s: modeled time not on?", m1 - m0);
    CHECK(c1 - c0 >= 0.019, "cpim_now advanced %.6f s over a 20 ms sleep", c1 - c0);
    cpim_close(ctx);
    /* a context opened without the variable turns the real clocks back on */
    CHECK(cpim_open(&ctx, "pim", &o) == CPIM_OK, "reopen");
    cpim_close(ctx);
    m0 = mono_s();
    sleep_20ms();
    CHECK(mono_s() - m0 >= 0.019, "the program's clock is still modeled");
}

/* One AES-CTR and one SHA-256 call of 64 KiB on backend `name`, measured or
 * not: the outputs, and the last statistics. */
static void unmeasured_run(const char *name, int unmeasured, uint8_t *out, uint8_t digest[32],
                           cpim_stats *st)
{
    static uint8_t in[1u << 16];
    cpim_options o;
    cpim_options_init(&o);
    o.unmeasured = unmeasured;
    o.dpus = 2;
    o.tasklets = 4;
    o.profile = "hostClock=none"; /* modeled time without the host's measured work */
    cpim_ctx *ctx = NULL;
    cpim_err rc = cpim_open(&ctx, name, &o);
    CHECK(rc == CPIM_OK, "open %s: %s", name, cpim_strerror(rc));
    if (!ctx)
        return;
    uint8_t ctr[16] = {0};
    memset(st, 0, sizeof *st);
    CHECK(cpim_aes_set_key(ctx, key32, 16) == CPIM_OK, "%s: key", name);
    CHECK(cpim_aes_ctr(ctx, ctr, in, out, sizeof in) == CPIM_OK, "%s: ctr", name);
    const uint8_t *msgs[1] = {in};
    size_t lens[1] = {sizeof in};
    CHECK(cpim_sha256_batch(ctx, msgs, lens, 1, (uint8_t(*)[32])digest) == CPIM_OK, "%s: sha256",
          name);
    CHECK(cpim_last_stats(ctx, st) == CPIM_OK, "%s: stats", name);
    cpim_close(ctx);
}

/* cpim_options.unmeasured: no measured figure (every one 0, the clock still
 * named), the same outputs, and on the DPUs the modeled clock as usual. */
TEST(unmeasured_contexts)
{
    static const char *const names[] = {"cpu", "auto", "pim"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        if (strcmp(names[i], "pim") == 0 && !test_require_backend("pim"))
            return;
        static uint8_t a[1u << 16], b[1u << 16];
        uint8_t da[32], db[32];
        cpim_stats sa, sb;
        unmeasured_run(names[i], 0, a, da, &sa);
        unmeasured_run(names[i], 1, b, db, &sb);
        CHECK(memcmp(a, b, sizeof a) == 0, "%s: ctr output differs", names[i]);
        CHECK(memcmp(da, db, 32) == 0, "%s: digest differs", names[i]);
        CHECK(sa.measured.total_s > 0, "%s: measured total %g", names[i], sa.measured.total_s);
        CHECK(sb.measured.total_s == 0 && sb.measured.kernel_s == 0 && sb.measured.cpu_dpu_s == 0 &&
                  sb.measured.dpu_cpu_s == 0 && sb.measured.clock == CPIM_CLOCK_MEASURED,
              "%s: unmeasured context measured %g s", names[i], sb.measured.total_s);
        /* (two runs' modeled totals may differ in the last bits: relative 1e-9) */
        CHECK(sb.bytes == sa.bytes && sb.has_modeled == sa.has_modeled &&
                  fabs(sb.modeled.total_s - sa.modeled.total_s) <= 1e-9 * sa.modeled.total_s,
              "%s: modeled %g vs %g s", names[i], sb.modeled.total_s, sa.modeled.total_s);
        if (strcmp(names[i], "pim") == 0)
            CHECK(sb.has_modeled && sb.modeled.total_s > 0, "pim: modeled time");
    }
}
