/*
 * test_hw.c -- edge cases of the hardware backends (src/cpu/aesni.c,
 * src/cpu/shani.c) against the portable code (src/crypto/).
 *
 * Every AES test runs on each kernel tier this CPU has (VAES-512, VAES-256,
 * plain AES-NI), selected by masking CPU features before cpim_open().
 * Official vectors and random cross-checks of every backend are in
 * test_vectors.c and test_backends.c; this file covers what only these code
 * paths have: the 2^64 carry of the counter's low word, the 2^128 wrap,
 * vector tails of every length, unaligned and in-place buffers, and the
 * multi-lane SHA-256 scheduler.
 */
#include <stdlib.h>
#include <string.h>

#include "../src/cpu/x86_cpu.h"
#include "aes.h"
#include "common.h"
#include "cryptopim.h"
#include "sha256.h"
#include "test.h"

#define NTIERS 3
static const char *const tier_name[NTIERS] = {"vaes512", "vaes256", "aesni"};

/* The feature mask that leaves tier t as the best one, or 0 if this CPU does
 * not have tier t. */
static unsigned tier_mask(int t)
{
    unsigned f = cpim_x86_features();
    switch (t) {
    case 0:
        return (f & CPIM_X86_VAES512) ? ~0u : 0;
    case 1:
        return (f & CPIM_X86_VAES) ? ~(unsigned)CPIM_X86_VAES512 : 0;
    default:
        return (f & CPIM_X86_AESNI) ? (unsigned)(CPIM_X86_AESNI | CPIM_X86_SSE41) : 0;
    }
}

/* Opens an aesni context on tier t (threads as given); NULL if absent. */
static cpim_ctx *open_tier(int t, unsigned threads)
{
    unsigned m = tier_mask(t);
    if (!m)
        return NULL;
    cpim_options opt;
    cpim_options_init(&opt);
    opt.threads = threads;
    cpim_ctx *ctx = NULL;
    unsigned old = cpim_x86_set_mask(m);
    cpim_err rc = cpim_open(&ctx, "aesni", &opt);
    cpim_x86_set_mask(old);
    CHECK(rc == CPIM_OK, "open aesni tier %s: %s", tier_name[t], cpim_strerror(rc));
    return ctx;
}

static const uint32_t key_lens[3] = {16, 24, 32};

/* Portable CTR over any length (the primitive takes uint32_t lengths). */
static void ref_ctr(const cpim_crypto_aes_ks *ek, uint8_t ctr[16], const uint8_t *in, uint8_t *out,
                    size_t len)
{
    cpim_crypto_aes_ctr(ek, ctr, in, out, (uint32_t)len);
}

TEST(hw_aesni_lengths_0_300)
{
    if (!test_require_backend("aesni"))
        return;
    uint64_t rs = 0x4857;
    uint8_t key[32], in[320 + 16], out[320 + 16], ref[320], ctr0[16];
    test_fill(&rs, key, sizeof key);
    test_fill(&rs, in, sizeof in);
    test_fill(&rs, ctr0, sizeof ctr0);
    for (int t = 0; t < NTIERS; t++) {
        cpim_ctx *ctx = open_tier(t, 1);
        if (!ctx)
            continue;
        for (int k = 0; k < 3; k++) {
            cpim_crypto_aes_ks ek, dk;
            cpim_crypto_aes_expand_enc(&ek, key, key_lens[k]);
            cpim_crypto_aes_dec_from_enc(&dk, &ek);
            CHECK(cpim_aes_set_key(ctx, key, key_lens[k]) == CPIM_OK, "set_key");
            for (size_t len = 0; len <= 300; len++) {
                /* Unaligned input and output: offsets 1..15 differ. */
                const uint8_t *src = in + (len % 13) + 1;
                uint8_t *dst = out + (len % 7) + 3;
                uint8_t c1[16], c2[16];
                memcpy(c1, ctr0, 16);
                memcpy(c2, ctr0, 16);
                ref_ctr(&ek, c1, src, ref, len);
                CHECK(cpim_aes_ctr(ctx, c2, src, dst, len) == CPIM_OK, "ctr");
                if (!CHECK_MEM(dst, ref, len, "ctr output") || !CHECK_MEM(c2, c1, 16, "counter"))
                    CHECK(0, "tier %s key %u len %zu", tier_name[t], key_lens[k], len);
                if (len % 16)
                    continue;
                for (int dir = 0; dir < 2; dir++) {
                    if (dir == CPIM_ENCRYPT)
                        cpim_crypto_aes_encrypt(&ek, src, ref, (uint32_t)(len / 16));
                    else
                        cpim_crypto_aes_decrypt(&dk, src, ref, (uint32_t)(len / 16));
                    CHECK(cpim_aes_ecb(ctx, (cpim_dir)dir, src, dst, len) == CPIM_OK, "ecb");
                    if (!CHECK_MEM(dst, ref, len, "ecb output"))
                        CHECK(0, "tier %s key %u len %zu dir %d", tier_name[t], key_lens[k], len,
                              dir);
                }
            }
        }
        cpim_close(ctx);
    }
}

/* Counter blocks whose low 64-bit word is 2^64 - back, with the high word
 * given: the run crosses the carry into the high word (or, for an all-ones
 * high word, the 2^128 wrap to zero). */
static void check_ctr_wrap(cpim_ctx *ctx, const cpim_crypto_aes_ks *ek, uint64_t hi, unsigned back,
                           const uint8_t *in, uint8_t *out, uint8_t *ref, size_t len,
                           const char *tier)
{
    uint8_t c1[16], c2[16];
    for (int i = 0; i < 8; i++) {
        c1[i] = (uint8_t)(hi >> (56 - 8 * i));
        c1[8 + i] = (uint8_t)((0 - (uint64_t)back) >> (56 - 8 * i));
    }
    memcpy(c2, c1, 16);
    ref_ctr(ek, c1, in, ref, len);
    CHECK(cpim_aes_ctr(ctx, c2, in, out, len) == CPIM_OK, "ctr");
    if (!CHECK_MEM(out, ref, len, "ctr output") || !CHECK_MEM(c2, c1, 16, "counter"))
        CHECK(0, "tier %s hi %016llx back %u len %zu", tier, (unsigned long long)hi, back, len);
}

TEST(hw_aesni_ctr_counter_wrap)
{
    if (!test_require_backend("aesni"))
        return;
    uint64_t rs = 0x2064;
    size_t cap = 20000 + 16;
    uint8_t *in = malloc(cap), *out = malloc(cap), *ref = malloc(cap), key[32];
    CHECK(in && out && ref, "malloc");
    if (!in || !out || !ref)
        goto done;
    test_fill(&rs, in, cap);
    test_fill(&rs, key, sizeof key);
    static const unsigned backs[] = {0, 1, 2, 3, 4, 5, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100};
    static const size_t lens[] = {1,   15,  16,  17,  64,   255,  256,
                                  257, 511, 512, 513, 1000, 4096, 20000};
    static const uint64_t his[] = {0, 0x0123456789abcdefull, ~0ull};
    for (int t = 0; t < NTIERS; t++) {
        cpim_ctx *ctx = open_tier(t, 1);
        if (!ctx)
            continue;
        for (int k = 0; k < 3; k++) {
            cpim_crypto_aes_ks ek;
            cpim_crypto_aes_expand_enc(&ek, key, key_lens[k]);
            cpim_aes_set_key(ctx, key, key_lens[k]);
            for (size_t h = 0; h < sizeof his / sizeof his[0]; h++)
                for (size_t b = 0; b < sizeof backs / sizeof backs[0]; b++)
                    for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++)
                        check_ctr_wrap(ctx, &ek, his[h], backs[b], in + 1, out + 1, ref, lens[l],
                                       tier_name[t]);
        }
        cpim_close(ctx);
    }
done:
    free(in);
    free(out);
    free(ref);
}

TEST(hw_aesni_in_place_and_continuation)
{
    if (!test_require_backend("aesni"))
        return;
    uint64_t rs = 0x1f1f;
    enum { N = 5000 };
    uint8_t key[16], ctr0[16], data[N + 1], ref[N], buf[N + 1], c1[16], c2[16];
    test_fill(&rs, key, sizeof key);
    test_fill(&rs, data, sizeof data);
    memset(ctr0, 0xff, sizeof ctr0); /* near both wraps */
    ctr0[15] = 0x80;
    cpim_crypto_aes_ks ek;
    cpim_crypto_aes_expand_enc(&ek, key, 16);
    memcpy(c1, ctr0, 16);
    ref_ctr(&ek, c1, data + 1, ref, N);
    for (int t = 0; t < NTIERS; t++) {
        cpim_ctx *ctx = open_tier(t, 1);
        if (!ctx)
            continue;
        cpim_aes_set_key(ctx, key, 16);
        /* In place, unaligned. */
        memcpy(buf + 1, data + 1, N);
        memcpy(c2, ctr0, 16);
        cpim_aes_ctr(ctx, c2, buf + 1, buf + 1, N);
        CHECK_MEM(buf + 1, ref, N, "ctr in place");
        CHECK_MEM(c2, c1, 16, "counter in place");
        /* The same stream in pieces of whole blocks, then a partial one. */
        static const size_t cuts[] = {16, 48, 512, 4096 - 16, 16 * 21};
        size_t at = 0;
        memcpy(c2, ctr0, 16);
        for (size_t i = 0; i < sizeof cuts / sizeof cuts[0] && at < N; i++) {
            cpim_aes_ctr(ctx, c2, data + 1 + at, buf + at, cuts[i]);
            at += cuts[i];
        }
        cpim_aes_ctr(ctx, c2, data + 1 + at, buf + at, N - at);
        CHECK_MEM(buf, ref, N, "ctr in pieces");
        CHECK_MEM(c2, c1, 16, "counter after pieces");
        /* ECB in place both ways gives the plaintext back. */
        memcpy(buf, data, 4992);
        cpim_aes_ecb(ctx, CPIM_ENCRYPT, buf, buf, 4992);
        cpim_aes_ecb(ctx, CPIM_DECRYPT, buf, buf, 4992);
        CHECK_MEM(buf, data, 4992, "ecb round trip in place");
        cpim_close(ctx);
    }
}

/* Several threads: each range starts from its own counter; the low-word
 * carry falls inside a range that is not the first. */
TEST(hw_aesni_threads_carry)
{
    if (!test_require_backend("aesni"))
        return;
    uint64_t rs = 0x7777;
    size_t len = (1u << 20) + 7; /* 65537 blocks, the last partial */
    uint8_t *in = malloc(len), *a = malloc(len), *b = malloc(len), key[32];
    CHECK(in && a && b, "malloc");
    if (!in || !a || !b)
        goto done;
    test_fill(&rs, in, len);
    test_fill(&rs, key, sizeof key);
    uint8_t ctr[16], c1[16], c2[16];
    memset(ctr, 0x5a, 8);
    memset(ctr + 8, 0xff, 8);
    ctr[14] = 0x7f; /* 2^64 - 0x8001: carry at block 32769 */
    ctr[15] = 0xff;
    for (int t = 0; t < NTIERS; t++) {
        cpim_ctx *one = open_tier(t, 1), *many = open_tier(t, 3);
        if (one && many) {
            cpim_aes_set_key(one, key, 32);
            cpim_aes_set_key(many, key, 32);
            memcpy(c1, ctr, 16);
            memcpy(c2, ctr, 16);
            cpim_aes_ctr(one, c1, in, a, len);
            cpim_aes_ctr(many, c2, in, b, len);
            if (!CHECK_MEM(b, a, len, "ctr, 3 threads vs 1"))
                CHECK(0, "tier %s", tier_name[t]);
            CHECK_MEM(c2, c1, 16, "counter, 3 threads vs 1");
            size_t el = len & ~(size_t)15;
            cpim_aes_ecb(one, CPIM_DECRYPT, in, a, el);
            cpim_aes_ecb(many, CPIM_DECRYPT, in, b, el);
            CHECK_MEM(b, a, el, "ecb decrypt, 3 threads vs 1");
        }
        cpim_close(one);
        cpim_close(many);
    }
done:
    free(in);
    free(a);
    free(b);
}

TEST(hw_unavailable_reasons)
{
    unsigned old = cpim_x86_set_mask(0);
    cpim_backend_info info;
    cpim_ctx *ctx = NULL;
    CHECK(cpim_backend_info_by_name("aesni", &info) == CPIM_OK && !info.available &&
              strstr(info.why, "AES-NI"),
          "aesni without AES-NI: available %d why '%s'", info.available, info.why);
    CHECK(cpim_backend_info_by_name("shani", &info) == CPIM_OK && !info.available &&
              strstr(info.why, "SHA"),
          "shani without SHA-NI: available %d why '%s'", info.available, info.why);
    CHECK(cpim_open(&ctx, "aesni", NULL) == CPIM_ERR_UNAVAILABLE && !ctx, "open aesni");
    CHECK(cpim_open(&ctx, "shani", NULL) == CPIM_ERR_UNAVAILABLE && !ctx, "open shani");
    cpim_x86_set_mask(old);
}

/* ---- shani ------------------------------------------------------------------------------ */

static cpim_ctx *open_shani(unsigned threads)
{
    if (!test_require_backend("shani"))
        return NULL;
    cpim_options opt;
    cpim_options_init(&opt);
    opt.threads = threads;
    cpim_ctx *ctx = NULL;
    cpim_err rc = cpim_open(&ctx, "shani", &opt);
    CHECK(rc == CPIM_OK, "open shani: %s", cpim_strerror(rc));
    return ctx;
}

static void check_batch(cpim_ctx *ctx, const uint8_t *const *msgs, const size_t *lens, size_t count,
                        const char *what)
{
    uint8_t(*dg)[32] = malloc(32 * (count ? count : 1));
    CHECK(dg != NULL, "malloc");
    if (!dg)
        return;
    cpim_err rc = cpim_sha256_batch(ctx, msgs, lens, count, dg);
    CHECK(rc == CPIM_OK, "%s: %s", what, cpim_strerror(rc));
    for (size_t i = 0; i < count; i++) {
        uint8_t ref[32];
        cpim_crypto_sha256(msgs[i], (uint32_t)lens[i], ref);
        if (!CHECK_MEM(dg[i], ref, 32, "digest")) {
            CHECK(0, "%s: message %zu of %zu, length %zu", what, i, count, lens[i]);
            break;
        }
    }
    free(dg);
}

TEST(hw_shani_lengths_0_300)
{
    cpim_ctx *ctx = open_shani(1);
    if (!ctx)
        return;
    uint64_t rs = 0x5a5a;
    enum { N = 301 };
    static uint8_t data[N + 64];
    const uint8_t *msgs[N];
    size_t lens[N];
    test_fill(&rs, data, sizeof data);
    /* All lengths in one batch (the lanes finish at different times), each
     * at a different, mostly unaligned offset... */
    for (size_t i = 0; i < N; i++) {
        msgs[i] = data + i % 61;
        lens[i] = i;
    }
    check_batch(ctx, msgs, lens, N, "lengths 0..300 in one batch");
    /* ...and each alone (the one-lane kernel). */
    for (size_t i = 0; i < N; i++)
        check_batch(ctx, &msgs[i], &lens[i], 1, "one message");
    cpim_close(ctx);
}

TEST(hw_shani_scheduler)
{
    cpim_ctx *ctx = open_shani(1);
    if (!ctx)
        return;
    uint64_t rs = 0x3c3c;
    size_t cap = 300000;
    uint8_t *data = malloc(cap);
    CHECK(data != NULL, "malloc");
    if (!data)
        goto done;
    test_fill(&rs, data, cap);
    const uint8_t *msgs[64];
    size_t lens[64];
    /* 1..9 messages of very different lengths: every drain path (4 -> 3 ->
     * 2 -> 1 lanes), runs that end at different blocks, padding of 1 and 2
     * blocks, and zero-length messages with NULL pointers. */
    static const size_t pick[] = {0, 55, 56, 63, 64, 119, 120, 128, 1000, 65536 + 3, 250000};
    for (size_t count = 1; count <= 9; count++) {
        for (size_t rot = 0; rot < 11; rot++) {
            for (size_t i = 0; i < count; i++) {
                lens[i] = pick[(i * 7 + rot) % 11];
                msgs[i] = lens[i] ? data + (i * 13 + rot) % 41 : NULL;
            }
            check_batch(ctx, msgs, lens, count, "mixed lengths");
        }
    }
    /* Random lengths, many messages. */
    for (size_t i = 0; i < 64; i++) {
        lens[i] = test_rand(&rs) % (i % 5 ? 2000 : 40000);
        msgs[i] = data + test_rand(&rs) % 4096;
    }
    check_batch(ctx, msgs, lens, 64, "random lengths");
done:
    free(data);
    cpim_close(ctx);
}

TEST(hw_shani_threads)
{
    cpim_ctx *ctx = open_shani(3);
    if (!ctx)
        return;
    uint64_t rs = 0x9e37;
    enum { N = 200 };
    size_t cap = 1 << 20;
    uint8_t *data = malloc(cap);
    CHECK(data != NULL, "malloc");
    if (!data)
        goto done;
    test_fill(&rs, data, cap);
    const uint8_t *msgs[N];
    size_t lens[N];
    for (size_t i = 0; i < N; i++) {
        lens[i] = i == 17 ? 700000 : test_rand(&rs) % 9000; /* one big one unbalances */
        msgs[i] = data + (i * 31) % 1000;
    }
    check_batch(ctx, msgs, lens, N, "3 threads");
done:
    free(data);
    cpim_close(ctx);
}
