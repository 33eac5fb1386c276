/*
 * test_resident.c -- resident regions (cryptopim.h): in-place
 * AES-XTS / AES-CTR / re-key / SHA-256 + Merkle root of data kept in MRAM,
 * checked against the cpu backend on the host; MRAM and WRAM inspected
 * through the host library (<dpu.h>) for clear text and keys; the fault
 * semantics walked with the fault-injection hook (profile key failAt).
 *
 * Small modeled machines: 2 ranks x 2 DPUs, 4 tasklets, 8-16 KiB per DPU.
 */
#include <dpu.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "core.h"
#include "cryptopim.h"
#include "pim_internal.h"
#include "resident_args.h"
#include "test.h"

#define NDPU 4u

static const uint8_t xk1[32] = {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb,
                                0xcc, 0xdd, 0xee, 0xff, 0x00, 0x10, 0x32, 0x54, 0x76, 0x98, 0xba,
                                0xdc, 0xfe, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef};
static uint8_t xk2[64]; /* AES-256-XTS, filled from a seed */
static const uint8_t ck1[16] = {0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6,
                                0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c};
static uint8_t ck2[32];
static const uint8_t n1[8] = {0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7};
static const uint8_t n2[8] = {1, 2, 3, 4, 5, 6, 7, 8};

static cpim_ctx *open_pim(cpim_pim_mode mode, unsigned long long fail_at)
{
    char profile[128];
    snprintf(profile, sizeof profile, "nrRanks=2,nrDpusPerRank=2%s%.0llu",
             fail_at ? ",failAt=" : "", fail_at);
    cpim_options o;
    cpim_options_init(&o);
    o.ranks = 2;
    o.tasklets = 4;
    o.mode = mode;
    o.profile = profile;
    cpim_ctx *ctx = NULL;
    if (cpim_open(&ctx, "pim", &o) != CPIM_OK)
        return NULL;
    return ctx;
}

/* The expected bytes of the whole region (per bytes per DPU) after XTS or
 * CTR with key k of the clear text p, from the cpu backend: unit i of DPU d
 * has the tweak d << 32 | i; block j of DPU d the counter nonce || d || j. */
static void reference(cpim_ctx *cpu, int xts, cpim_dir dir, const uint8_t *k, size_t klen,
                      const uint8_t nonce[8], const uint8_t *p, uint8_t *out, size_t per,
                      size_t unit)
{
    if (xts)
        CHECK(cpim_xts_set_key(cpu, k, klen) == CPIM_OK, "xts key");
    else
        CHECK(cpim_aes_set_key(cpu, k, klen) == CPIM_OK, "ctr key");
    for (uint32_t d = 0; d < NDPU; d++) {
        if (xts) {
            CHECK(cpim_aes_xts(cpu, dir, (uint64_t)d << 32, unit, p + d * per, out + d * per,
                               per) == CPIM_OK,
                  "cpu xts");
        } else {
            uint8_t c[16] = {0};
            memcpy(c, nonce, 8);
            c[8] = (uint8_t)(d >> 24), c[9] = (uint8_t)(d >> 16), c[10] = (uint8_t)(d >> 8);
            c[11] = (uint8_t)d;
            CHECK(cpim_aes_ctr(cpu, c, p + d * per, out + d * per, per) == CPIM_OK, "cpu ctr");
        }
    }
}

/* No 16-byte block of the clear text p (random: its blocks do not occur by
 * chance) anywhere in any DPU's share of MRAM (header, data, digests), no
 * key arguments left in WRAM, no buffer content left. */
static void inspect(cpim_region *reg, const uint8_t *p, size_t size, const char *when)
{
    cpim_pim_machine *m = cpim_pim_region_machine(cpim_core_region_impl(reg));
    uint64_t per = 0;
    size_t unit = 0;
    cpim_region_layout(reg, NULL, &per, &unit);
    const uint32_t share = (uint32_t)(RES_HDR + per + 32 * (per / unit));
    uint8_t *mram = malloc(share);
    struct res_key_args ka;
    static uint8_t bufs[4 * 2048];
    int leaks = 0;
    for (uint32_t d = 0; d < NDPU && mram; d++) {
        cpim_err rc = cpim_pim_machine_peek(m, d, NULL, 0, mram, share);
        CHECK(rc == CPIM_OK, "%s: read DPU %u's MRAM: %s", when, d, cpim_strerror(rc));
        for (size_t b = 0; b + 16 <= size && rc == CPIM_OK; b += 16)
            for (uint32_t o = 0; o + 16 <= share; o += 16)
                if (!memcmp(mram + o, p + b, 16))
                    leaks++;
        memset(&ka, 0xa5, sizeof ka);
        rc = cpim_pim_machine_peek(m, d, RES_XSTR(RES_KEY_SYM), 0, &ka, sizeof ka);
        int zero = 1;
        for (size_t i = 0; i < sizeof ka; i++)
            zero &= ((uint8_t *)&ka)[i] == 0;
        CHECK(rc == CPIM_OK && zero, "%s: DPU %u: key arguments left in WRAM", when, d);
        rc = cpim_pim_machine_peek(m, d, "buffers", 0, bufs, sizeof bufs);
        zero = 1;
        for (size_t i = 0; i < sizeof bufs; i++)
            zero &= bufs[i] == 0;
        CHECK(rc == CPIM_OK && zero, "%s: DPU %u: tasklet buffers not wiped", when, d);
    }
    CHECK(leaks == 0, "%s: %d clear-text blocks found in MRAM", when, leaks);
    free(mram);
}

static void mode_case(int xts, size_t unit, size_t per)
{
    if (!test_require_backend("pim"))
        return;
    uint64_t seed = 0x5eed0017u + unit;
    test_fill(&seed, xk2, sizeof xk2);
    test_fill(&seed, ck2, sizeof ck2);
    cpim_ctx *pim = open_pim(CPIM_PIM_SYNC, 0), *cpu = NULL;
    CHECK(pim && cpim_open(&cpu, "cpu", NULL) == CPIM_OK, "open");
    cpim_region *reg = NULL;
    cpim_err rc = pim ? cpim_region_create(pim, NDPU * per - 100, unit, &reg) : CPIM_ERR_PIM;
    CHECK(rc == CPIM_OK, "create: %s", cpim_strerror(rc));
    if (rc != CPIM_OK || !cpu) {
        cpim_region_free(reg), cpim_close(pim), cpim_close(cpu);
        return;
    }
    const size_t size = NDPU * per;
    CHECK(cpim_region_size(reg) == size, "size rounded to whole units per DPU: %llu",
          (unsigned long long)cpim_region_size(reg));
    uint8_t *p = malloc(size), *c = malloc(size), *r = malloc(size), *e = malloc(size);
    test_fill(&seed, p, size);
    CHECK(cpim_region_write(reg, 0, p, size) == CPIM_OK, "load");
    /* partial, unaligned-to-DPU transfers */
    memset(r, 0, size);
    CHECK(cpim_region_read(reg, per - 8, r, 24) == CPIM_OK && !memcmp(r, p + per - 8, 24),
          "a read across a DPU boundary");

    /* encrypt in place == the host's encryption of the same bytes */
    rc = xts ? cpim_region_xts(reg, CPIM_ENCRYPT, xk1, 32) : cpim_region_ctr(reg, ck1, 16, n1);
    CHECK(rc == CPIM_OK, "encrypt: %s", cpim_strerror(rc));
    cpim_stats st;
    CHECK(cpim_region_last_stats(reg, &st) == CPIM_OK && st.bytes == size && st.has_modeled &&
              st.modeled.cpu_dpu_s > 0 && st.modeled.dpu_cpu_s == 0 && st.modeled.kernel_s > 0,
          "stats: only the key goes in, nothing comes out (modeled %g in, %g out)",
          st.modeled.cpu_dpu_s, st.modeled.dpu_cpu_s);
    reference(cpu, xts, CPIM_ENCRYPT, xts ? xk1 : ck1, xts ? 32 : 16, n1, p, c, per, unit);
    CHECK(cpim_region_read(reg, 0, r, size) == CPIM_OK, "read");
    CHECK_MEM(r, c, size, "ciphertext in MRAM");
    inspect(reg, p, size, "after encryption");

    /* re-key == decrypt with the old key + encrypt with the new */
    rc = xts ? cpim_region_xts_rekey(reg, xk1, 32, xk2, 64)
             : cpim_region_ctr_rekey(reg, ck1, 16, n1, ck2, 32, n2);
    CHECK(rc == CPIM_OK, "rekey: %s", cpim_strerror(rc));
    reference(cpu, xts, CPIM_ENCRYPT, xts ? xk2 : ck2, xts ? 64 : 32, n2, p, e, per, unit);
    CHECK(cpim_region_read(reg, 0, r, size) == CPIM_OK, "read");
    CHECK_MEM(r, e, size, "re-keyed ciphertext");
    inspect(reg, p, size, "after re-keying");

    /* SHA-256 of every unit as stored + the Merkle root */
    const size_t nu = size / unit;
    uint8_t(*dig)[32] = malloc(nu * 32), (*ref)[32] = malloc(nu * 32), root[32], rroot[32];
    rc = cpim_region_sha256(reg, dig, root);
    CHECK(rc == CPIM_OK, "sha256: %s", cpim_strerror(rc));
    const uint8_t **msgs = malloc(nu * sizeof *msgs);
    size_t *lens = malloc(nu * sizeof *lens);
    for (size_t i = 0; i < nu; i++)
        msgs[i] = e + i * unit, lens[i] = unit;
    CHECK(cpim_sha256_batch(cpu, msgs, lens, nu, ref) == CPIM_OK, "host digests");
    CHECK_MEM(dig, ref, nu * 32, "unit digests");
    for (size_t n = nu; n > 1;) { /* the Merkle tree, level by level */
        size_t k = 0;
        for (size_t i = 0; i + 1 < n; i += 2, k++) {
            const uint8_t *m2 = ref[i];
            size_t l2 = 64;
            CHECK(cpim_sha256_batch(cpu, &m2, &l2, 1, &ref[k]) == CPIM_OK, "node");
        }
        if (n % 2)
            memmove(ref[k++], ref[n - 1], 32);
        n = k;
    }
    memcpy(rroot, ref[0], 32);
    CHECK_MEM(root, rroot, 32, "Merkle root");
    CHECK(cpim_region_sha256(reg, NULL, root) == CPIM_OK && !memcmp(root, rroot, 32),
          "root without digests");

    /* decrypt with the new key: the clear text again */
    rc = xts ? cpim_region_xts(reg, CPIM_DECRYPT, xk2, 64) : cpim_region_ctr(reg, ck2, 32, n2);
    CHECK(rc == CPIM_OK, "decrypt: %s", cpim_strerror(rc));
    CHECK(cpim_region_read(reg, 0, r, size) == CPIM_OK, "read");
    CHECK_MEM(r, p, size, "round trip");
    free(msgs), free(lens), free(dig), free(ref);
    free(p), free(c), free(r), free(e);
    cpim_region_free(reg);
    cpim_close(pim);
    cpim_close(cpu);
}

/* 8 units of 1 KiB per DPU (one chunk each); 4 units of 4 KiB (units over
 * several chunks: the running tweak / counter carried) */
TEST(resident_xts_1k)
{
    mode_case(1, 1024, 8192);
}
TEST(resident_xts_4k)
{
    mode_case(1, 4096, 16384);
}
TEST(resident_ctr_1k)
{
    mode_case(0, 1024, 8192);
}
TEST(resident_ctr_4k)
{
    mode_case(0, 4096, 16384);
}

TEST(resident_errors)
{
    cpim_ctx *cpu = NULL;
    cpim_region *reg = NULL;
    CHECK(cpim_open(&cpu, "cpu", NULL) == CPIM_OK, "cpu");
    CHECK(cpim_region_create(cpu, 4096, 0, &reg) == CPIM_ERR_UNSUPPORTED && !reg,
          "cpu backend: unsupported");
    cpim_close(cpu);
    if (!test_require_backend("pim"))
        return;
    cpim_ctx *pim = open_pim(CPIM_PIM_SYNC, 0);
    CHECK(pim != NULL, "open");
    if (!pim)
        return;
    CHECK(cpim_region_create(pim, (uint64_t)NDPU << 26, 0, &reg) == CPIM_ERR_REGION_SIZE && !reg,
          "64 MiB per DPU: too large");
    CHECK(cpim_region_create(pim, 4096, 100, &reg) == CPIM_ERR_INVALID_ARG, "unit not x128");
    cpim_close(pim);
    /* one DPU for the largest region (it is zeroed when created) */
    cpim_options o;
    cpim_options_init(&o);
    o.dpus = 1;
    o.tasklets = 4;
    o.profile = "nrRanks=1,nrDpusPerRank=1";
    pim = NULL;
    CHECK(cpim_open(&pim, "pim", &o) == CPIM_OK, "open 1 DPU");
    CHECK(pim && cpim_region_create(pim, 62u << 20, 0, &reg) == CPIM_OK, "62 MiB per DPU fits");
    if (reg) {
        uint8_t b[16] = {0}, k[32] = {0};
        CHECK(cpim_region_read(reg, 4, b, 8) == CPIM_ERR_INVALID_ARG, "unaligned offset");
        CHECK(cpim_region_read(reg, cpim_region_size(reg) - 8, b, 16) == CPIM_ERR_INVALID_ARG,
              "past the end");
        CHECK(cpim_region_xts(reg, CPIM_ENCRYPT, k, 32) == CPIM_ERR_XTS_WEAK_KEY, "weak key");
        CHECK(cpim_region_ctr(reg, k, 20, n1) == CPIM_ERR_KEY_LENGTH, "key length");
    }
    cpim_region_free(reg);
    cpim_close(pim);
}

/* Faults: every checkpoint of an XTS encryption in the per-rank mode
 * (async-exec: rank 0 may have converted when rank 1's step fails) fails
 * once.  The call reports it; every DPU's share is then entirely old or
 * entirely new (launch-granular faults); the region is marked interrupted
 * and refuses writes and other operations; repeating the call with other
 * keys is refused, with the same keys it converts the rest. */
TEST(resident_faults)
{
    if (!test_require_backend("pim"))
        return;
    const size_t per = 8192, size = NDPU * per, unit = 1024;
    uint8_t *p = malloc(size), *c = malloc(size), *r = malloc(size);
    uint64_t seed = 17;
    test_fill(&seed, p, size);
    cpim_ctx *cpu = NULL;
    CHECK(cpim_open(&cpu, "cpu", NULL) == CPIM_OK, "cpu");
    reference(cpu, 1, CPIM_ENCRYPT, xk1, 32, n1, p, c, per, unit);
    int failed = 0, mixed = 0, clean = 0;
    for (unsigned long long n = 1; n < 200 && !clean; n++) {
        cpim_ctx *pim = open_pim(CPIM_PIM_ASYNC_EXEC, n);
        cpim_region *reg = NULL;
        if (!pim || cpim_region_create(pim, size, unit, &reg) != CPIM_OK ||
            cpim_region_write(reg, 0, p, size) != CPIM_OK) {
            cpim_region_free(reg), cpim_close(pim);
            continue; /* the fault hit the set-up */
        }
        cpim_err rc = cpim_region_xts(reg, CPIM_ENCRYPT, xk1, 32);
        if (rc == CPIM_OK) {
            CHECK(!cpim_region_interrupted(reg), "failAt=%llu: OK but interrupted", n);
            if (cpim_region_read(reg, 0, r, size) == CPIM_OK) { /* else: injected there */
                clean = 1;
                CHECK(!memcmp(r, c, size), "failAt=%llu: not injected, wrong ciphertext", n);
            }
        } else {
            failed++;
            CHECK(cpim_region_interrupted(reg), "failAt=%llu: %s but not marked", n,
                  cpim_strerror(rc));
            CHECK(cpim_region_read(reg, 0, r, size) == CPIM_OK, "failAt=%llu: read", n);
            int conv = 0;
            for (uint32_t d = 0; d < NDPU; d++) {
                int old = !memcmp(r + d * per, p + d * per, per);
                int new = !memcmp(r + d * per, c + d * per, per);
                CHECK(old || new, "failAt=%llu: DPU %u half converted", n, d);
                conv += new;
            }
            mixed += conv > 0 && conv < (int)NDPU;
            CHECK(cpim_region_write(reg, 0, p, 8) == CPIM_ERR_REGION_INTERRUPTED,
                  "failAt=%llu: write allowed", n);
            uint8_t root[32];
            CHECK(cpim_region_sha256(reg, NULL, root) == CPIM_ERR_REGION_INTERRUPTED,
                  "failAt=%llu: another operation allowed", n);
            CHECK(cpim_region_xts(reg, CPIM_ENCRYPT, xk2, 64) == CPIM_ERR_REGION_INTERRUPTED,
                  "failAt=%llu: a repeat with another key allowed", n);
            rc = cpim_region_xts(reg, CPIM_ENCRYPT, xk1, 32);
            CHECK(rc == CPIM_OK && !cpim_region_interrupted(reg), "failAt=%llu: repeat: %s", n,
                  cpim_strerror(rc));
            CHECK(cpim_region_read(reg, 0, r, size) == CPIM_OK && !memcmp(r, c, size),
                  "failAt=%llu: after the repeat: not the ciphertext", n);
        }
        cpim_region_free(reg);
        cpim_close(pim);
    }
    CHECK(clean, "no checkpoint count left the encryption alone");
    CHECK(failed > 0, "no fault hit the encryption");
    CHECK(mixed > 0, "no fault left some DPUs converted and others not");
    printf("# resident_faults: %d injected failures, %d with a partly converted region\n", failed,
           mixed);
    free(p), free(c), free(r);
    cpim_close(cpu);
}

/* The time of the in-place operations of 3 ranks of 4 DPUs on the modeled
 * clock: fully simulated, or timing-only with sampleRanks=1 (the backend
 * adds sampleDpus=1: one DPU of the first rank runs, the other ranks are
 * charged its cycles; bench --experiment resident runs so).  hostClock=none
 * keeps the host's measured work off the modeled clock, so the two runs
 * must agree exactly. ph[op][phase]: cpu-dpu, kernel, dpu-cpu, total. */
static void sampled_ranks_run(cpim_pim_mode mode, int sampled, double ph[3][4])
{
    cpim_options o;
    cpim_options_init(&o);
    o.ranks = 3;
    o.tasklets = 4;
    o.mode = mode;
    o.timing_only = sampled;
    o.profile = sampled ? "nrRanks=3,nrDpusPerRank=4,hostClock=none,sampleRanks=1"
                        : "nrRanks=3,nrDpusPerRank=4,hostClock=none";
    cpim_ctx *ctx = NULL;
    cpim_region *reg = NULL;
    CHECK(cpim_open(&ctx, "pim", &o) == CPIM_OK, "open (sampled %d)", sampled);
    CHECK(cpim_region_create(ctx, 12 * 16384, 1024, &reg) == CPIM_OK, "create");
    const cpim_err want = sampled ? CPIM_ERR_TIMING_ONLY : CPIM_OK;
    uint8_t root[32];
    for (int op = 0; op < 3; op++) {
        cpim_err rc = op == 0   ? cpim_region_xts(reg, CPIM_ENCRYPT, xk1, 32)
                      : op == 1 ? cpim_region_xts_rekey(reg, xk1, 32, xk2, 64)
                                : cpim_region_sha256(reg, NULL, root);
        CHECK(rc == want, "op %d (sampled %d): %s", op, sampled, cpim_strerror(rc));
        cpim_stats st;
        CHECK(cpim_region_last_stats(reg, &st) == CPIM_OK, "stats");
        ph[op][0] = st.modeled.cpu_dpu_s, ph[op][1] = st.modeled.kernel_s;
        ph[op][2] = st.modeled.dpu_cpu_s, ph[op][3] = st.modeled.total_s;
    }
    cpim_region_free(reg);
    cpim_close(ctx);
}

TEST(resident_sampled_ranks)
{
    for (unsigned i = 0; i < sizeof xk2; i++)
        xk2[i] = (uint8_t)(i * 29 + 7);
    static const cpim_pim_mode modes[] = {CPIM_PIM_SYNC, CPIM_PIM_ASYNC_EXEC};
    for (int m = 0; m < 2; m++) {
        double full[3][4], smp[3][4];
        sampled_ranks_run(modes[m], 0, full);
        sampled_ranks_run(modes[m], 1, smp);
        for (int op = 0; op < 3; op++)
            for (int p = 0; p < 4; p++)
                CHECK(full[op][1] > 0 &&
                          fabs(smp[op][p] - full[op][p]) <= 1e-12 + 1e-9 * full[op][p],
                      "mode %d op %d phase %d: sampled %.9f s, simulated %.9f s", m, op, p,
                      smp[op][p], full[op][p]);
    }
}
