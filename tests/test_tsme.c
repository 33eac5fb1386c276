/*
 * test_tsme.c -- "TSME for MRAM" (dpu/tsme.h): DPU programs built
 * unchanged with `-include tsme.h` give, once the host decrypts their MRAM
 * heap (dpu/tsme_host.h: AES-XTS, unit u of DPU d has the tweak
 * d << 32 | u, 512-byte units), the bytes of their plain builds, while MRAM
 * read through the host library holds no 16-byte block of the clear text,
 * and the key is gone from WRAM afterwards.  Programs:
 *  - emu/validate/stream.c (STREAM copy, copy-DMA, add, triad);
 *  - tests/tsme/seqio.c: seqread (init, get, seek) and
 *    mram_read_unaligned / mram_write_unaligned at odd addresses;
 *  - PrIM's VA and RED (their dpu/task.c unchanged, bench/prim.mk), checked
 *    against a host computation as PrIM's hosts do; skipped when PrIM's
 *    sources were not given to the build (PRIM_DIR / PRIM_GIT).
 */
#include <dpu.h>
#ifdef DPU_EMU
#include <dpu_emu.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../emu/validate/micro_args.h"
#include "cryptopim.h"
#include "test.h"
#include "tsme_host.h"

#ifdef DPU_EMU
#define NDPU 2u

static const uint8_t key[32] = {0x60, 0x3d, 0xeb, 0x10, 0x15, 0xca, 0x71, 0xbe, 0x2b, 0x73, 0xae,
                                0xf0, 0x85, 0x7d, 0x77, 0x81, 0x1f, 0x35, 0x2c, 0x07, 0x3b, 0x61,
                                0x08, 0xd7, 0x2d, 0x98, 0x10, 0xa3, 0x09, 0x14, 0xdf, 0xf4};

/* A launch: `prog` on NDPU DPUs; img[d] (n bytes) is written to DPU d's
 * heap, `args` (alen bytes) to the symbol `sym`, and after the run the heap
 * is read back into img[d] and `rsym` (rlen bytes per DPU, may be NULL)
 * into res[d * rlen].  tsme: install the key image per DPU first, and
 * overwrite it with zeros after (checked). */
typedef struct {
    const char *sym;
    const void *args;
    size_t alen;
    const char *rsym;
    void *res;
    size_t rlen;
    const char *prof;          /* profile keys added (NULL: none) */
    unsigned long long cycles; /* out: the slowest DPU's cycles (modeled) */
} launch;

static int run(const char *prog, uint8_t **img, size_t n, const launch *l, int tsme)
{
    struct dpu_set_t set, dpu;
    uint32_t i;
    char prof[160];
    snprintf(prof, sizeof prof, "nrRanks=1,nrDpusPerRank=2,hostClock=none%s%s", l->prof ? "," : "",
             l->prof ? l->prof : "");
    if (dpu_alloc(NDPU, prof, &set) != DPU_OK)
        return -1;
    dpu_error_t e = dpu_load(set, prog, NULL);
    DPU_FOREACH (set, dpu, i) {
        if (e == DPU_OK && tsme) {
            struct tsme_key_args k;
            tsme_host_key(&k, key, sizeof key, i);
            e = dpu_copy_to(dpu, TSME_KEY_NAME, 0, &k, sizeof k);
            cpim_wipe(&k, sizeof k);
        }
        if (e == DPU_OK)
            e = dpu_copy_to(dpu, DPU_MRAM_HEAP_POINTER_NAME, 0, img[i], n);
        if (e == DPU_OK && l->alen)
            e = dpu_copy_to(dpu, l->sym, 0, l->args, l->alen);
    }
    if (e == DPU_OK)
        e = dpu_launch(set, DPU_SYNCHRONOUS);
    dpu_emu_stats_t st;
    dpu_emu_get_stats(&st);
    ((launch *)l)->cycles = st.dpu_cycles_max;
    DPU_FOREACH (set, dpu, i) {
        if (e == DPU_OK)
            e = dpu_copy_from(dpu, DPU_MRAM_HEAP_POINTER_NAME, 0, img[i], n);
        if (e == DPU_OK && l->rsym)
            e = dpu_copy_from(dpu, l->rsym, 0, (uint8_t *)l->res + i * l->rlen, l->rlen);
        if (e == DPU_OK && tsme) {
            static const struct tsme_key_args zero;
            struct tsme_key_args after;
            e = dpu_copy_to(dpu, TSME_KEY_NAME, 0, &zero, sizeof zero);
            if (e == DPU_OK)
                e = dpu_copy_from(dpu, TSME_KEY_NAME, 0, &after, sizeof after);
            CHECK(e == DPU_OK && !memcmp(&after, &zero, sizeof zero), "key wiped from WRAM");
        }
    }
    dpu_free(set);
    CHECK(e == DPU_OK, "%s: %d", prog, e);
    return e == DPU_OK ? 0 : -1;
}

/* 16-byte blocks of `enc` equal to a non-zero block of `clear` (anywhere:
 * moved data counts too). */
static int leaks(const uint8_t *enc, const uint8_t *clear, size_t n)
{
    static const uint8_t zero[16];
    int k = 0;
    for (size_t p = 0; p < n; p += 16) {
        if (!memcmp(clear + p, zero, 16))
            continue;
        for (size_t o = 0; o < n; o += 16)
            k += !memcmp(enc + o, clear + p, 16);
    }
    return k;
}

/* Runs the plain build on img and the TSME build on its encryption, then
 * checks: the TSME build's heap decrypted == the plain build's heap, which
 * appears nowhere in it; the results of rsym agree.  Returns 0 if it ran. */
static int compare(const char *plain_prog, const char *tsme_prog, uint8_t **img, size_t n,
                   launch *l)
{
    cpim_ctx *cpu = NULL;
    uint8_t *enc[NDPU], *out = malloc(n), *res_t = l->rsym ? malloc(NDPU * l->rlen) : NULL;
    for (uint32_t d = 0; d < NDPU; d++)
        enc[d] = malloc(n);
    int rc = -1;
    CHECK(cpim_open(&cpu, "cpu", NULL) == CPIM_OK && cpim_xts_set_key(cpu, key, 32) == CPIM_OK,
          "cpu");
    for (uint32_t d = 0; d < NDPU; d++)
        CHECK(tsme_host_crypt(cpu, CPIM_ENCRYPT, d, 0, img[d], enc[d], n) == CPIM_OK,
              "host encrypt");
    void *res_p = l->res;
    if (run(plain_prog, img, n, l, 0) != 0)
        goto out;
    l->res = res_t;
    int ok = run(tsme_prog, enc, n, l, 1);
    l->res = res_p;
    if (ok != 0)
        goto out;
    for (uint32_t d = 0; d < NDPU; d++) {
        CHECK(tsme_host_crypt(cpu, CPIM_DECRYPT, d, 0, enc[d], out, n) == CPIM_OK, "host decrypt");
        CHECK_MEM(out, img[d], n, "TSME build's MRAM, decrypted == the plain build's");
        int k = leaks(enc[d], img[d], n);
        CHECK(k == 0, "DPU %u: %d clear-text blocks in MRAM", d, k);
    }
    if (l->rsym)
        CHECK_MEM(res_t, l->res, NDPU * l->rlen, "results in WRAM: TSME build == plain build");
    rc = 0;
out:
    for (uint32_t d = 0; d < NDPU; d++)
        free(enc[d]);
    free(out), free(res_t);
    cpim_close(cpu);
    return rc;
}

/* ---- STREAM ---- */
#define NB 8192u /* bytes per array per DPU: 2 blocks per tasklet */

static void stream_case(uint32_t kernel)
{
    uint8_t *img[NDPU];
    uint64_t seed = 0x75e + kernel;
    for (uint32_t d = 0; d < NDPU; d++) {
        img[d] = calloc(3 * NB, 1);
        test_fill(&seed, img[d], 2 * NB);
    }
    micro_args_t args = {NB, MICRO_COUNT_CYCLES, kernel, 0};
    launch l = {"ARGS", &args, sizeof args, NULL, NULL, 0, NULL, 0};
    uint8_t want[3 * NB];
    memcpy(want, img[1], sizeof want);
    if (compare(CPIM_DPU_DIR "/tsme/plain-stream-t4", CPIM_DPU_DIR "/tsme/stream-t4", img, 3 * NB,
                &l) == 0) {
        /* and the plain build is right (DPU 1): c from a and b */
        const uint64_t *a = (const uint64_t *)want, *b = a + NB / 8, s = NB / 8;
        uint64_t *c = (uint64_t *)(want + 2 * NB);
        for (uint32_t i = 0; i < NB / 8; i++)
            c[i] = kernel == MICRO_STREAM_ADD     ? a[i] + b[i]
                   : kernel == MICRO_STREAM_TRIAD ? a[i] + s * b[i]
                   : kernel == MICRO_STREAM_SCALE ? s * a[i]
                                                  : a[i];
        CHECK_MEM(img[1], want, 3 * NB, "STREAM result");
    }
    for (uint32_t d = 0; d < NDPU; d++)
        free(img[d]);
}

TEST(tsme_stream_copy)
{
    stream_case(MICRO_STREAM_COPY);
}
TEST(tsme_stream_copy_dma)
{
    stream_case(MICRO_STREAM_COPY_DMA);
}
TEST(tsme_stream_add)
{
    stream_case(MICRO_STREAM_ADD);
}
TEST(tsme_stream_triad)
{
    stream_case(MICRO_STREAM_TRIAD);
}

/* ---- seqread and the unaligned helpers (tests/tsme/seqio.c) ---- */
#define SQ_T  4u
#define SQ_NB 4096u
#define SQ_N  (3 * SQ_T * SQ_NB + 512)

TEST(tsme_seqread_unaligned)
{
    uint8_t *img[NDPU];
    uint64_t seed = 0x5e9;
    for (uint32_t d = 0; d < NDPU; d++) {
        img[d] = calloc(SQ_N, 1);
        test_fill(&seed, img[d], SQ_T * SQ_NB);
    }
    launch l = {NULL, NULL, 0, NULL, NULL, 0, NULL, 0}; /* no arguments */
    uint8_t want[SQ_N];
    memcpy(want, img[0], SQ_N);
    if (compare(CPIM_DPU_DIR "/tsme/plain-seqio-t4", CPIM_DPU_DIR "/tsme/seqio-t4", img, SQ_N,
                &l) == 0) {
        /* the plain build against a host computation (DPU 0) */
        for (uint32_t t = 0; t < SQ_T; t++) {
            const uint8_t *in = want + t * SQ_NB;
            uint32_t sum = 0, sum2 = 0, x;
            for (uint32_t j = 0; j < SQ_NB / 4; j++) {
                memcpy(&x, in + 4 * j, 4);
                sum += x, x = x * 0x9e3779b1u + j;
                memcpy(want + SQ_T * SQ_NB + t * SQ_NB + 4 * j, &x, 4);
            }
            for (uint32_t j = 0; j < 100; j++) {
                memcpy(&x, in + SQ_NB / 2 + 12 + 4 * j, 4);
                sum2 += x ^ j;
            }
            memcpy(want + 3 * SQ_T * SQ_NB + 16 * t, &sum, 4);
            memcpy(want + 3 * SQ_T * SQ_NB + 16 * t + 4, &sum2, 4);
            for (uint32_t k = 0; 3 + 13 * (k + 1) + 5 <= SQ_NB; k++)
                for (uint32_t i = 0; i < 13; i++)
                    want[2 * SQ_T * SQ_NB + t * SQ_NB + 8 + 13 * k + i] = in[3 + 13 * k + 12 - i];
        }
        CHECK_MEM(img[0], want, SQ_N, "seqio result");
    }
    for (uint32_t d = 0; d < NDPU; d++)
        free(img[d]);
}

/* ---- the what-if (hypothetical hardware): an AES engine on the DMA path
 * prices every DMA and changes no output (the emulator does not encrypt) */
TEST(tsme_dma_aes_engine_prices_only)
{
    static const char *const prof[] = {NULL, "dmaAesCyclesPerBlock=1", "dmaAesCyclesPerBlock=8",
                                       "dmaAesCyclesPerBlock=64,dmaAesPipelined=1"};
    unsigned long long cyc[4] = {0};
    uint8_t *img[4][NDPU];
    uint64_t seed = 0xae5;
    micro_args_t args = {NB, MICRO_COUNT_CYCLES, MICRO_STREAM_TRIAD, 0};
    for (int p = 0; p < 4; p++) {
        for (uint32_t d = 0; d < NDPU; d++) {
            img[p][d] = calloc(3 * NB, 1);
            if (p == 0)
                test_fill(&seed, img[p][d], 2 * NB);
            else
                memcpy(img[p][d], img[0][d], 3 * NB); /* before the run */
        }
    }
    for (int p = 0; p < 4; p++) {
        launch l = {"ARGS", &args, sizeof args, NULL, NULL, 0, prof[p], 0};
        if (run(CPIM_DPU_DIR "/tsme/plain-stream-t4", img[p], 3 * NB, &l, 0) != 0)
            goto out;
        cyc[p] = l.cycles;
    }
    for (int p = 1; p < 4; p++)
        for (uint32_t d = 0; d < NDPU; d++)
            CHECK_MEM(img[p][d], img[0][d], 3 * NB, "output with the engine == without");
    CHECK(cyc[0] < cyc[1] && cyc[1] < cyc[2], "serial engine: cycles grow with C: %llu %llu %llu",
          cyc[0], cyc[1], cyc[2]);
    /* 1 KiB DMAs = 64 blocks: C = 8 adds 512 cycles to each; a tasklet
     * waits for its own 6 (2 blocks of a, b in, c out) one after the other */
    CHECK(cyc[2] - cyc[0] >= 6ull * 512, "serial C = 8: +%llu cycles", cyc[2] - cyc[0]);
    CHECK(cyc[3] > cyc[0], "pipelined C = 64: %llu vs %llu", cyc[3], cyc[0]);
out:
    for (int p = 0; p < 4; p++)
        for (uint32_t d = 0; d < NDPU; d++)
            free(img[p][d]);
}

/* ---- PrIM's VA and RED (16 tasklets, BL=10, as their Makefiles) ---- */
typedef struct { /* VA/support/common.h */
    uint32_t size, transfer_size, kernel;
} va_args;
typedef struct { /* RED/support/common.h, T = int64_t */
    uint32_t size, kernel;
    int64_t t_count;
} red_args;
typedef struct {
    uint64_t cycles;
    int64_t t_count;
} red_results;

static int have(const char *a, const char *b)
{
    if (access(a, R_OK) == 0 && access(b, R_OK) == 0)
        return 1;
    test_skip("PrIM's sources were not given to the build (make PRIM_DIR=... or PRIM_GIT=..., "
              "bench/prim.mk)");
    return 0;
}

TEST(tsme_prim_va)
{
    const char *plain = CPIM_DPU_DIR "/tsme/plain-va-t16", *tsme = CPIM_DPU_DIR "/tsme/va-t16";
    if (!have(plain, tsme))
        return;
    enum { N = 5000 }; /* int32 per DPU: not a multiple of the 1 KiB block */
    const uint32_t bytes = N * 4, xfer = (bytes + 511) & ~511u;
    uint8_t *img[NDPU];
    int32_t *want[NDPU];
    uint64_t seed = 0x7a;
    for (uint32_t d = 0; d < NDPU; d++) {
        img[d] = calloc(2 * xfer, 1);
        want[d] = malloc(bytes);
        int32_t *A = (int32_t *)img[d], *B = (int32_t *)(img[d] + xfer);
        /* < 2^30: A + B cannot overflow int32 (signed overflow is undefined) */
        for (uint32_t i = 0; i < N; i++)
            A[i] = (int32_t)(test_rand(&seed) >> 34), B[i] = (int32_t)(test_rand(&seed) >> 34);
        for (uint32_t i = 0; i < N; i++)
            want[d][i] = A[i] + B[i];
    }
    va_args args = {bytes, xfer, 0};
    launch l = {"DPU_INPUT_ARGUMENTS", &args, sizeof args, NULL, NULL, 0, NULL, 0};
    if (compare(plain, tsme, img, 2 * xfer, &l) == 0)
        for (uint32_t d = 0; d < NDPU; d++)
            CHECK_MEM(img[d] + xfer, want[d], bytes, "VA: B = A + B");
    for (uint32_t d = 0; d < NDPU; d++)
        free(img[d]), free(want[d]);
}

TEST(tsme_prim_red)
{
    const char *plain = CPIM_DPU_DIR "/tsme/plain-red-t16", *tsme = CPIM_DPU_DIR "/tsme/red-t16";
    if (!have(plain, tsme))
        return;
    enum { N = 3000 }; /* int64 per DPU */
    const uint32_t bytes = N * 8, n = (bytes + 511) & ~511u;
    uint8_t *img[NDPU];
    int64_t want[NDPU] = {0};
    uint64_t seed = 0x4ed;
    for (uint32_t d = 0; d < NDPU; d++) {
        img[d] = calloc(n, 1);
        int64_t *A = (int64_t *)img[d];
        for (uint32_t i = 0; i < N; i++)
            A[i] = (int64_t)(test_rand(&seed) >> 40), want[d] += A[i];
    }
    red_args args = {bytes, 0, 0};
    red_results res[NDPU][16];
    launch l = {
        "DPU_INPUT_ARGUMENTS", &args, sizeof args, "DPU_RESULTS", res, sizeof res[0], NULL, 0};
    if (compare(plain, tsme, img, n, &l) == 0)
        for (uint32_t d = 0; d < NDPU; d++)
            CHECK(res[d][0].t_count == want[d], "RED: DPU %u: %lld, want %lld", d,
                  (long long)res[d][0].t_count, (long long)want[d]);
    for (uint32_t d = 0; d < NDPU; d++)
        free(img[d]);
}
#endif
