/*
 * test_xts.c -- AES-XTS (cpim_xts_set_key / cpim_aes_xts) beyond the vector
 * files (test_vectors.c): argument checks, weak keys, and random data units
 * through every backend, compared with OpenSSL's EVP XTS applied per data
 * unit (the reference dm-crypt and the CLI are held to) and decrypted back;
 * on the pim backend also sizes that do not divide evenly over DPUs and
 * tasklets, units split over the kernel's chunks, and several rounds; the
 * aesni backend's XTS tiers, each forced in turn, with every unit length of
 * 16..600 bytes.
 * Without OpenSSL headers at build time the reference is the cpu backend
 * (itself held to the NIST vectors), so the backends are still compared
 * with each other.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/cpu/x86_cpu.h"
#include "common.h"
#include "cryptopim.h"
#include "test.h"

#ifdef HAVE_OPENSSL
#include <openssl/evp.h>
#endif

/* The reference: OpenSSL per unit when built with it, else the cpu
 * backend.  Returns 0 on success. */
static int reference(const uint8_t *key, size_t klen, cpim_dir dir, uint64_t first, size_t usz,
                     const uint8_t *in, uint8_t *out, size_t len)
{
#ifdef HAVE_OPENSSL
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    const EVP_CIPHER *ci = klen == 32 ? EVP_aes_128_xts() : EVP_aes_256_xts();
    int ok = c != NULL;
    for (size_t off = 0, i = 0; ok && off < len; off += usz, i++) {
        uint8_t iv[16] = {0};
        uint64_t u = first + i;
        for (int b = 0; b < 8; b++)
            iv[b] = (uint8_t)(u >> (8 * b));
        size_t n = len - off < usz ? len - off : usz;
        int outl = 0;
        ok = EVP_CipherInit_ex(c, ci, NULL, key, iv, dir == CPIM_ENCRYPT) == 1 &&
             EVP_CipherUpdate(c, out + off, &outl, in + off, (int)n) == 1 && (size_t)outl == n;
    }
    EVP_CIPHER_CTX_free(c);
    return ok ? 0 : -1;
#else
    cpim_ctx *c = NULL;
    int ok = cpim_open(&c, "cpu", NULL) == CPIM_OK && cpim_xts_set_key(c, key, klen) == CPIM_OK &&
             cpim_aes_xts(c, dir, first, usz, in, out, len) == CPIM_OK;
    cpim_close(c);
    return ok ? 0 : -1;
#endif
}

static void random_key(uint64_t *rs, uint8_t *key, size_t klen)
{
    do
        test_fill(rs, key, klen);
    while (memcmp(key, key + klen / 2, klen / 2) == 0);
}

/* One case on ctx: encrypt (out of place and in place) and decrypt, each
 * compared with the reference. */
static void one_case(cpim_ctx *ctx, const char *be, uint64_t *rs, size_t klen, size_t usz,
                     size_t len, uint64_t first)
{
    uint8_t key[64];
    random_key(rs, key, klen);
    uint8_t *pt = malloc(len), *ct = malloc(len), *want = malloc(len), *got = malloc(len);
    CHECK(pt && ct && want && got, "malloc");
    if (pt && ct && want && got) {
        test_fill(rs, pt, len);
        cpim_err rc = cpim_xts_set_key(ctx, key, klen);
        CHECK(rc == CPIM_OK, "%s: set key: %s", be, cpim_strerror(rc));
        CHECK(reference(key, klen, CPIM_ENCRYPT, first, usz, pt, want, len) == 0, "reference");
        rc = cpim_aes_xts(ctx, CPIM_ENCRYPT, first, usz, pt, ct, len);
        CHECK(rc == CPIM_OK && memcmp(ct, want, len) == 0,
              "%s: encrypt %zu bytes, unit %zu, key %zu, first unit %llu: %s", be, len, usz, klen,
              (unsigned long long)first,
              rc == CPIM_OK ? "differs from OpenSSL" : cpim_strerror(rc));
        memcpy(got, pt, len);
        rc = cpim_aes_xts(ctx, CPIM_ENCRYPT, first, usz, got, got, len);
        CHECK(rc == CPIM_OK && memcmp(got, want, len) == 0, "%s: in-place encrypt of %zu bytes", be,
              len);
        rc = cpim_aes_xts(ctx, CPIM_DECRYPT, first, usz, ct, got, len);
        CHECK(rc == CPIM_OK && memcmp(got, pt, len) == 0,
              "%s: decrypt %zu bytes, unit %zu, key %zu: %s", be, len, usz, klen,
              rc == CPIM_OK ? "not the plaintext" : cpim_strerror(rc));
    }
    free(pt), free(ct), free(want), free(got);
}

/* A length of `units` units of usz bytes whose last unit has `last` bytes
 * (16 <= last <= usz). */
static size_t units_len(size_t units, size_t usz, size_t last)
{
    return (units - 1) * usz + last;
}

TEST(xts_random_all_backends)
{
    static const size_t usizes[] = {16, 17, 31, 100, 512, 520, 4096, 4113};
    for (size_t bi = 0; bi < cpim_backend_count(); bi++) {
        cpim_backend_info info;
        if (cpim_backend_info_at(bi, &info) != CPIM_OK || !info.available)
            continue;
        cpim_options o;
        cpim_options_init(&o);
        o.dpus = 16; /* pim: a small machine, units spread unevenly over it */
        cpim_ctx *ctx = NULL;
        cpim_err rc = cpim_open(&ctx, info.name, &o);
        CHECK(rc == CPIM_OK, "open %s: %s", info.name, cpim_strerror(rc));
        if (rc != CPIM_OK)
            continue;
        uint64_t rs = 0x7854535f31353031ull + bi;
        for (int i = 0; i < 12; i++) {
            size_t usz = i < 8 ? usizes[i] : 16 + test_rand(&rs) % 3000;
            size_t units = 1 + test_rand(&rs) % 40;
            size_t last = 16 + test_rand(&rs) % (usz - 15);
            uint64_t first = i % 3 == 2 ? UINT64_MAX - units / 2 : test_rand(&rs);
            one_case(ctx, info.name, &rs, i % 2 ? 64 : 32, usz, units_len(units, usz, last), first);
        }
        cpim_close(ctx);
    }
}

/* The aesni backend on tier t (0: everything this CPU has; 1: no
 * VPCLMULQDQ; 2: no AVX-512 either; 3: AES-NI alone), its name in be
 * (32 bytes); NULL (a failed check) when it does not open. */
static cpim_ctx *open_aesni_tier(int t, char be[32])
{
    static const unsigned drop[4] = {
        0, CPIM_X86_VPCLMUL, CPIM_X86_AVX512 | CPIM_X86_VAES512 | CPIM_X86_VPCLMUL,
        CPIM_X86_VAES | CPIM_X86_AVX512 | CPIM_X86_VAES512 | CPIM_X86_VPCLMUL};
    unsigned old = cpim_x86_set_mask(~drop[t]);
    cpim_ctx *ctx = NULL;
    cpim_err rc = cpim_open(&ctx, "aesni", NULL);
    cpim_x86_set_mask(old);
    CHECK(rc == CPIM_OK, "open aesni tier %d: %s", t, cpim_strerror(rc));
    snprintf(be, 32, "aesni tier %d", t);
    return rc == CPIM_OK ? ctx : NULL;
}

/* The aesni backend's XTS tiers, chosen at open (cpim_x86_set_mask): the
 * VAES-512 kernel (tweaks in registers, VPCLMULQDQ), and the batch path
 * around the VAES-512 (no VPCLMULQDQ), VAES-256 and AES-NI ECB kernels.  A
 * tier this CPU lacks runs the next one down (the dispatch falls back). */
TEST(xts_aesni_tiers)
{
    if (!test_require_backend("aesni"))
        return;
    static const size_t usizes[] = {16, 31, 256, 512, 4096, 4100};
    for (int t = 0; t < 4; t++) {
        char be[32];
        cpim_ctx *ctx = open_aesni_tier(t, be);
        if (!ctx)
            return;
        uint64_t rs = 0x5449455253585453ull + (uint64_t)t;
        for (int i = 0; i < 12; i++) {
            size_t usz = usizes[i % 6], units = 1 + test_rand(&rs) % 20;
            size_t last = 16 + test_rand(&rs) % (usz - 15);
            one_case(ctx, be, &rs, i % 2 ? 64 : 32, usz, units_len(units, usz, last),
                     test_rand(&rs));
        }
        cpim_close(ctx);
    }
}

/* Every unit length of 16..600 bytes (0..37 whole blocks and every
 * stealing tail) on each aesni tier: as a lone unit (what the provider
 * gives, one unit per update: the VAES-512 kernel then encrypts the tweak
 * itself) and as 17 units (16 with their tweaks encrypted together, then a
 * lone one). */
TEST(xts_aesni_every_length)
{
    if (!test_require_backend("aesni"))
        return;
    for (int t = 0; t < 4; t++) {
        char be[32];
        cpim_ctx *ctx = open_aesni_tier(t, be);
        if (!ctx)
            return;
        uint64_t rs = 0x4c454e4754485854ull + (uint64_t)t;
        for (size_t len = 16; len <= 600; len++) {
            one_case(ctx, be, &rs, len % 2 ? 64 : 32, len, len, test_rand(&rs));
            one_case(ctx, be, &rs, len % 2 ? 32 : 64, len, 17 * len, test_rand(&rs));
        }
        cpim_close(ctx);
    }
}

/* The pim kernel's partitioning: fewer units than DPUs, remainders over
 * DPUs and tasklets, units larger than a chunk (56 blocks at <= 16
 * tasklets, 24 above: half the buffer less 8 scratch blocks), a stealing
 * unit whose last two blocks would straddle a chunk, 24 tasklets, several
 * rounds (mramBudget), and the asynchronous host modes over 2 ranks. */
TEST(xts_pim_partitioning)
{
    if (!test_require_backend("pim"))
        return;
    static const struct {
        unsigned tasklets, ranks;
        cpim_pim_mode mode;
        const char *profile;
        size_t usz, units, last;
    } cases[] = {
        {16, 1, CPIM_PIM_SYNC, NULL, 512, 5, 512},          /* fewer units than DPUs */
        {16, 1, CPIM_PIM_SYNC, NULL, 512, 64 * 3 + 7, 300}, /* remainders; short last unit */
        {11, 1, CPIM_PIM_SYNC, NULL, 4096, 70, 4096},       /* units over several chunks */
        /* 113 blocks: m-1 and the short block kept together at a chunk edge */
        {16, 1, CPIM_PIM_SYNC, NULL, 112 * 16 + 1, 9, 1793},
        {16, 1, CPIM_PIM_SYNC, NULL, 56 * 16 + 3, 9, 56 * 16 + 3},       /* 57 blocks, 56 a chunk */
        {24, 1, CPIM_PIM_SYNC, NULL, 24 * 16 + 5, 67, 40},               /* 25 blocks, 24 a chunk */
        {3, 1, CPIM_PIM_SYNC, NULL, 25, 200, 25},                        /* many stealing units */
        {16, 1, CPIM_PIM_SYNC, "mramBudget=4096", 512, 64 * 9 + 3, 512}, /* several rounds */
        {16, 2, CPIM_PIM_ASYNC_XFER, NULL, 512, 128 * 2 + 9, 512},
        {16, 2, CPIM_PIM_ASYNC_EXEC, "mramBudget=4096", 4096, 128 * 3 + 1, 4096},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cpim_options o;
        cpim_options_init(&o);
        o.tasklets = cases[i].tasklets;
        o.ranks = cases[i].ranks;
        o.mode = cases[i].mode;
        o.profile = cases[i].profile;
        cpim_ctx *ctx = NULL;
        cpim_err rc = cpim_open(&ctx, "pim", &o);
        CHECK(rc == CPIM_OK, "open pim: %s", cpim_strerror(rc));
        if (rc != CPIM_OK)
            continue;
        uint64_t rs = 0x706172746974ull + i;
        size_t len = units_len(cases[i].units, cases[i].usz, cases[i].last);
        one_case(ctx, "pim", &rs, i % 2 ? 32 : 64, cases[i].usz, len, 0xfffffffeull + i);
        cpim_close(ctx);
    }
}

/* A timing-only run: timed, output zeroed, CPIM_ERR_TIMING_ONLY. */
TEST(xts_pim_timing_only)
{
    if (!test_require_backend("pim"))
        return;
    cpim_options o;
    cpim_options_init(&o);
    o.timing_only = 1;
    cpim_ctx *ctx = NULL;
    cpim_err rc = cpim_open(&ctx, "pim", &o);
    CHECK(rc == CPIM_OK, "open: %s", cpim_strerror(rc));
    if (rc != CPIM_OK)
        return;
    uint8_t key[32], buf[4096];
    for (int i = 0; i < 32; i++)
        key[i] = (uint8_t)(i + 1);
    memset(buf, 0x5a, sizeof buf);
    CHECK(cpim_xts_set_key(ctx, key, 32) == CPIM_OK, "key");
    rc = cpim_aes_xts(ctx, CPIM_ENCRYPT, 0, 512, buf, buf, sizeof buf);
    cpim_stats st;
    CHECK(rc == CPIM_ERR_TIMING_ONLY, "timing-only XTS: %s", cpim_strerror(rc));
    CHECK(cpim_last_stats(ctx, &st) == CPIM_OK && st.has_modeled && st.modeled.kernel_s > 0,
          "no modeled kernel time");
    uint8_t zero[4096] = {0};
    CHECK(memcmp(buf, zero, sizeof buf) == 0, "timing-only output not zeroed");
    cpim_close(ctx);
}

TEST(xts_arguments)
{
    cpim_ctx *ctx = NULL;
    CHECK(cpim_open(&ctx, "cpu", NULL) == CPIM_OK, "open");
    if (!ctx)
        return;
    uint8_t key[64], buf[64] = {0}, out[64];
    for (int i = 0; i < 64; i++)
        key[i] = (uint8_t)(i * 7 + 1);
    CHECK(cpim_aes_xts(ctx, CPIM_ENCRYPT, 0, 16, buf, out, 32) == CPIM_ERR_NO_KEY, "no key");
    CHECK(cpim_aes_set_key(ctx, key, 16) == CPIM_OK, "aes key");
    CHECK(cpim_aes_xts(ctx, CPIM_ENCRYPT, 0, 16, buf, out, 32) == CPIM_ERR_NO_KEY,
          "the AES key is not the XTS key");
    CHECK(cpim_xts_set_key(ctx, key, 16) == CPIM_ERR_KEY_LENGTH, "16-byte XTS key");
    CHECK(cpim_xts_set_key(ctx, key, 48) == CPIM_ERR_KEY_LENGTH, "48-byte XTS key (AES-192)");
    CHECK(cpim_xts_set_key(ctx, NULL, 32) == CPIM_ERR_INVALID_ARG, "NULL key");
    CHECK(cpim_xts_set_key(ctx, key, 32) == CPIM_OK, "32-byte key");
    CHECK(cpim_aes_xts(ctx, CPIM_ENCRYPT, 0, 15, buf, out, 30) == CPIM_ERR_INVALID_ARG,
          "unit of 15 bytes");
    CHECK(cpim_aes_xts(ctx, CPIM_ENCRYPT, 0, ((size_t)1 << 24) + 1, buf, out, 32) ==
              CPIM_ERR_INVALID_ARG,
          "unit over 16 MiB");
    CHECK(cpim_aes_xts(ctx, (cpim_dir)2, 0, 16, buf, out, 32) == CPIM_ERR_INVALID_ARG, "bad dir");
    CHECK(cpim_aes_xts(ctx, CPIM_ENCRYPT, 0, 16, NULL, out, 32) == CPIM_ERR_INVALID_ARG, "NULL in");
    memset(out, 0xee, sizeof out);
    CHECK(cpim_aes_xts(ctx, CPIM_ENCRYPT, 0, 512, buf, out, 15) == CPIM_ERR_LENGTH, "15 bytes");
    CHECK(cpim_aes_xts(ctx, CPIM_ENCRYPT, 0, 32, buf, out, 32 + 15) == CPIM_ERR_LENGTH,
          "a last unit of 15 bytes");
    CHECK(out[0] == 0xee && out[46] == 0xee, "a refused call wrote output");
    CHECK(cpim_aes_xts(ctx, CPIM_ENCRYPT, 0, 32, buf, out, 32 + 16) == CPIM_OK,
          "a last unit of 16 bytes");
    CHECK(cpim_aes_xts(ctx, CPIM_ENCRYPT, 0, 32, NULL, NULL, 0) == CPIM_OK, "len 0");
    cpim_close(ctx);
}

/* Equal halves are refused on every backend, for both key sizes, and the
 * slot keeps the key it had. */
TEST(xts_weak_key_refused)
{
    for (size_t bi = 0; bi < cpim_backend_count(); bi++) {
        cpim_backend_info info;
        if (cpim_backend_info_at(bi, &info) != CPIM_OK || !info.available)
            continue;
        cpim_options o;
        cpim_options_init(&o);
        o.dpus = 2;
        cpim_ctx *ctx = NULL;
        if (cpim_open(&ctx, info.name, &o) != CPIM_OK) {
            CHECK(0, "open %s", info.name);
            continue;
        }
        uint8_t good[32], weak[64], weak32[32], pt[48] = {1, 2, 3}, a[48], b[48];
        for (int i = 0; i < 32; i++)
            good[i] = (uint8_t)(3 * i + 5), weak[i] = weak[i + 32] = (uint8_t)(i ^ 0x5a);
        for (int i = 0; i < 16; i++)
            weak32[i] = weak32[i + 16] = (uint8_t)(i * 11);
        CHECK(cpim_xts_set_key(ctx, good, 32) == CPIM_OK, "%s: key", info.name);
        CHECK(cpim_aes_xts(ctx, CPIM_ENCRYPT, 9, 48, pt, a, 48) == CPIM_OK, "%s: xts", info.name);
        CHECK(cpim_xts_set_key(ctx, weak, 64) == CPIM_ERR_XTS_WEAK_KEY, "%s: 64-byte weak key",
              info.name);
        CHECK(cpim_xts_set_key(ctx, weak32, 32) == CPIM_ERR_XTS_WEAK_KEY, "%s: 32-byte weak key",
              info.name);
        CHECK(cpim_aes_xts(ctx, CPIM_ENCRYPT, 9, 48, pt, b, 48) == CPIM_OK && !memcmp(a, b, 48),
              "%s: the refused key changed the slot", info.name);
        cpim_close(ctx);
    }
}
