/*
 * test_engines.c -- the backend rows and their engines (src/core/backend.h):
 * which backend serves each family of a row, that a context opens each
 * serving backend once, and the rows' metadata through the public calls
 * (cpim_backend_chunk, cpim_backend_constant_time).
 */
#include <string.h>

#include "backend.h"
#include "core.h"
#include "cryptopim.h"
#include "test.h"

TEST(engines_serving)
{
    const cpim_backend *cpu = &cpim_backend_cpu;
    CHECK(cpim_backend_serving(&cpim_backend_shani, CPIM_FAMILY_AES) == cpu, "shani AES");
    CHECK(cpim_backend_serving(&cpim_backend_shani, CPIM_FAMILY_NTT) == cpu, "shani NTT");
    CHECK(cpim_backend_serving(&cpim_backend_shani, CPIM_FAMILY_SHA) == &cpim_backend_shani,
          "shani SHA");
    CHECK(cpim_backend_serving(&cpim_backend_aesni, CPIM_FAMILY_SHA) == cpu, "aesni SHA");
    CHECK(cpim_backend_serving(&cpim_backend_aesni, CPIM_FAMILY_NTT) == &cpim_backend_aesni,
          "aesni NTT");
    CHECK(cpim_backend_serving(&cpim_backend_cpu_table, CPIM_FAMILY_AES) == &cpim_backend_cpu_table,
          "cpu-table AES");
    CHECK(cpim_backend_serving(&cpim_backend_cpu_table, CPIM_FAMILY_SHA) == cpu, "cpu-table SHA");
    CHECK(cpim_backend_serving(cpu, CPIM_FAMILY_REGION) == NULL, "cpu has no regions");
    CHECK(cpim_backend_serving(&cpim_backend_pim, CPIM_FAMILY_REGION) == &cpim_backend_pim,
          "pim regions");
    /* auto: aesni for AES and the NTT, shani for SHA-256, when available */
    const char *why;
    const cpim_backend *aes = cpim_backend_aesni.available(&why) ? &cpim_backend_aesni : cpu;
    const cpim_backend *sha = cpim_backend_shani.available(&why) ? &cpim_backend_shani : cpu;
    CHECK(cpim_backend_serving(&cpim_backend_auto, CPIM_FAMILY_AES) == aes, "auto AES");
    CHECK(cpim_backend_serving(&cpim_backend_auto, CPIM_FAMILY_NTT) == aes, "auto NTT");
    CHECK(cpim_backend_serving(&cpim_backend_auto, CPIM_FAMILY_SHA) == sha, "auto SHA");
    CHECK(cpim_backend_serving(&cpim_backend_auto, CPIM_FAMILY_REGION) == NULL, "auto regions");
}

/* Each row serves every family but regions from some backend (only pim has
 * regions), and an engine a row names is one of its own or from[]'s. */
TEST(engines_every_row_complete)
{
    for (size_t i = 0; i < cpim_backend_nr(); i++) {
        const cpim_backend *b = cpim_backend_at(i);
        for (int f = 0; f < CPIM_FAMILY_REGION; f++) {
            const cpim_backend *by = cpim_backend_serving(b, (cpim_family)f);
            CHECK(by != NULL && cpim_backend_engine(by, (cpim_family)f) != NULL,
                  "%s: family %d has no engine", b->name, f);
        }
        CHECK(b->chunk >= 16 && b->chunk % 16 == 0, "%s: chunk %zu", b->name, b->chunk);
    }
}

/* cpu-table takes SHA-256 and the NTT from cpu: one cpu state for both,
 * and its own (T-table) state for AES. */
TEST(engines_open_each_backend_once)
{
    cpim_ctx *ctx = NULL;
    CHECK(cpim_open(&ctx, "cpu-table", NULL) == CPIM_OK, "open");
    if (!ctx)
        return;
    CHECK(ctx->fam[CPIM_FAMILY_SHA].by == &cpim_backend_cpu, "SHA by cpu");
    CHECK(ctx->fam[CPIM_FAMILY_NTT].state == ctx->fam[CPIM_FAMILY_SHA].state, "cpu opened once");
    CHECK(ctx->fam[CPIM_FAMILY_AES].state != ctx->fam[CPIM_FAMILY_SHA].state,
          "cpu-table's own state for AES");
    CHECK(ctx->fam[CPIM_FAMILY_REGION].by == NULL, "no regions");
    cpim_region *r = NULL;
    CHECK(cpim_region_create(ctx, 1 << 20, 0, &r) == CPIM_ERR_UNSUPPORTED && !r,
          "regions unsupported");
    CHECK(strcmp(cpim_ctx_backend(ctx), "cpu-table") == 0, "named as opened");
    cpim_close(ctx);
}

TEST(engines_public_metadata)
{
    CHECK(cpim_backend_chunk("pim") == (8u << 20), "pim chunk %zu", cpim_backend_chunk("pim"));
    CHECK(cpim_backend_chunk("cpu") == (1u << 20), "cpu chunk");
    CHECK(cpim_backend_chunk("auto") == (1u << 20), "auto chunk");
    CHECK(cpim_backend_chunk("no-such") == (1u << 20), "unknown name: the host chunk");
    CHECK(cpim_backend_chunk(NULL) == (1u << 20), "NULL name");
    CHECK(cpim_backend_constant_time("cpu-table") == 0, "cpu-table is not constant-time");
    CHECK(cpim_backend_constant_time("cpu") == 1, "cpu is");
    CHECK(cpim_backend_constant_time("aesni") == 1, "aesni is");
    CHECK(cpim_backend_constant_time("no-such") == -1, "unknown name");
}
