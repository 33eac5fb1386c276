/*
 * test_gcm.c -- AES-GCM on every backend against an independent
 * reference written here from SP 800-38D (block-by-block AES of src/crypto,
 * inc32, and the bit-by-bit GF(2^128) product): random sizes, AAD and IV
 * lengths (including IVs that are not 96 bits); the pim backend on small
 * machines whose DPU and tasklet counts do not divide the sizes, over
 * several MRAM rounds and in every host mode; a counter whose low 32 bits
 * wrap inside the message (only possible with a non-96-bit IV); tampered
 * tag, AAD, ciphertext and IV refused with no plaintext released; argument
 * checks; and the aesni backend's five GCM tiers.
 *
 * (The GCMVS vectors of tests/vectors/ run through every backend in
 * test_vectors.c; tests/cli.sh compares with OpenSSL's EVP.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/cpu/x86_cpu.h"
#include "aes.h"
#include "common.h"
#include "cryptopim.h"
#include "gcm.h"
#include "test.h"

/* ---- the reference -------------------------------------------------------------- */

static void ref_ghash(const uint8_t h[16], uint8_t y[16], const uint8_t *p, size_t len)
{
    for (size_t off = 0; off < len; off += 16) {
        for (size_t i = 0; i < 16 && off + i < len; i++)
            y[i] ^= p[off + i];
        cpim_crypto_gf128_mul(y, h);
    }
}

static void ref_gcm(const uint8_t *key, size_t kl, const uint8_t *iv, size_t il, const uint8_t *aad,
                    size_t al, const uint8_t *in, uint8_t *out, size_t len, int dec,
                    uint8_t tag[16])
{
    cpim_crypto_aes_ks ks;
    cpim_crypto_aes_expand_enc(&ks, key, (uint32_t)kl);
    uint8_t h[16] = {0}, j0[16] = {0}, y[16] = {0}, lb[16], c[16], k[16];
    cpim_crypto_aes_encrypt(&ks, h, h, 1);
    if (il == 12) {
        memcpy(j0, iv, 12);
        j0[15] = 1;
    } else {
        ref_ghash(h, j0, iv, il);
        memset(lb, 0, 16);
        for (int i = 0; i < 8; i++)
            lb[15 - i] = (uint8_t)(((uint64_t)il * 8) >> (8 * i));
        ref_ghash(h, j0, lb, 16);
    }
    ref_ghash(h, y, aad, al);
    if (dec)
        ref_ghash(h, y, in, len);
    memcpy(c, j0, 16);
    for (size_t off = 0; off < len; off += 16) {
        for (int i = 15; i >= 12 && ++c[i] == 0; i--) /* inc32 */
            ;
        cpim_crypto_aes_encrypt(&ks, c, k, 1);
        for (size_t i = 0; i < 16 && off + i < len; i++)
            out[off + i] = in[off + i] ^ k[i];
    }
    if (!dec)
        ref_ghash(h, y, out, len);
    for (int i = 0; i < 8; i++) {
        lb[7 - i] = (uint8_t)(((uint64_t)al * 8) >> (8 * i));
        lb[15 - i] = (uint8_t)(((uint64_t)len * 8) >> (8 * i));
    }
    ref_ghash(h, y, lb, 16);
    cpim_crypto_aes_encrypt(&ks, j0, tag, 1);
    for (int i = 0; i < 16; i++)
        tag[i] ^= y[i];
}

/* ---- one case on one context ----------------------------------------------------- */

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

static void fill(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)rnd();
}

/* 1 if decrypting under these arguments is refused with nothing released. */
static int refused(cpim_ctx *ctx, const uint8_t *iv, size_t il, const uint8_t *aad, size_t al,
                   const uint8_t *ct, size_t len, const uint8_t tag[16], uint8_t *scratch)
{
    memset(scratch, 0x5a, len + 1);
    cpim_err rc = cpim_aes_gcm_decrypt(ctx, iv, il, aad, al, ct, scratch, len, tag);
    int ok = rc == CPIM_ERR_AUTH;
    for (size_t i = 0; i < len; i++)
        ok &= scratch[i] == 0;
    return ok;
}

/* Encrypts and decrypts one message on ctx and checks it against the
 * reference; with `tamper`, also the four refusals.  0 when all is well. */
static int one_case(cpim_ctx *ctx, const char *what, size_t kl, size_t il, size_t al, size_t len,
                    int tamper)
{
    uint8_t key[32], iv[80], aad[300], t1[16], t2[16];
    uint8_t *pt = malloc(len + 1), *ct = malloc(len + 1), *ref = malloc(len + 1);
    uint8_t *back = malloc(len + 1);
    int bad = 0;
    if (!pt || !ct || !ref || !back) {
        CHECK(0, "malloc");
        bad = 1;
        goto out;
    }
    fill(key, kl), fill(iv, il), fill(aad, al), fill(pt, len);
    ref_gcm(key, kl, iv, il, aad, al, pt, ref, len, 0, t1);
    cpim_err rc = cpim_aes_set_key(ctx, key, kl);
    if (rc == CPIM_OK)
        rc = cpim_aes_gcm_encrypt(ctx, iv, il, aad, al, pt, ct, len, t2);
    if (rc != CPIM_OK || memcmp(ct, ref, len) || memcmp(t1, t2, 16)) {
        CHECK(0, "%s: encrypt (key %zu, iv %zu, aad %zu, len %zu): %s%s%s", what, kl, il, al, len,
              cpim_strerror(rc), rc == CPIM_OK && memcmp(ct, ref, len) ? ", ciphertext" : "",
              rc == CPIM_OK && memcmp(t1, t2, 16) ? ", tag" : "");
        bad = 1;
        goto out;
    }
    /* decrypt in place */
    memcpy(back, ct, len);
    rc = cpim_aes_gcm_decrypt(ctx, iv, il, aad, al, back, back, len, t1);
    if (rc != CPIM_OK || memcmp(back, pt, len)) {
        CHECK(0, "%s: decrypt (len %zu): %s", what, len, cpim_strerror(rc));
        bad = 1;
    }
    if (tamper && !bad) {
        uint8_t t3[16];
        memcpy(t3, t1, 16);
        t3[rnd() % 16] ^= (uint8_t)(1u << (rnd() % 8));
        bad |= !refused(ctx, iv, il, aad, al, ct, len, t3, back);
        /* one change at a time, each undone before the next */
        if (al) {
            size_t at = rnd() % al;
            aad[at] ^= 0x10;
            bad |= !refused(ctx, iv, il, aad, al, ct, len, t1, back);
            aad[at] ^= 0x10;
        } else {
            uint8_t one = 0;
            bad |= !refused(ctx, iv, il, &one, 1, ct, len, t1, back);
        }
        if (len) {
            size_t at = rnd() % len;
            ct[at] ^= 0x01;
            bad |= !refused(ctx, iv, il, aad, al, ct, len, t1, back);
            ct[at] ^= 0x01;
        }
        size_t at = rnd() % il;
        iv[at] ^= 0x80;
        bad |= !refused(ctx, iv, il, aad, al, ct, len, t1, back);
        iv[at] ^= 0x80;
        /* and untouched, it still decrypts */
        bad |= cpim_aes_gcm_decrypt(ctx, iv, il, aad, al, ct, back, len, t1) != CPIM_OK;
        CHECK(!bad, "%s: a tampered message was not refused (len %zu)", what, len);
    }
out:
    free(pt), free(ct), free(ref), free(back);
    return bad;
}

/* Random cases: key sizes, IV lengths 1..64 (mostly 12), AAD 0..299,
 * lengths 0..maxlen. */
static void random_cases(cpim_ctx *ctx, const char *what, int n, size_t maxlen)
{
    static const size_t kls[3] = {16, 24, 32};
    for (int i = 0; i < n; i++) {
        size_t il = rnd() % 3 ? 12 : 1 + rnd() % 64;
        size_t len = i == 0 ? 0 : i == 1 ? 16 : rnd() % (maxlen + 1);
        if (one_case(ctx, what, kls[i % 3], il, rnd() % 300, len, i % 4 == 0))
            return;
    }
}

/* ---- the CPU backends ------------------------------------------------------------- */

static void host_backend(const char *name, int n, size_t maxlen)
{
    if (!test_require_backend(name))
        return;
    cpim_ctx *ctx = NULL;
    cpim_err rc = cpim_open(&ctx, name, NULL);
    CHECK(rc == CPIM_OK, "open %s: %s", name, cpim_strerror(rc));
    if (rc != CPIM_OK)
        return;
    random_cases(ctx, name, n, maxlen);
    /* a large one: the driver's 1 MiB pieces and the backends' threads */
    one_case(ctx, name, 32, 12, 20, (3u << 20) + 5, 1);
    cpim_close(ctx);
}

TEST(gcm_cpu_random)
{
    host_backend("cpu", 60, 5000);
}

TEST(gcm_aesni_random)
{
    host_backend("aesni", 200, 5000);
}

TEST(gcm_auto_random)
{
    host_backend("auto", 20, 5000);
}

TEST(gcm_shani_random) /* the portable GCM, as its AES */
{
    host_backend("shani", 20, 5000);
}

/* aesni's GCM tiers, chosen at open: the one-pass VAES + VPCLMULQDQ
 * kernels on zmm and on ymm (no AVX-512), CTR then GHASH with VPCLMULQDQ
 * (no one-pass kernel), with PCLMULQDQ only, and with neither (its
 * portable GHASH fallback).  On a CPU without some of these the narrower
 * tier runs instead (the dispatch falls back).  Every key size,
 * lengths around the kernels' 16-block chunks and 4-block tails, AAD and
 * IV lengths of every kind. */
TEST(gcm_aesni_ghash_tiers)
{
    if (!test_require_backend("aesni"))
        return;
    static const unsigned drop[5] = {0, CPIM_X86_AVX512 | CPIM_X86_VAES512 | CPIM_X86_VPCLMUL,
                                     CPIM_X86_VAES512 | CPIM_X86_VPCLMUL256,
                                     CPIM_X86_VPCLMUL | CPIM_X86_VPCLMUL256,
                                     CPIM_X86_VPCLMUL | CPIM_X86_VPCLMUL256 | CPIM_X86_PCLMUL};
    static const size_t kls[3] = {16, 24, 32};
    for (int k = 0; k < 5; k++) {
        unsigned old = cpim_x86_set_mask(~drop[k]);
        cpim_ctx *ctx = NULL;
        cpim_err rc = cpim_open(&ctx, "aesni", NULL);
        cpim_x86_set_mask(old);
        CHECK(rc == CPIM_OK, "open: %s", cpim_strerror(rc));
        if (rc != CPIM_OK)
            return;
        char what[32];
        snprintf(what, sizeof what, "aesni tier %d", k);
        int i = 0;
        for (size_t len = 0; len <= 1200; len += 1 + len / 16, i++) {
            size_t il = i % 4 ? 12 : 1 + (size_t)rnd() % 64;
            if (one_case(ctx, what, kls[i % 3], il, (size_t)rnd() % 300, len, i % 8 == 0))
                break;
        }
        cpim_close(ctx);
    }
}

/* Buffers at every offset from a cache line: the zmm kernel moves its
 * first blocks apart so that its loop stores whole lines, and hashes those
 * blocks and the tail with one reduction.  Input and output at offsets
 * 0..63 (in place and apart, the same and different misalignments),
 * lengths around the 16-block chunk plus the one to three blocks moved,
 * every key size, both ways; against the reference. */
TEST(gcm_aesni_offsets)
{
    if (!test_require_backend("aesni"))
        return;
    cpim_ctx *ctx = NULL;
    cpim_err rc = cpim_open(&ctx, "aesni", NULL);
    CHECK(rc == CPIM_OK, "open: %s", cpim_strerror(rc));
    if (rc != CPIM_OK)
        return;
    static const size_t lens[] = {1,   15,  16,  17,  48,  63,  64,  255, 256,
                                  257, 271, 303, 304, 305, 319, 320, 560, 1000};
    static const size_t kls[3] = {16, 24, 32};
    enum { MAXLEN = 1000 };
    uint8_t *ibuf = malloc(MAXLEN + 128), *obuf = malloc(MAXLEN + 128), *ref = malloc(MAXLEN);
    uint8_t *back = malloc(MAXLEN + 128), *pt = malloc(MAXLEN);
    int bad = !ibuf || !obuf || !ref || !back || !pt;
    CHECK(!bad, "malloc");
    uint8_t *const ib = bad ? NULL : ibuf + (-(uintptr_t)ibuf & 63);
    uint8_t *const ob = bad ? NULL : obuf + (-(uintptr_t)obuf & 63);
    for (size_t io = 0; io < 64 && !bad; io += 1 + (io % 16 == 0 ? 7 : 0)) {
        for (int inplace = 0; inplace < 2 && !bad; inplace++) {
            for (size_t li = 0; li < sizeof lens / sizeof lens[0] && !bad; li++) {
                const size_t len = lens[li], kl = kls[(io + li) % 3];
                const size_t oo = inplace ? io : (io + 16 * (li % 4)) % 64;
                uint8_t key[32], iv[12], aad[20], t1[16], t2[16];
                fill(key, kl), fill(iv, 12), fill(aad, sizeof aad), fill(pt, len);
                memcpy(ib + io, pt, len);
                ref_gcm(key, kl, iv, 12, aad, sizeof aad, pt, ref, len, 0, t1);
                uint8_t *in = ib + io, *out = inplace ? in : ob + oo;
                rc = cpim_aes_set_key(ctx, key, kl);
                if (rc == CPIM_OK)
                    rc = cpim_aes_gcm_encrypt(ctx, iv, 12, aad, sizeof aad, in, out, len, t2);
                if (rc != CPIM_OK || memcmp(out, ref, len) || memcmp(t1, t2, 16)) {
                    CHECK(0, "encrypt: in at +%zu, out at +%zu%s, len %zu, key %zu: %s", io,
                          inplace ? io : oo, inplace ? " (in place)" : "", len, kl,
                          rc != CPIM_OK ? cpim_strerror(rc) : "wrong output or tag");
                    bad = 1;
                    break;
                }
                /* and back, from the output's offset to another */
                uint8_t *dst = inplace ? out : back + (io + 16) % 64;
                rc = cpim_aes_gcm_decrypt(ctx, iv, 12, aad, sizeof aad, out, dst, len, t1);
                if (rc != CPIM_OK || memcmp(dst, pt, len)) {
                    CHECK(0, "decrypt: from +%zu to +%zu%s, len %zu, key %zu: %s",
                          inplace ? io : oo, inplace ? io : (io + 16) % 64,
                          inplace ? " (in place)" : "", len, kl,
                          rc != CPIM_OK ? cpim_strerror(rc) : "wrong plaintext");
                    bad = 1;
                }
            }
        }
    }
    free(ibuf), free(obuf), free(ref), free(back), free(pt);
    cpim_close(ctx);
}

/* ---- the pim backend ------------------------------------------------------------------ */

static cpim_ctx *open_pim(unsigned dpus, unsigned tasklets, cpim_pim_mode mode, const char *profile)
{
    cpim_options o;
    cpim_options_init(&o);
    o.dpus = dpus;
    o.tasklets = tasklets;
    o.mode = mode;
    o.profile = profile;
    cpim_ctx *ctx = NULL;
    cpim_err rc = cpim_open(&ctx, "pim", &o);
    CHECK(rc == CPIM_OK, "open pim (%u DPUs, %u tasklets, %s): %s", dpus, tasklets,
          profile ? profile : "-", cpim_strerror(rc));
    return rc == CPIM_OK ? ctx : NULL;
}

/* DPU and tasklet counts that divide nothing evenly, a small MRAM budget
 * (several rounds), every host mode; 24 tasklets (512-byte chunks) and 1. */
TEST(gcm_pim_shapes)
{
    if (!test_require_backend("pim"))
        return;
    static const struct {
        unsigned dpus, tasklets;
        cpim_pim_mode mode;
        const char *profile;
        int n;
        size_t maxlen;
    } cfg[] = {
        {5, 3, CPIM_PIM_SYNC, "nrRanks=2,nrDpusPerRank=3,disabledDpus=1.2", 24, 20000},
        {3, 16, CPIM_PIM_ASYNC_XFER, "nrRanks=2,nrDpusPerRank=2,mramBudget=2048", 12, 30000},
        {4, 7, CPIM_PIM_ASYNC_EXEC, "nrRanks=2,nrDpusPerRank=2,mramBudget=1024", 12, 20000},
        {2, 24, CPIM_PIM_SYNC, "nrRanks=1,nrDpusPerRank=2", 6, 40000},
        {1, 1, CPIM_PIM_SYNC, "nrRanks=1,nrDpusPerRank=1", 4, 3000},
    };
    for (size_t i = 0; i < sizeof cfg / sizeof cfg[0]; i++) {
        cpim_ctx *ctx = open_pim(cfg[i].dpus, cfg[i].tasklets, cfg[i].mode, cfg[i].profile);
        if (!ctx)
            return;
        char what[64];
        snprintf(what, sizeof what, "pim %u DPUs x %u tasklets", cfg[i].dpus, cfg[i].tasklets);
        random_cases(ctx, what, cfg[i].n, cfg[i].maxlen);
        cpim_close(ctx);
    }
}

/* A non-96-bit IV whose counter block's low 32 bits are within `room`
 * blocks of 2^32 for this key (found by trying IVs; J0 is a hash). */
static void find_wrap_iv(const uint8_t key[16], uint8_t iv[16], uint32_t room)
{
    cpim_crypto_aes_ks ks;
    cpim_crypto_aes_expand_enc(&ks, key, 16);
    uint8_t h[16] = {0}, j0[16];
    cpim_crypto_aes_encrypt(&ks, h, h, 1);
    cpim_crypto_ghash_key gk;
    cpim_crypto_ghash_init(&gk, h);
    for (uint32_t n = 0;; n++) {
        memcpy(iv, &n, 4);
        cpim_crypto_gcm_j0(&gk, iv, 16, j0);
        uint32_t low =
            (uint32_t)j0[12] << 24 | (uint32_t)j0[13] << 16 | (uint32_t)j0[14] << 8 | j0[15];
        if (low >= 0u - room && low != 0xffffffffu)
            return;
    }
}

/* GCM's counter wraps its low 32 bits without a carry (inc32): a message
 * across the wrap, through every backend (the cpu/aesni driver splits its
 * CTR calls there; the DPUs keep the low word alone). */
TEST(gcm_counter_wraps_32_bits)
{
    uint8_t key[16], iv[16] = {0}, t1[16], t2[16];
    for (int i = 0; i < 16; i++)
        key[i] = (uint8_t)(0x30 + i);
    find_wrap_iv(key, iv, 1500);
    const size_t len = 3000 * 16 + 7;
    uint8_t *pt = malloc(len), *ref = malloc(len), *ct = malloc(len);
    CHECK(pt && ref && ct, "malloc");
    if (!pt || !ref || !ct)
        goto out;
    fill(pt, len);
    ref_gcm(key, 16, iv, 16, NULL, 0, pt, ref, len, 0, t1);
    static const char *const names[] = {"cpu", "aesni", "pim"};
    for (size_t b = 0; b < 3; b++) {
        cpim_backend_info info;
        if (cpim_backend_info_by_name(names[b], &info) != CPIM_OK || !info.available)
            continue;
        cpim_ctx *ctx = NULL;
        if (b == 2)
            ctx = open_pim(3, 5, CPIM_PIM_SYNC, "nrRanks=1,nrDpusPerRank=3");
        else
            CHECK(cpim_open(&ctx, names[b], NULL) == CPIM_OK, "open %s", names[b]);
        if (!ctx)
            continue;
        cpim_err rc = cpim_aes_set_key(ctx, key, 16);
        if (rc == CPIM_OK)
            rc = cpim_aes_gcm_encrypt(ctx, iv, 16, NULL, 0, pt, ct, len, t2);
        CHECK(rc == CPIM_OK && !memcmp(ct, ref, len) && !memcmp(t1, t2, 16),
              "%s: across the 32-bit counter wrap: %s", names[b], cpim_strerror(rc));
        cpim_close(ctx);
    }
out:
    free(pt), free(ref), free(ct);
}

/* ---- arguments ------------------------------------------------------------------------ */

TEST(gcm_arguments)
{
    cpim_ctx *ctx = NULL;
    CHECK(cpim_open(&ctx, "cpu", NULL) == CPIM_OK, "open");
    if (!ctx)
        return;
    uint8_t iv[12] = {0}, tag[16] = {0}, buf[32] = {0}, key[16] = {0};
    CHECK(cpim_aes_gcm_encrypt(ctx, iv, 12, NULL, 0, buf, buf, 32, tag) == CPIM_ERR_NO_KEY,
          "no key");
    CHECK(cpim_aes_set_key(ctx, key, 16) == CPIM_OK, "set_key");
    CHECK(cpim_aes_gcm_encrypt(ctx, iv, 0, NULL, 0, buf, buf, 32, tag) == CPIM_ERR_INVALID_ARG,
          "empty IV accepted");
    CHECK(cpim_aes_gcm_encrypt(ctx, NULL, 12, NULL, 0, buf, buf, 32, tag) == CPIM_ERR_INVALID_ARG,
          "NULL IV accepted");
    CHECK(cpim_aes_gcm_encrypt(ctx, iv, 12, NULL, 5, buf, buf, 32, tag) == CPIM_ERR_INVALID_ARG,
          "NULL AAD with a length accepted");
    CHECK(cpim_aes_gcm_encrypt(ctx, iv, 12, NULL, 0, buf, buf, 32, NULL) == CPIM_ERR_INVALID_ARG,
          "NULL tag accepted");
    CHECK(cpim_aes_gcm_decrypt(ctx, iv, 12, NULL, 0, buf, buf, 32, NULL) == CPIM_ERR_INVALID_ARG,
          "NULL tag accepted (decrypt)");
    /* SP 800-38D's limit: 2^36 - 32 bytes (never touched: refused first) */
    CHECK(cpim_aes_gcm_encrypt(ctx, iv, 12, NULL, 0, buf, buf, ((size_t)1 << 36) - 31, tag) ==
              CPIM_ERR_INVALID_ARG,
          "a length over 2^36 - 32 accepted");
    CHECK(cpim_aes_gcm_encrypt(ctx, iv, 12, NULL, 0, NULL, NULL, 0, tag) == CPIM_OK,
          "empty message refused");
    CHECK(strcmp(cpim_strerror(CPIM_ERR_AUTH), "authentication failed") == 0, "strerror");
    cpim_close(ctx);
}

/* ---- one message in ranges (cpim_aes_gcm_range / _finish, cryptopim-mpi) ---------------- */

/* The message cut at `cuts` random block boundaries, each range through
 * cpim_aes_gcm_range, the tag from cpim_aes_gcm_finish: bytes and tag equal
 * the reference's; decrypting the ranges checks the tag, and a flipped bit
 * anywhere fails it. */
static void split_case(cpim_ctx *ctx, const char *what, const uint8_t *key, size_t kl,
                       const uint8_t *iv, size_t il, size_t len, size_t al, unsigned cuts)
{
    uint8_t *pt = malloc(len + 1), *ct = malloc(len + 1), *ref = malloc(len + 1);
    uint8_t *aad = malloc(al + 1), gh[8][16], tag[16], rtag[16];
    uint64_t lens[8];
    size_t at[9];
    CHECK(pt && ct && ref && aad && cuts < 8, "malloc");
    if (!pt || !ct || !ref || !aad || cuts >= 8)
        goto out;
    fill(pt, len);
    fill(aad, al);
    ref_gcm(key, kl, iv, il, aad, al, pt, ref, len, 0, rtag);
    /* range boundaries: sorted random block multiples, the last at len */
    at[0] = 0;
    for (unsigned i = 1; i <= cuts; i++) {
        size_t b = len / 16 ? (size_t)rand() % (len / 16 + 1) * 16 : 0;
        at[i] = b < at[i - 1] ? at[i - 1] : b;
    }
    at[cuts + 1] = len;
    unsigned n = cuts + 1;
    cpim_err rc = CPIM_OK;
    for (unsigned i = 0; i < n && rc == CPIM_OK; i++) {
        lens[i] = at[i + 1] - at[i];
        rc = cpim_aes_gcm_range(ctx, CPIM_ENCRYPT, iv, il, at[i] / 16, pt + at[i], ct + at[i],
                                (size_t)lens[i], gh[i]);
    }
    if (rc == CPIM_OK)
        rc = cpim_aes_gcm_finish(ctx, CPIM_ENCRYPT, iv, il, aad, al, (const uint8_t(*)[16])gh, lens,
                                 n, tag);
    CHECK(rc == CPIM_OK && !memcmp(ct, ref, len) && !memcmp(tag, rtag, 16),
          "%s: %zu bytes in %u ranges (IV %zu bytes): %s", what, len, n, il, cpim_strerror(rc));
    /* decrypt in place, range by range */
    for (unsigned i = 0; i < n && rc == CPIM_OK; i++)
        rc = cpim_aes_gcm_range(ctx, CPIM_DECRYPT, iv, il, at[i] / 16, ct + at[i], ct + at[i],
                                (size_t)lens[i], gh[i]);
    if (rc == CPIM_OK)
        rc = cpim_aes_gcm_finish(ctx, CPIM_DECRYPT, iv, il, aad, al, (const uint8_t(*)[16])gh, lens,
                                 n, tag);
    CHECK(rc == CPIM_OK && !memcmp(ct, pt, len), "%s: decrypting %u ranges: %s", what, n,
          cpim_strerror(rc));
    tag[(size_t)rand() % 16] ^= 1;
    CHECK(cpim_aes_gcm_finish(ctx, CPIM_DECRYPT, iv, il, aad, al, (const uint8_t(*)[16])gh, lens, n,
                              tag) == CPIM_ERR_AUTH,
          "%s: a wrong tag accepted", what);
out:
    free(pt), free(ct), free(ref), free(aad);
}

TEST(gcm_split_ranges)
{
    static const char *const names[] = {"cpu", "aesni", "pim"};
    for (size_t b = 0; b < 3; b++) {
        cpim_backend_info info;
        if (cpim_backend_info_by_name(names[b], &info) != CPIM_OK || !info.available)
            continue;
        cpim_ctx *ctx = NULL;
        if (b == 2)
            ctx = open_pim(3, 5, CPIM_PIM_SYNC, "nrRanks=1,nrDpusPerRank=3");
        else
            CHECK(cpim_open(&ctx, names[b], NULL) == CPIM_OK, "open %s", names[b]);
        if (!ctx)
            continue;
        for (int i = 0; i < (b == 2 ? 2 : 30); i++) {
            uint8_t key[32], iv[40];
            size_t kl = 16 + 8 * (size_t)(rand() % 3), il = i % 3 ? 12 : 1 + (size_t)rand() % 40;
            fill(key, kl);
            fill(iv, il);
            CHECK(cpim_aes_set_key(ctx, key, kl) == CPIM_OK, "set_key");
            split_case(ctx, names[b], key, kl, iv, il, (size_t)rand() % 5000, (size_t)rand() % 70,
                       (unsigned)(rand() % 5));
        }
        /* AAD over several of the backend GHASH's scratch pieces (4 KiB),
         * ending in a partial block, with a long IV */
        if (b < 2) {
            uint8_t key[32], iv[40];
            fill(key, 32);
            fill(iv, sizeof iv);
            CHECK(cpim_aes_set_key(ctx, key, 32) == CPIM_OK, "set_key");
            split_case(ctx, names[b], key, 32, iv, sizeof iv, 3000, 2 * 4096 + 37, 2);
        }
        /* ranges across the 32-bit counter wrap (a non-96-bit IV) */
        uint8_t key[16], iv[16] = {0};
        for (int i = 0; i < 16; i++)
            key[i] = (uint8_t)(0x30 + i);
        find_wrap_iv(key, iv, 700);
        CHECK(cpim_aes_set_key(ctx, key, 16) == CPIM_OK, "set_key");
        split_case(ctx, names[b], key, 16, iv, 16, 1500 * 16 + 5, 3, 3);
        cpim_close(ctx);
    }
    cpim_ctx *ctx = NULL;
    CHECK(cpim_open(&ctx, "cpu", NULL) == CPIM_OK, "open");
    if (!ctx)
        return;
    uint8_t iv[12] = {0}, g[2][16] = {{0}}, tag[16], key[16] = {0}, buf[32] = {0};
    uint64_t lens[2] = {17, 16}; /* a range before the last not a multiple of 16 */
    CHECK(cpim_aes_set_key(ctx, key, 16) == CPIM_OK, "set_key");
    CHECK(cpim_aes_gcm_finish(ctx, CPIM_ENCRYPT, iv, 12, NULL, 0, (const uint8_t(*)[16])g, lens, 2,
                              tag) == CPIM_ERR_INVALID_ARG,
          "a ragged inner range accepted");
    CHECK(cpim_aes_gcm_range(ctx, CPIM_ENCRYPT, iv, 12, (uint64_t)1 << 32, buf, buf, 32, tag) ==
              CPIM_ERR_INVALID_ARG,
          "a range past SP 800-38D's limit accepted");
    CHECK(cpim_aes_gcm_range(ctx, CPIM_ENCRYPT, iv, 0, 0, buf, buf, 32, tag) ==
              CPIM_ERR_INVALID_ARG,
          "an empty IV accepted");
    cpim_close(ctx);
}
