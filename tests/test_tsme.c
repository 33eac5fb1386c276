/*
 * test_tsme.c -- "TSME for MRAM" (issue 17, dpu/tsme.h): the STREAM kernel
 * of emu/validate/stream.c, built unchanged with `-include tsme.h`, gives
 * the results of its plain build while the MRAM heap holds only AES-XTS
 * ciphertext (read back through the host library), with the tweak the
 * host computes (unit u of DPU d: d << 32 | u, 512-byte units).
 * (Not covered here: PrIM's VA and RED built the same way, and the
 * seqread / unaligned paths of tsme.h; see docs/RESIDENT.md.)
 */
#include <dpu.h>
#include <stdlib.h>
#include <string.h>

#include "../emu/validate/micro_args.h"
#include "aes.h"
#include "cryptopim.h"
#include "test.h"

#ifdef DPU_EMU
#define NB        8192u /* bytes per array per DPU: 2 blocks per tasklet */
#define NDPU      2u
#define TSME_UNIT 512u

struct tsme_key_args { /* dpu/tsme.h */
    uint32_t rk[60], dk[60], k2[60];
    uint32_t nr, dpu;
};

static const uint8_t key[32] = {0x60, 0x3d, 0xeb, 0x10, 0x15, 0xca, 0x71, 0xbe, 0x2b, 0x73, 0xae,
                                0xf0, 0x85, 0x7d, 0x77, 0x81, 0x1f, 0x35, 0x2c, 0x07, 0x3b, 0x61,
                                0x08, 0xd7, 0x2d, 0x98, 0x10, 0xa3, 0x09, 0x14, 0xdf, 0xf4};

/* Runs `prog` on NDPU DPUs over heap images img[d] (3 * NB bytes: a, b,
 * c), reads them back; key != NULL installs the TSME key per DPU first
 * and wipes it after. */
static int run(const char *prog, uint32_t kernel, uint8_t (*img)[3 * NB],
               const struct tsme_key_args *k)
{
    struct dpu_set_t set, dpu;
    uint32_t i;
    if (dpu_alloc(NDPU, "nrRanks=1,nrDpusPerRank=2", &set) != DPU_OK)
        return -1;
    dpu_error_t e = dpu_load(set, prog, NULL);
    micro_args_t args = {NB, MICRO_COUNT_CYCLES, kernel, 0};
    DPU_FOREACH (set, dpu, i) {
        if (e == DPU_OK && k) {
            struct tsme_key_args kd = *k;
            kd.dpu = i;
            e = dpu_copy_to(dpu, "tsme_key", 0, &kd, sizeof kd);
        }
        if (e == DPU_OK)
            e = dpu_copy_to(dpu, DPU_MRAM_HEAP_POINTER_NAME, 0, img[i], 3 * NB);
        if (e == DPU_OK)
            e = dpu_copy_to(dpu, "ARGS", 0, &args, sizeof args);
    }
    if (e == DPU_OK)
        e = dpu_launch(set, DPU_SYNCHRONOUS);
    DPU_FOREACH (set, dpu, i) {
        if (e == DPU_OK)
            e = dpu_copy_from(dpu, DPU_MRAM_HEAP_POINTER_NAME, 0, img[i], 3 * NB);
        if (e == DPU_OK && k) {
            static const struct tsme_key_args zero;
            struct tsme_key_args after;
            e = dpu_copy_to(dpu, "tsme_key", 0, &zero, sizeof zero);
            if (e == DPU_OK)
                e = dpu_copy_from(dpu, "tsme_key", 0, &after, sizeof after);
            CHECK(e == DPU_OK && !memcmp(&after, &zero, sizeof zero), "key wiped from WRAM");
        }
    }
    dpu_free(set);
    CHECK(e == DPU_OK, "%s: %d", prog, e);
    return e == DPU_OK ? 0 : -1;
}

static void stream_case(uint32_t kernel)
{
    static uint8_t plain[NDPU][3 * NB], enc[NDPU][3 * NB], clear[NDPU][3 * NB];
    uint64_t seed = 0x75e + kernel;
    for (uint32_t d = 0; d < NDPU; d++) {
        test_fill(&seed, plain[d], 2 * NB);
        memset(plain[d] + 2 * NB, 0, NB);
    }
    memcpy(clear, plain, sizeof clear);
    cpim_ctx *cpu = NULL;
    CHECK(cpim_open(&cpu, "cpu", NULL) == CPIM_OK && cpim_xts_set_key(cpu, key, 32) == CPIM_OK,
          "cpu");
    /* the host encrypts a, b and the zero c with the DPU's tweaks */
    for (uint32_t d = 0; d < NDPU; d++)
        CHECK(cpim_aes_xts(cpu, CPIM_ENCRYPT, (uint64_t)d << 32, TSME_UNIT, plain[d], enc[d],
                           3 * NB) == CPIM_OK,
              "host encrypt");
    cpim_crypto_aes_ks ek, dk, k2;
    cpim_crypto_aes_expand_enc(&ek, key, 16);
    cpim_crypto_aes_dec_from_enc(&dk, &ek);
    cpim_crypto_aes_expand_enc(&k2, key + 16, 16);
    struct tsme_key_args k;
    memcpy(k.rk, ek.rk, sizeof k.rk), memcpy(k.dk, dk.rk, sizeof k.dk);
    memcpy(k.k2, k2.rk, sizeof k.k2);
    k.nr = ek.nr, k.dpu = 0;
    if (run(CPIM_DPU_DIR "/tsme/plain-stream-t4", kernel, plain, NULL) != 0 ||
        run(CPIM_DPU_DIR "/tsme/stream-t4", kernel, enc, &k) != 0) {
        cpim_close(cpu);
        return;
    }
    int leaks = 0;
    for (uint32_t d = 0; d < NDPU; d++) {
        for (uint32_t o = 0; o < 3 * NB; o += 16) /* MRAM: no clear-text block */
            for (uint32_t p = 0; p < 3 * NB; p += 16)
                leaks += !memcmp(enc[d] + o, plain[d] + p, 16) &&
                         !memcmp(clear[d] + p, plain[d] + p, 16);
        uint8_t out[3 * NB];
        CHECK(cpim_aes_xts(cpu, CPIM_DECRYPT, (uint64_t)d << 32, TSME_UNIT, enc[d], out, 3 * NB) ==
                  CPIM_OK,
              "host decrypt");
        CHECK_MEM(out, plain[d], 3 * NB, "TSME build's MRAM, decrypted == the plain build's");
    }
    CHECK(leaks == 0, "%d clear-text blocks in MRAM", leaks);
    cpim_close(cpu);
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
#endif
