/*
 * test_sha_simd.c -- every engine of the `shani` backend (src/cpu/shani.c,
 * sha256_x86.h) against the portable SHA-256 (src/crypto/).
 *
 * Each engine set is forced through the internal hook
 * cpim_sha256_x86_set_engines() before cpim_open() (not a public knob): SHA-NI
 * alone (x1 + 4 interleaved streams), AVX2 alone (8 lanes, the portable code
 * for the last message), AVX-512 alone (16 lanes, likewise), and everything
 * (AVX-512 lanes with the hand-over of the tail to SHA-NI streams, the
 * default on this kind of CPU).  An engine set this CPU lacks is a SKIP.
 * Cases: every length 0..300 in one batch and alone, the padding boundaries
 * (55/56/63/64/119/120...) in batches of 1..40 messages (idle lanes, exactly
 * full lanes, refills, the hand-over), random sizes up to 200 KiB, unaligned
 * buffers, 2 threads, and the streaming API (runs of blocks of many streams).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/cpu/sha256_x86.h"
#include "common.h"
#include "cryptopim.h"
#include "sha256.h"
#include "test.h"

enum { SET_NI, SET_AVX2, SET_AVX512, SET_ALL, NSETS };
static const char *const set_name[NSETS] = {"ni", "avx2", "avx512", "all"};
static const unsigned set_mask[NSETS] = {CPIM_SHA_ENG_NI, CPIM_SHA_ENG_AVX2, CPIM_SHA_ENG_AVX512,
                                         ~0u};

/* Opens `shani` restricted to engine set k; NULL (and a SKIP) if this CPU
 * lacks it. */
static cpim_ctx *open_set(size_t k, unsigned threads)
{
    unsigned old = cpim_sha256_x86_set_engines(set_mask[k]);
    unsigned have = cpim_sha256_x86_engines();
    cpim_ctx *ctx = NULL;
    if (k == SET_ALL ? !have : have != set_mask[k]) {
        cpim_sha256_x86_set_engines(old);
        test_skip("this CPU lacks the engine");
        return NULL;
    }
    cpim_options opt;
    cpim_options_init(&opt);
    opt.threads = threads;
    cpim_err rc = cpim_open(&ctx, "shani", &opt);
    cpim_sha256_x86_set_engines(old);
    CHECK(rc == CPIM_OK, "open shani (%s): %s", set_name[k], cpim_strerror(rc));
    return rc == CPIM_OK ? ctx : NULL;
}

static int check_batch(cpim_ctx *ctx, const uint8_t *const *msgs, const size_t *lens, size_t count,
                       const char *what)
{
    uint8_t(*dg)[32] = malloc(32 * (count ? count : 1));
    CHECK(dg != NULL, "malloc");
    if (!dg)
        return 0;
    cpim_err rc = cpim_sha256_batch(ctx, msgs, lens, count, dg);
    int ok = rc == CPIM_OK;
    CHECK(ok, "%s: %s", what, cpim_strerror(rc));
    for (size_t i = 0; ok && i < count; i++) {
        uint8_t ref[32];
        cpim_crypto_sha256(msgs[i], (uint32_t)lens[i], ref);
        if (memcmp(dg[i], ref, 32)) {
            CHECK_MEM(dg[i], ref, 32, "digest");
            CHECK(0, "%s: message %zu of %zu, length %zu", what, i, count, lens[i]);
            ok = 0;
        }
    }
    free(dg);
    return ok;
}

/* Lengths 0..300 in one batch at unaligned offsets, then each alone. */
static void case_lengths(size_t k, size_t unused)
{
    (void)unused;
    cpim_ctx *ctx = open_set(k, 1);
    if (!ctx)
        return;
    uint64_t rs = 0x5a5a + k;
    enum { N = 301 };
    static uint8_t data[N + 64];
    const uint8_t *msgs[N];
    size_t lens[N];
    test_fill(&rs, data, sizeof data);
    for (size_t i = 0; i < N; i++) {
        msgs[i] = data + i % 61;
        lens[i] = i;
    }
    check_batch(ctx, msgs, lens, N, "lengths 0..300 in one batch");
    for (size_t i = 0; i < N; i++)
        if (!check_batch(ctx, &msgs[i], &lens[i], 1, "one message"))
            break;
    cpim_close(ctx);
}

/* The padding boundaries, batches of 1..40 messages: idle lanes, full lanes,
 * refills, long runs ending at different blocks, the tail hand-over. */
static void case_boundaries(size_t k, size_t unused)
{
    (void)unused;
    cpim_ctx *ctx = open_set(k, 1);
    if (!ctx)
        return;
    uint64_t rs = 0x3c3c + k;
    size_t cap = 300000;
    uint8_t *data = malloc(cap);
    CHECK(data != NULL, "malloc");
    if (!data)
        goto done;
    test_fill(&rs, data, cap);
    static const size_t pick[] = {0,   1,   55,  56,  63,   64,   65,        119,   120,
                                  127, 128, 183, 184, 1000, 4096, 65536 + 3, 250000};
    enum { NP = sizeof pick / sizeof pick[0] };
    const uint8_t *msgs[40];
    size_t lens[40];
    for (size_t count = 1; count <= 40; count++) {
        for (size_t rot = 0; rot < (count < 20 ? 5u : 2u); rot++) {
            for (size_t i = 0; i < count; i++) {
                lens[i] = pick[(i * 7 + rot * 3 + count) % NP];
                msgs[i] = lens[i] ? data + (i * 13 + rot) % 41 : NULL;
            }
            if (!check_batch(ctx, msgs, lens, count, "boundary lengths"))
                goto done;
        }
    }
done:
    free(data);
    cpim_close(ctx);
}

/* Random sizes (log-uniform up to 200 KiB), many messages, 1 and 2 threads. */
static void case_random(size_t k, size_t threads)
{
    cpim_ctx *ctx = open_set(k, (unsigned)threads);
    if (!ctx)
        return;
    uint64_t rs = 0x9e37 + k * 7 + threads;
    enum { N = 150 };
    size_t cap = 1 << 20;
    uint8_t *data = malloc(cap);
    CHECK(data != NULL, "malloc");
    if (!data)
        goto done;
    test_fill(&rs, data, cap);
    const uint8_t *msgs[N];
    size_t lens[N];
    for (int round = 0; round < 3; round++) {
        for (size_t i = 0; i < N; i++) {
            size_t bits = test_rand(&rs) % 18;
            lens[i] = test_rand(&rs) % ((size_t)1 << bits);
            msgs[i] = data + test_rand(&rs) % (cap - 200000);
        }
        if (!check_batch(ctx, msgs, lens, N, "random lengths"))
            break;
    }
done:
    free(data);
    cpim_close(ctx);
}

/* The streaming API (sha256_blocks: runs of whole blocks of many streams),
 * random chunks, against the portable one-shot digest. */
static void case_stream(size_t k, size_t unused)
{
    (void)unused;
    cpim_ctx *ctx = open_set(k, 1);
    if (!ctx)
        return;
    uint64_t rs = 0x7777 + k;
    enum { N = 37 };
    size_t cap = 1 << 19;
    uint8_t *data = malloc(cap);
    cpim_sha256_state *st = calloc(N, sizeof *st);
    CHECK(data && st, "malloc");
    if (!data || !st)
        goto done;
    test_fill(&rs, data, cap);
    size_t total[N], fed[N];
    cpim_sha256_state *sp[N];
    for (size_t i = 0; i < N; i++) {
        total[i] = test_rand(&rs) % (i % 3 ? 5000 : 60000);
        fed[i] = 0;
        sp[i] = &st[i];
        CHECK(cpim_sha256_init(sp[i]) == CPIM_OK, "init");
    }
    for (int step = 0; step < 40; step++) {
        const uint8_t *p[N];
        size_t lens[N];
        for (size_t i = 0; i < N; i++) {
            size_t left = total[i] - fed[i], n = test_rand(&rs) % 4000;
            lens[i] = n < left ? n : left;
            p[i] = lens[i] ? data + (i * 4099) % (cap - 60000) + fed[i] : NULL;
            fed[i] += lens[i];
        }
        cpim_err rc = cpim_sha256_update_many(ctx, sp, p, lens, N);
        CHECK(rc == CPIM_OK, "update_many: %s", cpim_strerror(rc));
    }
    for (size_t i = 0; i < N; i++) { /* the rest in one piece each */
        size_t left = total[i] - fed[i];
        const uint8_t *p = left ? data + (i * 4099) % (cap - 60000) + fed[i] : NULL;
        CHECK(cpim_sha256_update(ctx, sp[i], p, left) == CPIM_OK, "update");
    }
    uint8_t(*dg)[32] = malloc(N * 32);
    CHECK(dg != NULL, "malloc");
    cpim_err frc = dg ? cpim_sha256_final_many(ctx, sp, N, dg) : CPIM_ERR_NOMEM;
    CHECK(frc == CPIM_OK, "final_many: %s", cpim_strerror(frc));
    if (frc == CPIM_OK) {
        for (size_t i = 0; i < N; i++) {
            uint8_t ref[32];
            cpim_crypto_sha256(data + (i * 4099) % (cap - 60000), (uint32_t)total[i], ref);
            if (!CHECK_MEM(dg[i], ref, 32, "streamed digest")) {
                CHECK(0, "stream %zu, %zu bytes", i, total[i]);
                break;
            }
        }
    }
    free(dg);
done:
    free(data);
    free(st);
    cpim_close(ctx);
}

/* One message through cpim_sha256_update / cpim_sha256_final (what every
 * EVP digest does: the engine's one-stream op, not sha256_blocks): every
 * length 0..300 and random ones up to 70 KiB, fed in random pieces (0-byte
 * ones, single bytes, across block edges), against the portable one-shot
 * digest; and a refused update after final. */
static void case_one_stream(size_t k, size_t unused)
{
    (void)unused;
    cpim_ctx *ctx = open_set(k, 1);
    if (!ctx)
        return;
    uint64_t rs = 0x1575 + k;
    size_t cap = 72 << 10;
    uint8_t *data = malloc(cap);
    CHECK(data != NULL, "malloc");
    if (!data)
        goto done;
    test_fill(&rs, data, cap);
    for (size_t m = 0; m < 340; m++) {
        size_t len = m <= 300 ? m : (size_t)(test_rand(&rs) % (70u << 10));
        const uint8_t *msg = data + test_rand(&rs) % (cap - len + 1);
        cpim_sha256_state st;
        CHECK(cpim_sha256_init(&st) == CPIM_OK, "init");
        for (size_t fed = 0; fed < len || test_rand(&rs) % 4 == 0;) {
            uint64_t r = test_rand(&rs);
            size_t n = r % 4 == 0 ? 0 : r % 4 == 1 ? 1 : (size_t)(r >> 8) % (len - fed + 1);
            if (n > len - fed)
                n = len - fed;
            cpim_err rc = cpim_sha256_update(ctx, &st, n ? msg + fed : NULL, n);
            if (rc != CPIM_OK) {
                CHECK(0, "update: %s", cpim_strerror(rc));
                goto done;
            }
            fed += n;
        }
        uint8_t got[32], want[32];
        cpim_err rc = cpim_sha256_final(ctx, &st, got);
        if (rc != CPIM_OK) {
            CHECK(0, "final: %s", cpim_strerror(rc));
            goto done;
        }
        cpim_crypto_sha256(msg, (uint32_t)len, want);
        if (!CHECK_MEM(got, want, 32, "one-stream digest")) {
            CHECK(0, "message of %zu bytes", len);
            goto done;
        }
        CHECK(cpim_sha256_update(ctx, &st, data, 1) == CPIM_ERR_INVALID_ARG &&
                  cpim_sha256_final(ctx, &st, got) == CPIM_ERR_INVALID_ARG,
              "a finished state must be refused");
    }
done:
    free(data);
    cpim_close(ctx);
}

/* The forced engine sets are what they say: with AVX-512 masked off and
 * SHA-NI allowed, AVX-512 is not reported (so `avx2` and `ni` really test
 * those kernels on an AVX-512 machine). */
TEST(sha_simd_engine_mask)
{
    unsigned all = cpim_sha256_x86_engines();
    unsigned old = cpim_sha256_x86_set_engines(CPIM_SHA_ENG_NI | CPIM_SHA_ENG_AVX2);
    CHECK(!(cpim_sha256_x86_engines() & CPIM_SHA_ENG_AVX512), "AVX-512 masked");
    CHECK(cpim_sha256_x86_engines() == (all & (CPIM_SHA_ENG_NI | CPIM_SHA_ENG_AVX2)), "mask");
    cpim_sha256_x86_set_engines(0);
    cpim_backend_info info;
    CHECK(cpim_backend_info_by_name("shani", &info) == CPIM_OK && !info.available &&
              strstr(info.why, "SHA-NI") && strstr(info.why, "AVX2"),
          "no engine: available %d why '%s'", info.available, info.why);
    cpim_sha256_x86_set_engines(old);
    CHECK(cpim_sha256_x86_engines() == all, "restored");
}

__attribute__((constructor)) static void register_sha_simd(void)
{
    static char names[NSETS][6][48]; /* kept: cheap, and safe whatever the harness does */
    for (size_t k = 0; k < NSETS; k++) {
        snprintf(names[k][0], 48, "sha_simd_%s_lengths", set_name[k]);
        test_register_case(names[k][0], case_lengths, k, 0);
        snprintf(names[k][1], 48, "sha_simd_%s_boundaries", set_name[k]);
        test_register_case(names[k][1], case_boundaries, k, 0);
        snprintf(names[k][2], 48, "sha_simd_%s_random", set_name[k]);
        test_register_case(names[k][2], case_random, k, 1);
        snprintf(names[k][3], 48, "sha_simd_%s_random_2threads", set_name[k]);
        test_register_case(names[k][3], case_random, k, 2);
        snprintf(names[k][4], 48, "sha_simd_%s_stream", set_name[k]);
        test_register_case(names[k][4], case_stream, k, 0);
        snprintf(names[k][5], 48, "sha_simd_%s_one_stream", set_name[k]);
        test_register_case(names[k][5], case_one_stream, k, 0);
    }
}
